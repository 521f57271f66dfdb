#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof bhive under KVM sizes its written frames by the host's L1D: QEMU is given the
# host's cache descriptors (-cpu host,host-cache-info=on), so the harness keeps the L1D's
# ways less 3 written pages apart (at most 8), read here from the host's own sysfs. A block
# storing to exactly that many pages is measured (not `aliasing`) with that many written;
# one more page is `aliasing`. Skipped (77), with the reason, where KVM cannot run the
# harness.
. "$(dirname "$0")/lib.sh"
need_qemu
[ "$(uname -m)" = x86_64 ] || skip "this host is $(uname -m): KVM cannot run the x86-64 harness"
[ -e /dev/kvm ] || skip "no /dev/kvm: KVM is not available here"
[ -r /dev/kvm ] && [ -w /dev/kvm ] || skip "/dev/kvm is not accessible to $(id -un)"

ways=
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ "$(cat "$d/level" 2>/dev/null)" = 1 ] && [ "$(cat "$d/type" 2>/dev/null)" = Data ] &&
		ways=$(cat "$d/ways_of_associativity")
done
[ -n "$ways" ] || skip "the host's sysfs does not describe its L1D"
frames=$((ways > 4 ? ways - 3 : 1))
[ $frames -gt 8 ] && frames=8

# mov %rax,(%rbx), then mov %rax,N*0x1000(%rbx) for N = 1 .. n-1: n written pages
stores() {
	python3 -c "import sys; n = int(sys.argv[1]); print('488903' + ''.join(
	    '488983' + (i * 0x1000).to_bytes(4, 'little').hex() for i in range(1, n)))" "$1"
}
{ stores $frames; stores $((frames + 1)); } >"$T/blocks.csv"
"$BMPROF" bhive --accel kvm -o "$T/out.csv" "$T/blocks.csv" 2>"$T/err"
rc=$?
if [ $rc != 0 ] && grep -qi "kvm" "$T/err" && ! [ -s "$T/out.csv" ]; then
	skip "bmprof bhive --accel kvm cannot run here: $(tail -n 1 "$T/err")"
fi
[ $rc = 0 ] || { cat "$T/err"; fail "bhive --accel kvm exited $rc"; }
python3 - "$T/out.csv" "$frames" "$ways" <<'PY' || fail "written frames against the host's L1D"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
frames, ways = int(sys.argv[2]), int(sys.argv[3])
assert len(rows) == 2, rows
fit, over = rows
d = dict(kv.split("=", 1) for kv in fit["detail"].split(";"))
assert fit["status"] in ("ok", "unstable"), "%d written pages on a %d-way L1D: %s (%s)" % (
    frames, ways, fit["status"], fit["detail"])
assert int(d["written"]) == frames and d["accel"] == "kvm", fit["detail"]
assert over["status"] == "aliasing", "%d written pages: %s" % (frames + 1, over["status"])
print("L1D %d-way: %d written pages %s, %d aliasing" % (ways, frames, fit["status"], frames + 1))
PY
echo "ok"
