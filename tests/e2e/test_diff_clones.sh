#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof diff across a clone renaming, under QEMU: the demo built as usual (GCC clones
# count_primes, checksum and sort_ints into NAME.constprop.0) and with -fno-ipa-cp (no
# clones), each profiled with bmprof qemu --icount, on x86-64 and AArch64. The diff
# matches each clone with its function (rows "NAME [clones]", state both), shows no
# function as new or gone, and the --fail-above gate passes.
. "$(dirname "$0")/lib.sh"
need_qemu
DEMO_WORK="-DPRIME_LIMIT=900000 -DCHECKSUM_ROUNDS=12 -DSORT_ROUNDS=3 -DMATMUL_ROUNDS=6"
KERNELS="count_primes checksum sort_ints"

arches=(x86_64)
if command -v qemu-system-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null; then
	arches+=(aarch64)
else
	echo "note: no AArch64 QEMU or cross compiler: AArch64 left out"
fi

for arch in "${arches[@]}"; do
	out=$BUILD/$arch
	for v in clones noclones; do
		flags=$DEMO_WORK
		[ $v = noclones ] && flags="$flags -fno-ipa-cp"
		(cd "$ROOT" && make --no-print-directory -s image SRC=examples/demo.c ARCH=$arch \
			NAME=demo-$v BUILD="$BUILD" IMAGE_CFLAGS="$flags") >"$T/make" 2>&1 ||
			{ cat "$T/make"; fail "make image ($arch, $v)"; }
		nm "$ROOT/$out/demo-$v.elf" | awk '{print $3}' >"$T/$arch-$v.syms"
	done
	# the two builds differ in the clones' names, or the test proves nothing
	for k in $KERNELS; do
		grep -qx "$k.constprop.0" "$T/$arch-clones.syms" || fail "$arch: no $k.constprop.0 in the default build"
		grep -qx "$k" "$T/$arch-noclones.syms" || fail "$arch: no $k in the -fno-ipa-cp build"
		grep -qx "$k.constprop.0" "$T/$arch-noclones.syms" && fail "$arch: $k cloned under -fno-ipa-cp"
	done
	"$BMPROF" qemu --icount --freq 10000 -o "$T/$arch-clones.data" \
		"$ROOT/$out/demo-clones.elf" >/dev/null 2>"$T/a.err" &
	pid=$!
	"$BMPROF" qemu --icount --freq 10000 -o "$T/$arch-noclones.data" \
		"$ROOT/$out/demo-noclones.elf" >/dev/null 2>"$T/b.err" ||
		{ tail -20 "$T/b.err"; fail "$arch: -fno-ipa-cp run"; }
	wait $pid || { tail -20 "$T/a.err"; fail "$arch: default run"; }

	"$BMPROF" diff --fail-above 10 "$T/$arch-clones.data" "$T/$arch-noclones.data" \
		>"$T/$arch.txt" 2>"$T/e" || { cat "$T/$arch.txt" "$T/e"; fail "$arch: the gate failed: exit $?"; }
	cat "$T/$arch.txt"
	for k in $KERNELS; do
		grep -q " $k \[clones\]$" "$T/$arch.txt" || fail "$arch: no row '$k [clones]'"
	done
	"$BMPROF" diff --json --all "$T/$arch-clones.data" "$T/$arch-noclones.data" >"$T/$arch.json" ||
		fail "$arch: diff --json"
	python3 - "$T/$arch.json" $KERNELS <<'PY' || fail "$arch: diff rows"
import json, sys
r = json.load(open(sys.argv[1]))
rows = {x["key"]: x for x in r["rows"]}
odd = [x["key"] for x in r["rows"] if x["state"] != "both"]
assert not odd, f"new or gone: {odd}"
for k in sys.argv[2:]:
    x = rows[k]
    assert x["clones"] and x["base_samples"] > 0 and x["new_samples"] > 0, x
    assert not x["regression"], x
assert not any("." in k for k in rows), [k for k in rows if "." in k]
PY
done
echo "diff across clones ok"
