#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What a sampling interrupt costs under QEMU TCG, against an empty handler at the same
# rate in the same guest run (bench/progs/irqcost.c: off / empty / sample phases of the
# same work, interleaved round after round; bench/irq_cost.py does the arithmetic).
#   --icount: guest instructions per interrupt, exact (deterministic)
#   plain TCG: microseconds of host time per interrupt, which is what sampling costs a
#   run under the emulator; noisy on a busy host (the table shows how noisy), never failing
# x86-64 and AArch64 (the AArch64 image is built with the bench-only empty-handler switch).
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
IMG=${IMG:-build/x86_64/irqcost.elf}
A64_IMG=${A64_IMG:-build/bench/irq-aarch64/irqcost.elf}
ITERS=${ITERS:-3000000}       # plain TCG: loop turns per phase (~5 ms)
ROUNDS=${ROUNDS:-300}         # plain TCG: rounds of three phases
ICOUNT_ITERS=${ICOUNT_ITERS:-30000000}   # --icount: ~0.1 s of guest time per phase
ICOUNT_ROUNDS=${ICOUNT_ROUNDS:-4}
FREQS=${FREQS:-4000 20000}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

run() {   # ARCH IMAGE FREQ ITERS ROUNDS [--icount]: one guest run, its console into $T/out
	local arch=$1 img=$2 f=$3 n=$4 r=$5
	shift 5
	"$BMPROF" qemu --accel tcg "$@" --freq "$f" --param iters="$n" --param rounds="$r" \
		-o "$T/p.data" "$img" >"$T/out" 2>"$T/err" ||
		{ cat "$T/err" >&2; echo "irq bench: $arch run at $f Hz failed" >&2; return 1; }
}

bench_arch() {   # ARCH IMAGE
	local arch=$1 img=$2 f
	echo "$arch:"
	run "$arch" "$img" 4000 "$ICOUNT_ITERS" "$ICOUNT_ROUNDS" --icount
	python3 "$HERE/irq_cost.py" --arch "$arch" --mode icount --label "4000 Hz, --icount" "$T/out"
	for f in $FREQS; do
		run "$arch" "$img" "$f" "$ITERS" "$ROUNDS"
		python3 "$HERE/irq_cost.py" --arch "$arch" --mode wall --label "$f Hz, plain TCG" "$T/out"
	done
}

echo "interrupt cost under QEMU TCG: bmprof's timer handler (sample) against the same handler"
echo "recording nothing (empty) at the same rate, and the work alone (off), in one guest run"
echo "(host load average: $(cut -d' ' -f1-3 /proc/loadavg))"
bench_arch x86_64 "$IMG"
if command -v qemu-system-aarch64 >/dev/null; then
	bench_arch aarch64 "$A64_IMG"
else
	echo "aarch64: not measured: qemu-system-aarch64 is not installed (scripts/deps.sh installs it)"
fi
echo "(the sampling body alone, natively: make bench-core)"
