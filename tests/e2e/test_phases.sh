#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Phases (bm_phase): tests/e2e/progs/phases.c runs 10:20:40:30 units of the same loop body
# before its first phase and in "boot", "test_a" and "test_b"; work_a runs 40 in test_a
# and 10 in test_b (called by run_b). Under -icount, on x86-64 (ring 0 with call stacks,
# and ring 3: the PHASE frame goes out through ring 0) and AArch64:
#   the report's per-phase lines and JSON split the samples 10:20:40:30 within 1.5 points,
#   work_a's row splits 40:10 over test_a and test_b, each phase's functions are its own;
#   --phase test_b keeps 30% of the run, work_b:work_a 2:1, and its call stacks: main and
#   run_b above both (--children); --phase by number and "(start)"; an unknown phase is a
#   one-line error naming the phases; a profile without phases refuses --phase.
. "$(dirname "$0")/lib.sh"
need_qemu

check() {   # LABEL PROFILE
	local label=$1 data=$2
	"$BMPROF" report -i "$data" --format json >"$T/all.json" || fail "$label: report"
	check_accounting "$T/all.json"
	"$BMPROF" report -i "$data" >"$T/all.txt" || fail "$label: text report"
	grep -q '^# phase     test_a: ' "$T/all.txt" || { cat "$T/all.txt"; fail "$label: no phase line"; }
	head -n 40 "$T/all.txt" | grep -Eq '^ +samples +percent +\(start\) +boot +test_a +test_b ' ||
		{ cat "$T/all.txt"; fail "$label: no per-phase columns"; }
	"$BMPROF" report -i "$data" --phase test_b --format json >"$T/b.json" || fail "$label: --phase test_b"
	"$BMPROF" report -i "$data" --phase 2 --format json >"$T/a.json" || fail "$label: --phase 2"
	"$BMPROF" report -i "$data" --phase '(start)' --format json >"$T/s.json" || fail "$label: --phase (start)"
	python3 - "$T" "$label" <<'PY' || exit 1
import json, sys
d, label = sys.argv[1], sys.argv[2]
r = json.load(open(d + "/all.json"))
want = {"(start)": 10, "boot": 20, "test_a": 40, "test_b": 30}
ph = {p["name"]: p["samples"] for p in r["phases"]}
tot = sum(ph.values())
assert tot > 1500, (label, tot)
for name, pct in want.items():
    got = 100.0 * ph.get(name, 0) / tot
    assert abs(got - pct) <= 1.5, f"{label}: phase {name} {got:.2f}% (want {pct})"
rows = {x["symbol"]: x for x in r["rows"]}
split = {p["name"]: p["samples"] for p in rows["work_a"]["per_phase"]}
assert set(split) == {"test_a", "test_b"}, (label, split)
assert abs(split["test_a"] / (split["test_a"] + split["test_b"]) - 0.8) <= 0.02, (label, split)
for f, phase in (("work_s", "(start)"), ("work_boot", "boot"), ("work_b", "test_b")):
    s = {p["name"] for p in rows[f]["per_phase"]}
    assert s == {phase}, f"{label}: {f} in {s}"
def shares(path):
    q = json.load(open(path))
    t = sum(x["samples"] for x in q["rows"])
    return q, t, {x["symbol"]: 100.0 * x["samples"] / t for x in q["rows"]}
b, bt, bs = shares(d + "/b.json")
assert b["phase"] == "test_b"
assert abs(100.0 * bt / tot - 30) <= 1.5, (label, bt, tot)
assert abs(bs["work_b"] - 66.67) <= 2 and abs(bs["work_a"] - 33.33) <= 2, (label, bs)
assert "work_boot" not in bs and "work_s" not in bs, (label, bs)
a, at, as_ = shares(d + "/a.json")
assert as_.get("work_a", 0) > 97, (label, as_)
s, st, ss = shares(d + "/s.json")
assert ss.get("work_s", 0) > 95, (label, ss)
PY
}

# x86-64, ring 0, with call stacks
"$BMPROF" qemu --icount --freq 20000 -g -o "$T/x.data" "$IMAGES/phases.elf" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "bmprof qemu exited $?"; }
check x86_64 "$T/x.data"
"$BMPROF" report -i "$T/x.data" --phase test_b --children >"$T/ch.txt" || fail "--phase --children"
python3 - "$T/ch.txt" <<'PY' || exit 1
import re, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)$", line)
    if m:
        rows[m.group(3)] = (float(m.group(1)), float(m.group(2)))
assert rows["main"][0] > 99 and rows["run_b"][0] > 99, rows
assert abs(rows["work_b"][0] - 66.67) <= 2 and abs(rows["work_a"][0] - 33.33) <= 2, rows
assert "work_boot" not in rows, rows
PY

# an unknown phase names the phases; a profile without phases refuses --phase
"$BMPROF" report -i "$T/x.data" --phase nosuch >/dev/null 2>"$T/e1" && fail "--phase nosuch succeeded"
[ "$(wc -l <"$T/e1")" = 1 ] && grep -q "no phase 'nosuch'; its phases: (start), boot, test_a, test_b" "$T/e1" ||
	{ cat "$T/e1"; fail "unknown phase message"; }
"$BMPROF" qemu --icount --freq 2000 -o "$T/n.data" "$IMAGES/shares.elf" >/dev/null 2>&1 || fail "shares run"
"$BMPROF" report -i "$T/n.data" --phase boot >/dev/null 2>"$T/e2" && fail "--phase without phases succeeded"
grep -q "the profile has no phases" "$T/e2" || { cat "$T/e2"; fail "no-phases message"; }
grep -Eq "^# phase|\(start\)" <("$BMPROF" report -i "$T/n.data") && fail "a profile without phases shows phase columns"

# x86-64, main in ring 3
"$BMPROF" qemu --icount --freq 20000 --user -o "$T/u.data" "$IMAGES/phases.elf" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "bmprof qemu --user exited $?"; }
check x86_64-user "$T/u.data"

# AArch64
A64=$ROOT/$BUILD/test-images-aarch64
if command -v qemu-system-aarch64 >/dev/null && [ -f "$A64/phases.elf" ]; then
	"$BMPROF" qemu --icount --freq 20000 -o "$T/a64.data" "$A64/phases.elf" >"$T/out" 2>"$T/err" ||
		{ cat "$T/err"; fail "bmprof qemu (aarch64) exited $?"; }
	check aarch64 "$T/a64.data"
else
	echo "aarch64 part skipped: no qemu-system-aarch64 or no $A64/phases.elf"
fi
echo "phases ok"
