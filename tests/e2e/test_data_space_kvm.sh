#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Data-space profiling timed by a real CPU: examples/cachemiss.c with main in ring 3 under
# KVM (`bmprof qemu --accel kvm --user --data-space`; on kvm_pvm, this machine's /dev/kvm,
# ring 3 runs natively). Its loop loads two members of struct rec equally often: `next`
# in a pointer chase over 1 GiB (every load misses the caches) and `key` of 16 records
# that stay in L1. Timed natively, the raw samples in the loop must fall on `next` by a
# wide margin: at least 90% of them, and ten times `key`'s (ratios, not times). The raw
# samples' accounting is exact. Skipped (77), with the reason, where KVM cannot run the
# image. The image is built with small tables and one CPU's worth of runtime memory, as
# ring 0 (which zeroes it) is emulated under kvm_pvm and slow.
. "$(dirname "$0")/lib.sh"
need_qemu
[ "$(uname -m)" = x86_64 ] || skip "this host is $(uname -m): KVM cannot run the x86-64 example"
[ -e /dev/kvm ] || skip "no /dev/kvm: KVM is not available here"
[ -r /dev/kvm ] && [ -w /dev/kvm ] || skip "/dev/kvm is not accessible to $(id -un)"

cd "$ROOT"
out=$BUILD/x86_64-cachemiss
make --no-print-directory -s -j2 image SRC=examples/cachemiss.c NAME=cachemiss BUILD="$BUILD" \
	IMAGE_CFLAGS=-O2 X86_OUT="$out" X86_DEFS="-DBMPROF_X86_MAX_CPUS=2 \
	-DBMPROF_X86_TABLE_ENTRIES=1024 -DBMPROF_X86_OVF_ENTRIES=256 -DBMPROF_X86_STACK_ENTRIES=16 \
	-DBMPROF_X86_STACK_FRAMES=64 -DBMPROF_X86_RAW_ENTRIES=4096" >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image examples/cachemiss.c failed"; }
img=$ROOT/$out/cachemiss.elf

# 4 M steps; 1.5 GiB of guest memory for the 1 GiB of records
"$BMPROF" qemu --accel kvm --user --data-space --freq 250 --timeout 600 --param steps=4 \
	-o "$T/k.data" "$img" -- -m 1536M >"$T/k.out" 2>"$T/k.err"
rc=$?
if [ $rc = 125 ] && ! [ -s "$T/k.data" ]; then
	skip "bmprof qemu --accel kvm cannot run here: $(tail -n 1 "$T/k.err")"
fi
[ $rc = 0 ] || { tail -20 "$T/k.err"; fail "the KVM run exited $rc"; }
grep -q "^cachemiss: 4000000 steps over 1024 MiB" "$T/k.out" || { cat "$T/k.out"; fail "the example did not finish its walk"; }
"$BMPROF" report -i "$T/k.data" --format json >"$T/k.json" || fail "report failed"
"$BMPROF" report -i "$T/k.data" --sort type,member --format json >"$T/k.member.json" ||
	fail "report --sort type,member failed"
"$BMPROF" report -i "$T/k.data" --sort type,member >"$T/k.member.txt" || fail "report --sort type,member (text)"
chase=$(nm -S "$img" | awk '$4 == "chase" { print "0x" $1, "0x" $2 }')
[ -n "$chase" ] || fail "no symbol chase in $img"

python3 - "$T/k.json" "$T/k.member.json" $chase <<'PY' || { head -20 "$T/k.member.txt"; fail "the missing member is not on top"; }
import json, sys
r, v = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
lo = int(sys.argv[3], 16)
hi = lo + int(sys.argv[4], 16)
m = r["meta"]
assert m["accel"] == "kvm" and m["host"].get("user_mode") == "1", (m["accel"], m["host"])
for c in m["cpus"]:
    lost = c["raw_lost_full"] + c["raw_lost_transport"]
    assert c["raw_taken"] == c["raw_delivered"] + lost and c["raw_received"] == c["raw_delivered"], c
rows = {}
for p in v["pcs"]:
    if lo <= int(p["pc"], 16) < hi:
        rows[p["name"]] = rows.get(p["name"], 0) + p["samples"]
total = sum(rows.values())
nxt, key = rows.get("{struct rec}.+0 next", 0), rows.get("{struct rec}.+8 key", 0)
print("KVM ring 3, raw samples in chase: %d; next %d (%.1f%%), key %d (%.1f%%), other %s" %
      (total, nxt, 100.0 * nxt / max(total, 1), key, 100.0 * key / max(total, 1),
       {k: n for k, n in rows.items() if "struct rec" not in k}))
assert total >= 40, "too few raw samples in chase: %d" % total
assert nxt >= 0.9 * total, "next has %d of %d" % (nxt, total)
assert nxt >= 10 * max(key, 1), "next %d, key %d" % (nxt, key)
PY
echo "data space under kvm ok"
