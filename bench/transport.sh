#!/usr/bin/env bash
# Serial port vs shared-memory rings (--transport serial|shm) under QEMU TCG, all in this
# run, two ways.
# 1. Raw stream throughput: bench/progs/stream.c sends 1012-byte frames back to back for a
#    second of guest time; bytes/s delivered (frames the host received), and the frames
#    the ring refused for want of space (the serial port never refuses: it waits).
# 2. Sampling: the workload (tests/e2e/progs/manypc.c built with a 16-entry hash table and small
# overflow buffers) misses the table on nearly every sample, so the stream carries a
# SAMPLES frame for every few samples. For each transport --freq steps up until samples
# are lost (lost_full + lost_transport > 0); the table gives, at the highest rate with no
# loss, the samples and stream bytes per second of guest time (the program runs for
# MANYPC_MS of guest time), and the ratios ring/serial. The stream's bytes are the profile
# file's size (it stores every frame verbatim, plus a few hundred bytes of metadata).
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
IMG=${IMG:-build/bench/transport/manypc_bench.elf}
STREAM_IMG=${STREAM_IMG:-build/bench/transport/stream.elf}
MS=${MANYPC_MS:-1000}
STEPS=${STEPS:-5000 20000 50000 100000}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

run() {   # TRANSPORT FREQ: prints "taken delivered lost bytes"
	"$BMPROF" qemu --accel tcg --freq "$2" --transport "$1" -o "$T/p.data" "$IMG" \
		>/dev/null 2>"$T/err" || { cat "$T/err" >&2; return 1; }
	"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json"
	python3 - "$T/r.json" "$T/p.data" <<'PY'
import json, os, sys
c = json.load(open(sys.argv[1]))["meta"]["cpus"]
print(sum(x["taken"] for x in c), sum(x["delivered"] for x in c),
      sum(x["lost_full"] + x["lost_transport"] for x in c), os.path.getsize(sys.argv[2]))
PY
}

best() {   # TRANSPORT: prints "freq samples/s bytes/s" at the highest loss-free step
	local tr=$1 out="0 0 0" f taken del lost bytes
	for f in $STEPS; do
		run "$tr" "$f" >"$T/run"
		read -r taken del lost bytes <"$T/run"
		printf '  %-7s %7s Hz: taken %7s delivered %7s lost %6s stream %8s bytes\n' \
			"$tr" "$f" "$taken" "$del" "$lost" "$bytes" >&2
		[ "$lost" -eq 0 ] || break
		out="$f $(awk -v d="$del" -v b="$bytes" -v ms="$MS" \
			'BEGIN { printf "%.0f %.0f", d * 1000 / ms, b * 1000 / ms }')"
	done
	echo "$out"
}

stream() {   # TRANSPORT: prints "bytes/s refused"
	"$BMPROF" qemu --accel tcg --transport "$1" -o "$T/s.data" "$STREAM_IMG" >"$T/s.out" \
		2>"$T/s.err" || { cat "$T/s.err" >&2; return 1; }
	"$BMPROF" report -i "$T/s.data" --format json >"$T/s.json"
	python3 - "$T/s.json" "$T/s.out" <<'PY'
import json, re, sys
st = json.load(open(sys.argv[1]))["meta"]["stream"]
m = re.search(r"stream: sent=(\d+) refused=(\d+) ms=(\d+)", open(sys.argv[2]).read())
sent, refused, ms = map(int, m.groups())
assert st["frames_unknown"] == sent, (st, sent)
print(round(sent * 1012 * 1000 / ms), refused)
PY
}

echo "transport: serial vs shared-memory rings under QEMU TCG"
stream serial >"$T/ss"
stream shm >"$T/rs"
read -r s_bps s_ref <"$T/ss"
read -r r_bps r_ref <"$T/rs"
printf '  %-26s %12s %12s %10s\n' "1. stream, 1012-byte frames" serial shm ring/serial
awk -v a="$s_bps" -v b="$r_bps" 'BEGIN { printf "  %-26s %12d %12d %9.2fx\n", "bytes/s delivered", a, b, b / a }'
printf '  %-26s %12s %12s\n' "frames refused" "$s_ref" "$r_ref"
echo
echo "2. sampling manypc (16-entry table), --freq stepped up until a sample is lost:"
best serial >"$T/serial"
best shm >"$T/shm"
read -r sf ss sb <"$T/serial"
read -r rf rs rb <"$T/shm"
printf '  %-26s %12s %12s %10s\n' "" serial shm ring/serial
awk -v a="$sf" -v b="$rf" 'BEGIN { printf "  %-26s %12d %12d %9.2fx\n", "max loss-free freq (Hz)", a, b, a ? b / a : 0 }'
awk -v a="$ss" -v b="$rs" 'BEGIN { printf "  %-26s %12d %12d %9.2fx\n", "samples/s delivered", a, b, a ? b / a : 0 }'
awk -v a="$sb" -v b="$rb" 'BEGIN { printf "  %-26s %12d %12d %9.2fx\n", "stream bytes/s", a, b, a ? b / a : 0 }'
echo "  (per second of guest time, at the highest step with no sample lost; steps: $STEPS Hz;"
echo "   under TCG the emulator's interrupt rate, not the transport, caps the sampling rate)"
