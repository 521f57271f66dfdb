#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# report and annotate over one recorded profile: sort orders, JSON rows, the annotated
# disassembly, and the errors a user meets (missing files, bad options; the wrong ELF is
# test_elf_errors.sh).
. "$(dirname "$0")/lib.sh"
need_qemu
img=$IMAGES/shares.elf
# the source lines of work_a, work_b and work_c (each function is one line of shares.c)
src=$ROOT/tests/e2e/progs/shares.c
la=$(grep -n "uint64_t work_a(" "$src" | cut -d: -f1)
lb=$(grep -n "uint64_t work_b(" "$src" | cut -d: -f1)
lc=$(grep -n "uint64_t work_c(" "$src" | cut -d: -f1)
"$BMPROF" qemu --icount --freq 10000 -o "$T/p.data" "$img" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "qemu run failed"; }

# text report: one row per function with its hottest line
"$BMPROF" report -i "$T/p.data" >"$T/text" || fail "report failed"
grep -Eq '^ +[0-9]+ +[0-9.]+% +work_a +.*shares\.c:'"$la" "$T/text" || { cat "$T/text"; fail "no work_a row with its line"; }

for sort in function line address; do
	"$BMPROF" report -i "$T/p.data" --sort $sort --format json >"$T/$sort.json" || fail "report --sort $sort"
	python3 - "$T/$sort.json" "$sort" "$la" "$lb" "$lc" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1])); sort = sys.argv[2]
rows = r["rows"]
assert rows, "no rows"
assert abs(sum(x["percent"] for x in rows) - 100.0) < 0.01, "percentages do not sum to 100"
assert sum(x["samples"] for x in rows) == r["meta"]["samples"]["reported"]
assert all(rows[i]["samples"] >= rows[i + 1]["samples"] for i in range(len(rows) - 1)), "not sorted"
for x in rows:
    lo, hi = int(x["addr_lo"], 16), int(x["addr_hi"], 16)
    assert lo <= hi, x
if sort == "line":
    lines = {(x["file"].split("/")[-1], x["line"]) for x in rows[:3]}
    assert lines == {("shares.c", int(n)) for n in sys.argv[3:6]}, lines
if sort == "address":
    assert all(int(x["addr_lo"], 16) == int(x["addr_hi"], 16) or x["symbol"] for x in rows)
print(sort, "ok:", len(rows), "rows")
PY
done

# annotate: per-instruction counts add up to the function's samples
"$BMPROF" annotate -i "$T/p.data" work_c >"$T/ann" || fail "annotate failed"
grep -q "shares.c:$lc" "$T/ann" || fail "annotate shows no source line"
grep -Eq '(imul|add|sub|jne)' "$T/ann" || fail "annotate shows no disassembly"
want=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([x["samples"] for x in r["rows"] if x["symbol"]=="work_c"][0])' "$T/function.json")
got=$(awk '/^> +[0-9]+ +[0-9.]+% +[0-9a-f]+:/ {s+=$2} END {print s+0}' "$T/ann")
[ "$got" = "$want" ] || { cat "$T/ann"; fail "annotate instruction samples sum to $got, report says $want"; }
"$BMPROF" annotate -i "$T/p.data" no_such_function >"$T/o" 2>"$T/e" && fail "annotate of an unknown symbol succeeded"
[ "$(wc -l <"$T/e")" -ge 1 ] || fail "no error line"

# the ELF found beside the profile when it has moved
cp "$T/p.data" "$T/moved.data"; mkdir "$T/m"; mv "$T/moved.data" "$T/m/"; cp "$img" "$T/m/shares.elf"
sed -n 1p /dev/null
"$BMPROF" report -i "$T/m/moved.data" --elf "$T/m/shares.elf" >/dev/null 2>&1 || fail "report with --elf copy failed"
# missing profile, bad option, bad sort
"$BMPROF" report -i "$T/nope.data" >/dev/null 2>"$T/e" && fail "missing profile accepted"
[ "$(wc -l <"$T/e")" -eq 1 ] || { cat "$T/e"; fail "missing profile: want one line"; }
"$BMPROF" report --frobnicate >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad option: want exit 2"
"$BMPROF" report -i "$T/p.data" --sort nonsense >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --sort: want exit 2"
# a damaged profile file: what is intact still reports, with a warning
python3 - "$T/p.data" "$T/bad.data" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b = b[: len(b) - 7]                # cut inside the last frame
open(sys.argv[2], "wb").write(b)
PY
"$BMPROF" report -i "$T/bad.data" --format json >"$T/bad.json" 2>"$T/e" || { cat "$T/e"; fail "truncated profile not reported"; }
pyassert "$T/bad.json" 'r["meta"]["stream"]["file_truncated"] and r["rows"][0]["symbol"] == "work_a"'
echo "report ok"
