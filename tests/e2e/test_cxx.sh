#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The public headers are C++ too (bmrt.h and every target header, wire.h):
#   - tests/e2e/progs-cxx/headers.cpp, which includes them all and calls into each,
#     compiles with g++ -std=c++11 and -std=c++17 -pedantic -Wall -Wextra -Werror, and every
#     symbol it needs from the C side is unmangled (no _Z... undefined);
#   - bmprof_aarch64.h the same, compiled by the host's g++ (nothing in it is x86-specific;
#     aarch64-linux-gnu-g++, when installed, also builds and boots the program);
#   - make image builds the program from its .cpp (C++ flags, no C standard), it boots
#     under bmprof qemu, prints what each call returned, exits 0 through bm_exit (declared
#     noreturn for C++), and its C++ method is the hottest function of the profile.
# (tests/kit/kernel-cmake is a kernel whose main is C++ with the installed library.)
. "$(dirname "$0")/lib.sh"
need_qemu
command -v g++ >/dev/null || skip "g++ not installed (scripts/deps.sh installs it)"

INC=(-I"$ROOT/target/include" -I"$ROOT/transport" -I"$ROOT/boot/include")
PROG=$ROOT/tests/e2e/progs-cxx/headers.cpp
for std in c++11 c++17; do
	g++ -std=$std -ffreestanding -mno-red-zone -mgeneral-regs-only -fno-exceptions -fno-rtti \
		-pedantic -Wall -Wextra -Werror "${INC[@]}" -c -o "$T/h.o" "$PROG" ||
		fail "the headers do not compile as $std"
	mangled=$(nm -u "$T/h.o" | awk '$2 ~ /^_Z/ {print $2}')
	[ -z "$mangled" ] || fail "$std: C++-mangled references to the C side: $mangled"
	nm -u "$T/h.o" | grep -q " bmprof_x86_cpu$" || fail "$std: no call into the library left"
done

cat >"$T/a64.cpp" <<'EOF'
#include "bmprof_aarch64.h"
#include "bmprof_desc.h"
#include "bmprof_ring.h"
int f(void)
{
	bmprof_a64_config cfg = {};
	cfg.hz = 1000;
	int err = bmprof_a64_init(&cfg);
	bmprof_a64_start();
	bmprof_a64_poll();
	bmprof_a64_flush();
	return err + (int)bmprof_a64_ncpus() + (bmprof_a64_strerror(err) != nullptr);
}
EOF
g++ -std=c++17 -pedantic -Wall -Wextra -Werror -I"$ROOT/target/include" -I"$ROOT/transport" \
	-c -o "$T/a64.o" "$T/a64.cpp" || fail "bmprof_aarch64.h does not compile as C++"
mangled=$(nm -u "$T/a64.o" | awk '$2 ~ /^_Z/ {print $2}')
[ -z "$mangled" ] || fail "bmprof_aarch64.h: C++-mangled references: $mangled"

archs=x86_64
command -v aarch64-linux-gnu-g++ >/dev/null && archs="x86_64 aarch64"
for a in $archs; do
	args=(image SRC="$PROG" NAME=cxx_headers BUILD="$BUILD" IMAGE_CFLAGS="-std=gnu++17 -Werror")
	elf=$BUILD/x86_64/cxx_headers.elf
	if [ $a = aarch64 ]; then
		args+=(ARCH=aarch64)
		elf=$BUILD/aarch64/cxx_headers.elf
	fi
	(cd "$ROOT" && make --no-print-directory -s "${args[@]}") >"$T/make.log" 2>&1 ||
		{ cat "$T/make.log"; fail "make image of a .cpp program failed ($a)"; }
	grep -q "warning" "$T/make.log" && { cat "$T/make.log"; fail "make image warned ($a)"; }
	rc=0
	"$BMPROF" qemu --icount --freq 10000 -o "$T/$a.data" "$ROOT/$elf" >"$T/$a.out" 2>"$T/$a.err" || rc=$?
	[ $rc -eq 0 ] || { cat "$T/$a.err"; fail "$a: the C++ program exited $rc"; }
	grep -q "^c++: cpus 1, sampling yes, descriptor ok, wire 3, ring 0, mem ok, due 0, end 0, result " \
		"$T/$a.out" || { cat "$T/$a.out"; fail "$a: the C++ program printed something else"; }
	"$BMPROF" report -i "$T/$a.data" --format json >"$T/$a.json" || fail "$a: report failed"
	check_accounting "$T/$a.json"
	pyassert "$T/$a.json" '"Sum" in r["rows"][0]["symbol"] and "run" in r["rows"][0]["symbol"]' ||
		fail "$a: the C++ method is not the hottest function"
done
echo "c++: ok ($archs)"
