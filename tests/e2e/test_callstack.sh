#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Call stacks (-g) end to end, on x86-64 and AArch64 under QEMU TCG with -icount: the
# chains of callstack.c's known call tree (main;a;b and main;a;c;d, d a leaf with no frame
# record), its edges() function sampled at its first instruction, at the mov that sets the
# frame pointer and at its ret with the right caller, the children/self columns against the
# folded rows, the pprof export's Location lists, --call-depth bounding every chain, and a
# 2-entry stack table: chains that do not fit are counted (stack_full) and the accounting
# stays exact.
. "$(dirname "$0")/lib.sh"
need_qemu
check() { python3 "$ROOT/tests/e2e/stacks_check.py" "$@" || fail "$*"; }

run() {   # run NAME IMAGE ARGS...: profile and check the accounting
	local name=$1 img=$2
	shift 2
	"$BMPROF" qemu --icount --freq 20000 "$@" -o "$T/$name.data" "$img" >"$T/$name.out" \
		2>"$T/$name.err" || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $?"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report"
	check_accounting "$T/$name.json"
	"$BMPROF" export -i "$T/$name.data" --format folded -o "$T/$name.folded" ||
		fail "$name: export folded"
}

arches=(x86_64:"$IMAGES")
if command -v qemu-system-aarch64 >/dev/null && [ -f "$ROOT/$BUILD/test-images-aarch64/callstack.elf" ]; then
	arches+=(aarch64:"$ROOT/$BUILD/test-images-aarch64")
else
	echo "note: no AArch64 QEMU or images: AArch64 left out"
fi
for a in "${arches[@]}"; do
	arch=${a%%:*} dir=${a#*:}
	run "$arch" "$dir/callstack.elf" -g
	check folded "$T/$arch.folded"
	"$BMPROF" report -i "$T/$arch.data" --children --all >"$T/$arch.children" ||
		fail "$arch: report --children"
	check children "$T/$arch.children" "$T/$arch.folded"
	"$BMPROF" export -i "$T/$arch.data" --format pprof -o "$T/$arch.pb.gz" || fail "$arch: pprof"
	check pprof "$T/$arch.pb.gz" "$T/$arch.folded"
	"$BMPROF" report -i "$T/$arch.data" -g caller >"$T/$arch.caller" || fail "$arch: -g caller"
	grep -q '^ *[0-9.]*%  *[0-9]*  edge_caller$' "$T/$arch.caller" || fail "$arch: -g caller has no edge_caller"
	"$BMPROF" report -i "$T/$arch.data" -g callee >"$T/$arch.callee" || fail "$arch: -g callee"
	grep -q '^ *[0-9.]*%  *[0-9]*  d$' "$T/$arch.callee" || fail "$arch: -g callee has no leaf d"
	pyassert "$T/$arch.json" "sum(c['stack_full'] for c in r['meta']['cpus']) == 0"
	# the folded rows hold every sample delivered
	total=$(awk '{ n += $NF } END { print n }' "$T/$arch.folded")
	pyassert "$T/$arch.json" "sum(c['delivered'] for c in r['meta']['cpus']) == $total"

	run "$arch-depth" "$dir/callstack.elf" --call-depth 3
	check folded "$T/$arch-depth.folded" 3
done

# A raw serial capture of a board-like run (stack_depth in the image's configuration):
# bmprof record keeps the stacks; with -g and a stream without them it warns.
for depth in 8 0; do
	timeout 600 qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none \
		-accel tcg -icount shift=0,sleep=off -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$T/raw$depth" -kernel "$IMAGES/callstack.elf" \
		-fw_cfg "name=opt/bmprof/config,string=freq=20000 stack_depth=$depth" >/dev/null 2>&1
	"$BMPROF" record -g --from "$T/raw$depth" -o "$T/rec$depth.data" \
		--elf "$IMAGES/callstack.elf" >/dev/null 2>"$T/rec$depth.err" || fail "record $depth"
done
grep -q "no call stacks" "$T/rec8.err" && fail "record -g warned about a stream with stacks"
grep -q "no call stacks" "$T/rec0.err" || fail "record -g did not warn about a stream without"
"$BMPROF" export -i "$T/rec8.data" --format folded -o "$T/rec8.folded" || fail "record: folded"
check folded "$T/rec8.folded"

# Two CPUs: each walks its own stack (the runtime gives each CPU's bounds).
run smp "$IMAGES/smp_work.elf" -g --smp 2
pyassert "$T/smp.json" "sorted(c['cpu'] for c in r['meta']['cpus']) == [0, 1]"
pyassert "$T/smp.json" "all(c['stacks'] > 0 and c['stack_full'] == 0 for c in r['meta']['cpus'])"
grep -q ';main;work_cpu0 [0-9]*$' "$T/smp.folded" || { cat "$T/smp.folded"; fail "smp: cpu 0's chain"; }
grep -q ';work_cpu1 [0-9]*$' "$T/smp.folded" || { cat "$T/smp.folded"; fail "smp: cpu 1's chain"; }

# Without -g nothing changes: no chains, folded output one frame per function.
run nostack "$IMAGES/callstack.elf"
grep -q ';' "$T/nostack.folded" && fail "stacks without -g"
"$BMPROF" report -i "$T/nostack.data" --children >/dev/null 2>"$T/nostack.err" &&
	fail "--children without stacks should fail"
grep -q "no call stacks" "$T/nostack.err" || fail "no message for a profile without stacks"

# A 2-entry stack table: the chains that find it full are counted, nothing is lost.
out=$BUILD/x86_64-stack-tiny
(cd "$ROOT" && make --no-print-directory -s -j2 image SRC=tests/e2e/progs/callstack.c \
	NAME=callstack_tiny BUILD="$BUILD" X86_OUT="$out" \
	X86_DEFS="-DBMPROF_X86_STACK_ENTRIES=2 -DBMPROF_X86_STACK_FRAMES=16") >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image (tiny stack table)"; }
run tiny "$ROOT/$out/callstack_tiny.elf" -g
pyassert "$T/tiny.json" "all(c['stacks'] <= 2 for c in r['meta']['cpus'])"
pyassert "$T/tiny.json" "sum(c['stack_full'] for c in r['meta']['cpus']) > 0"
grep -q "kept no chain" "$T/tiny.err" || fail "the summary does not say chains were not kept"
total=$(awk '{ n += $NF } END { print n }' "$T/tiny.folded")
pyassert "$T/tiny.json" "sum(c['delivered'] for c in r['meta']['cpus']) == $total"
# A UEFI application: the chain runs from the application into the firmware's frames and
# stops there without a fault (-icount shift=3 as test_uefi_x86_64 runs OVMF).
if { [ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || [ -n "${BMPROF_UEFI_CODE:-}" ]; } &&
	[ -f "$ROOT/$BUILD/test-images-uefi/shares.efi" ]; then
	(cd "$ROOT" && make --no-print-directory -s image SRC=tests/e2e/progs/callstack.c \
		BOOT=uefi NAME=callstack_uefi BUILD="$BUILD") >"$T/make" 2>&1 ||
		{ cat "$T/make"; fail "make image BOOT=uefi"; }
	"$BMPROF" qemu -g --timeout 600 --freq 1000 -o "$T/uefi.data" \
		"$ROOT/$BUILD/uefi-x86_64/callstack_uefi.efi" -- -icount shift=3,sleep=off \
		>"$T/uefi.out" 2>"$T/uefi.err" || { tail -20 "$T/uefi.err"; fail "uefi: exit $?"; }
	"$BMPROF" report -i "$T/uefi.data" --format json >"$T/uefi.json" || fail "uefi: report"
	check_accounting "$T/uefi.json"
	"$BMPROF" export -i "$T/uefi.data" --format folded -o "$T/uefi.folded" || fail "uefi: folded"
	grep -q 'main;a;c;d [0-9]*$' "$T/uefi.folded" || { cat "$T/uefi.folded"; fail "uefi: no main;a;c;d"; }
	awk '$0 ~ /;d [0-9]+$/ && $0 !~ /main;a;c;d [0-9]+$/ { exit 1 }' "$T/uefi.folded" ||
		{ cat "$T/uefi.folded"; fail "uefi: a chain of d without main;a;c"; }
else
	echo "note: no OVMF or UEFI images: the UEFI run left out"
fi
echo "call stacks ok"
