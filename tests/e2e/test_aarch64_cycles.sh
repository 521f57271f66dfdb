#!/usr/bin/env bash
# CPU_CYCLES overflow sampling on AArch64 without -icount, the way a user runs it
# (bmprof qemu -e ...): on the cycle counter (cycles) and on an event counter (r11, the
# raw CPU_CYCLES number). Every run samples on the PMU with the event active on the
# counter kind asked for, and accounts for every sample.
#
# Without -icount QEMU's cycle counter counts host time, so each function's share is its
# share of the host time the run took, which moves with whatever else the host does:
# single runs of shares.c gave work_a 40-60% under load. The shares are therefore checked
# over three runs of each event together (about 9000 samples): work_a on top, work_a >
# work_b > work_c, each within 10 points of 50/30/20 (on a quiet host they stay within 6).
# When they miss that on a host that is busy with other work (a load average above its
# CPU count), the test is skipped saying so, since the shares then measure the load.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$A64/shares.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"

RUNS=3
for spec in cycles:period=100000 r11:period=100000; do
	name=${spec%%:*}
	for i in $(seq 1 $RUNS); do
		"$BMPROF" qemu --timeout 120 -e "$spec" -o "$T/$name$i.data" "$A64/shares.elf" \
			>"$T/$name$i.out" 2>"$T/$name$i.err" || { cat "$T/$name$i.err"; fail "$spec: bmprof qemu failed"; }
		"$BMPROF" report -i "$T/$name$i.data" --format json >"$T/$name$i.json" || fail "$spec: report failed"
		check_accounting "$T/$name$i.json"
	done
	rc=0
	python3 - "$name" "$T/$name"[0-9]*.json <<'PY' || rc=$?
import json, sys
name, total, every = sys.argv[1], {"work_a": 0, "work_b": 0, "work_c": 0}, {}
for path in sys.argv[2:]:
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
    for f, v in rows.items():
        every[f] = every.get(f, 0) + v
    run = {f: rows.get(f, 0) for f in total}
    n = sum(run.values())
    assert n >= 500, f"{path}: too few samples ({n})"
    print(f"{name} run ({m.get('accel')}): " + ", ".join(f"{f} {100 * v / n:.1f}%" for f, v in run.items()))
    for f in total:
        total[f] += run[f]
a, b, c = total.values()
n = a + b + c
got = {f: 100.0 * v / n for f, v in total.items()}
print(f"{name}, {len(sys.argv) - 2} runs, {n} samples: "
      + ", ".join(f"{f} {g:.1f}% (want {w}%)" for (f, g), w in zip(got.items(), (50, 30, 20))))
bad = [f"{f}: {g:.1f}% is not within 10 points of {w}%"
       for (f, g), w in zip(got.items(), (50, 30, 20)) if abs(g - w) > 10]
top = max(every, key=every.get)
if top != "work_a":
    bad.append(f"{top} is on top, not work_a")
if not a > b > c:
    bad.append(f"not work_a > work_b > work_c: {total}")
if bad:
    print("; ".join(bad))
    sys.exit(3)
PY
	case $rc in
	0) ;;
	3)
		load=$(cut -d' ' -f1 /proc/loadavg)
		if python3 -c 'import os, sys; sys.exit(float(sys.argv[1]) <= os.cpu_count())' "$load"; then
			skip "$name shares off with the host busy (load average $load on $(nproc) CPUs): without -icount the cycle counter counts host time"
		fi
		fail "$spec: shares"
		;;
	*) fail "$spec" ;;
	esac
done
echo "aarch64 cycles without icount ok"
