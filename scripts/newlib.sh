#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds newlib's libc.a and libm.a (and installs their headers) for one bmprof target from
# Debian's newlib-source tarball, with the project's own cross compiler and flags.
#
#   scripts/newlib.sh ARCH DIR CC CFLAGS
#     ARCH    x86_64 | aarch64 (configured as x86_64-elf / aarch64-none-elf)
#     DIR     the newlib build root: DIR/src (the unpacked sources, shared by the
#             architectures), DIR/ARCH/obj (the build tree), DIR/ARCH/install (the result:
#             install/TRIPLET/include, install/TRIPLET/lib/libc.a, libm.a)
#     CC      the target compiler (its binutils are found beside it: CC with -gcc
#             replaced by -ar, -ranlib, ...; plain ar, ranlib... for plain gcc)
#     CFLAGS  newlib's compiler flags
#
# One line per stage with the seconds it took. Only the target library newlib is built
# (all-target-newlib: libc and libm; no libgloss, no documentation).
set -eu

[ $# -eq 4 ] || { echo "usage: scripts/newlib.sh ARCH DIR CC CFLAGS" >&2; exit 2; }
arch=$1 dir=$2 cc=$3 cflags=$4
case $arch in
x86_64) triplet=x86_64-elf ;;
aarch64) triplet=aarch64-none-elf ;;
*) echo "newlib: unknown ARCH '$arch' (x86_64 or aarch64)" >&2; exit 2 ;;
esac

tarball=$(ls /usr/src/newlib/newlib-*.tar.* 2>/dev/null | head -n 1 || true)
if [ -z "$tarball" ]; then
	echo "newlib: no source tarball in /usr/src/newlib: install Debian's newlib-source" \
		"(scripts/deps.sh does)" >&2
	exit 1
fi
case $cc in
*-gcc) tools=${cc%gcc} ;;
*) tools= ;;
esac

# newlib's own make must not inherit bmprof's (make image's ARCH=, SRC=, V=...).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
src=$dir/src obj=$dir/$arch/obj inst=$dir/$arch/install
log=$dir/$arch/build.log

t0=$SECONDS
stage() {   # NAME: ends the stage that started at t0
	echo "newlib: $arch: $1 ($((SECONDS - t0)) s)"
	t0=$SECONDS
}
failed() {
	echo "newlib: $arch: $1 failed; the last lines of $log:" >&2
	tail -n 20 "$log" >&2
	exit 1
}

echo "newlib: $arch: building libc and libm into $inst (once)"
# The sources: unpacked once, for every architecture (the stamp names the tarball), by
# one build at a time (make -j builds the two architectures at once).
exec 9>"$dir/.unpack.lock"
flock 9
if [ "$(cat "$src/.unpacked" 2>/dev/null)" != "$tarball" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -xf "$tarball" -C "$src" --strip-components=1
	echo "$tarball" >"$src/.unpacked"
	stage "unpack $(basename "$tarball")"
fi
flock -u 9

rm -rf "$obj" "$inst"
mkdir -p "$obj"
: >"$log"
gccinc=$($cc -print-file-name=include)
# The target's headers are newlib's, with the compiler's own freestanding ones (stddef.h,
# stdarg.h, float.h) and never the host C library's.
flags="$cflags -nostdinc -isystem $gccinc"
(cd "$obj" && "$src/configure" --target="$triplet" --prefix="$inst" \
	--disable-multilib --disable-libgloss --disable-nls \
	--disable-newlib-supplied-syscalls --disable-newlib-multithread \
	--enable-newlib-io-long-long --enable-newlib-io-c99-formats \
	CC_FOR_TARGET="$cc" AR_FOR_TARGET="${tools}ar" RANLIB_FOR_TARGET="${tools}ranlib" \
	AS_FOR_TARGET="${tools}as" LD_FOR_TARGET="${tools}ld" NM_FOR_TARGET="${tools}nm" \
	CFLAGS_FOR_TARGET="$flags") >>"$log" 2>&1 || failed configure
stage configure
make -C "$obj" -j"$(nproc)" all-target-newlib >>"$log" 2>&1 || failed "build (libc, libm)"
stage "build libc, libm"
make -C "$obj" install-target-newlib >>"$log" 2>&1 || failed install
for f in libc.a libm.a; do
	[ -f "$inst/$triplet/lib/$f" ] || failed "install ($f missing)"
done
stage "install into $inst"
