#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof export over a synthetic profile of a small host-built ELF (no QEMU): the pprof
# file read back by an independent decoder (gzip + protobuf wire format, written here), its
# totals, names, lines, mapping and time values; folded lines; JSON as bmprof report's.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

cat >"$T/prog.c" <<'EOF2'
volatile int sink;
static inline void inner(int i) { sink += i * 7; }
void f_a(void) { for (int i = 0; i < 100; i++) sink += i; }
void f_b(void) { for (int i = 0; i < 100; i++) inner(i); }
void _start(void) { f_a(); f_b(); for (;;); }
EOF2
gcc -g -O2 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/prog.c" || fail "cannot build the test ELF"
python3 - "$T/s.bin" "$T/prog.elf" <<'PY' || fail "cannot write the stream"
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
s = nm_symbols(elf)
pcs = sorted([(s["f_a"], 100), (s["f_a"] + 4, 50), (s["f_b"], 120), (s["f_b"] + 8, 30), (0x10, 7)])     # 0x10: outside the image
total = sum(n for _, n in pcs)
open(out, "wb").write(enc_hello(1, build_id(elf)) + enc_timer_event() + enc_samples(0, 0, pcs) +
                      enc_totals(0, total, total, 0, 0, 1) + enc_end_exit0())
PY
"$BMPROF" record --from "$T/s.bin" --elf "$T/prog.elf" -o "$T/p.data" >/dev/null 2>"$T/e" || { cat "$T/e"; fail "record"; }

# --- pprof
"$BMPROF" export --format pprof -i "$T/p.data" -o "$T/p.pb.gz" 2>"$T/e" || { cat "$T/e"; fail "export pprof"; }
python3 - "$T/p.pb.gz" "$T/prog.elf" <<'PY' || exit 1
import gzip, sys
from frames import build_id, nm_symbols
raw = gzip.decompress(open(sys.argv[1], "rb").read())

def fields(b):
    """(field number, wire type, value) of one message: varints as ints, length-delimited
    as bytes; packed repeated varints are bytes too (unpacked by varints())."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 1:
            v, i = int.from_bytes(b[i:i + 8], "little"), i + 8
        elif wt == 5:
            v, i = int.from_bytes(b[i:i + 4], "little"), i + 4
        else:
            raise ValueError("wire type %d" % wt)
        yield num, wt, v

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i

def varints(wt, v):
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i); out.append(x)
    return out

def msg(b):
    d = {}
    for num, wt, v in fields(b):
        d.setdefault(num, []).append((wt, v))
    return d

def ints(d, n):
    return [x for wt, v in d.get(n, []) for x in varints(wt, v)]

p = msg(raw)
strings = [v.decode() for _, v in p[6]]
assert strings[0] == "", "string_table[0] must be empty"
stype = [msg(v) for _, v in p[1]]
assert [(strings[ints(t, 1)[0]], strings[ints(t, 2)[0]]) for t in stype] == \
    [("samples", "count"), ("cpu", "nanoseconds")], stype
funcs = {ints(f, 1)[0]: strings[ints(f, 2)[0]] for f in (msg(v) for _, v in p[5])}
locs = {}
for _, v in p[4]:
    l = msg(v)
    lines = [msg(x) for _, x in l.get(4, [])]
    locs[ints(l, 1)[0]] = (ints(l, 3)[0], [funcs[ints(x, 1)[0]] for x in lines],
                           [ints(x, 2)[0] if 2 in x else 0 for x in lines], ints(l, 2))
total, per_fn, ns = 0, {}, 0
for _, v in p[2]:
    s = msg(v)
    ids, vals = ints(s, 1), ints(s, 2)
    assert len(ids) == 1 and len(vals) == 2
    total += vals[0]; ns += vals[1]
    assert vals[1] == vals[0] * 10**6, vals          # timer: 1 MHz period at 1 GHz = 1 ms
    addr, names, lines, mid = locs[ids[0]]
    per_fn[names[-1]] = per_fn.get(names[-1], 0) + vals[0]
assert total == 307, total
assert per_fn["f_a"] == 150 and per_fn["f_b"] == 150 and per_fn["[firmware]"] == 7, per_fn
syms = nm_symbols(sys.argv[2])
assert any(a == syms["f_a"] and lines[0] == 3 for a, _, lines, _ in locs.values()), locs
m = msg(p[3][0][1])
assert strings[ints(m, 6)[0]] == build_id(sys.argv[2]).hex()
assert strings[ints(m, 5)[0]].endswith("prog.elf")
assert ints(m, 2)[0] <= syms["f_a"] < ints(m, 3)[0]
assert strings[ints(msg(p[11][0][1]), 1)[0]] == "cpu" and ints(p, 12) == [10**6]
print("pprof ok:", total, per_fn)
PY

# --- folded: "root;...;leaf count" stacks adding up to the samples: each function at the
# root, with what was inlined into it at the sampled pc (inner, into f_b) above it
"$BMPROF" export --format folded -i "$T/p.data" >"$T/f.txt" || fail "export folded"
cat "$T/f.txt"
python3 - "$T/f.txt" <<'PY' || fail "folded stacks by root"
import sys
roots = {}
for line in open(sys.argv[1]):
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    roots[stack.split(";")[0]] = roots.get(stack.split(";")[0], 0) + int(n)
assert roots == {"f_a": 150, "f_b": 150, "[firmware 0x0-0xfff]": 7}, roots
PY
grep -Eq '^f_a [0-9]+$' "$T/f.txt" || fail "no f_a stack"
! grep -v '^f_b' "$T/f.txt" | grep -q ';' || fail "only f_b has inlined code"
[ "$(awk '{s+=$NF} END {print s}' "$T/f.txt")" = 307 ] || fail "folded total"
"$BMPROF" export --format folded -i "$T/p.data" -o "$T/f2.txt" && cmp -s "$T/f.txt" "$T/f2.txt" || fail "folded -o"

# --- json: bmprof report's
"$BMPROF" export --format json -i "$T/p.data" -o "$T/e.json" || fail "export json"
"$BMPROF" report --format json --all -i "$T/p.data" >"$T/r.json" || fail "report json"
cmp -s "$T/e.json" "$T/r.json" || fail "export json differs from report --format json"

# --- errors
"$BMPROF" export -i "$T/p.data" >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "no --format: want exit 2"
"$BMPROF" export --format svg -i "$T/p.data" >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "bad --format"
"$BMPROF" export --format pprof -i "$T/nope.data" -o "$T/x" >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "missing profile"
[ "$(wc -l <"$T/e")" -eq 1 ] || fail "missing profile: want one line"
echo "export ok"
