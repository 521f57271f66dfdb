#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs that never end on RISC-V (QEMU virt, machine mode): bmprof qemu reads the samples
# the image still holds from its memory when it stops QEMU (tests/e2e/recover_mcu.sh has
# the cases; docs/bmprof-qemu.md, "Runs that never end").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/recover_mcu.sh"
command -v qemu-system-riscv64 >/dev/null || skip "qemu-system-riscv64 not installed (make deps)"
for f in "$ROOT/$BUILD/test-images-riscv64/hang.elf" "$ROOT/$BUILD/riscv64-hang-tiny/hang.elf"; do
	[ -f "$f" ] || skip "no $f: run make test-images-riscv64"
done
mcu_recover_runs rv "$ROOT/$BUILD/test-images-riscv64/hang.elf" "$ROOT/$BUILD/riscv64-hang-tiny/hang.elf" stacks
exit 0
