#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Writes the ELF seeds of tests/fuzz/corpus/fuzz_elf and fuzz_cpi, and the fixed ELF of the
# harnesses that run whole verbs (tests/fuzz/data/image-x86_64.elf).
#
# fuzz_elf: the symbolizer fixture sources
# (tests/fixtures) and a small C++ file, built in several DWARF flavours, linked with tiny
# page alignment and without the sections the symbolizer never reads, so each stays a few
# KiB (the fuzzer mutates every byte of a seed: padding is wasted work).
#
#   x86-64 gcc DWARF 2/3/4/5 (PIE and not), clang DWARF 4/5 (strx/addrx/rnglistx forms),
#   compressed (-gz) and split (-gsplit-dwarf) debug info, i386, AArch64, C++ (linkage
#   names, specifications, namespaces), nine CUs (several decoding threads), stripped, and
#   a truncated copy.
#
# fuzz_cpi and data/: the same fixture sources with tests/fuzz/jtab.c (switches gcc compiles
#   to jump tables, a loop around one, a loop that never ends): x86-64 non-PIE (8-byte
#   absolute tables) and PIE (4-byte relative ones), AArch64 (ldrb/ldrh tables), clang;
#   the seeds without DWARF (the CPI analysis reads symbols and bytes only).
#
# The build-id of data/image-x86_64.elf is in the profiles tests/fuzz/mkseeds.py writes:
# run that after this.
#
# Run from the repository root: bash tests/fuzz/mkseeds-elf.sh
set -eu
out=tests/fuzz/corpus/fuzz_elf
src=$(pwd)/tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

LDF="-Wl,-z,max-page-size=16 -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,--build-id"
STATIC="-nostdlib -static -Wl,-e,main -fno-stack-protector -fno-pie"
DROP="-R .comment -R .eh_frame -R .eh_frame_hdr -R .debug_loc -R .debug_loclists
	-R .note.gnu.property -R .note.ABI-tag"

# elf NAME CC OBJCOPY FLAGS...: the fixture built with FLAGS
elf() {
	local name=$1 cc=$2 objcopy=$3
	shift 3
	$cc -O2 -g -fno-omit-frame-pointer "$@" -c -o "$tmp/m.o" "$src/sym_main.c"
	(cd "$src" && $cc -O2 -g -fno-omit-frame-pointer "$@" -c -o "$tmp/o.o" sym_other.c)
	$cc "$@" $LDF -o "$out/$name.elf" "$tmp/m.o" "$tmp/o.o"
	$objcopy $DROP "$out/$name.elf"
}

elf gcc-dw2 gcc objcopy -gdwarf-2 -no-pie
elf gcc-dw3-static gcc objcopy -gdwarf-3 $STATIC
elf gcc-dw4 gcc objcopy -gdwarf-4 -no-pie
elf gcc-dw5-pie gcc objcopy -gdwarf-5
elf gcc-dw5-gz gcc objcopy -gdwarf-5 -gz=zlib -no-pie
elf gcc-dw5-split gcc objcopy -gdwarf-5 -gsplit-dwarf -no-pie
elf gcc-dw5-i386 gcc objcopy -gdwarf-5 -m32 $STATIC
elf clang-dw4 clang objcopy -gdwarf-4 -fno-pie -no-pie
elf clang-dw5 clang objcopy -gdwarf-5
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	elf gcc-dw5-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-objcopy -gdwarf-5 $STATIC
fi

cat >"$tmp/cxx.cc" <<'EOF'
namespace ns {
struct Acc {
	long v;
	__attribute__((noinline)) long add(long x);
	inline long twice(long x) { return add(x) + add(x); }
};
long Acc::add(long x) { return v += x * 3; }
template <typename T> __attribute__((noinline)) T scale(T x) { return x * 5; }
}
int main(int argc, char **)
{
	ns::Acc a{argc};
	return (int)(a.twice(argc) + ns::scale<long>(argc) + ns::scale<int>(argc));
}
EOF
g++ -O2 -g -gdwarf-5 -fno-exceptions $STATIC $LDF -o "$out/gxx-dw5.elf" "$tmp/cxx.cc"
objcopy $DROP "$out/gxx-dw5.elf"
clang++ -O1 -g -gdwarf-4 -fno-exceptions $STATIC $LDF -o "$out/clangxx-dw4.elf" "$tmp/cxx.cc"
objcopy $DROP "$out/clangxx-dw4.elf"

python3 bench/symbolize/gen.py --files 9 --funcs 2 --out "$tmp/multi" >/dev/null
gcc -O2 -g -gdwarf-5 -fno-omit-frame-pointer $LDF -o "$out/gcc-multi9.elf" "$tmp"/multi/*.c
objcopy $DROP "$out/gcc-multi9.elf"

objcopy --strip-all "$out/gcc-dw5-pie.elf" "$out/stripped.elf"
head -c 3000 "$out/gcc-dw4.elf" >"$out/truncated.elf"
ls -l "$out"

cpi=tests/fuzz/corpus/fuzz_cpi
data=tests/fuzz/data
mkdir -p "$cpi" "$data"
SRCS="$src/sym_main.c $src/sym_other.c $(pwd)/tests/fuzz/jtab.c"
# cpiimg OUT CC OBJCOPY FLAGS...: the fixture and jtab.c, linked small; a seed (under $cpi)
# without its DWARF
cpiimg() {
	local o=$1 cc=$2 objcopy=$3
	shift 3
	(cd "$src" && $cc -O2 -g -fno-omit-frame-pointer "$@" $LDF -o "$o" $SRCS)
	$objcopy $DROP "$o"
	case $o in "$(pwd)/$cpi"/*) $objcopy --strip-debug "$o" ;; esac
}
cpiimg "$(pwd)/$data/image-x86_64.elf" gcc objcopy -gdwarf-4 $STATIC
cpiimg "$(pwd)/$cpi/x86.elf" gcc objcopy $STATIC
cpiimg "$(pwd)/$cpi/x86-pie.elf" gcc objcopy -fPIE -pie -nostdlib -Wl,-e,main -fno-stack-protector
cpiimg "$(pwd)/$cpi/clang.elf" clang objcopy $STATIC
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	cpiimg "$(pwd)/$cpi/a64.elf" aarch64-linux-gnu-gcc aarch64-linux-gnu-objcopy $STATIC
fi
ls -l "$cpi" "$data"

# regress/fuzz_cpi: crafted procedures that once took quadratic time or memory: one block
# of 8000 instructions (DCPI's culprits), 1000 "ret; jmp *T(,%rax,8)" (the branch into
# straight-line code) and 1000 "movslq; add; jmp *%rax" without their lea (the hoisted
# table register), and 400 function symbols nested in one 20 KB function
reg=tests/fuzz/regress/fuzz_cpi
mkdir -p "$reg"
# crafted NAME: assemble $tmp/NAME.s into $reg/NAME, entry f
crafted() {
	gcc -c "$tmp/$1.s" -o "$tmp/$1.o"
	ld -e f -o "$reg/$1" "$tmp/$1.o"
}
python3 - "$tmp" <<'PY'
import sys
tmp = sys.argv[1]
head = [".text", ".globl f", ".type f,@function", "f:"]
tail = ["ret", ".size f, .-f"]
def put(name, body):
    open(f"{tmp}/{name}.s", "w").write("\n".join(head + body + tail) + "\n")
put("long-block-8000", [".fill 8000,1,0x90"])
put("jump-after-ret-1000", ["ret", "jmp *0x1000(,%rax,8)"] * 1000)
put("table-add-no-lea-1000", ["movslq (%rdx,%rax,4),%rax", "add %rdx,%rax", "jmp *%rax"] * 1000)
nested = [".fill 20000,1,0x90"]
for i in range(1, 400):
    nested += [f".globl g{i}", f".type g{i},@function", f".set g{i}, f + {i * 48}",
               f".size g{i}, {20000 - i * 48}"]
put("nested-symbols-400", nested)
PY
for n in long-block-8000 jump-after-ret-1000 table-add-no-lea-1000 nested-symbols-400; do
	crafted $n
done
ls -l "$reg"
