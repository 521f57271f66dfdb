#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof validate --measured, from bmprof blocks and bmprof bhive, under TCG -icount where
# everything is exact: straight.c's blocks measured by the harness under --icount take
# one cycle an instruction, which is what the tcg model says, so with them as the best
# case validate must find the blocks (JSON measured: the blocks whose bytes matched) and
# stay as exact as the model is (>= 90% of the weight within 5%, as test_validate asserts
# for the model alone).
. "$(dirname "$0")/lib.sh"
need_qemu
(cd "$ROOT" && make --no-print-directory -s -j2 examples-dcpi BUILD="$BUILD") >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make examples-dcpi failed"; }
elf=$ROOT/$BUILD/x86_64/dcpi-straight.elf

"$BMPROF" blocks --function straight -o "$T/blocks.csv" "$elf" 2>/dev/null || fail "blocks failed"
"$BMPROF" bhive --accel tcg --icount -o "$T/measured.csv" "$T/blocks.csv" 2>"$T/bh.err" ||
	{ cat "$T/bh.err"; fail "bhive failed"; }
python3 - "$T/measured.csv" <<'PY' || fail "bhive's results"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["status"] == "ok" for r in rows), rows
for r in rows:
    d = dict(kv.split("=", 1) for kv in r["detail"].split(";"))
    assert float(r["cycles"]) == int(d["insns"]), r   # -icount: a cycle an instruction
PY
"$BMPROF" validate --accel tcg --param reps=100 --measured "$T/measured.csv" --json "$elf" \
	>"$T/v.json" 2>"$T/v.err" || { cat "$T/v.err"; fail "validate --measured failed"; }
python3 - "$T/v.json" "$(grep -c . "$T/blocks.csv")" <<'PY' || fail "validate --measured (above)"
import json, sys
r = json.load(open(sys.argv[1])); listed = int(sys.argv[2])
m = r["measured"]
assert m and m["blocks"] >= 1 and m["blocks"] <= m["of"], m
f = [f for f in r["functions"] if f["name"].startswith("straight")]
assert f, [x["name"] for x in r["functions"]]
acc = f[0]["instructions"]
print(f"measured {m['blocks']} of {m['of']} blocks ({listed} listed); within 5%: {acc['within_5']:.3f}")
assert acc["within_5"] >= 0.90, acc
PY
echo "PASS"
