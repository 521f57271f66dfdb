#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CPU_CYCLES overflow sampling on AArch64 without -icount, as a user runs it: how closely
# the samples split shares.c's work (work_a, work_b, work_c: 50, 30 and 20% of its
# instructions). Without -icount QEMU's cycle counter counts host time, so the split moves
# with whatever else the host does (the load average is printed). Baseline, in the same
# run: the same image sampled on the cycle counter under --icount, where it counts
# instructions (an event counter does not interrupt there).
# RUNS runs per event (cycles: the cycle counter; r11: CPU_CYCLES on an event counter);
# each function's share over all of them, its spread, and its ratio to the baseline's.
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
IMG=${IMG:-build/test-images-aarch64/shares.elf}
RUNS=${RUNS:-3}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

shares() {   # NAME BMPROF-ARGS...: prints "a b c" (samples of work_a, work_b, work_c)
	# of a run that sampled on the PMU
	local name=$1
	shift
	"$BMPROF" qemu -o "$T/$name.data" "$@" "$IMG" >/dev/null 2>"$T/$name.err" ||
		{ cat "$T/$name.err" >&2; return 1; }
	"$BMPROF" report -i "$T/$name.data" --format json |
		python3 -c 'import json, sys
r = json.load(sys.stdin)
assert r["meta"]["source"] == "pmu", r["meta"]["source"]
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
print(*(rows.get(f, 0) for f in ("work_a", "work_b", "work_c")))'
}

echo "AArch64 CPU_CYCLES sampling without -icount: shares of shares.c's 50:30:20 work"
echo "  (load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $RUNS runs per event)"
shares base --icount -e cycles:period=100000 >"$T/base"
for spec in cycles:period=100000 r11:period=100000; do
	name=${spec%%:*}
	: >"$T/runs"
	for i in $(seq 1 "$RUNS"); do shares "$name$i" -e "$spec" >>"$T/runs"; done
	python3 - "$name" "$T/base" "$T/runs" <<'PY'
import sys
name, base, runs = sys.argv[1], sys.argv[2], sys.argv[3]
fs = ("work_a", "work_b", "work_c")
pct = lambda v: [100.0 * x / sum(v) for x in v]
b = pct([int(x) for x in open(base).read().split()])
rs = [pct([int(x) for x in l.split()]) for l in open(runs) if l.strip()]
tot = pct([sum(int(l.split()[k]) for l in open(runs) if l.strip()) for k in range(3)])
print(f"  {name:7} {'function':8} {'--icount':>9} {'plain':>7} {'min':>7} {'max':>7} {'ratio':>7}")
for k, f in enumerate(fs):
    lo, hi = min(r[k] for r in rs), max(r[k] for r in rs)
    print(f"  {'':7} {f:8} {b[k]:8.1f}% {tot[k]:6.1f}% {lo:6.1f}% {hi:6.1f}% {tot[k] / b[k]:7.3f}")
PY
done
