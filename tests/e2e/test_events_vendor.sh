#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Vendor event names end to end: the Arm models' table is what its generator makes of the
# TSVs; a mistyped name is refused with one line naming the closest names, QEMU not
# started; an AArch64 image sampled on armv8_pmuv3::CPU_CYCLES (Arm's common event 0x11, on
# an event counter) records that event under its short name, and report selects it by
# either name; with libpfm4, an x86-64 run asking for skl::MEM_LOAD_RETIRED.L1_MISS tells
# the target Intel's encoding (the event falls back to the timer: no x86 PMU under TCG).
. "$(dirname "$0")/lib.sh"
A64=$ROOT/$BUILD/test-images-aarch64

(cd "$ROOT" && python3 tools/gen_arm_events.py --check) ||
	fail "analysis/events_models_table.c is not what tools/gen_arm_events.py makes of analysis/events/arm_*.tsv"

# One line, exit 2, the closest names, and no profile.
bad() {
	local spec=$1 want=$2
	"$BMPROF" qemu -e "$spec" -o "$T/bad.data" /nonexistent.elf >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "--event '$spec': exit $rc, want 2"
	[ "$(wc -l <"$T/bad.err")" -eq 1 ] || { cat "$T/bad.err"; fail "--event '$spec': not one line"; }
	grep -qF "$want" "$T/bad.err" || { cat "$T/bad.err"; fail "--event '$spec': no '$want'"; }
	[ ! -e "$T/bad.data" ] || fail "a profile was written for --event '$spec'"
}
bad armv8_pmuv3::L1D_CACHE_REFIL "did you mean armv8_pmuv3::L1D_CACHE_REFILL"
bad nosuchpmu::CPU_CYCLES "not one of bmprof's Arm models (armv8, armv9, "
if "$BMPROF" qemu -e skl::MEM_LOAD_RETIRED.L1_MISS x.elf 2>&1 | grep -q "install libpfm4-dev"; then
	libpfm=0
	bad skl::MEM_LOAD_RETIRED.L1_MISS "need libpfm4, which this bmprof was built without: install libpfm4-dev"
else
	libpfm=1
	bad skl::MEM_LOAD_RETIRD.L1_MISS "did you mean skl::MEM_LOAD_RETIRED.L1_MISS"
fi

command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
[ -f "$A64/shares.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"
spec=armv8_pmuv3::CPU_CYCLES:period=100000
"$BMPROF" qemu --timeout 600 -e "$spec" -o "$T/a64.data" "$A64/shares.elf" \
	>"$T/a64.out" 2>"$T/a64.err" || { cat "$T/a64.err"; fail "$spec: bmprof qemu failed"; }
"$BMPROF" report -i "$T/a64.data" --format json >"$T/a64.json" || fail "report failed"
check_accounting "$T/a64.json"
python3 - "$T/a64.json" <<'PY' || fail "$spec"
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
assert m["arch"] == "aarch64" and m["source"] == "pmu", (m["arch"], m["source"])
assert m["host"]["events"] == "armv8_pmuv3::CPU_CYCLES:period=100000", m["host"]["events"]
assert "event=1:arm.11:100000:CPU_CYCLES" in m["host"]["config"], m["host"]["config"]
ev = [e for e in m["events"] if e["name"] == "CPU_CYCLES"]
assert len(ev) == 1, m["events"]
e = ev[0]
assert e["status"] == "active" and e["reason"] == "none" and e["counter_kind"] == "gp", e
assert e["encoding"] == "0x11" and e["period"] == 100000, e
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0, m["end"]
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
work = {f: rows.get(f, 0) for f in ("work_a", "work_b", "work_c")}
print(f"CPU_CYCLES: {work}")
assert all(v > 0 for v in work.values()), f"a work function has no samples: {work}"
PY
for name in armv8_pmuv3::CPU_CYCLES CPU_CYCLES; do
	"$BMPROF" report -i "$T/a64.data" --event "$name" >"$T/sel.txt" 2>&1 ||
		{ cat "$T/sel.txt"; fail "report --event $name"; }
	grep -q "^# [0-9]* samples of event CPU_CYCLES" "$T/sel.txt" ||
		{ cat "$T/sel.txt"; fail "report --event $name did not pick CPU_CYCLES"; }
done

if [ "$libpfm" = 1 ]; then
	need_qemu
	"$BMPROF" qemu --icount --accel tcg -e skl::MEM_LOAD_RETIRED.L1_MISS -o "$T/x86.data" \
		"$IMAGES/shares.elf" >"$T/x86.out" 2>"$T/x86.err" || { cat "$T/x86.err"; fail "x86 run failed"; }
	"$BMPROF" report -i "$T/x86.data" --format json >"$T/x86.json" || fail "x86 json report"
	# skylake_core.json (Intel perfmon V59): MEM_LOAD_RETIRED.L1_MISS is event 0xD1, umask 0x08
	pyassert "$T/x86.json" '"event=1:intel.8d1:100000:MEM_LOAD_RETIRED.L1_MISS" in r["meta"]["host"]["config"]'
	# QEMU's x86-64 CPU has no PMU (and qemu64 says AuthenticAMD): the timer samples instead
	pyassert "$T/x86.json" '[(e["name"], e["status"]) for e in r["meta"]["events"] if e["id"]] == [("MEM_LOAD_RETIRED.L1_MISS", "fallback")]'
	pyassert "$T/x86.json" '[e["reason"] for e in r["meta"]["events"] if e["id"]][0] in ("bad_encoding", "no_pmu")'
fi
echo "vendor events ok"
