#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# --icount: two runs of an image give the same profile, frame for frame (only the date,
# the output path and the temporary config file's name differ); the profile's cycles per
# sample is the program's instructions per sample, exactly enough that times the samples
# it comes within 0.1% of the instructions icount_work is known to run (202 a turn), or
# within one timebase tick per sample where a tick is coarser than that (AArch64's generic
# timer at 62.5 MHz ticks every 16 instructions: 0.17% of a 100 kHz period); and QEMU's
# own -icount given after -- is what the profile records.
. "$(dirname "$0")/lib.sh"
need_qemu
ITERS=400000

# cycles per sample x samples against 202 instructions a turn (and main's few dozen)
check_period() {   # REPORT.json WHAT
	python3 - "$1" "$2" "$ITERS" <<'PY' || exit 1
import json, sys
r, what, iters = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
ev = [e for e in r["meta"]["events"] if e["name"] == "timer"][0]
cps, taken = ev.get("cycles_per_sample"), sum(c["taken"] for c in r["meta"]["cpus"])
assert cps and cps > 0, f"{what}: cycles per sample unknown: {ev}"
truth = 202 * iters
err = cps * taken / truth - 1
tick = 1e9 / r["meta"]["timebase_hz"]   # instructions per timebase tick (1 ns each)
limit = max(0.001, tick / cps)
print(f"{what}: {taken} samples x {cps:.1f} = {cps * taken:.0f} instructions, "
      f"truth {truth} (+ main's few dozen): {100 * err:+.4f}% (limit {100 * limit:.3f}%)")
assert abs(err) < limit, f"{what}: off by {100 * err:.3f}%"
PY
}

for arch in x86_64 aarch64; do
	if [ $arch = x86_64 ]; then img=$IMAGES/icount_work.elf; else
		img=$ROOT/$BUILD/test-images-aarch64/icount_work.elf
		command -v qemu-system-aarch64 >/dev/null || { echo "no qemu-system-aarch64"; continue; }
	fi
	for i in 1 2; do
		"$BMPROF" qemu --icount --freq 100000 --param iters=$ITERS -o "$T/$arch-$i.data" \
			"$img" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "$arch run $i exited $?"; }
	done
	python3 - "$T/$arch-1.data" "$T/$arch-2.data" <<'PY' || fail "$arch: two --icount runs differ"
import sys
from frames import run_content
a, b = (run_content(open(f, "rb").read()) for f in sys.argv[1:3])
assert len(a) == len(b), f"{len(a)} frames against {len(b)}"
for i, (x, y) in enumerate(zip(a, b)):
    assert x == y, f"frame {i} (type {x[0]:#x}) differs:\n  {x[1][:200]!r}\n  {y[1][:200]!r}"
print(f"the two runs agree on all {len(a)} frames")
PY
	"$BMPROF" report -i "$T/$arch-1.data" --format json >"$T/r.json" || fail "report failed"
	check_accounting "$T/r.json"
	check_period "$T/r.json" "$arch --icount"
	"$BMPROF" report -i "$T/$arch-1.data" >"$T/report.txt" 2>&1 || fail "report failed"
	grep -q "icount shift=0,sleep=off" "$T/report.txt" || { cat "$T/report.txt"; fail "$arch: the header does not name the icount setting"; }
done

# QEMU's own -icount: recorded as given
"$BMPROF" qemu --freq 100000 --param iters=$ITERS -o "$T/pass.data" "$IMAGES/icount_work.elf" \
	-- -icount shift=0,sleep=off >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "run with -- -icount exited $?"; }
"$BMPROF" report -i "$T/pass.data" --format json >"$T/r.json" || fail "report failed"
pyassert "$T/r.json" 'r["meta"]["run"]["icount"] == "shift=0,sleep=off"'
check_period "$T/r.json" "-- -icount"

# both: one is enough, and the message says so
"$BMPROF" qemu --icount "$IMAGES/icount_work.elf" -- -icount shift=0 >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || { cat "$T/err"; fail "--icount with -- -icount exited $rc, not 2"; }
grep -q "both given" "$T/err" || { cat "$T/err"; fail "no message for --icount twice"; }
echo "ok"
