#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Call stacks (-g) on Cortex-M (the M4 on mps2-an386, the library with stack memory:
# test-images-cortex-m4-g) under --icount: callstack.c's known call tree comes out as
# main;a;b and main;a;c;d (d a leaf that pushes r7 without lr, with three quarters of the
# b + d samples), its assembly edges() sampled in its prologue, its body and its epilogue
# always under edge_caller; the --children columns agree with the folded rows; -g
# caller/callee name the known parent and leaf; every sample delivered is in a chain and
# none found the stack table full; --call-depth bounds the chains; and an image whose
# library has no stack memory refuses -g with a message naming the build setting.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-arm >/dev/null || skip "qemu-system-arm not installed (make deps)"
IMG=$ROOT/$BUILD/test-images-cortex-m4-g/callstack.elf
[ -f "$IMG" ] || skip "no $IMG: run make test-images-cortexm"
check() { python3 "$ROOT/tests/e2e/stacks_check.py" "$@" || fail "$*"; }

stacks_run cm "$IMG" -g
check folded "$T/cm.folded"
for f in edges edges_mov edges_body edges_ret; do
	grep -q "main;edge_caller;$f [0-9]*\$" "$T/cm.folded" ||
		{ cat "$T/cm.folded"; fail "no sample at $f under main;edge_caller"; }
done
"$BMPROF" report -i "$T/cm.data" --children --all >"$T/cm.children" || fail "report --children"
check children "$T/cm.children" "$T/cm.folded"
"$BMPROF" report -i "$T/cm.data" -g caller >"$T/cm.caller" || fail "-g caller"
grep -q '^ *[0-9.]*%  *[0-9]*  edge_caller$' "$T/cm.caller" || fail "-g caller has no edge_caller"
"$BMPROF" report -i "$T/cm.data" -g callee >"$T/cm.callee" || fail "-g callee"
grep -q '^ *[0-9.]*%  *[0-9]*  d$' "$T/cm.callee" || fail "-g callee has no leaf d"

stacks_run depth "$IMG" -g --call-depth 3
check folded "$T/depth.folded" 3

# The default library has no stack memory: the target refuses, naming the setting.
"$BMPROF" qemu --icount -g -o "$T/none.data" "$ROOT/$BUILD/test-images-cortex-m4/exitcode.elf" \
	>"$T/none.out" 2>"$T/none.err" && fail "-g ran without stack memory"
grep -q "BMPROF_CM_STACK_ENTRIES" "$T/none.err" || { cat "$T/none.err"; fail "no message naming the stack memory"; }
echo "Cortex-M call stacks ok"
