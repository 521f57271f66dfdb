#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Programs linked with newlib (make image LIBC=newlib), on x86-64 and AArch64, on the
# Cortex-M4 (mps2-an386, FPv4-SP) with Debian's arm-none-eabi newlib, and on RISC-V with
# Debian's picolibc (newlib's derivative):
#   - tests/e2e/progs-newlib/libc_check.c (printf %f %e %g, malloc/realloc/calloc/free,
#     qsort, bsearch, sin/cos/exp/log/pow, strtod/strtol, string.h, errno from libm and
#     strtod, atexit, stdout flushed at exit) prints, on the console, byte for byte what the
#     same program built for the build machine with glibc prints; then the lines only the
#     runtime gives: fopen fails with ENOSYS, malloc past the heap with ENOMEM, sbrk past
#     it with ENOMEM, fd 1 is a terminal, fd 5 is EBADF, lseek on the console ESPIPE,
#     stderr and bm_printf reach the console in order;
#   - with loops=N it runs a fixed loop of qsort, sin/cos and snprintf/strtod under
#     --icount, and the profile puts its samples in newlib's functions (qsort,
#     __kernel_sin/__ieee754_rem_pio2..., _svfprintf_r/_dtoa_r...) with their source lines;
#   - on the Cortex-M4 the same comparison, but for the "c99:" line: Debian's arm-none-eabi
#     newlib is built without C99 printf formats (%zu %jd %td %hh), which it prints as
#     letters; the test expects that, so a newlib with them is noticed. Its profile shows
#     newlib's qsort and _dtoa_r with their source lines;
#   - on RISC-V the same comparison but for the lines picolibc prints otherwise (its libm
#     leaves errno alone; %.17g prints the shortest digits that read back), the same image
#     lines (errno is thread-local there: the runtime's TLS block works), and a profile
#     with picolibc's qsort, __kernel_cos/__rem_pio2..., __d_vfprintf/__dtoa_engine...
#     and its source lines (Debian builds it with -g).
. "$(dirname "$0")/lib.sh"
need_qemu
NL=$ROOT/$BUILD/test-images-newlib
PROG=$ROOT/tests/e2e/progs-newlib/libc_check.c
if [ ! -f "$NL/x86_64/libc_check.elf" ] || [ ! -f "$NL/aarch64/libc_check.elf" ]; then
	ls /usr/src/newlib/newlib-*.tar.* >/dev/null 2>&1 ||
		skip "newlib-source not installed (scripts/deps.sh installs it)"
	fail "no newlib test images in $NL: run make test-images-newlib"
fi

mkdir -p "$T/stub"
cat >"$T/stub/bmrt.h" <<'EOF'
#include <stdint.h>
static inline uint64_t bm_param(const char *n, uint64_t d) { (void)n; return d; }
EOF
gcc -O2 -Wall -Wextra -Werror -I"$T/stub" -o "$T/host" "$PROG" -lm ||
	fail "the program does not build for the host"
"$T/host" >"$T/want.all" || fail "the host build of the program failed"
grep -v '^image: ' "$T/want.all" >"$T/want"   # (and the last line gets its newline)
[ "$(wc -l <"$T/want")" -ge 30 ] || fail "the host output is short: $(wc -l <"$T/want") lines"

cat >"$T/want.image" <<'EOF'
image: fopen NULL, errno ENOSYS
image: malloc(64 MiB) NULL, errno ENOMEM
image: sbrk(1 GiB) -1, errno ENOMEM
image: isatty(1) 1, isatty(5) 0 errno EBADF, lseek(1) -1 errno ESPIPE
image: clock() goes forward: yes, getpid 1
image: stderr
image: bm_printf
EOF

# samples OUT.json NAME...: the samples of those functions in a function report
samples() {
	python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(sum(x["samples"] for x in r["rows"] if x["symbol"] in sys.argv[2:]))
PY
}

for a in x86_64 aarch64; do
	elf=$NL/$a/libc_check.elf
	rc=0
	"$BMPROF" qemu --icount -o "$T/$a.data" "$elf" >"$T/$a.out" 2>"$T/$a.err" || rc=$?
	[ $rc -eq 0 ] || { cat "$T/$a.out" "$T/$a.err"; fail "$a: the program exited $rc"; }
	grep -v '^image: ' "$T/$a.out" >"$T/$a.common"
	if ! cmp -s "$T/want" "$T/$a.common"; then
		diff "$T/want" "$T/$a.common" | head -20
		fail "$a: the program's output differs from glibc's"
	fi
	grep '^image: ' "$T/$a.out" >"$T/$a.image"
	if ! cmp -s "$T/want.image" "$T/$a.image"; then
		diff "$T/want.image" "$T/$a.image"
		fail "$a: the runtime's system calls answered otherwise"
	fi
	echo "$a: $(wc -l <"$T/want") lines as glibc prints them, $(wc -l <"$T/$a.image") image lines"

	"$BMPROF" qemu --icount --freq 50000 --param loops=40 -o "$T/$a.hot" "$elf" \
		>"$T/$a.hot.out" 2>"$T/$a.hot.err" || { cat "$T/$a.hot.err"; fail "$a: the loop failed"; }
	grep -q '^hot: 40 loops, ' "$T/$a.hot.out" || fail "$a: the loop printed: $(cat "$T/$a.hot.out")"
	"$BMPROF" report -i "$T/$a.hot" --format json >"$T/$a.json" || fail "$a: report failed"
	check_accounting "$T/$a.json"
	"$BMPROF" report -i "$T/$a.hot" --limit 12 >"$T/$a.txt"
	total=$(python3 -c 'import json,sys; print(sum(x["samples"] for x in json.load(open(sys.argv[1]))["rows"]))' "$T/$a.json")
	[ "$total" -ge 300 ] || fail "$a: only $total samples"
	sort=$(samples "$T/$a.json" qsort)
	trig=$(samples "$T/$a.json" sin cos __kernel_sin __kernel_cos __ieee754_rem_pio2 __kernel_rem_pio2)
	fmt=$(samples "$T/$a.json" _svfprintf_r _dtoa_r __multadd __mdiff __d2b __lshift __pow5mult \
		__multiply __b2d __ssprint_r quorem _strtod_l __hexnan __ratio __ulp snprintf)
	echo "$a: $total samples: qsort $sort, sin/cos $trig, printf/strtod $fmt"
	for v in "qsort:$sort" "sin/cos:$trig" "printf/strtod:$fmt"; do
		[ $((${v#*:} * 100)) -ge $((total * 5)) ] ||
			{ cat "$T/$a.txt"; fail "$a: ${v%%:*} has ${v#*:} of $total samples (< 5%)"; }
	done
	# newlib's own functions come with their source lines (it is built with -g)
	pyassert "$T/$a.json" 'all(any(x["symbol"] == f and x["file"] and x["file"].endswith(p) and x["line"] > 0 for x in r["rows"]) for f, p in (("qsort", "libc/search/qsort.c"), ("_svfprintf_r", "libc/stdio/vfprintf.c")))' ||
		{ cat "$T/$a.txt"; fail "$a: qsort or _svfprintf_r without its newlib source line"; }
done

# RISC-V: picolibc (Debian's picolibc-riscv64-unknown-elf; make image ARCH=riscv64
# LIBC=newlib links it). Its output is glibc's but for what docs/riscv64.md says it does
# otherwise: its libm leaves errno alone (math_errhandling has no MATH_ERRNO) and %.17g
# prints the shortest digits that read back the same double.
legs="x86_64, aarch64"
skipped=
rv_leg() {
	local rv=$NL/riscv64/libc_check.elf rc=0 total
	if [ ! -f "$rv" ]; then
		[ -d /usr/lib/picolibc/riscv64-unknown-elf ] &&
			fail "no RISC-V test image $rv: run make test-images-newlib"
		skipped="$skipped; riscv64 skipped: picolibc-riscv64-unknown-elf not installed"
		return
	fi
	command -v qemu-system-riscv64 >/dev/null ||
		{ skipped="$skipped; riscv64 skipped: qemu-system-riscv64 not installed"; return; }
	"$BMPROF" qemu --icount -o "$T/rv.data" "$rv" >"$T/rv.out" 2>"$T/rv.err" || rc=$?
	[ $rc -eq 0 ] || { cat "$T/rv.out" "$T/rv.err"; fail "riscv64: the program exited $rc"; }
	sed -E -e 's/^(m: (log|sqrt)\(-1\) nan|m: exp\(1000\) inf), errno E[A-Z]+$/\1, errno 0/' \
		-e 's/^(strtod\("3\.14159"\): )3\.1415899999999999,/\13.14159,/' \
		-e 's/^(strtod\("-2\.5e-3"\): )-0\.0025000000000000001,/\1-0.0025,/' \
		"$T/want" >"$T/want.rv"
	[ "$(diff "$T/want" "$T/want.rv" | grep -c '^>')" -eq 5 ] ||
		fail "riscv64: the glibc output no longer has the 5 lines picolibc prints otherwise"
	grep -v '^image: ' "$T/rv.out" >"$T/rv.common"
	if ! cmp -s "$T/want.rv" "$T/rv.common"; then
		diff "$T/want.rv" "$T/rv.common" | head -20
		fail "riscv64: the program's output differs from glibc's (beyond libm's errno and %.17g)"
	fi
	grep '^image: ' "$T/rv.out" >"$T/rv.image"
	if ! cmp -s "$T/want.image" "$T/rv.image"; then
		diff "$T/want.image" "$T/rv.image"
		fail "riscv64: the runtime's system calls answered otherwise"
	fi
	echo "riscv64: $(wc -l <"$T/want") lines as glibc prints them (libm without errno, %.17g shortest)"

	"$BMPROF" qemu --icount --freq 50000 --param loops=40 -o "$T/rv.hot" "$rv" \
		>"$T/rv.hot.out" 2>"$T/rv.hot.err" || { cat "$T/rv.hot.err"; fail "riscv64: the loop failed"; }
	grep -q '^hot: 40 loops, ' "$T/rv.hot.out" || fail "riscv64: the loop printed: $(cat "$T/rv.hot.out")"
	"$BMPROF" report -i "$T/rv.hot" --format json >"$T/rv.json" || fail "riscv64: report failed"
	check_accounting "$T/rv.json"
	"$BMPROF" report -i "$T/rv.hot" --limit 12 >"$T/rv.txt"
	total=$(python3 -c 'import json,sys; print(sum(x["samples"] for x in json.load(open(sys.argv[1]))["rows"]))' "$T/rv.json")
	[ "$total" -ge 300 ] || fail "riscv64: only $total samples"
	local sort trig fmt
	sort=$(samples "$T/rv.json" qsort)
	trig=$(samples "$T/rv.json" sin cos __kernel_sin __kernel_cos __rem_pio2 __kernel_rem_pio2)
	fmt=$(samples "$T/rv.json" __d_vfprintf vfprintf __dtoa_engine __file_str_put snprintf strtod \
		__atod_engine __double_computePow5 __double_computeInvPow5 __pow5bits __ceil_log2pow5)
	echo "riscv64: $total samples: qsort $sort, sin/cos $trig, printf/strtod $fmt"
	for v in "qsort:$sort" "sin/cos:$trig" "printf/strtod:$fmt"; do
		[ $((${v#*:} * 100)) -ge $((total * 5)) ] ||
			{ cat "$T/rv.txt"; fail "riscv64: ${v%%:*} has ${v#*:} of $total samples (< 5%)"; }
	done
	# Debian builds picolibc with -g: its functions come with their source lines
	pyassert "$T/rv.json" 'all(any(x["symbol"] == f and x["file"] and x["file"].endswith(p) and x["line"] > 0 for x in r["rows"]) for f, p in (("qsort", "libc/search/qsort.c"), ("__d_vfprintf", "libc/tinystdio/vfprintf.c"), ("__kernel_cos", "libm/math/k_cos.c")))' ||
		{ cat "$T/rv.txt"; fail "riscv64: qsort, __d_vfprintf or __kernel_cos without its picolibc source line"; }
	legs="$legs, riscv64"
}
rv_leg

# The Cortex-M4: built where arm-none-eabi-gcc finds newlib for it (make test-images-newlib)
cm=$NL/cortex-m4/libc_check.elf
if [ ! -f "$cm" ]; then
	case $(arm-none-eabi-gcc -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -mthumb \
		-print-file-name=libc.a 2>/dev/null) in
	/*) fail "no Cortex-M newlib test image $cm: run make test-images-newlib" ;;
	esac
	echo "newlib: ok ($legs)$skipped; cortex-m4 skipped: libnewlib-arm-none-eabi not installed"
	exit 0
fi
command -v qemu-system-arm >/dev/null || {
	echo "newlib: ok ($legs)$skipped; cortex-m4 skipped: qemu-system-arm not installed"
	exit 0
}
rc=0
"$BMPROF" qemu --icount -o "$T/cm.data" "$cm" >"$T/cm.out" 2>"$T/cm.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/cm.out" "$T/cm.err"; fail "cortex-m4: the program exited $rc"; }
sed 's/^c99: .*/c99: zu jd td 8 -7/' "$T/want" >"$T/want.cm"
grep -v '^image: ' "$T/cm.out" >"$T/cm.common"
if ! cmp -s "$T/want.cm" "$T/cm.common"; then
	diff "$T/want.cm" "$T/cm.common" | head -20
	fail "cortex-m4: the program's output differs from glibc's"
fi
grep '^image: ' "$T/cm.out" >"$T/cm.image"
if ! cmp -s "$T/want.image" "$T/cm.image"; then
	diff "$T/want.image" "$T/cm.image"
	fail "cortex-m4: the runtime's system calls answered otherwise"
fi
echo "cortex-m4: $(wc -l <"$T/want") lines as glibc prints them (c99: without C99 formats)"

"$BMPROF" qemu --icount --freq 20000 --param loops=10 -o "$T/cm.hot" "$cm" \
	>"$T/cm.hot.out" 2>"$T/cm.hot.err" || { cat "$T/cm.hot.err"; fail "cortex-m4: the loop failed"; }
grep -q '^hot: 10 loops, ' "$T/cm.hot.out" || fail "cortex-m4: the loop printed: $(cat "$T/cm.hot.out")"
"$BMPROF" report -i "$T/cm.hot" --format json >"$T/cm.json" || fail "cortex-m4: report failed"
check_accounting "$T/cm.json"
total=$(python3 -c 'import json,sys; print(sum(x["samples"] for x in json.load(open(sys.argv[1]))["rows"]))' "$T/cm.json")
[ "$total" -ge 200 ] || fail "cortex-m4: only $total samples"
pyassert "$T/cm.json" 'all(any(x["symbol"] == f and x["file"] and x["file"].endswith(p) and x["line"] > 0 for x in r["rows"]) for f, p in (("qsort", "libc/search/qsort.c"), ("_dtoa_r", "libc/stdlib/dtoa.c")))' ||
	{ "$BMPROF" report -i "$T/cm.hot" --limit 12; fail "cortex-m4: qsort or _dtoa_r without its newlib source line"; }
echo "cortex-m4: $total samples, qsort $(samples "$T/cm.json" qsort), _dtoa_r $(samples "$T/cm.json" _dtoa_r)"
echo "newlib: ok ($legs, cortex-m4)$skipped"
