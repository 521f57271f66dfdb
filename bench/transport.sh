#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Serial port vs shared-memory rings (--transport serial|shm) under QEMU TCG: what each
# transport carries, measured so that the emulator's interrupt cost is not in the figure.
# 1. Raw stream throughput: bench/progs/stream.c sends 1012-byte frames back to back for a
#    second of guest time, no sampling interrupts in the way (bytes the host received;
#    the ring's refusals say whether the host's reader ever fell behind).
# 2. The sample path's capacity when every sample is a new pc: bench/progs/drainrate.c
#    records samples by direct calls (no interrupt) and drains each full overflow buffer
#    at once, in phases drained into a null sink (the baseline, in the same run) and
#    through the transport, interleaved.
# The runs alternate serial, shm, serial, shm... (REPS of each); medians are reported.
# Under a busy host the figures get noisier; nothing here fails for it.
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
STREAM_IMG=${STREAM_IMG:-build/bench/transport/stream.elf}
DRAIN_IMG=${DRAIN_IMG:-build/bench/transport/drainrate.elf}
REPS=${REPS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

run() {   # TRANSPORT IMAGE OUT [bmprof qemu options...]: the console text into OUT
	local tr=$1 img=$2 out=$3
	shift 3
	"$BMPROF" qemu --accel tcg --transport "$tr" "$@" -o "$T/p.data" "$img" >"$out" \
		2>"$T/err" || { cat "$T/err" >&2; echo "transport bench: $tr run of $img failed" >&2; return 1; }
}

echo "transport: serial vs shared-memory rings under QEMU TCG (host load average:" \
	"$(cut -d' ' -f1-3 /proc/loadavg))"
for i in $(seq "$REPS"); do
	for tr in serial shm; do
		run "$tr" "$STREAM_IMG" "$T/stream.$tr.$i.out"
		# what the host received, to check against what the guest sent
		"$BMPROF" report -i "$T/p.data" --format json >"$T/stream.$tr.$i.out.json"
	done
done
python3 "$HERE/transport.py" stream --serial "$T"/stream.serial.*.out --shm "$T"/stream.shm.*.out
for i in $(seq "$REPS"); do
	for tr in serial shm; do
		run "$tr" "$DRAIN_IMG" "$T/drain.$tr.$i" --param samples=100000 --param rounds=4
	done
done
python3 "$HERE/transport.py" drain --serial "$T"/drain.serial.* --shm "$T"/drain.shm.*
