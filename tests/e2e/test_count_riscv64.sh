#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof count --children on RISC-V: the insn_count plugin keeps its shadow call stack by
# the RISC-V link-register conventions (branch_kind_rv), so callstack.c's known tree comes
# out exactly: main -> a -> {b, c -> d}, d three times b's work, every function's
# inclusive count its self count plus its callees' inclusive counts, and calls matched by
# returns.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-riscv64 >/dev/null || skip "qemu-system-riscv64 not installed (make deps)"
img=$ROOT/$BUILD/test-images-riscv64/callstack.elf
[ -f "$img" ] || skip "no $img: run make test-images-riscv64"

"$BMPROF" count --children --json "$img" >"$T/c.json" 2>"$T/c.err" ||
	{ cat "$T/c.err"; fail "bmprof count --children"; }
python3 - "$T/c.json" <<'PY' || fail "call tree"
import json, sys
r = json.load(open(sys.argv[1]))["children"]
f = {x["name"]: x for x in r["functions"]}
for n in ("main", "a", "b", "c", "d", "edge_caller"):
    assert n in f, (n, sorted(f))
    print(n, f[n]["inclusive"], f[n]["self"])
inc = lambda n: f[n]["inclusive"]
assert inc("a") == f["a"]["self"] + inc("b") + inc("c"), (inc("a"), inc("b"), inc("c"))
assert inc("c") == f["c"]["self"] + inc("d")
assert inc("d") == f["d"]["self"] and inc("b") == f["b"]["self"]
assert abs(inc("d") / inc("b") - 3) < 0.01, (inc("d"), inc("b"))
assert inc("main") >= inc("a") + inc("edge_caller")
assert r["calls"] > 0 and r["calls"] - r["returns"] <= 5, (r["calls"], r["returns"])
assert r["unmatched_returns"] <= 1, r["unmatched_returns"]
PY
echo "RISC-V call tree ok"
