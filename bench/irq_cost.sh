#!/usr/bin/env bash
# The emulator's interrupt round trip, for reference next to the sampling body's own cost:
# the same TSC-timed work with sampling off and at 4 and 20 kHz under TCG; cost per sample =
# (cycles on - cycles off) / samples taken. Median of 3 runs each, all in this run.
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
IMG=${IMG:-build/x86_64/irqcost.elf}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
run_off() {
	qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none -accel tcg -cpu max \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial stdio \
		-fw_cfg name=opt/bmprof/config,string=freq=0 -kernel "$IMG" </dev/null 2>/dev/null |
		LC_ALL=C grep -a -o 'cycles=[0-9]*' | head -n 1 | cut -d= -f2
}
run_on() {   # prints "cycles samples"
	"$BMPROF" qemu --accel tcg --freq "$1" -o "$T/p.data" "$IMG" 2>/dev/null |
		LC_ALL=C grep -a -o 'cycles=[0-9]*' | head -n 1 | cut -d= -f2 | tr '\n' ' '
	"$BMPROF" report -i "$T/p.data" --format json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["samples"]["taken"])'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

off=$(for i in 1 2 3; do run_off; done | median)
echo "interrupt round trip under QEMU TCG (TSC-timed work, median of 3 runs each)"
printf '  %-10s %14s %9s %16s %10s\n' freq cycles samples "cycles/sample" overhead
printf '  %-10s %14s %9s %16s %10s\n' off "$off" 0 - "1.000x"
for f in 4000 20000; do
	for i in 1 2 3; do run_on $f; done >"$T/on"
	cyc=$(awk '{print $1}' "$T/on" | median)
	n=$(awk '{print $2}' "$T/on" | median)
	awk -v f=$f -v c="$cyc" -v n="$n" -v off="$off" 'BEGIN {
		printf "  %-10s %14d %9d %16.0f %9.3fx\n", f " Hz", c, n, (c - off) / n, c / off }'
done
echo "  (the sampling body itself: see bench-core; the rest is the emulator's interrupt entry/exit)"
