#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The shared-memory transport (--transport shm, docs/transport-shm.md), x86-64 and AArch64:
#   - shares.elf under -icount over shm gives the same 50:30:20 shares as over serial (each
#     within 3 points of the truth, the two within 2 points of each other), the stream says
#     it came through shared memory, and the accounting is exact;
#   - smp_work.elf on 2 CPUs (one ring each), each CPU working until it took samples:
#     exact accounting on every CPU;
#   - a consumer held until the image's final flush (--shm-consume-at-end) on tiny rings
#     with tiny sampler buffers and a program with many distinct PCs, a fixed amount of
#     work under --icount: rings overrun, and every loss is counted exactly:
#     taken = delivered + lost_full + lost_transport per CPU, the host received every
#     delivered sample, the frames the host found missing by ring sequence number equal
#     the frames the image counted as dropped, and equal the SAMPLES sequence gaps;
#   - rings that do not fit the memory: the image says so on its console, falls back to
#     serial, and bmprof qemu fails (125) because shm was asked for.
. "$(dirname "$0")/lib.sh"
need_qemu
# bmprof creates the shared-memory file in $TMPDIR when set: here, to check it is removed
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

qemu_run() {   # NAME ARGS...: bmprof qemu, then its JSON report
	local name=$1 rc=0
	shift
	"$BMPROF" qemu --timeout 600 -o "$T/$name.data" "$@" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $rc"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report failed"
}

shares() {   # IMAGES-DIR ARCH
	local dir=$1 arch=$2
	qemu_run "$arch-serial" --icount --freq 20000 "$dir/shares.elf"
	qemu_run "$arch-shm" --icount --freq 20000 --transport shm "$dir/shares.elf"
	grep -q "stream from QEMU shared memory" "$T/$arch-shm.err" || fail "$arch: no shm summary line"
	check_accounting "$T/$arch-shm.json"
	python3 - "$T/$arch-serial.json" "$T/$arch-shm.json" <<'PY' || fail "$arch: shares differ"
import json, sys
want = {"work_a": 50.0, "work_b": 30.0, "work_c": 20.0}
def shares(path):
    r = json.load(open(path))
    rows = {x["symbol"]: x["samples"] for x in r["rows"]}
    tot = sum(rows.get(f, 0) for f in want)
    assert tot >= 1000, f"{path}: too few samples ({tot})"
    return r, {f: 100.0 * rows.get(f, 0) / tot for f in want}
_, ser = shares(sys.argv[1])
r, shm = shares(sys.argv[2])
assert r["meta"]["host"]["transport"] == "shm", r["meta"]["host"]
assert r["meta"]["host"]["shm_dropped_frames"] == "0", r["meta"]["host"]
for f, w in want.items():
    print(f"{f}: serial {ser[f]:.1f}%, shm {shm[f]:.1f}% (want {w}%)")
    assert abs(shm[f] - w) <= 3.0 and abs(ser[f] - w) <= 3.0, f
    assert abs(shm[f] - ser[f]) <= 2.0, f
PY
	qemu_run "$arch-smp2" --freq 4000 --smp 2 --cpu-wait 600000 --param own_samples=4 \
		--transport shm "$dir/smp_work.elf"
	check_accounting "$T/$arch-smp2.json"
	pyassert "$T/$arch-smp2.json" "len(r['meta']['cpus']) == 2"
}

# The exact accounting of a run that overran its rings.
overrun() {   # NAME
	python3 - "$T/$1.json" <<'PY' || fail "$1: overrun accounting"
import json, sys
r = json.load(open(sys.argv[1]))
h = r["meta"]["host"]
cpus = r["meta"]["cpus"]
dropped, lost = int(h["shm_dropped_frames"]), int(h["shm_lost_frames"])
xmit = sum(c["lost_transport"] for c in cpus)
gaps = sum(c["seq_gaps"] for c in cpus)
print(f"dropped frames {dropped}, missing by ring seq {lost}, SAMPLES gaps {gaps}, "
      f"samples lost in transport {xmit}")
for c in cpus:
    assert c["taken"] == c["delivered"] + c["lost_full"] + c["lost_transport"], c
    assert c["received"] == c["delivered"], c
assert dropped > 0 and xmit > 0, "the held consumer caused no overrun"
assert dropped == lost == gaps, (dropped, lost, gaps)
assert r["meta"]["end"]["reason"] == "exit"
PY
}

shares "$IMAGES" x86_64
cd "$ROOT"
tiny=$BUILD/x86_64-shm-tiny
make --no-print-directory -s -j2 image SRC=tests/e2e/progs/manypc.c NAME=manypc_tiny \
	BUILD="$BUILD" X86_OUT="$tiny" IMAGE_CFLAGS=-DMANYPC_MS=200 \
	X86_DEFS="-DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=8" >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image (tiny buffers) failed"; }
# 2 x 200 ms of guest time at 10 kHz: about 4000 samples nearly all evicted, some 30 KiB of
# SAMPLES frames for two rings of 8 KiB that nothing reads until the final flush
qemu_run slow --icount --freq 10000 --smp 2 --transport shm --shm-size 16K \
	--shm-consume-at-end "$tiny/manypc_tiny.elf"
overrun slow

# 4 rings of at least 4 KiB do not fit 16 KiB: the image falls back to serial.
rc=0
"$BMPROF" qemu --timeout 600 --cpu-wait 600000 --smp 4 --transport shm --shm-size 16K -o "$T/fb.data" \
	"$IMAGES/shares.elf" >"$T/fb.out" 2>"$T/fb.err" || rc=$?
[ "$rc" -eq 125 ] || { tail "$T/fb.err"; fail "fallback: exit $rc, want 125"; }
grep -q "^bmprof: target: warning: transport=shm: .*the profile goes over the serial port" "$T/fb.err" ||
	fail "fallback: no message from the image"
grep -q "did not use the shared-memory rings" "$T/fb.err" || fail "fallback: no host error"

if command -v qemu-system-aarch64 >/dev/null && [ -f "$ROOT/$BUILD/test-images-aarch64/shares.elf" ]; then
	shares "$ROOT/$BUILD/test-images-aarch64" aarch64
else
	echo "aarch64 part skipped: no qemu-system-aarch64 or no AArch64 test images"
fi
[ -z "$(ls "$TMPDIR")" ] ||
	fail "a shared-memory file was left behind"
echo "shm transport ok"
