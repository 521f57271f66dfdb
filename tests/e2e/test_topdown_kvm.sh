#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof topdown with a real PMU (KVM's vPMU, x86-64 -cpu host): a pointer chase over
# 64 MiB must come out Backend Bound / Memory Bound, a chain of dependent divisions Backend
# Bound / Core Bound. Needs hardware-assisted KVM with a host PMU driver; where there is none
# (a software KVM, a host kernel without a PMU driver, no /dev/kvm) it skips and says why.
. "$(dirname "$0")/lib.sh"
need_qemu
[ -e /dev/kvm ] || skip "no /dev/kvm: no KVM, so no vPMU to count Top-Down events"
[ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ] ||
	skip "KVM here is not hardware-assisted (no kvm_intel or kvm_amd module): no vPMU"
[ -e /sys/bus/event_source/devices/cpu/type ] || [ -e /sys/bus/event_source/devices/cpu_core/type ] ||
	skip "the host kernel has no CPU PMU driver: KVM's guests get no vPMU"
for p in topdown_mem topdown_core; do
	[ -f "$IMAGES/$p.elf" ] || skip "no $IMAGES/$p.elf: run make test-images"
done

run() {   # run NAME: the tree as JSON in $T/NAME.json
	"$BMPROF" topdown --accel kvm --level 2 --json -o "$T/$1.json" "$IMAGES/$1.elf" \
		>"$T/$1.out" 2>"$T/$1.err"
	local rc=$?
	if grep -q "no Top-Down formulas for this CPU" "$T/$1.err"; then
		skip "$(cat "$T/$1.err")"
	fi
	[ "$rc" -eq 0 ] || { cat "$T/$1.err"; fail "topdown $1: exit $rc"; }
}
run topdown_mem
run topdown_core
python3 - "$T/topdown_mem.json" "$T/topdown_core.json" <<'PY'
import json, sys

def tree(path):
    r = json.load(open(path))
    nodes = {}
    def walk(ns):
        for n in ns:
            nodes[n["name"]] = n
            walk(n["children"])
    walk(r["tree"])
    return r, nodes

r, mem = tree(sys.argv[1])
if all(n["state"] == "missing" for n in mem.values()):
    print("skipped: the guest's PMU counted none of the Top-Down events (no vPMU?)")
    sys.exit(77)
for name, want in (("Backend_Bound", "Memory_Bound"),):
    assert mem[name]["flagged"], ("memory workload", mem[name])
    assert mem[want]["flagged"], ("memory workload", mem[want])
r, core = tree(sys.argv[2])
assert core["Backend_Bound"]["flagged"], ("core workload", core["Backend_Bound"])
if core["Core_Bound"]["state"] == "missing":
    print("skipped: Core_Bound cannot be counted on this PMU:", core["Core_Bound"]["why"])
    sys.exit(77)
assert core["Core_Bound"]["flagged"], ("core workload", core["Core_Bound"])
assert core["Core_Bound"]["value"] > core["Memory_Bound"]["value"], core
print("memory workload: Backend/Memory; core workload: Backend/Core")
PY
rc=$?
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "the trees do not come out as expected"
echo "ok"
