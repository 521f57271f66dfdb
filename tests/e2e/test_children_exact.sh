#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Call-stack profiles against exact counts, on x86-64 and AArch64 under QEMU TCG with
# -icount: for the demo (examples/demo.c, with less work) and a deep call tree
# (tests/e2e/progs/calltree.c: six levels, shared leaves, linear, double and mutual
# recursion, a tail call), every function's share in bmprof report --children of a
# `bmprof qemu --icount -g` profile is within 1 pp of its exact inclusive share from
# `bmprof count --children --root main` (children_check.py says how the two are put on
# the same footing). go tool pprof's cumulative shares of the same profile agree with the
# report within 1 pp. A profile whose chains are cut short (--call-depth 3) must fail
# the same comparison: the check sees a broken unwind.
. "$(dirname "$0")/lib.sh"
need_qemu
FREQ=50000
DEMO_WORK="-DPRIME_LIMIT=900000 -DCHECKSUM_ROUNDS=12 -DSORT_ROUNDS=3 -DMATMUL_ROUNDS=6"
check() { python3 "$ROOT/tests/e2e/children_check.py" "$@"; }
have_go=
command -v go >/dev/null && have_go=1 || echo "note: go is not installed: the pprof check left out"
export HOME=$T GOCACHE=$T/gocache GOFLAGS=-mod=mod PPROF_TMPDIR=$T/pprof

arches=(x86_64)
if command -v qemu-system-aarch64 >/dev/null && [ -f "$ROOT/$BUILD/test-images-aarch64/calltree.elf" ]; then
	arches+=(aarch64)
else
	echo "note: no AArch64 QEMU or images: AArch64 left out"
fi

# profile NAME IMAGE ARGS...: the exact counts and a -g profile, side by side
profile() {
	local name=$1 img=$2
	shift 2
	"$BMPROF" count --icount --freq $FREQ --children --root main --json "$img" \
		>"$T/$name.count" 2>"$T/$name.cerr" &
	local pid=$!
	"$BMPROF" qemu --icount -g --freq $FREQ "$@" -o "$T/$name.data" "$img" >/dev/null \
		2>"$T/$name.err" || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $?"; }
	wait $pid || { tail -20 "$T/$name.cerr"; fail "$name: bmprof count failed"; }
	check exact "$T/$name.count" || fail "$name: exact counts"
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report"
	check_accounting "$T/$name.json"
	pyassert "$T/$name.json" "sum(c['stack_full'] for c in r['meta']['cpus']) == 0"
	"$BMPROF" report -i "$T/$name.data" --children --all >"$T/$name.children" ||
		fail "$name: report --children"
	"$BMPROF" export -i "$T/$name.data" --format folded -o "$T/$name.folded" ||
		fail "$name: export folded"
}

for arch in "${arches[@]}"; do
	if [ "$arch" = x86_64 ]; then
		dir=$IMAGES mainless=
	else
		dir=$ROOT/$BUILD/test-images-aarch64 mainless=mainless
	fi
	(cd "$ROOT" && make --no-print-directory -s image SRC=examples/demo.c NAME=demo-children \
		ARCH=$arch BUILD="$BUILD" IMAGE_CFLAGS="$DEMO_WORK") \
		>"$T/make" 2>&1 || { cat "$T/make"; fail "make image (demo, $arch)"; }
	for prog in "demo:$ROOT/$BUILD/$arch/demo-children.elf" "calltree:$dir/calltree.elf"; do
		name=$arch-${prog%%:*}
		profile "$name" "${prog#*:}"
		echo "$name:"
		check compare "$T/$name.count" "$T/$name.children" "$T/$name.folded" 1 $mainless ||
			fail "$name: report --children against the exact inclusive counts"
		if [ -n "$have_go" ]; then
			"$BMPROF" export -i "$T/$name.data" --format pprof -o "$T/$name.pb.gz" ||
				fail "$name: export pprof"
			go tool pprof -top -cum -nodecount=100000 -nodefraction=0 -edgefraction=0 \
				-sample_index=samples "$T/$name.pb.gz" >"$T/$name.top" 2>"$T/pprof.err" ||
				{ cat "$T/pprof.err"; fail "$name: go tool pprof"; }
			check pprof "$T/$name.top" "$T/$name.children" 1 || fail "$name: pprof -top -cum"
		fi
	done
done

# The check must see a broken unwind: chains cut at 3 callers lose main and the levels
# above the leaves, and the comparison fails.
"$BMPROF" qemu --icount -g --call-depth 3 --freq $FREQ -o "$T/cut.data" "$IMAGES/calltree.elf" \
	>/dev/null 2>"$T/cut.err" || { tail -20 "$T/cut.err"; fail "cut: bmprof qemu exited $?"; }
"$BMPROF" report -i "$T/cut.data" --children --all >"$T/cut.children" || fail "cut: report"
"$BMPROF" export -i "$T/cut.data" --format folded -o "$T/cut.folded" || fail "cut: folded"
check compare "$T/x86_64-calltree.count" "$T/cut.children" "$T/cut.folded" 1 >"$T/cut.out" &&
	{ cat "$T/cut.out"; fail "chains cut at depth 3 passed the comparison"; }
grep -q "^FAIL:" "$T/cut.out" || { cat "$T/cut.out"; fail "cut: no deviation found"; }
echo "children against exact counts ok"
