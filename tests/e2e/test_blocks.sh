#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof blocks, and measured block cycles in the CPI analysis (--measured):
#   every listed block of an image decodes (objdump) to straight-line code: no jump,
#   branch, call or return (x86-64 and AArch64); blocks are listed once; --function keeps
#   to one function, and each block's location (function+offset) holds its bytes;
#   cpi --measured FILE makes the issue cycles of each measured block add up to its
#   measured cycles (and says so), where the model gives other numbers; bad inputs (an
#   unknown function, a stripped ELF, a malformed results line) are one-line errors.
. "$(dirname "$0")/lib.sh"
need_qemu
elf=$IMAGES/shares.elf

"$BMPROF" blocks "$elf" >"$T/all.csv" || fail "blocks failed"
"$BMPROF" blocks --function work_a -o "$T/a.csv" "$elf" 2>"$T/err" || { cat "$T/err"; fail "blocks --function failed"; }
grep -q "blocks of 1 function in" "$T/err" || { cat "$T/err"; fail "no summary line"; }

straight() {   # CSV OBJDUMP MACHINE
	python3 - "$1" "$2" "$3" "$T" <<'PY' || exit 1
import subprocess, sys, re
csv, objdump, machine, tmp = sys.argv[1:5]
seen = set()
lines = [l.rstrip("\n").split(",") for l in open(csv)]
assert lines, "no blocks"
for hexs, where in lines:
    assert hexs not in seen, f"block listed twice: {hexs}"
    seen.add(hexs)
# every block is distinct; decode an even spread of at most 150 of them (objdump per block)
lines = lines[::max(1, len(lines) // 150)]
bad = re.compile(r"\b(j[a-z]*|call[a-z]*|ret[a-z]*|b|b\.[a-z]+|bl|blr|br|cbn?z|tbn?z|ret)\b")
for hexs, where in lines:
    assert re.fullmatch(r"[0-9a-f]+", hexs) and len(hexs) % 2 == 0, hexs
    open(tmp + "/b.bin", "wb").write(bytes.fromhex(hexs))
    out = subprocess.run([objdump, "-D", "-b", "binary", "-m", machine, tmp + "/b.bin"],
                         capture_output=True, text=True, check=True).stdout
    insns = [l.split("\t")[-1].split()[0] for l in out.splitlines()
             if re.match(r"\s+[0-9a-f]+:\t", l) and len(l.split("\t")) >= 3]
    assert insns, (hexs, out)
    for m in insns:
        assert not bad.fullmatch(m), f"{where}: {m} in a block ({hexs})"
print(len(seen), "blocks,", len(lines), "decoded: straight-line")
PY
}
straight "$T/all.csv" objdump i386:x86-64
straight "$T/a.csv" objdump i386:x86-64
grep -v ',work_a+0x' "$T/a.csv" && fail "--function work_a listed another function's block"

# each block is where it says: its bytes at function+offset in the ELF
python3 - "$T/a.csv" "$elf" <<'PY' || exit 1
import subprocess, sys
csv, elf = sys.argv[1:3]
syms = {}
for l in subprocess.run(["nm", elf], capture_output=True, text=True, check=True).stdout.splitlines():
    a, t, n = l.split()
    syms[n] = int(a, 16)
data = open(elf, "rb").read()
hdr = subprocess.run(["readelf", "-lW", elf], capture_output=True, text=True, check=True).stdout
segs = []
for l in hdr.splitlines():
    f = l.split()
    if f and f[0] == "LOAD":
        segs.append((int(f[2], 16), int(f[1], 16), int(f[4], 16)))   # vaddr, offset, filesz
for hexs, where in (l.strip().split(",") for l in open(csv)):
    fn, off = where.split("+")
    addr = syms[fn] + int(off, 16)
    v, o, n = next(s for s in segs if s[0] <= addr < s[0] + s[2])
    b = bytes.fromhex(hexs)
    assert data[o + addr - v:o + addr - v + len(b)] == b, where
PY

# AArch64
A64=$ROOT/$BUILD/test-images-aarch64
if [ -f "$A64/shares.elf" ] && command -v aarch64-linux-gnu-objdump >/dev/null; then
	"$BMPROF" blocks "$A64/shares.elf" >"$T/a64.csv" || fail "blocks (aarch64) failed"
	straight "$T/a64.csv" aarch64-linux-gnu-objdump aarch64
fi

# errors
"$BMPROF" blocks --function no_such_fn "$elf" >/dev/null 2>"$T/e1" && fail "unknown function accepted"
[ "$(wc -l <"$T/e1")" = 1 ] && grep -q "no_such_fn" "$T/e1" || { cat "$T/e1"; fail "unknown function message"; }
cp "$elf" "$T/stripped.elf" && strip "$T/stripped.elf"
"$BMPROF" blocks "$T/stripped.elf" >/dev/null 2>"$T/e2" && fail "stripped ELF accepted"
grep -q "stripped" "$T/e2" || { cat "$T/e2"; fail "stripped message"; }

# cpi --measured
"$BMPROF" qemu --icount --freq 20000 -o "$T/p.data" "$elf" >/dev/null 2>"$T/qerr" || { cat "$T/qerr"; fail "qemu run"; }
{ echo "hex,cycles,status,detail"; sed 's/,.*/,50,ok,/' "$T/a.csv"; } >"$T/r.csv"
"$BMPROF" cpi -i "$T/p.data" work_a --json >"$T/model.json" || fail "cpi failed"
"$BMPROF" cpi -i "$T/p.data" work_a --json --measured "$T/r.csv" >"$T/meas.json" || fail "cpi --measured failed"
"$BMPROF" cpi -i "$T/p.data" work_a --measured "$T/r.csv" >"$T/meas.txt" || fail "cpi --measured (text) failed"
grep -q "best case measured for [1-9][0-9]* of [0-9]* blocks" "$T/meas.txt" || { head -20 "$T/meas.txt"; fail "no measured note"; }
python3 - "$T/a.csv" "$elf" "$T/model.json" "$T/meas.json" <<'PY' || exit 1
import json, subprocess, sys
csv, elf, mj, sj = sys.argv[1:5]
base = next(int(l.split()[0], 16) for l in subprocess.run(["nm", elf], capture_output=True,
            text=True, check=True).stdout.splitlines() if l.split()[2] == "work_a")
def insns(path):
    out = {}
    def walk(x):
        if isinstance(x, dict):
            if "issue_cycles" in x and "addr" in x:
                out[int(x["addr"], 16)] = x["issue_cycles"]
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(json.load(open(path)))
    return out
model, meas = insns(mj), insns(sj)
differ = 0
for hexs, where in (l.strip().split(",") for l in open(csv)):
    lo = base + int(where.split("+")[1], 16)
    hi = lo + len(hexs) // 2
    m = sum(c for a, c in meas.items() if lo <= a < hi)
    assert m == 50, f"{where}: measured block's issue cycles add up to {m}, not 50"
    differ += sum(c for a, c in model.items() if lo <= a < hi) != 50
assert differ, "the model already gave 50 cycles: the test proves nothing"
PY
printf 'hex,cycles\n48c7c0,abc\n' >"$T/bad.csv"
"$BMPROF" cpi -i "$T/p.data" work_a --measured "$T/bad.csv" >/dev/null 2>"$T/e3" && fail "bad results accepted"
grep -q "bad.csv:2: the cycles column is not a positive number" "$T/e3" || { cat "$T/e3"; fail "bad results message"; }
echo "blocks ok"
