#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# make image follows its flags: a rebuild with another IMAGE_CFLAGS -D value changes the
# image, EXTRA_CFLAGS is its alias, and the same flags again rebuild nothing (no compiler
# run, no file touched). X86_DEFS and A64_DEFS: the flags files of the library and runtime
# objects change with them, only with them, and every such object depends on its file.
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null || skip "make not installed"
cd "$ROOT" || exit 1
cat >"$T/flagprobe.c" <<'EOF'
#include <bmrt.h>
#define STR2(x) #x
#define STR(x) STR2(x)
const char flag_tag[] = "flag-value=" STR(FLAG_VALUE) ";";
int main(void)
{
	bm_puts(flag_tag);
	return 0;
}
EOF
name=flagprobe-$$
elf=$BUILD/x86_64/$name.elf
objdir=$BUILD/x86_64/obj/img/$name
trap 'rm -rf "$T" "$elf" "$objdir" "$BUILD/aarch64/$name.elf" "$BUILD/aarch64/obj/img/$name"' EXIT

# mk NAME-OF-STEP ARGS...: make image with ARGS, its output in $T/STEP.make
mk() {
	local step=$1
	shift
	make --no-print-directory BUILD="$BUILD" V=1 image SRC="$T/flagprobe.c" NAME="$name" "$@" \
		>"$T/$step.make" 2>&1 || { cat "$T/$step.make"; fail "$step: make image failed"; }
}
tag() { grep -ao 'flag-value=[^;]*;' "$1"; }
# mtimes PATHS...: every file under PATHS with its modification time, to the nanosecond
mtimes() { find "$@" -type f -printf '%p %T@\n' | sort; }

mk one IMAGE_CFLAGS=-DFLAG_VALUE=1
[ "$(tag "$elf")" = "flag-value=1;" ] || fail "IMAGE_CFLAGS=-DFLAG_VALUE=1: the image has $(tag "$elf")"

mtimes "$elf" "$objdir" >"$T/before"
mk same IMAGE_CFLAGS=-DFLAG_VALUE=1
grep -q "gcc\|-o " "$T/same.make" && { cat "$T/same.make"; fail "the same flags ran the compiler or the linker"; }
mtimes "$elf" "$objdir" | cmp -s - "$T/before" ||
	fail "the same flags touched: $(mtimes "$elf" "$objdir" | diff "$T/before" - | grep '^>' | head -3)"

mk two IMAGE_CFLAGS=-DFLAG_VALUE=2
[ "$(tag "$elf")" = "flag-value=2;" ] || fail "IMAGE_CFLAGS=-DFLAG_VALUE=2: the image has $(tag "$elf")"
grep -q "flagprobe.c" "$T/two.make" || fail "the program was not recompiled"
grep -q -- " -c -o [^ ]*/obj/\(rt\|lib\)/" "$T/two.make" && fail "a program flag rebuilt the runtime or the library"

mk alias EXTRA_CFLAGS=-DFLAG_VALUE=3
[ "$(tag "$elf")" = "flag-value=3;" ] || fail "EXTRA_CFLAGS=-DFLAG_VALUE=3: the image has $(tag "$elf")"
mk both IMAGE_CFLAGS="-DFLAG_VALUE=4 -O1" EXTRA_CFLAGS="-UFLAG_VALUE -DFLAG_VALUE=5"
[ "$(tag "$elf")" = "flag-value=5;" ] || fail "EXTRA_CFLAGS does not come after IMAGE_CFLAGS: $(tag "$elf")"

if command -v aarch64-linux-gnu-gcc >/dev/null && [ -f "$BUILD/aarch64/libbmprof.a" ]; then
	mk a64 ARCH=aarch64 IMAGE_CFLAGS=-DFLAG_VALUE=6
	[ "$(tag "$BUILD/aarch64/$name.elf")" = "flag-value=6;" ] || fail "aarch64: $(tag "$BUILD/aarch64/$name.elf")"
	mk a64b ARCH=aarch64 IMAGE_CFLAGS=-DFLAG_VALUE=7
	[ "$(tag "$BUILD/aarch64/$name.elf")" = "flag-value=7;" ] || fail "aarch64: $(tag "$BUILD/aarch64/$name.elf")"
fi

# The library's and the runtime's flags files, in a build folder of their own (only the
# files are made here, nothing is compiled).
out=$T/defs
flags() {
	make --no-print-directory BUILD="$BUILD" X86_OUT="$out/x86" A64_OUT="$out/a64" "$@" \
		"$out/x86/obj/lib.flags" "$out/x86/obj/rt.flags" "$out/a64/obj/lib.flags" \
		"$out/a64/obj/rt.flags" >"$T/flags.make" 2>&1 || { cat "$T/flags.make"; fail "make flags files"; }
}
flags X86_DEFS=-DBMPROF_X86_MAX_CPUS=2 A64_DEFS=-DBMRT_DEFAULT_FREQ=1234
for f in x86/obj/lib x86/obj/rt; do
	grep -q -- "-DBMPROF_X86_MAX_CPUS=2" "$out/$f.flags" || fail "$f.flags lacks X86_DEFS"
done
for f in a64/obj/lib a64/obj/rt; do
	grep -q -- "-DBMRT_DEFAULT_FREQ=1234" "$out/$f.flags" || fail "$f.flags lacks A64_DEFS"
done
mtimes "$out" >"$T/before2"
flags X86_DEFS=-DBMPROF_X86_MAX_CPUS=2 A64_DEFS=-DBMRT_DEFAULT_FREQ=1234
mtimes "$out" | cmp -s - "$T/before2" || fail "the same DEFS rewrote a flags file"
flags X86_DEFS=-DBMPROF_X86_MAX_CPUS=4 A64_DEFS=-DBMRT_DEFAULT_FREQ=1234
rewritten=$(mtimes "$out" | diff "$T/before2" - | sed -n 's/^> \([^ ]*\) .*/\1/p' | tr '\n' ' ')
[ "$rewritten" = "$out/x86/obj/lib.flags $out/x86/obj/rt.flags " ] ||
	fail "X86_DEFS: not exactly the x86-64 flags files rewritten: $rewritten"
grep -q -- "-DBMPROF_X86_MAX_CPUS=4" "$out/x86/obj/rt.flags" || fail "rt.flags lacks the new X86_DEFS"
# every library and runtime object depends on its flags file (make's rule database)
make -pq --no-print-directory BUILD="$BUILD" X86_OUT="$out/x86" A64_OUT="$out/a64" \
	"$out/x86/obj/lib.flags" >"$T/db" 2>/dev/null
for o in x86/obj/lib/target/core/record.o x86/obj/rt/boot/common/log.o x86/obj/rt/boot/common/printf.o \
	a64/obj/lib/target/core/record.o a64/obj/rt/boot/aarch64/start.o a64/obj/rt/boot/common/printf.o; do
	kind=${o#*/obj/}
	kind=${kind%%/*}
	grep -q "^$out/$o:.* $out/${o%%/obj/*}/obj/$kind.flags" "$T/db" ||
		fail "$o does not depend on ${o%%/obj/*}/obj/$kind.flags"
done
echo "image flags ok"
