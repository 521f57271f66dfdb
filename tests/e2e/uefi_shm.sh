# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the UEFI e2e tests: check_uefi_shm SERIAL.json SHM.json SHM.err asserts that a
# shares run through --transport shm used the rings (the summary's transport line, records
# > 0, nothing dropped), that its accounting holds, and that its work_a/b/c shares equal
# the serial run's within 1 point (both deterministic under -icount).
check_uefi_shm() {
	local serial=$1 shm=$2 err=$3 recs
	grep -q "stream from QEMU shared memory" "$err" || { cat "$err"; fail "shm: not the shared-memory stream"; }
	recs=$(sed -n 's/^  transport *shared-memory rings: \([0-9]*\) records.*/\1/p' "$err")
	[ -n "$recs" ] && [ "$recs" -gt 0 ] || { cat "$err"; fail "shm: no transport line with records > 0"; }
	check_accounting "$shm"
	python3 - "$serial" "$shm" <<'PY' || fail "shm: shares differ from the serial run's"
import json, sys
want = ("work_a", "work_b", "work_c")
def shares(path):
    r = json.load(open(path))
    rows = {x["symbol"]: x["samples"] for x in r["rows"]}
    tot = sum(rows.get(f, 0) for f in want)
    assert tot >= 1000, f"{path}: too few samples ({tot})"
    return r, {f: 100.0 * rows.get(f, 0) / tot for f in want}
_, ser = shares(sys.argv[1])
r, shm = shares(sys.argv[2])
h = r["meta"]["host"]
assert h["transport"] == "shm" and int(h["shm_records"]) > 0, h
assert h["shm_dropped_frames"] == "0" and h["shm_lost_frames"] == "0", h
assert r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 0, r["meta"]["end"]
for f in want:
    print(f"shm: {f}: {shm[f]:.1f}% (serial {ser[f]:.1f}%)")
    assert abs(shm[f] - ser[f]) <= 1.0, f
PY
}
