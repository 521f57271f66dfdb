#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof diff and bmprof stats over synthetic profiles of two builds of a small host-built
# ELF (no QEMU): a function with three times the samples is named first with a ratio near
# 3 and marked significant, and the --fail-above gate exits 3 naming it; five runs a side
# of an unchanged program with Poisson noise flag nothing and pass the gate; the stats
# table; buckets by line and address; the errors a user meets.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

# Two builds: the second has a new function in front, so every address moves and the
# build-id differs; buckets still match by symbol.
cat >"$T/prog.c" <<'EOF2'
volatile int sink;
#ifdef NEWBUILD
void f_new(void) { for (int i = 0; i < 50; i++) sink += 3 * i; }
#endif
void f_a(void) { for (int i = 0; i < 100; i++) sink += i; }
void f_b(void) { for (int i = 0; i < 100; i++) sink ^= i; }
void f_c(void) { for (int i = 0; i < 100; i++) sink -= i; }
void f_tiny(void) { sink = 1; }
void _start(void) { f_a(); f_b(); f_c(); f_tiny(); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/a.elf" "$T/prog.c" &&
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -DNEWBUILD -o "$T/b.elf" "$T/prog.c" ||
	fail "cannot build the test ELFs"

# A third build whose f_a the compiler cloned: its code is under f_a.constprop.0 and its
# cold blocks under f_a.cold (symbols named by asm labels, so no compiler decision decides).
cat >"$T/clone.h" <<'EOF2'
extern volatile int sink;
void f_a(void) __asm__("f_a.constprop.0");
void f_a_cold(void) __asm__("f_a.cold");
void f_a_cold(void) { for (int i = 0; i < 100; i++) sink += 2 * i; }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -include "$T/clone.h" -o "$T/c.elf" \
	"$T/prog.c" || fail "cannot build the cloned test ELF"
nm "$T/c.elf" | grep -q ' f_a\.constprop\.0$' || fail "the cloned ELF has no f_a.constprop.0"

# gen.py OUT ELF SEED f=MEAN...: one run's stream; each function's count is Poisson(MEAN),
# split over its first two instructions' addresses.
cat >"$T/gen.py" <<'PY'
import math, random, sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, elf, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng, syms = random.Random(seed), nm_symbols(elf)

def poisson(mu):
    if mu == 0:
        return 0
    return max(0, int(round(rng.gauss(mu, math.sqrt(mu))))) if mu > 30 else \
        sum(1 for _ in range(int(mu * 20)) if rng.random() < 0.05)

pcs = []
for arg in sys.argv[4:]:
    name, mu = arg.split("=")
    n = poisson(float(mu))
    if n:
        pcs += [(syms[name], n - n // 3)] + ([(syms[name] + 1, n // 3)] if n // 3 else [])
pcs.sort()
total = sum(n for _, n in pcs)
s = enc_hello(1, build_id(elf)) + enc_timer_event() + enc_samples(0, 0, pcs) + \
    enc_totals(0, total, total, 0, 0, 1) + enc_end_exit0()
open(out, "wb").write(s)
PY
# run NAME ELF SEED COUNTS...: $T/NAME.data
run() {
	local name=$1 elf=$2 seed=$3; shift 3
	python3 "$T/gen.py" "$T/$name.bin" "$elf" "$seed" "$@" || fail "cannot write stream $name"
	"$BMPROF" record --from "$T/$name.bin" --elf "$elf" -o "$T/$name.data" >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "record $name"; }
}
for i in 1 2 3 4 5; do
	run a$i "$T/a.elf" $i f_a=1000 f_b=500 f_c=300 f_tiny=2
	run u$i "$T/a.elf" $((i + 100)) f_a=1000 f_b=500 f_c=300 f_tiny=2
	run b$i "$T/b.elf" $((i + 200)) f_a=1000 f_b=1500 f_c=300 f_tiny=2
	run c$i "$T/c.elf" $((i + 300)) f_a.constprop.0=700 f_a.cold=300 f_b=500 f_c=300 f_tiny=2
done

# --- f_b tripled in the new build: first, ratio ~3, significant; the gate fails on it
"$BMPROF" diff "$T"/a?.data -- "$T"/b?.data >"$T/d.txt" 2>"$T/e" || { cat "$T/e"; fail "diff failed"; }
cat "$T/d.txt"
first=$(grep -v '^#' "$T/d.txt" | head -n 1)
echo "$first" | grep -Eq ' \* +f_b$' || fail "f_b is not first and significant: $first"
ratio=$(echo "$first" | awk '{print $5}')
python3 -c "import sys; r=float(sys.argv[1]); assert 2.8 < r < 3.2, r" "$ratio" || fail "ratio $ratio, want ~3"
grep -q "^# filtered  1 bucket with fewer than 10 samples in every run" "$T/d.txt" || fail "f_tiny not filtered"
grep -q "^# base      5 runs" "$T/d.txt" || fail "base runs not counted"
"$BMPROF" diff --fail-above 20 "$T"/a?.data -- "$T"/b?.data >/dev/null 2>"$T/e"
rc=$?
[ $rc -eq 3 ] || { cat "$T/e"; fail "--fail-above on a regression: exit $rc, want 3"; }
grep -q "regression: f_b " "$T/e" || { cat "$T/e"; fail "the gate does not name f_b"; }
! grep -q "regression: f_[ac] " "$T/e" || { cat "$T/e"; fail "the gate names an unchanged function"; }

# JSON: every number there; the shares of each side sum to 100
"$BMPROF" diff --json --all --min-count 0 "$T"/a?.data -- "$T"/b?.data >"$T/d.json" || fail "diff --json"
python3 - "$T/d.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
rows = {x["key"]: x for x in r["rows"]}
assert r["rows"][0]["key"] == "f_b" and r["rows"][0]["significant"], r["rows"][0]
assert 2.8 < rows["f_b"]["value"] < 3.2
assert abs(sum(x["base_share"] for x in r["rows"]) - 100) < 1e-6
assert abs(sum(x["new_share"] for x in r["rows"]) - 100) < 1e-6
assert rows["f_new"]["state"] == "new" if "f_new" in rows else True
assert r["test"] == "welch" and len(r["base"]["profiles"]) == 5
print("json ok")
PY

# --- unchanged: five runs a side with noise; nothing significant, the gate passes
"$BMPROF" diff --fail-above 10 "$T"/a?.data -- "$T"/u?.data >"$T/u.txt" 2>"$T/e"
rc=$?
cat "$T/u.txt"
[ $rc -eq 0 ] || { cat "$T/e"; fail "unchanged runs: exit $rc, want 0"; }
! grep -v '^#' "$T/u.txt" | grep -q ' \* ' || fail "noise reported as a significant change"
"$BMPROF" diff --json "$T"/a?.data -- "$T"/u?.data >"$T/u.json" || fail "diff --json unchanged"
pyassert "$T/u.json" 'all(not x["significant"] and x["p"] > 0.01 for x in r["rows"]) and len(r["rows"]) == 3'

# --- one profile a side (BASE NEW): two-proportion test; rebuilt image still matches
"$BMPROF" diff --fail-above 20 "$T/a1.data" "$T/b1.data" >"$T/1.txt" 2>"$T/e"
[ $? -eq 3 ] || { cat "$T/1.txt" "$T/e"; fail "one run a side: gate did not fail"; }
grep -q "two-proportion" "$T/1.txt" || fail "one run a side: test not named"
grep -v '^#' "$T/1.txt" | head -n 1 | grep -q ' f_b$' || fail "one run a side: f_b not first"

# --- other combining functions and keys
"$BMPROF" diff --combine wdiff --work 1,1 "$T"/a?.data -- "$T"/b?.data >"$T/w.txt" || fail "wdiff"
grep -v '^#' "$T/w.txt" | head -n 1 | grep -q ' f_b$' || fail "wdiff: f_b not first"
"$BMPROF" diff --combine saturation --load 1,2 --saturation 100 "$T"/a?.data -- "$T"/b?.data \
	>"$T/s.txt" || fail "saturation"
grep -v '^#' "$T/s.txt" | head -n 1 | grep -q ' f_b$' || fail "saturation: f_b not first"
"$BMPROF" diff --by address --json "$T"/a?.data -- "$T"/b?.data >"$T/a.json" || fail "diff --by address"
pyassert "$T/a.json" 'r["rows"][0]["key"] in ("f_b+0x0", "f_b+0x1") and any(x["key"] == "f_a+0x1" for x in r["rows"])'
"$BMPROF" diff --by line --json "$T"/a?.data -- "$T"/b?.data >"$T/l.json" || fail "diff --by line"
pyassert "$T/l.json" 'r["rows"][0]["key"].endswith("prog.c:6")'

# --- stats: dcpistats over the five runs
"$BMPROF" stats "$T"/a?.data >"$T/st.txt" || fail "stats"
cat "$T/st.txt"
grep -Eq '^ +[0-9.]+% +5 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+  f_a$' "$T/st.txt" || fail "stats: no f_a row"
"$BMPROF" stats --json --min-count 0 "$T"/a?.data >"$T/st.json" || fail "stats --json"
pyassert "$T/st.json" 'r["format"] == "bmprof-stats" and r["format_version"] == 1'
pyassert "$T/d.json" 'r["format"] == "bmprof-diff" and r["format_version"] == 1'
python3 - "$T/st.json" "$T" <<'PY' || exit 1
import json, statistics, sys
from frames import frames, samples, symbolizer
r, d = json.load(open(sys.argv[1])), sys.argv[2]
name = symbolizer(d + "/a.elf")
per = []
for i in range(1, 6):
    c = {}
    for f in frames(open("%s/a%d.data" % (d, i), "rb").read()):
        if f.type == 3:
            for _, pc, n in samples(f.payload)[2]:
                c[name(pc)] = c.get(name(pc), 0) + n
    per.append(c)
rows = {x["key"]: x for x in r["rows"]}
for fn in ("f_a", "f_b", "f_c"):
    xs = [c.get(fn, 0) for c in per]
    x = rows[fn]
    assert x["n"] == 5 and x["sum"] == sum(xs) and x["min"] == min(xs) and x["max"] == max(xs), (fn, x, xs)
    assert abs(x["sd"] - statistics.stdev(xs)) < 1e-9, (x["sd"], statistics.stdev(xs))
    assert abs(x["range"] - (max(xs) - min(xs)) / sum(xs)) < 1e-12
rg = [x["range"] for x in r["rows"]]
assert rg == sorted(rg, reverse=True), rg
print("stats ok")
PY

# --- a function and its clones are one bucket: f_a matches f_a.constprop.0 + f_a.cold,
# marked [clones]; nothing is new or gone and the gate passes
"$BMPROF" diff --fail-above 10 "$T"/a?.data -- "$T"/c?.data >"$T/c.txt" 2>"$T/e"
rc=$?
cat "$T/c.txt"
[ $rc -eq 0 ] || { cat "$T/e"; fail "clones: the gate fails, exit $rc, want 0"; }
grep -Eq '  f_a \[clones\]$' "$T/c.txt" || fail "clones: no row f_a [clones]"
! grep -q 'constprop\|cold' "$T/c.txt" || fail "clones: a clone has its own row"
"$BMPROF" diff --json --all --min-count 0 "$T"/a?.data -- "$T"/c?.data >"$T/c.json" || fail "diff --json clones"
python3 - "$T/c.json" "$T" <<'PY' || exit 1
import json, sys
from frames import frames, samples, symbolizer
r, d = json.load(open(sys.argv[1])), sys.argv[2]
rows = {x["key"]: x for x in r["rows"]}
assert sorted(rows) == ["f_a", "f_b", "f_c", "f_tiny"], sorted(rows)
assert all(x["state"] == "both" for x in r["rows"]), r["rows"]
assert rows["f_a"]["clones"] and not rows["f_b"]["clones"], rows
name = symbolizer(d + "/c.elf")
n = 0
for i in range(1, 6):
    for f in frames(open("%s/c%d.data" % (d, i), "rb").read()):
        if f.type == 3:
            n += sum(k for _, pc, k in samples(f.payload)[2] if name(pc).startswith("f_a."))
assert abs(rows["f_a"]["new_samples"] - n / 5) < 1e-9, (rows["f_a"], n)
print("clones ok")
PY
"$BMPROF" stats "$T"/c?.data >"$T/cs.txt" || fail "stats clones"
grep -Eq ' 5 +[0-9]+ .*  f_a \[clones\]$' "$T/cs.txt" || { cat "$T/cs.txt"; fail "stats: no f_a [clones] row"; }

# --- errors
"$BMPROF" diff "$T/a1.data" >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "one profile: want exit 2"
"$BMPROF" diff "$T/a1.data" "$T/nope.data" >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "missing profile: want exit 1"
[ "$(wc -l <"$T/e")" -eq 1 ] || { cat "$T/e"; fail "missing profile: want one line"; }
"$BMPROF" diff --combine wdiff "$T/a1.data" "$T/b1.data" >/dev/null 2>"$T/e"; [ $? -eq 2 ] ||
	fail "wdiff without --work: want exit 2"
grep -q -- "--work" "$T/e" || fail "wdiff without --work: error does not say what to do"
"$BMPROF" diff --combine bogus "$T/a1.data" "$T/b1.data" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --combine"
"$BMPROF" stats >/dev/null 2>&1; [ $? -eq 2 ] || fail "stats without profiles: want exit 2"
echo "diff ok"
