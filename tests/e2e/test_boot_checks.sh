#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Images QEMU cannot boot are refused before QEMU starts, in one line naming the problem
# (exit 125, no "accel" line: QEMU never ran): a Linux program (/bin/ls: an interpreter),
# a position-independent executable, an object file, an x86-64 ELF without the PVH entry
# note, an AArch64 ELF linked below the virt board's RAM, and an image of one
# architecture given a QEMU of the other (--qemu qemu-system-aarch64 with an x86-64 ELF,
# and the reverse).
. "$(dirname "$0")/lib.sh"
need_qemu
A64=$ROOT/$BUILD/test-images-aarch64

refused() {   # WHAT PATTERN ARGS...
	local what=$1 pattern=$2 rc
	shift 2
	"$BMPROF" qemu --timeout 30 -o "$T/x.data" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 125 ] || { cat "$T/err"; fail "$what: exit $rc, want 125"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "$what: not one line"; }
	grep -q -- "$pattern" "$T/err" || { cat "$T/err"; fail "$what: message"; }
	[ -e "$T/x.data" ] && fail "$what: a profile was written"
	return 0
}

refused "a Linux program" "is not a bootable image: it is a dynamically linked program" /bin/ls
printf 'int main(void){return 0;}\n' >"$T/p.c"
gcc -fPIE -static-pie -o "$T/pie" "$T/p.c" -nostdlib -Wl,-e,main 2>/dev/null &&
	refused "a PIE" "position-independent" "$T/pie"
gcc -c -o "$T/p.o" "$T/p.c"
refused "an object file" "an object file" "$T/p.o"
cp "$IMAGES/shares.elf" "$T/nopvh.elf"
objcopy --remove-section .note.Xen "$T/nopvh.elf"
refused "no PVH note" "no PVH entry note" "$T/nopvh.elf"
refused "x86-64 image, aarch64 QEMU" "is an x86_64 image, but --qemu qemu-system-aarch64 runs aarch64 guests" \
	--qemu qemu-system-aarch64 "$IMAGES/shares.elf"
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	aarch64-linux-gnu-gcc -static -nostdlib -Wl,-e,main -o "$T/low" "$T/p.c"
	refused "AArch64 below RAM" "below the RAM of QEMU's virt board" "$T/low"
fi
if [ -f "$A64/shares.elf" ]; then
	refused "aarch64 image, x86 QEMU" "is an aarch64 image, but --qemu qemu-system-x86_64" \
		--qemu qemu-system-x86_64 "$A64/shares.elf"
fi
echo "boot checks ok"
