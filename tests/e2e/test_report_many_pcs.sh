#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A target that samples far outside its image (a broken or hostile one): a valid stream of
# 30000 distinct (pc, event, cpu) entries, nearly all above 4 GiB and sent twice, over two
# CPUs, with a few hot pcs in the image. Checks that report, export and diff count every
# sample right (per 4 KiB page, per CPU, in pprof's locations), and that the bound on
# distinct entries holds memory in check: a profile over it is refused with one line that
# names the bound and how to raise it (--max-entries, BMPROF_MAX_ENTRIES), exactly at the
# bound it loads, and record still writes the whole file and says so.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

cat >"$T/app.c" <<'EOF'
volatile int sink;
void app_work(void) { for (int i = 0; i < 100; i++) sink += i; }
void app_main(void) { app_work(); for (;;); }
EOF
gcc -g -O1 -nostdlib -shared -fPIC -Wl,--build-id -o "$T/app.elf" "$T/app.c" ||
	fail "cannot build the ELF"

# stream.py OUT TRUTH: the stream, and what it holds (JSON) to check the reports against
cat >"$T/stream.py" <<'PY'
import json, sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, truth, elf = sys.argv[1], sys.argv[2], sys.argv[3]
BIAS, BASE, N = 0x6000000, 0x100000000, 30000
app = nm_symbols(elf)
x = 12345
def rand():
    global x
    x = (x * 1103515245 + 12345) % 2**31
    return x
pcs, pc = [], BASE
for k in range(N - 2):
    pc += 1 + rand() % 300
    pcs.append((k % 2, pc, 1 + rand() % 3))
pcs += [(0, app["app_work"] + BIAS, 500), (1, app["app_main"] + BIAS, 300)]
frames, sent, seq = [], [0, 0], [0, 0]
for rnd in range(2):               # everything twice: counts add up
    for cpu in (0, 1):
        mine = [(p, n) for c, p, n in pcs if c == cpu]
        for i in range(0, len(mine), 4000):
            frames.append(enc_samples(cpu, seq[cpu], mine[i:i + 4000]))
            seq[cpu] += 1
            sent[cpu] += sum(n for _, n in mine[i:i + 4000])
s = enc_hello(2, build_id(elf), BIAS) + enc_timer_event() + b"".join(frames)
for cpu in (0, 1):
    s += enc_totals(cpu, sent[cpu], sent[cpu], 0, 0, seq[cpu])
open(out, "wb").write(s + enc_end_exit0())
pages = {}
for c, p, n in pcs[:-2]:
    pg = pages.setdefault(p & ~0xfff, [0, 0, 2**64, 0])
    pg[c] += 2 * n
    pg[2], pg[3] = min(pg[2], p), max(pg[3], p)
json.dump({"entries": N, "total": sum(sent), "cpu": sent,
           "outside": 2 * sum(n for _, _, n in pcs[:-2]),
           "pages": {hex(k): v for k, v in pages.items()}}, open(truth, "w"))
PY
python3 "$T/stream.py" "$T/s.bin" "$T/truth.json" "$T/app.elf" || fail "cannot write the stream"
"$BMPROF" record --from "$T/s.bin" --elf "$T/app.elf" -o "$T/p.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record"; }
grep -q "at 30000 distinct (pc, event, cpu)" "$T/e" || { cat "$T/e"; fail "record summary"; }

# --- every sample, by page and CPU
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" 2>"$T/e" || { cat "$T/e"; fail "report json"; }
python3 - "$T/r.json" "$T/truth.json" <<'PY' || exit 1
import json, sys
r, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
m = r["meta"]["samples"]
assert m["reported"] == t["total"] and m["outside"] == t["outside"], (m, t["total"])
rows = {x["region_lo"]: x for x in r["rows"] if x["outside"]}
assert len(rows) == len(t["pages"]), (len(rows), len(t["pages"]))
for lo, (c0, c1, first, last) in t["pages"].items():
    x = rows[lo]
    assert x["samples"] == c0 + c1 and x["symbol"].startswith("[firmware " + lo), (lo, x)
    assert int(x["addr_lo"], 16) == first and int(x["addr_hi"], 16) == last + 1, (lo, x)
    split = {c["cpu"]: c["samples"] for c in x["per_cpu"]}
    assert split == {c: n for c, n in ((0, c0), (1, c1)) if n}, (lo, split)
inside = {x["symbol"]: x["samples"] for x in r["rows"] if not x["outside"]}
assert inside == {"app_work": 1000, "app_main": 600}, inside
cpus = {c["cpu"]: c["received"] for c in r["meta"]["cpus"]}
assert cpus == {0: t["cpu"][0], 1: t["cpu"][1]}, cpus
print("report ok:", len(rows), "pages")
PY
"$BMPROF" report -i "$T/p.data" --sort address --format json >"$T/a.json" || fail "--sort address"
pyassert "$T/a.json" 'len(r["rows"]) == 30000'
"$BMPROF" report -i "$T/p.data" -n 3 >"$T/top.txt" || fail "report -n 3"
grep -Eq '^ +1000 +[0-9.]+% +1000 +0 +app_work ' "$T/top.txt" || { cat "$T/top.txt"; fail "top row"; }

# --- pprof: a location per distinct pc, every sample in them
"$BMPROF" export --format pprof -i "$T/p.data" -o "$T/p.pb.gz" || fail "export pprof"
python3 - "$T/p.pb.gz" "$T/truth.json" <<'PY' || exit 1
import gzip, json, sys
raw, t = gzip.decompress(open(sys.argv[1], "rb").read()), json.load(open(sys.argv[2]))
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i
def fields(b):
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        if k & 7 == 0:
            v, i = varint(b, i)
        else:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        yield k >> 3, v
locs = samples = total = 0
for num, v in fields(raw):
    if num == 4:
        locs += 1
    elif num == 2:
        samples += 1
        total += varint(dict(fields(v))[2], 0)[0]
assert locs == samples == 30000 and total == t["total"], (locs, samples, total)
print("pprof ok")
PY

# --- the bound: over it, one line and exit 1; at it, loaded
over() { # over WHAT CMD...: exit 1, one stderr line naming the bound and how to raise it
	local what=$1; shift
	"$@" >"$T/o" 2>"$T/e"; local rc=$?
	[ $rc -eq 1 ] || { cat "$T/e"; fail "$what: exit $rc, want 1"; }
	[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "more than 29999 distinct sample entries" "$T/e" &&
		grep -q -- "--max-entries N" "$T/e" && grep -q "BMPROF_MAX_ENTRIES=N" "$T/e" ||
		{ cat "$T/e"; fail "$what: not the one-line bound message"; }
	[ ! -s "$T/o" ] || fail "$what: printed a report anyway"
}
over "report --max-entries" "$BMPROF" report -i "$T/p.data" --max-entries 29999
over "export pprof" "$BMPROF" export --format pprof -i "$T/p.data" -o "$T/x.pb.gz" --max-entries 29999
[ ! -e "$T/x.pb.gz" ] || fail "export over the bound left a file"
BMPROF_MAX_ENTRIES=29999 over "export json (environment)" "$BMPROF" export --format json -i "$T/p.data"
BMPROF_MAX_ENTRIES=29999 over "diff (environment)" "$BMPROF" diff "$T/p.data" "$T/p.data"
over "stats" "$BMPROF" stats --max-entries 29999 "$T/p.data" "$T/p.data"
"$BMPROF" report -i "$T/p.data" --max-entries 30000 -n 1 >/dev/null || fail "exactly at the bound"
"$BMPROF" report -i "$T/p.data" --max-entries 30k -n 1 >/dev/null || fail "--max-entries 30k"
"$BMPROF" report -i "$T/p.data" --max-entries lots >/dev/null 2>"$T/e"; [ $? -eq 2 ] ||
	fail "--max-entries lots: want exit 2"
grep -q "takes a positive number" "$T/e" || fail "--max-entries lots: message"

# record over the bound: the file has every frame, the summary says the bound was passed
BMPROF_MAX_ENTRIES=1000 "$BMPROF" record --from "$T/s.bin" --elf "$T/app.elf" -o "$T/q.data" \
	>/dev/null 2>"$T/e" || { cat "$T/e"; fail "record over the bound"; }
grep -q "at more than 1000 distinct (pc, event, cpu), the bound on memory" "$T/e" ||
	{ cat "$T/e"; fail "record: bound not said"; }
"$BMPROF" report -i "$T/q.data" --format json >"$T/q.json" || fail "report of what record wrote"
cmp -s <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["rows"])' "$T/q.json") \
	<(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["rows"])' "$T/r.json") ||
	fail "the file record wrote over the bound is not the whole profile"
echo "report many pcs ok"
