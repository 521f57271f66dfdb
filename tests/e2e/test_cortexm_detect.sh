#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The Cortex-M counter and ITM detection code (target/arch/cortexm/dwt.c, pmu_v81m.c,
# transport/target/itm.c) on QEMU's MPS2/MPS3 boards, which implement no DWT, ITM or PMU:
# every probe says so, none faults (tests/e2e/cm_probe/probe.c).
. "$(dirname "$0")/lib.sh"
command -v qemu-system-arm >/dev/null || skip "qemu-system-arm not installed"
command -v arm-none-eabi-gcc >/dev/null || skip "arm-none-eabi-gcc not installed"
src=$ROOT/tests/e2e/cm_probe
for b in cortex-m3:mps2-an385:0:0x20000000 cortex-m4:mps2-an386:0:0x20000000 \
	cortex-m33:mps2-an505:0x10000000:0x38000000 cortex-m55:mps3-an547:0:0x20000000; do
	IFS=: read -r cpu board code ram <<<"$b"
	arm-none-eabi-gcc -mcpu=$cpu -mthumb -O1 -ffreestanding -nostdlib -Wall -Wextra -Werror \
		-I"$ROOT/target/include" -I"$ROOT/transport" -I"$ROOT/target/arch/cortexm" \
		-T "$src/probe.ld" -Wl,--defsym=CODE=$code,--defsym=RAM=$ram -o "$T/$cpu.elf" "$src/probe.c" "$ROOT/target/arch/cortexm/dwt.c" \
		"$ROOT/target/arch/cortexm/pmu_v81m.c" "$ROOT/transport/target/itm.c" -lgcc ||
		fail "probe does not build for $cpu"
	timeout 60 qemu-system-arm -M $board -display none -monitor none -serial none \
		-semihosting -kernel "$T/$cpu.elf" >"$T/$cpu.out" 2>&1 || { cat "$T/$cpu.out"; fail "$board: qemu"; }
	cat >"$T/want" <<'W'
cyccnt: no DWT: its registers do not keep what is written (QEMU implements no DWT)
itm enable: -1
itm write: -1
pmu probe: -1
W
	diff -u "$T/want" "$T/$cpu.out" || fail "$board ($cpu): detection output"
done
exit 0
