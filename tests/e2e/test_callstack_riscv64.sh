#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Call stacks (-g) on RISC-V (QEMU virt, machine mode) under --icount: callstack.c's known
# call tree comes out as main;a;b and main;a;c;d (d a leaf that saves s0 alone, with three
# quarters of the b + d samples), its assembly edges() sampled in its prologue, its body
# and its epilogue always under edge_caller; the --children columns agree with the folded
# rows and a's children are b's and c's; -g caller/callee name the known parents and leaf;
# every sample delivered is in a chain and none found the stack table full; the same with
# Sscofpmf overflow sampling; --call-depth bounds the chains; and with --smp 2 each hart
# walks its own stack.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-riscv64 >/dev/null || skip "qemu-system-riscv64 not installed (make deps)"
RV=$ROOT/$BUILD/test-images-riscv64
[ -f "$RV/callstack.elf" ] || skip "no RISC-V test images in $RV: run make test-images-riscv64"
check() { python3 "$ROOT/tests/e2e/stacks_check.py" "$@" || fail "$*"; }

stacks_run rv "$RV/callstack.elf" -g
check folded "$T/rv.folded"
# every label of edges() drew samples, each under main;edge_caller
for f in edges edges_sd edges_mov edges_body edges_ld edges_ret; do
	grep -q "main;edge_caller;$f [0-9]*\$" "$T/rv.folded" ||
		{ cat "$T/rv.folded"; fail "no sample at $f under main;edge_caller"; }
done
"$BMPROF" report -i "$T/rv.data" --children --all >"$T/rv.children" || fail "report --children"
check children "$T/rv.children" "$T/rv.folded"
"$BMPROF" report -i "$T/rv.data" -g caller >"$T/rv.caller" || fail "-g caller"
grep -q '^ *[0-9.]*%  *[0-9]*  edge_caller$' "$T/rv.caller" || fail "-g caller has no edge_caller"
"$BMPROF" report -i "$T/rv.data" -g callee >"$T/rv.callee" || fail "-g callee"
grep -q '^ *[0-9.]*%  *[0-9]*  d$' "$T/rv.callee" || fail "-g callee has no leaf d"

# The same chains when Sscofpmf counter overflow samples instead of the timer.
stacks_run pmu "$RV/callstack.elf" -g --event cycles:period=20000
check folded "$T/pmu.folded"

stacks_run depth "$RV/callstack.elf" -g --call-depth 3
check folded "$T/depth.folded" 3

# Two harts: each walks its own stack (the runtime gives each hart's bounds).
stacks_run smp "$RV/smp_work.elf" -g --smp 2
pyassert "$T/smp.json" "sorted(c['cpu'] for c in r['meta']['cpus']) == [0, 1]"
pyassert "$T/smp.json" "all(c['stacks'] > 0 for c in r['meta']['cpus'])"
# (run and step are inlined into main and into the job hart 1 runs; DWARF names them)
grep -Eq '(^|;)bmrt_start;main;(run;)?(step;)?work_cpu0 [0-9]+$' "$T/smp.folded" ||
	{ cat "$T/smp.folded"; fail "smp: hart 0's chain"; }
grep -Eq '(^|;)bmrt_secondary_start;(run;)?(step;)?work_cpu1 [0-9]+$' "$T/smp.folded" ||
	{ cat "$T/smp.folded"; fail "smp: hart 1's chain"; }
echo "RISC-V call stacks ok"
