#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Seeds for tests/fuzz/fuzz_dtype.c (corpus/fuzz_dtype): the data-type fixture
# (tests/fixtures/dtype_main.c) built small in several ways; and crafted reproducers
# (regress/fuzz_dtype) whose DWARF types form cycles, made by editing the type references in
# gcc's annotated assembly (-dA): a typedef of itself, a struct whose first member is the
# struct, an array of itself, a pointer to itself.
#
# Run from the repository root: bash tests/fuzz/mkseeds-dtype.sh
set -eu
out=tests/fuzz/corpus/fuzz_dtype
reg=tests/fuzz/regress/fuzz_dtype
src=$(pwd)/tests/fixtures/dtype_main.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" "$reg"

LDF="-Wl,-z,max-page-size=16 -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,--build-id"
STATIC="-ffreestanding -nostdlib -static -Wl,-e,main -fno-stack-protector -fno-pie -no-pie"
DROP="-R .comment -R .note.gnu.property"

# elf NAME CC OBJCOPY FLAGS...
elf() {
	local name=$1 cc=$2 objcopy=$3
	shift 3
	$cc -O2 -g -fno-omit-frame-pointer $STATIC $LDF "$@" -o "$out/$name.elf" "$src"
	$objcopy $DROP "$out/$name.elf"
}

elf gcc-dw5 gcc objcopy -gdwarf-5
elf gcc-dw4-O1 gcc objcopy -gdwarf-4 -O1
elf gcc-dw5-O0 gcc objcopy -gdwarf-5 -O0
elf clang-dw5 clang objcopy -gdwarf-5
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	elf gcc-dw4-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-objcopy -gdwarf-4
	elf gcc-dw5-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-objcopy -gdwarf-5
fi

gcc -O2 -g -gdwarf-5 -fno-omit-frame-pointer -dA -S -o "$tmp/d.s" "$src"
# cycle NAME: the annotated assembly with one DW_AT_type edited (by the python below)
python3 - "$tmp" <<'PY'
import re, sys
tmp = sys.argv[1]
lines = open(f"{tmp}/d.s").read().split("\n")
die = re.compile(r"# \(DIE \((0x[0-9a-f]+)\) (DW_TAG_\w+)\)")

def dies():
    """(line index, offset, tag, name, type line index or None) for each DIE"""
    out = []
    for i, l in enumerate(lines):
        m = die.search(l)
        if not m:
            continue
        name = None
        tline = None
        for j in range(i + 1, min(i + 40, len(lines))):
            if die.search(lines[j]):
                break
            n = re.search(r'DW_AT_name: "([^"]*)"', lines[j])
            if n:
                name = n.group(1)
            if lines[j].rstrip().endswith("# DW_AT_type"):
                tline = j
        out.append((i, m.group(1), m.group(2), name, tline))
    return out

def patched(tline, target):
    copy = list(lines)
    copy[tline] = re.sub(r"\.long\s+0x[0-9a-f]+", f".long\t{target}", copy[tline])
    return copy

def write(name, body):
    open(f"{tmp}/{name}.s", "w").write("\n".join(body))

d = dies()
typedef = next(x for x in d if x[2] == "DW_TAG_typedef" and x[3] == "cost_t")
write("cycle-typedef", patched(typedef[4], typedef[1]))
node = next(x for x in d if x[2] == "DW_TAG_structure_type" and x[3] == "node")
first = next(x for x in d if x[0] > node[0] and x[2] == "DW_TAG_member")
write("cycle-struct-member", patched(first[4], node[1]))
arr = next(x for x in d if x[2] == "DW_TAG_array_type" and x[4] is not None)
write("cycle-array", patched(arr[4], arr[1]))
ptr = next(x for x in d if x[2] == "DW_TAG_pointer_type" and x[4] is not None)
write("cycle-pointer", patched(ptr[4], ptr[1]))
PY
for n in cycle-typedef cycle-struct-member cycle-array cycle-pointer; do
	gcc $STATIC $LDF -o "$reg/$n.elf" "$tmp/$n.s"
	objcopy $DROP "$reg/$n.elf"
done
ls -l "$out" "$reg"
