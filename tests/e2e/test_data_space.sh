#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Raw samples (bmprof qemu --data-space) end to end on x86-64 and AArch64 under QEMU TCG
# with -icount: rawregs.c keeps known values in registers through a loop, and every raw
# sample whose pc is in the loop must hold them (the base register a word of the array,
# the end pointer, a callee-saved and a caller-saved magic value); every record decodes,
# the source is named (the timer: QEMU counts no memory event here), and the accounting is
# exact: raw taken = delivered + lost, delivered = received, one raw sample per sample.
# A 1-record raw ring with the console holding the UART forces raw losses, counted. Without
# --data-space nothing is sent raw; bmprof record --data-space keeps a board's raw samples
# and warns about a stream without them.
. "$(dirname "$0")/lib.sh"
need_qemu

raw_accounting() {   # raw_accounting JSON: per CPU, exact, and one raw sample per sample
	python3 - "$1" <<'PY' || fail "raw accounting: $1"
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["meta"]["cpus"]:
    lost = c["raw_lost_full"] + c["raw_lost_transport"]
    assert c["raw_taken"] > 0, "cpu %d: no raw samples" % c["cpu"]
    assert c["raw_taken"] == c["raw_delivered"] + lost, c
    assert c["raw_received"] == c["raw_delivered"], c
    assert c["raw_taken"] == c["taken"], c
print("raw accounting ok:", [(c["cpu"], c["raw_taken"], c["raw_lost_full"]) for c in r["meta"]["cpus"]])
PY
}

run() {   # run NAME ARCH IMAGE ARGS...
	local name=$1 arch=$2 img=$3
	shift 3
	"$BMPROF" qemu --icount --freq 20000 --data-space "$@" -o "$T/$name.data" "$img" \
		>"$T/$name.out" 2>"$T/$name.err" || { tail -20 "$T/$name.err"; fail "$name: exit $?"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report"
	check_accounting "$T/$name.json"
	raw_accounting "$T/$name.json"
	python3 "$ROOT/tests/e2e/raw_check.py" "$arch" "$T/$name.data" "$img" "$T/$name.out" 200 ||
		fail "$name: raw samples"
}

arches=(x86_64:"$IMAGES")
if command -v qemu-system-aarch64 >/dev/null && [ -f "$ROOT/$BUILD/test-images-aarch64/rawregs.elf" ]; then
	arches+=(aarch64:"$ROOT/$BUILD/test-images-aarch64")
else
	echo "note: no AArch64 QEMU or images: AArch64 left out"
fi
for a in "${arches[@]}"; do
	arch=${a%%:*} dir=${a#*:}
	run "$arch" "$arch" "$dir/rawregs.elf"
	grep -q "data space: asking for l1d-miss-loads" "$T/$arch.err" || fail "$arch: no word on the event asked for"
	grep -q "data space: raw samples from the timer: l1d-miss-loads is not counted here" "$T/$arch.err" ||
		{ cat "$T/$arch.err"; fail "$arch: the source is not named"; }
	grep -q "^  raw       taken [0-9]*, delivered [0-9]*, lost 0 " "$T/$arch.err" ||
		fail "$arch: no raw line in the summary"
	pyassert "$T/$arch.json" "r['meta']['host']['data_space_source'] == 'timer'"
	pyassert "$T/$arch.json" "r['meta']['host']['data_space'] == '1'"
	"$BMPROF" report -i "$T/$arch.data" >"$T/$arch.report" 2>&1 || fail "$arch: report"
	grep -q "^# raw       taken" "$T/$arch.report" || fail "$arch: report has no raw line"
done

# With an event: its raw samples carry its id (AArch64's PMU counts cycles; without
# -icount its overflow interrupt is raised, so this run is statistical: only the wiring
# is checked).
if [ ${#arches[@]} -gt 1 ]; then
	a64=$ROOT/$BUILD/test-images-aarch64/rawregs.elf
	"$BMPROF" qemu --data-space --event cycles:period=100000 -o "$T/ev.data" "$a64" \
		>"$T/ev.out" 2>"$T/ev.err" || { tail "$T/ev.err"; fail "event run: exit $?"; }
	grep -q "data space: raw samples from PMU event cycles" "$T/ev.err" ||
		{ cat "$T/ev.err"; fail "event run: source not named"; }
	"$BMPROF" report -i "$T/ev.data" --format json >"$T/ev.json" || fail "event run: report"
	raw_accounting "$T/ev.json"
	python3 "$ROOT/tests/e2e/raw_check.py" aarch64 "$T/ev.data" "$a64" "$T/ev.out" 1 ||
		fail "event run: raw samples"
fi

# A 1-record raw ring, and long console lines that hold the UART (no drain meanwhile) at
# 100 kHz: raw samples are lost, counted, and the rest still check out.
out=$BUILD/x86_64-raw-tiny
(cd "$ROOT" && make --no-print-directory -s -j2 image SRC=tests/e2e/progs/rawregs.c \
	NAME=rawregs_tiny BUILD="$BUILD" X86_OUT="$out" X86_DEFS="-DBMPROF_X86_RAW_ENTRIES=1") \
	>"$T/make" 2>&1 || { cat "$T/make"; fail "make image (tiny raw ring)"; }
run tiny x86_64 "$ROOT/$out/rawregs_tiny.elf" --freq 100000 --param chatty=20
pyassert "$T/tiny.json" "sum(c['raw_lost_full'] for c in r['meta']['cpus']) > 0"
pyassert "$T/tiny.json" "sum(c['lost_full'] for c in r['meta']['cpus']) == 0"
grep -q "raw buffer full" "$T/tiny.err" || fail "tiny: the summary does not say why"

# Without --data-space: no raw samples at all.
"$BMPROF" qemu --icount --freq 20000 -o "$T/plain.data" "$IMAGES/rawregs.elf" >/dev/null \
	2>"$T/plain.err" || fail "plain run"
grep -q "^  raw \|data space" "$T/plain.err" && { cat "$T/plain.err"; fail "raw samples without --data-space"; }
python3 -c "
import sys; sys.path.insert(0, '$ROOT/tests/e2e'); import frames
fs = frames.frames(open('$T/plain.data', 'rb').read())
assert not [f for f in fs if f.type == frames.RAW_SAMPLES], 'RAW_SAMPLES frames without --data-space'
" || fail "plain: raw frames"

# A board-like run (raw=1 in the image's configuration) through bmprof record --data-space.
for raw in 1 0; do
	timeout 600 qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none \
		-accel tcg -icount shift=0,sleep=off -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$T/serial$raw" -kernel "$IMAGES/rawregs.elf" \
		-fw_cfg "name=opt/bmprof/config,string=freq=20000 raw=$raw" >/dev/null 2>&1
	"$BMPROF" record --data-space --from "$T/serial$raw" -o "$T/rec$raw.data" \
		--elf "$IMAGES/rawregs.elf" >"$T/rec$raw.out" 2>"$T/rec$raw.err" || fail "record raw=$raw"
done
grep -q "no raw samples" "$T/rec1.err" && fail "record warned about a stream with raw samples"
grep -q "no raw samples" "$T/rec0.err" || fail "record did not warn about a stream without"
grep -q "data space: raw samples from the timer" "$T/rec1.err" || fail "record: source not named"
"$BMPROF" report -i "$T/rec1.data" --format json >"$T/rec1.json" || fail "record: report"
raw_accounting "$T/rec1.json"
pyassert "$T/rec1.json" "r['meta']['host']['data_space_source'] == 'timer'"
echo "data space ok"
