#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs that never end on a Cortex-M3 (QEMU mps2-an385; 32-bit pointers in the recovery
# descriptor): bmprof qemu reads the samples the image still holds from its memory when
# it stops QEMU (tests/e2e/recover_mcu.sh has the cases; docs/bmprof-qemu.md, "Runs that
# never end").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/recover_mcu.sh"
command -v qemu-system-arm >/dev/null || skip "qemu-system-arm not installed (make deps)"
IMG=$ROOT/$BUILD/test-images
for f in "$IMG-cortex-m3/hang.elf" "$IMG-cortex-m3-tiny/hang.elf"; do
	[ -f "$f" ] || skip "no $f: run make test-images-cortexm"
done
mcu_recover_runs cm3 "$IMG-cortex-m3/hang.elf" "$IMG-cortex-m3-tiny/hang.elf"
exit 0
