#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The Cortex-M unwind (target/arch/cortexm/unwind.c) against GCC's DWARF call-frame
# information, at every instruction of every function the unwind walks through (its own
# .ARM.exidx entry) in two test images, the M4's callstack.elf and the M55's hang.elf
# (the runtime, the programs; the M55's code has MVE-era encodings): with the pc
# interrupted there, the CFA and the slots of the return address and the caller's r7 are
# the CFI's, or unknown (the chain ends there), never different (cm_unwind_cfi.py).
. "$(dirname "$0")/lib.sh"
command -v arm-none-eabi-objdump >/dev/null || skip "no arm-none-eabi binutils (make deps)"
command -v gcc >/dev/null || skip "gcc not installed"
IMGS="$ROOT/$BUILD/test-images-cortex-m4-g/callstack.elf $ROOT/$BUILD/test-images-cortex-m55/hang.elf"
for i in $IMGS; do
	[ -f "$i" ] || skip "no $i: run make test-images-cortexm"
done
gcc -O1 -Wall -Wextra -I"$ROOT/target/include" -I"$ROOT/transport" -o "$T/cm_frames" \
	"$ROOT/tests/e2e/cm_frames.c" || fail "cm_frames did not build"
for i in $IMGS; do
	python3 "$ROOT/tests/e2e/cm_unwind_cfi.py" "$T/cm_frames" "$i" "$T" || fail "$i"
done
echo "Cortex-M unwind agrees with the CFI"
