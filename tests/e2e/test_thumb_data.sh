#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Data inside Thumb code (Cortex-M3, tests/e2e/progs-cortexm/pool.c): the hot function
# pool_work has a tbb table after its tbb and a literal pool after its last branch, marked
# by the ELF's mapping symbols ($t code, $d data). bmprof annotate lists pool_work and
# eight of the runtime's functions that hold data exactly as objdump -d does:
# the same addresses, the data as the same .word/.short/.byte with the same values, the
# code's instruction boundaries unchanged; bmprof cpi's blocks hold every instruction of
# pool_work and no byte of its data (nothing decoded there, nothing counted).
. "$(dirname "$0")/lib.sh"
command -v qemu-system-arm >/dev/null || skip "qemu-system-arm not installed (make deps)"
command -v arm-none-eabi-objdump >/dev/null || skip "arm-none-eabi-objdump not installed (make deps)"
ELF=$ROOT/$BUILD/test-images-cortex-m3/pool.elf
[ -f "$ELF" ] || skip "no $ELF: run make test-images-cortexm"

"$BMPROF" qemu --icount --freq 20000 -o "$T/p.data" "$ELF" >"$T/p.out" 2>"$T/p.err" ||
	{ cat "$T/p.err"; fail "bmprof qemu failed"; }

# the functions holding data: a $d mapping symbol inside their [start, end)
arm-none-eabi-objdump -d "$ELF" >"$T/objdump.txt"
arm-none-eabi-nm --special-syms -n -S "$ELF" >"$T/nm.txt"
funcs=$(python3 - "$T/nm.txt" <<'PY'
import sys
fn, d = [], []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 4 and p[2] in "tT":
        fn.append((int(p[0], 16) & ~1, int(p[1], 16), p[3]))
    elif len(p) == 3 and p[2].startswith("$d"):
        d.append(int(p[0], 16))
have = sorted({f"{n}:{s + z:x}" for s, z, n in fn if any(s <= a < s + z for a in d)})
# pool_work, and eight of the others spread over the list (annotate takes a while each)
pick = [f for f in have if f.startswith("pool_work:")]
rest = [f for f in have if f not in pick]
print(" ".join(pick + rest[::max(1, len(rest) // 8)][:8]))
PY
)
case " $funcs " in *" pool_work:"*) ;; *) fail "pool_work has no \$d in it: no data to test ($funcs)";; esac

# objdump's lines of FUNCTION below END (it runs on to the next symbol: padding)
cat >"$T/lines.py" <<'PY'
import re
def lines(objdump, fn, end):
    body = re.search(r"<%s>:\n(.*?)(?:\n\n|\Z)" % re.escape(fn), objdump, re.S).group(1)
    for line in body.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+([0-9a-f ]+?)\s*\t(\S+)\s*(\S*)", line)
        if m and int(m.group(1), 16) < end:
            yield int(m.group(1), 16), len(m.group(2).replace(" ", "")) // 2, m.group(3), m.group(4)
PY
export PYTHONPATH=$T:$PYTHONPATH
n=0
for fe in $funcs; do
	f=${fe%%:*}
	"$BMPROF" annotate -i "$T/p.data" --elf "$ELF" "$f" >"$T/a-$f.txt" 2>&1 ||
		{ cat "$T/a-$f.txt"; fail "annotate $f"; }
	python3 - "$T/objdump.txt" "$T/a-$f.txt" "$f" "${fe#*:}" <<'PY' || fail "annotate $f: not objdump's listing"
import re, sys
from lines import lines
objdump, ann, fn = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
want = [(a, (mn, int(op, 16)) if mn in (".word", ".short", ".byte") else None)
        for a, _, mn, op in lines(objdump, fn, int(sys.argv[4], 16))]
got = []
for line in ann.splitlines():
    m = re.match(r"^[> ]?\s*(?:[0-9.]+%?\s+)*([0-9a-f]+):  (\S+)\s*(\S*)", line)
    if m:
        addr, mn, op = int(m.group(1), 16), m.group(2), m.group(3)
        got.append((addr, (mn, int(op, 16)) if mn in (".word", ".short", ".byte") else None))
assert [a for a, _ in got] == [a for a, _ in want], \
    f"addresses differ: {[hex(a) for a, _ in got][:40]} vs {[hex(a) for a, _ in want][:40]}"
for (a, g), (_, w) in zip(got, want):
    assert g == w, f"0x{a:x}: annotate {g}, objdump {w}"
data = sum(1 for _, w in want if w)
assert data > 0, "no data in the listing"
print(f"{fn}: {len(want)} lines as objdump, {data} of them data")
PY
	n=$((n + 1))
done

"$BMPROF" cpi -i "$T/p.data" --elf "$ELF" --json pool_work >"$T/cpi.json" 2>"$T/cpi.err" ||
	{ cat "$T/cpi.err"; fail "cpi pool_work"; }
end=$(printf '%s\n' $funcs | sed -n 's/^pool_work://p')
python3 - "$T/cpi.json" "$T/objdump.txt" "$end" <<'PY' || fail "cpi counted data as instructions"
import json, sys
from lines import lines
r, objdump = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
code, data = set(), set()
for a, nbytes, mn, _ in lines(objdump, "pool_work", int(sys.argv[3], 16)):
    (data.update(range(a, a + nbytes)) if mn.startswith(".") else code.add(a))
got = [int(i["addr"], 16) for b in r["blocks"] for i in b["insns"]]
assert len(got) == len(set(got)), "an instruction in two blocks"
assert set(got) == code, (sorted(set(got) ^ code))
assert sum(b["ninsns"] for b in r["blocks"]) == len(code)
assert not data & set(got), "an instruction in the data"
print(f"cpi pool_work: {len(code)} instructions in {len(r['blocks'])} blocks, {len(data)} data bytes left out")
PY
echo "Thumb data: $n functions listed as objdump lists them; cpi counts instructions only"
