#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof count --children on RISC-V: the insn_count plugin keeps its shadow call stack by
# the RISC-V link-register conventions (branch_kind_rv), so callstack.c's known tree comes
# out exactly: main -> a -> {b, c -> d}, d three times b's work, every function's
# inclusive count its self count plus its callees' inclusive counts, and calls matched by
# returns. And bmprof validate on cpi_loop.elf (sampling on the cycles event's overflow):
# every instruction and edge estimate of mix within 10% of the exact counts (measured
# +7%: the event counts the sampling handler's instructions too).
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

loop=$ROOT/$BUILD/test-images-riscv64/cpi_loop.elf
[ -f "$loop" ] || skip "no $loop: run make test-images-riscv64 (call tree passed)"
"$BMPROF" validate --accel tcg --json --param iters=2000000 "$loop" >"$T/v.json" 2>"$T/v.err" ||
	{ cat "$T/v.err"; fail "bmprof validate"; }
python3 - "$T/v.json" <<'PY' || fail "validate scores"
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in r["functions"]}
assert "mix" in f, sorted(f)
m = f["mix"]
print("mix: %d samples, instructions within 10%%: %.3f, edges: %.3f"
      % (m["samples"], m["instructions"]["within_10"], m["edges"]["within_10"]))
assert m["samples"] >= 1000, m["samples"]
assert m["instructions"]["within_10"] == 1, m["instructions"]
assert m["edges"]["within_10"] > 0.99, m["edges"]
PY
echo "RISC-V validate ok"
