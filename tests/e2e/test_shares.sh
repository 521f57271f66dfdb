#!/usr/bin/env bash
# work_a, work_b and work_c run the same loop body 50:30:20 times. Under -icount guest time
# follows instructions, so the timer samples must split 50/30/20 within a few points.
. "$(dirname "$0")/lib.sh"
need_qemu
"$BMPROF" qemu --icount --freq 20000 -o "$T/p.data" "$IMAGES/shares.elf" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "bmprof qemu exited $?"; }
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report failed"
check_accounting "$T/r.json"
python3 - "$T/r.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
rows = {x["symbol"]: x for x in r["rows"]}
want = {"work_a": 50.0, "work_b": 30.0, "work_c": 20.0}
for f in want:
    assert f in rows, f"{f} missing from the report: {sorted(rows)}"
    assert rows[f]["file"].endswith("shares.c"), rows[f]
tot = sum(rows[f]["samples"] for f in want)
allsamples = r["meta"]["samples"]["reported"]
assert tot >= 0.9 * allsamples, f"the three functions hold only {tot} of {allsamples} samples"
assert tot >= 1000, f"too few samples ({tot}) for a share test"
for f, w in want.items():
    got = 100.0 * rows[f]["samples"] / tot
    print(f"{f}: {got:.1f}% (want {w}%)")
    assert abs(got - w) <= 3.0, f"{f}: {got:.1f}% is not within 3 points of {w}%"
assert r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 0
assert r["meta"]["source"] == "timer"
PY
