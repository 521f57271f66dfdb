#!/usr/bin/env bash
# Writes the ELF seeds of tests/fuzz/corpus/fuzz_elf: the symbolizer fixture sources
# (tests/fixtures) and a small C++ file, built in several DWARF flavours, linked with tiny
# page alignment and without the sections the symbolizer never reads, so each stays a few
# KiB (the fuzzer mutates every byte of a seed: padding is wasted work).
#
#   x86-64 gcc DWARF 2/3/4/5 (PIE and not), clang DWARF 4/5 (strx/addrx/rnglistx forms),
#   compressed (-gz) and split (-gsplit-dwarf) debug info, i386, AArch64, C++ (linkage
#   names, specifications, namespaces), nine CUs (several decoding threads), stripped, and
#   a truncated copy.
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
