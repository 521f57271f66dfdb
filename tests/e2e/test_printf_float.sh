#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bm_printf's %f %e %g in an image, on x86-64 and AArch64 (with a second CPU printing too),
# against the host C library's printf of the same program (tests/e2e/progs/printf_float.c
# compiled natively with bm_printf as printf): the console text must be the same, byte for
# byte, except the directives the runtime prints as written (%Lf, %a). And the runtime's
# and library's objects use no FP/SIMD register outside boot/common/printf.c.
. "$(dirname "$0")/lib.sh"
A64=$ROOT/$BUILD/test-images-aarch64
PROG=$ROOT/tests/e2e/progs/printf_float.c

mkdir -p "$T/stub"
cat >"$T/stub/bmrt.h" <<'EOF'
#include <stdarg.h>
#include <stdio.h>
#define bm_printf printf
#define bm_vprintf vprintf
static inline unsigned bm_ncpus(void) { return 1; }
static inline int bm_run_on(unsigned c, void (*f)(void *), void *a) { (void)c; (void)f; (void)a; return -1; }
static inline void bm_wait(unsigned c) { (void)c; }
EOF
gcc -O2 -Wall -Wextra -Werror -I"$T/stub" -o "$T/host" "$PROG" || fail "the program does not build for the host"
"$T/host" >"$T/want.all" || fail "the host build of the program failed"
grep -v '^as-written:' "$T/want.all" >"$T/want"
[ "$(wc -l <"$T/want")" -gt 130 ] || fail "the host output is short: $(wc -l <"$T/want") lines"

# compare ARCH OUT: the image's stdout against the host's, and the as-written line
compare() {
	grep -v '^as-written:' "$2" >"$T/got.$1"
	if ! cmp -s "$T/want" "$T/got.$1"; then
		diff "$T/want" "$T/got.$1" | head -20
		fail "$1: the image's bm_printf output differs from the host's printf"
	fi
	grep -qx 'as-written: %Lf|%a|7' "$2" || fail "$1: %Lf and %a not printed as written: $(grep as-written "$2")"
	echo "$1: $(wc -l <"$T/got.$1") lines identical to the host's printf"
}

# insns OBJDUMP OBJ: each instruction, mnemonic and operands, without branch targets
insns() {
	"$1" -d --no-show-raw-insn "$2" |
		awk -F'\t' 'NF >= 2 { sub(/^[^\t]*\t/, ""); gsub(/[0-9a-f]+ <[^>]*>/, ""); print }'
}
# FP/SIMD registers in the runtime and the library: only in boot/common/printf.c (the rest
# is -mgeneral-regs-only), and nothing there but printf.c refers to bm_printf/bm_vprintf,
# so no interrupt or exception path can reach an FP instruction.
fp_check() {   # ARCH OBJDUMP NM OBJDIR REGEX
	local objs o bad=
	objs=$(find "$4/rt" "$4/lib" -name '*.o' 2>/dev/null)
	[ -n "$objs" ] || return 0
	for o in $objs; do
		case $o in */boot/common/printf.o) continue ;; esac
		insns "$2" "$o" | grep -Eq "$5" && bad="$bad $o"
		"$3" "$o" | grep -Eq ' U bm_v?printf$' && bad="$bad $o(calls bm_printf)"
	done
	[ -z "$bad" ] || fail "$1: FP/SIMD or bm_printf outside printf.o:$bad"
	insns "$2" "$4/rt/boot/common/printf.o" | grep -Eq "$5" ||
		fail "$1: printf.o has no FP register: is it built with FP allowed?"
	echo "$1: FP/SIMD registers only in printf.o"
}
fp_check x86_64 objdump nm "$ROOT/$BUILD/x86_64/obj" '%xmm|%ymm|%st|\bf(ld|st)'
command -v aarch64-linux-gnu-objdump >/dev/null &&
	fp_check aarch64 aarch64-linux-gnu-objdump aarch64-linux-gnu-nm "$ROOT/$BUILD/aarch64/obj" \
		'[[:space:],\[]([qdsbhv](3[01]|[12]?[0-9]))\b|^f[a-z]+[[:space:]]'

need_qemu
[ -f "$IMAGES/printf_float.elf" ] || skip "no test images in $IMAGES: run make test-images"
"$BMPROF" qemu --accel tcg --smp 2 --cpu-wait 600000 -o "$T/x.data" "$IMAGES/printf_float.elf" \
	>"$T/x.out" 2>"$T/x.err" ||
	{ cat "$T/x.err"; fail "x86-64: bmprof qemu exited $?"; }
compare x86_64 "$T/x.out"

command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
[ -f "$A64/printf_float.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"
"$BMPROF" qemu --smp 2 --cpu-wait 600000 -o "$T/a.data" "$A64/printf_float.elf" >"$T/a.out" 2>"$T/a.err" ||
	{ cat "$T/a.err"; fail "aarch64: bmprof qemu exited $?"; }
compare aarch64 "$T/a.out"
echo "printf_float ok"
