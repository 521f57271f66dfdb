#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CPU_CYCLES overflow sampling on AArch64 without -icount, the way a user runs it
# (bmprof qemu -e ...): on the cycle counter (cycles) and on an event counter (r11, the
# raw CPU_CYCLES number). Each run samples on the PMU (the overflow-interrupt probe finds
# both counters interrupting however long a busy host makes QEMU take to signal the first
# overflow), with the event active on the counter kind asked for at its encoding and
# period, accounts for every sample, ends with main's 0, and has samples in each of
# shares.c's work_a, work_b and work_c.
#
# Without -icount QEMU's cycle counter counts host time, so how the samples split between
# the functions follows whatever else the host does: that accuracy is measured by make
# bench (bench/a64_cycles.sh, against --icount in the same run), not asserted here.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$A64/shares.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"

for spec in cycles:period=100000 r11:period=100000; do
	name=${spec%%:*}
	"$BMPROF" qemu --timeout 600 -e "$spec" -o "$T/$name.data" "$A64/shares.elf" \
		>"$T/$name.out" 2>"$T/$name.err" || { cat "$T/$name.err"; fail "$spec: bmprof qemu failed"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$spec: report failed"
	check_accounting "$T/$name.json"
	python3 - "$name" "$T/$name.json" <<'PY' || fail "$spec"
import json, sys
name, path = sys.argv[1:]
r = json.load(open(path))
m = r["meta"]
assert m["arch"] == "aarch64" and m["source"] == "pmu", (m["arch"], m["source"])
ev = [e for e in m["events"] if e["name"] == name]
assert len(ev) == 1, m["events"]
e = ev[0]
kind = "fixed" if name == "cycles" else "gp"
assert e["status"] == "active" and e["reason"] == "none" and e["counter_kind"] == kind, e
assert e["encoding"] == "0x11" and e["period"] == 100000, e
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0, m["end"]
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
work = {f: rows.get(f, 0) for f in ("work_a", "work_b", "work_c")}
print(f"{name} ({m.get('accel')}): {work}")
assert all(v > 0 for v in work.values()), f"a work function has no samples: {work}"
PY
done
echo "aarch64 cycles without icount ok"
