#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The installed kit, used from outside the source tree:
#   - make install PREFIX=T/kit puts bmprof, its plugin (at ../lib/bmprof/ from bin/), the
#     man pages, the x86-64, AArch64, Cortex-M (one per CPU: M3, M4, M33, M55) and RISC-V
#     libraries with their headers, pkg-config and CMake files in place; DESTDIR stages the
#     same tree; make uninstall removes every file;
#   - each library exports only bmprof_* symbols (and on Cortex-M the 64-bit atomics gcc
#     calls) and needs nothing but memcpy and memset (and on Cortex-M and RISC-V libgcc);
#   - a firmware of its own (tests/kit/firmware-link) links against the installed kit for
#     every Cortex-M CPU and RISC-V through pkg-config, and for the Cortex-M4 and RISC-V
#     through CMake's find_package, taking the CPU's flags from the kit alone (a Cortex-M4
#     object does not link with the Cortex-M3's soft-float library);
#   - three kernels that are not bmprof's runtime, copied out of the tree with the code of
#     docs/integration-*.md they run as written (tools/doctest.py), are built against the
#     installed kit only: tests/kit/kernel-make with pkg-config for x86-64 (the docs'
#     example with bmprof's ready-made timer entry) and for AArch64 (the docs' example: its
#     own vectors and GIC driver, PMU cycles sampling, the MMU off, a timer of its own that
#     prints beside bmprof's drains), and tests/kit/kernel-cmake with CMake's find_package
#     (x86-64, main in C++, the docs' own timer handler, a PIT tick through the 8259 that
#     prints);
#   - the installed bmprof qemu --icount profiles each: the three work functions split
#     50:30:20 within 3 points, every CPU's taken = delivered + lost exactly with every
#     frame intact, and where the kernel's own interrupt printed while bmprof drained,
#     lines were dropped (the console lock held) and none was cut; a kernel that ignores
#     --freq is named in one warning line, and the report gives the rate it ran at;
#   - the installed bmprof count (its plugin found beside it) counts the x86-64 kernel's
#     work functions exactly.
. "$(dirname "$0")/lib.sh"
need_qemu
for t in cmake pkg-config g++ aarch64-linux-gnu-gcc arm-none-eabi-gcc riscv64-unknown-elf-gcc groff; do
	command -v "$t" >/dev/null || skip "$t not installed (scripts/deps.sh installs it)"
done

KIT=$T/kit
(cd "$ROOT" && make --no-print-directory -s install PREFIX="$KIT" BUILD="$BUILD") >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; fail "make install failed"; }

# --- the installed tree
for f in bin/bmprof lib/bmprof/insn_count.so lib/bmprof/bhive-x86_64.elf lib/bmprof/bhive-aarch64.elf \
	lib/bmprof/x86_64/libbmprof.a \
	lib/bmprof/aarch64/libbmprof.a include/bmprof/bmprof.h include/bmprof/wire.h \
	include/bmprof/bmprof_x86_64.h include/bmprof/bmprof_aarch64.h include/bmprof/bmprof_pmu.h \
	include/bmprof/bmprof_ring.h include/bmprof/bmprof_desc.h \
	lib/pkgconfig/bmprof-x86_64.pc lib/pkgconfig/bmprof-aarch64.pc \
	lib/cmake/bmprof/bmprofConfig.cmake lib/cmake/bmprof/bmprofConfigVersion.cmake \
	share/man/man1/bmprof.1 share/man/man1/bmprof-qemu.1 share/doc/bmprof/LICENSE \
	include/bmprof/bmprof_cortexm.h include/bmprof/bmprof_itm.h include/bmprof/bmprof_riscv64.h; do
	[ -f "$KIT/$f" ] || fail "make install did not install $f"
done
MCU="cortex-m3 cortex-m4 cortex-m33 cortex-m55 riscv64"
for a in $MCU; do
	for f in lib/bmprof/$a/libbmprof.a lib/pkgconfig/bmprof-$a.pc; do
		[ -f "$KIT/$f" ] || fail "make install did not install $f"
	done
done
version=$("$KIT/bin/bmprof" --version | awk '{print $2}')
export PKG_CONFIG_PATH=$KIT/lib/pkgconfig
for a in x86_64 aarch64; do
	[ "$(pkg-config --modversion bmprof-$a)" = "$version" ] || fail "bmprof-$a.pc: version is not $version"
	pkg-config --cflags bmprof-$a | grep -q -- "-I$KIT/include/bmprof .*-mgeneral-regs-only" ||
		fail "bmprof-$a.pc: Cflags: $(pkg-config --cflags bmprof-$a)"
done
pkg-config --cflags bmprof-aarch64 | grep -q -- "-mno-outline-atomics -mstrict-align" ||
	fail "bmprof-aarch64.pc lacks -mno-outline-atomics -mstrict-align"
pkg-config --cflags bmprof-x86_64 | grep -q -- "-mno-red-zone" || fail "bmprof-x86_64.pc lacks -mno-red-zone"
# each Cortex-M library is its CPU's, with its float ABI; RISC-V's is RV64GC, lp64d, medany
for want in "cortex-m3:-mthumb -mcpu=cortex-m3 -mfloat-abi=soft" \
	"cortex-m4:-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16" \
	"cortex-m33:-mthumb -mcpu=cortex-m33 -mfloat-abi=hard -mfpu=fpv5-sp-d16" \
	"cortex-m55:-mthumb -mcpu=cortex-m55 -mfloat-abi=hard" \
	"riscv64:-march=rv64gc -mabi=lp64d -mcmodel=medany"; do
	a=${want%%:*}
	[ "$(pkg-config --modversion bmprof-$a)" = "$version" ] || fail "bmprof-$a.pc: version is not $version"
	pkg-config --cflags bmprof-$a | grep -q -- "-I$KIT/include/bmprof .*${want#*:}" ||
		fail "bmprof-$a.pc: Cflags: $(pkg-config --cflags bmprof-$a)"
	[ "$(pkg-config --libs bmprof-$a | xargs)" = "-L$KIT/lib/bmprof/$a -lbmprof -lgcc" ] ||
		fail "bmprof-$a.pc: Libs: $(pkg-config --libs bmprof-$a)"
done

# every man page formats without a warning (a wide table may not fit: that is layout)
for m in "$KIT"/share/man/man1/*.1; do
	w=$(groff -t -man -Tutf8 -ww -z "$m" 2>&1 | grep -v "cannot adjust\|can't break\|table wider\|around line")
	[ -z "$w" ] || fail "$(basename "$m"): $w"
done
MANPATH=$KIT/share/man man -w bmprof-qemu >/dev/null 2>&1 || fail "man does not find bmprof-qemu under $KIT/share/man"
MANWIDTH=80 MANPATH=$KIT/share/man man bmprof-qemu 2>/dev/null | grep -q "^ *bmprof-qemu - boot an image in QEMU" ||
	fail "man bmprof-qemu: no NAME line"
MANWIDTH=80 MANPATH=$KIT/share/man man bmprof-qemu 2>/dev/null | grep -q "^ *-f, --freq HZ$" ||
	fail "man bmprof-qemu: no --freq in OPTIONS"

# the libraries: only bmprof_* global, nothing needed but memcpy and memset
for a in x86_64 aarch64; do
	nmt=nm
	[ $a = aarch64 ] && nmt=aarch64-linux-gnu-nm
	other=$($nmt "$KIT/lib/bmprof/$a/libbmprof.a" | awk '$2 ~ /^[A-TV-Z]$/ && $3 !~ /^bmprof_/ {print $3}')
	[ -z "$other" ] || fail "$a library: global symbols not named bmprof_*: $other"
	needs=$($nmt -u "$KIT/lib/bmprof/$a/libbmprof.a" | awk 'NF == 2 {print $2}' | sort -u |
		grep -vx 'memcpy\|memset' || true)
	[ -z "$needs" ] || fail "$a library needs more than memcpy and memset: $needs"
done
for a in $MCU; do
	nmt=arm-none-eabi-nm
	[ $a = riscv64 ] && nmt=riscv64-unknown-elf-nm
	other=$($nmt "$KIT/lib/bmprof/$a/libbmprof.a" |
		awk '$2 ~ /^[A-TV-Z]$/ && $3 !~ /^(bmprof_|__atomic_)/ {print $3}')
	[ -z "$other" ] || fail "$a library: global symbols not named bmprof_*: $other"
	needs=$($nmt -u "$KIT/lib/bmprof/$a/libbmprof.a" | awk 'NF == 2 {print $2}' | sort -u |
		grep -vx 'memcpy\|memset\|__aeabi_[a-z0-9]*\|__[a-z]*di2' || true)
	[ -z "$needs" ] || fail "$a library needs more than memcpy, memset and libgcc: $needs"
done

# --- a firmware of its own, linked against the installed kit (pkg-config, CMake)
FW=$ROOT/tests/kit/firmware-link
fwlink() {   # ARCH ELF
	local cc=arm-none-eabi-gcc src=$FW/fw_cortexm.c entry=reset
	[ "$1" = riscv64 ] && cc=riscv64-unknown-elf-gcc src=$FW/fw_riscv64.c entry=start
	# shellcheck disable=SC2046
	$cc $(pkg-config --cflags bmprof-"$1") -std=gnu11 -O2 -Wall -Wextra -Werror -nostdlib \
		-static -Wl,-e,$entry -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments -o "$2" "$src" \
		$(pkg-config --libs bmprof-"$1")
}
for a in $MCU; do
	fwlink $a "$T/fw-$a.elf" >"$T/fw-$a.log" 2>&1 || { cat "$T/fw-$a.log"; fail "firmware ($a, pkg-config) did not link"; }
	nmt=arm-none-eabi-nm
	[ $a = riscv64 ] && nmt=riscv64-unknown-elf-nm
	$nmt "$T/fw-$a.elf" | grep -q " bmprof_descriptor$" || fail "firmware ($a): no bmprof_descriptor"
done
PKG_CONFIG_PATH=$T/pc-mix
mkdir -p "$PKG_CONFIG_PATH"
sed 's|/cortex-m4$|/cortex-m3|' "$KIT/lib/pkgconfig/bmprof-cortex-m4.pc" >"$PKG_CONFIG_PATH/bmprof-cortex-m4.pc"
fwlink cortex-m4 "$T/fw-mix.elf" >"$T/fw-mix.log" 2>&1 && fail "a Cortex-M4 firmware linked with the Cortex-M3 library"
grep -q "uses VFP register arguments" "$T/fw-mix.log" || { cat "$T/fw-mix.log"; fail "fw-mix: not the float ABI"; }
export PKG_CONFIG_PATH=$KIT/lib/pkgconfig
for tc in cortex-m4:arm-none-eabi riscv64:riscv64-unknown-elf; do
	a=${tc%%:*}
	cmake -S "$FW" -B "$T/fwc-$a" -DCMAKE_TOOLCHAIN_FILE="$FW/toolchain-${tc#*:}.cmake" \
		-DBMPROF_ARCH=$a -DCMAKE_PREFIX_PATH="$KIT" >"$T/fwc-$a.log" 2>&1 &&
		cmake --build "$T/fwc-$a" >>"$T/fwc-$a.log" 2>&1 ||
		{ cat "$T/fwc-$a.log"; fail "firmware ($a, find_package) did not link"; }
	${tc#*:}-nm "$T/fwc-$a/fw.elf" | grep -q " bmprof_descriptor$" ||
		fail "firmware ($a, CMake): no bmprof_descriptor"
done

# --- the kernels, from a copy outside the tree, with the docs' code
SRC=$T/src
mkdir -p "$SRC"
cp -r "$ROOT/tests/kit/." "$SRC/"
(cd "$ROOT" && python3 tools/doctest.py extract "$SRC/docs" docs/*.md) >/dev/null ||
	fail "extracting the docs' examples failed"
for a in x86_64 aarch64; do
	make -s -C "$SRC/kernel-make" ARCH=$a O="$T/make-$a" EXAMPLE="$SRC/docs/example-$a.c" \
		CONSOLE="$SRC/docs/console-lock.c" >"$T/make-$a.log" 2>&1 ||
		{ cat "$T/make-$a.log"; fail "kernel-make ($a, pkg-config) did not build"; }
done
cmake -S "$SRC/kernel-cmake" -B "$T/cmake" -DCMAKE_TOOLCHAIN_FILE=toolchain-x86_64.cmake \
	-DCMAKE_PREFIX_PATH="$KIT" -DDOC_DIR="$SRC/docs" >"$T/cmake.log" 2>&1 &&
	cmake --build "$T/cmake" >>"$T/cmake.log" 2>&1 ||
	{ cat "$T/cmake.log"; fail "kernel-cmake (find_package) did not build"; }
intree=$(grep -rl "$ROOT" "$T/make-x86_64"/*.o "$T/cmake/CMakeFiles/kernel.elf.dir/flags.make")
[ -z "$intree" ] || fail "compiled with a path into the source tree: $intree"

# find_package names what is missing
mkdir -p "$T/badcomp"
printf 'cmake_minimum_required(VERSION 3.13)\nproject(x NONE)\nfind_package(bmprof REQUIRED COMPONENTS mips64)\n' \
	>"$T/badcomp/CMakeLists.txt"
cmake -S "$T/badcomp" -B "$T/badcomp/b" -DCMAKE_PREFIX_PATH="$KIT" >"$T/badcomp.log" 2>&1 &&
	fail "find_package(bmprof COMPONENTS mips64) succeeded"
grep -q "no library for 'mips64'" "$T/badcomp.log" || { cat "$T/badcomp.log"; fail "find_package: no clear message"; }

# --- profile each with the installed bmprof
run() {   # run NAME ELF BMPROF-ARGS...
	local name=$1 elf=$2 rc=0
	shift 2
	"$KIT/bin/bmprof" qemu --icount --timeout 120 -o "$T/$name.data" "$@" "$elf" \
		>"$T/$name.out" 2>"$T/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $rc"; }
	"$KIT/bin/bmprof" report -i "$T/$name.data" --format json >"$T/$name.json" ||
		fail "$name: report failed"
	"$KIT/bin/bmprof" report -i "$T/$name.data" >"$T/$name.txt" || fail "$name: report failed"
	check_accounting "$T/$name.json"
	python3 - "$name" "$T/$name.json" "$T/$name.out" <<'PY' || fail "$name"
import json, re, sys
name, r, out = sys.argv[1], json.load(open(sys.argv[2])), open(sys.argv[3]).read()
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
want = {"work_a": 50, "work_b": 30, "work_c": 20}
tot = sum(rows.get(f, 0) for f in want)
assert tot >= 300, f"only {tot} samples in the work functions: {rows}"
for f, w in want.items():
    got = 100.0 * rows.get(f, 0) / tot
    print(f"{name}: {f} {got:.1f}% (want {w}%)")
    assert abs(got - w) <= 3, f"{f}: {got:.1f}% is not within 3 points of {w}%"
s = r["meta"]["stream"]
assert s["frames_bad_crc"] == 0 and s["frames_malformed"] == 0 and s["bytes_skipped"] == 0, s
assert r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 0, r["meta"]["end"]
m = re.search(r"interrupt text dropped (\d+)", out)
assert m, "the kernel's closing line is missing"
# the kernel's own interrupt lines: whole, and with the dropped ones as many as its ticks
lines = [l for l in out.splitlines() if l.startswith(("tick ", "pit "))]
for l in lines:
    assert re.fullmatch(r"(tick|pit) \d+", l), f"a cut line: {l!r}"
t = re.search(r"(\d+) (?:ticks of its own|PIT ticks)", out)
if t:
    ticks, dropped = int(t.group(1)), int(m.group(1))
    assert len(lines) + dropped == ticks, f"{len(lines)} lines + {dropped} dropped != {ticks} ticks"
    assert dropped > 0, "no interrupt line met a drain: the console lock was not exercised"
    print(f"{name}: {ticks} ticks, {len(lines)} lines printed, {dropped} dropped while the console was held")
PY
}

run make-x86_64 "$T/make-x86_64/kernel.elf"        # default --freq 1000; the kernel ticks at 4000
run make-aarch64 "$T/make-aarch64/kernel.elf"
run cmake-x86_64 "$T/cmake/kernel.elf" --freq 4000

# the x86-64 example ignores --freq (it does not read the run configuration): one line says so
w="the image's timer sampled at 4000 Hz, not at the 1000 Hz of --freq"
[ "$(grep -c "$w" "$T/make-x86_64.err")" = 1 ] || { cat "$T/make-x86_64.err"; fail "no one-line --freq warning"; }
grep -q "^# warning   $w" "$T/make-x86_64.txt" || fail "the report does not say the image ignored --freq"
grep -q "^# event 0   timer: period [0-9]* ticks (4000 Hz)" "$T/make-x86_64.txt" ||
	fail "the report's header does not give the rate the image ran at"
grep -q "not at the .* Hz of --freq" "$T/cmake-x86_64.err" "$T/make-aarch64.err" &&
	fail "a --freq warning for a kernel that ran at the rate asked for"

# the plugin is found from the installed bin/: exact counts of the x86-64 kernel's work
"$KIT/bin/bmprof" count --json -f work_a -f work_b -f work_c "$T/make-x86_64/kernel.elf" \
	>"$T/count.json" 2>"$T/count.err" || { cat "$T/count.err"; fail "installed bmprof count failed"; }
python3 - "$T/count.json" <<'PY' || fail "bmprof count"
import json, sys
r = json.load(open(sys.argv[1]))
n = {f["name"]: f["instructions"] for f in r["functions"]}
a, b, c = n["work_a"], n["work_b"], n["work_c"]
# the same loop body, 50:30:20 units of iterations: exact up to the few instructions around it
assert abs(a * 3 - b * 5) < 100 and abs(a * 2 - c * 5) < 100, n
print("count:", n)
PY

# --- DESTDIR stages the same tree; uninstall removes every file
(cd "$ROOT" && make --no-print-directory -s install PREFIX=/opt/bmprof DESTDIR="$T/stage" BUILD="$BUILD") \
	>"$T/stage.log" 2>&1 || { cat "$T/stage.log"; fail "make install DESTDIR= failed"; }
grep -q "^prefix=/opt/bmprof$" "$T/stage/opt/bmprof/lib/pkgconfig/bmprof-x86_64.pc" ||
	fail "with DESTDIR the .pc prefix is not PREFIX"
[ "$(cd "$T/stage/opt/bmprof" && find . -type f | sort)" = "$(cd "$KIT" && find . -type f | sort)" ] ||
	fail "DESTDIR installed another set of files"
for root in "$KIT" "$T/stage/opt/bmprof"; do
	case $root in "$KIT") args="PREFIX=$KIT" ;; *) args="PREFIX=/opt/bmprof DESTDIR=$T/stage" ;; esac
	(cd "$ROOT" && make --no-print-directory -s uninstall $args BUILD="$BUILD") >"$T/un.log" 2>&1 ||
		{ cat "$T/un.log"; fail "make uninstall failed"; }
	left=$(find "$root" -type f)
	[ -z "$left" ] || fail "make uninstall left: $left"
done
echo "install: ok"
