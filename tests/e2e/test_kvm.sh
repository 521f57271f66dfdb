#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# x86-64 images under hardware-assisted KVM. Runs only where bmprof itself would pick KVM:
# `bmprof qemu --accel auto` decides (host/run/qemu.c, qemu_choose_accel: an x86_64 host,
# /dev/kvm usable, kvm_intel or kvm_amd loaded, not the kvm_pvm software virtualizer), and
# elsewhere the test is skipped with the reason and bmprof's own words for it.
#   (a) shares.elf with --event cycles:period=1000000: when the host gives the guest a vPMU
#       (CPUID leaf 0xA non-zero; the target says so in the cycles EVENT frame: reason
#       NO_PMU when it has none, and that part is skipped), the samples are real counter
#       overflows: HELLO source pmu, cycles active on the PMU, work_a > work_b > work_c
#       with work_a on top, every sample accounted for;
#   (b) the SMP stress (16-entry tables, 8-entry overflow buffers, 20 kHz) on 4 vCPUs:
#       every CPU reports TOTALS and taken = delivered + lost on every CPU.
. "$(dirname "$0")/lib.sh"
need_qemu
[ -f "$IMAGES/exitcode.elf" ] || skip "no test images in $IMAGES: run make test-images"

# bmprof's decision for an x86-64 image on this machine, from its "accel" line.
"$BMPROF" qemu --accel auto --timeout 600 -o "$T/probe.data" "$IMAGES/exitcode.elf" \
	>"$T/probe.out" 2>"$T/probe.err"
accel=$(sed -n 's/^bmprof: accel //p' "$T/probe.err")
[ -n "$accel" ] || { cat "$T/probe.err"; fail "bmprof qemu printed no accel line"; }
case $accel in
kvm\ *) echo "bmprof --accel auto chooses $accel" ;;
*)
	if [ "$(uname -m)" != x86_64 ]; then
		why="this host is $(uname -m): KVM cannot run the x86-64 images"
	elif [ ! -e /dev/kvm ]; then
		why="no /dev/kvm: KVM is not available here"
	elif [ -e /sys/module/kvm_pvm ]; then
		why="KVM here is kvm_pvm (software): guest ring-0 code is emulated, not run with VT-x/AMD-V"
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		why="/dev/kvm is not accessible to $(id -un)"
	elif [ ! -e /sys/module/kvm_intel ] && [ ! -e /sys/module/kvm_amd ]; then
		why="KVM here is neither kvm_intel nor kvm_amd"
	else
		why="KVM is not hardware-assisted here"
	fi
	skip "$why; bmprof qemu --accel auto chooses $accel"
	;;
esac

# (a) cycles on the vPMU.
"$BMPROF" qemu --accel kvm --timeout 600 -e cycles:period=1000000 -o "$T/cyc.data" \
	"$IMAGES/shares.elf" >"$T/cyc.out" 2>"$T/cyc.err" || { cat "$T/cyc.err"; fail "shares.elf under KVM failed"; }
"$BMPROF" report -i "$T/cyc.data" --format json >"$T/cyc.json" || fail "report of the KVM run failed"
pyassert "$T/cyc.json" 'r["meta"]["accel"] == "kvm" and r["meta"]["end"]["exit_code"] == 0'
check_accounting "$T/cyc.json"
rc=0
python3 - "$T/cyc.json" <<'PY' || rc=$?
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
ev = [e for e in m["events"] if e["name"] == "cycles"]
assert len(ev) == 1, f"no single EVENT frame for cycles: {m['events']}"
e = ev[0]
if e["reason"] == "no_pmu":
    assert e["status"] in ("fallback", "unavailable") and m["source"] == "timer", (e, m["source"])
    print(f"no vPMU: the guest's CPUID leaf 0xA is 0 (cycles: {e['status']}, no_pmu); "
          "the counter-sample check is skipped")
    sys.exit(3)
assert m["source"] == "pmu", f"HELLO source {m['source']}, want pmu (cycles: {e})"
assert e["source"] == "pmu" and e["status"] == "active" and e["reason"] == "none", e
assert e["counter_kind"] in ("fixed", "gp") and e["period"] == 1000000, e
assert m["fell_back_to_timer"] is False
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
a, b, c = (rows.get(f, 0) for f in ("work_a", "work_b", "work_c"))
print(f"cycles on the vPMU ({m['cpu']['vendor']} family {m['cpu']['family']} model "
      f"{m['cpu']['model']:#x}): work_a {a}, work_b {b}, work_c {c}, {e['counter_kind']} counter")
assert r["rows"][0]["symbol"] == "work_a", f"top row {r['rows'][0]['symbol']}, want work_a"
assert a > b > c > 0, (a, b, c)
assert a + b + c >= 200, f"only {a + b + c} samples in the three work functions"
PY
case $rc in
0 | 3) ;;
*) fail "cycles samples under KVM" ;;
esac

# (b) the SMP stress on 4 vCPUs.
cd "$ROOT"
make_smp_tiny
"$BMPROF" qemu --accel kvm --timeout 600 --cpu-wait 600000 --freq 20000 --param own_samples=4 \
	-o "$T/smp.data" "$tiny/smp_tiny.elf" -- -smp 4 \
	>"$T/smp.out" 2>"$T/smp.err" || { tail -20 "$T/smp.err"; fail "SMP stress under KVM failed"; }
"$BMPROF" report -i "$T/smp.data" --format json >"$T/smp.json" || fail "report of the SMP run failed"
pyassert "$T/smp.json" 'r["meta"]["accel"] == "kvm" and r["meta"]["ncpus"] == 4'
pyassert "$T/smp.json" 'sorted(c["cpu"] for c in r["meta"]["cpus"]) == [0, 1, 2, 3] and all(c["have_totals"] for c in r["meta"]["cpus"])'
check_accounting "$T/smp.json"
echo "kvm ok"
