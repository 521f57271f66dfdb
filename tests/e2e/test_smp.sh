#!/usr/bin/env bash
# Sampling on several CPUs (x86-64 runtime, QEMU -smp N; TCG runs the vCPUs in parallel
# threads here, so the CPUs really race for the UART and the flush).
#   - smp_work.elf on 1, 2, 4 and 8 CPUs with the default buffers: every CPU reports,
#     taken = delivered + lost exactly with nothing lost, every frame arrives, CPU k's
#     samples are in work_cpuK and never in another CPU's work, the console lines arrive
#     whole;
#   - the same program with 16-entry tables and 8-entry overflow buffers at 20 kHz: samples
#     may be lost, but each CPU's accounting stays exact;
#   - one raw serial capture (8 CPUs, tiny buffers): every frame intact and none inside a
#     console line;
#   - the run ended by another CPU (bm_exit while the others print all the time, a page
#     fault) and with a CPU that cannot be stopped (interrupts disabled): every CPU that
#     stopped is flushed, exactly.
# Every run is limited to 60 s, so a deadlock (on the UART lock, in the stop) fails the
# test instead of hanging it.
. "$(dirname "$0")/lib.sh"
need_qemu

# decode FILE ELF: per-CPU sample counts per function, from the profile's SAMPLES frames
decode() {
	python3 - "$1" "$2" <<'PY'
import bisect, collections, json, struct, subprocess, sys
data = open(sys.argv[1], "rb").read()
syms = []
for line in subprocess.run(["nm", "-n", "--defined-only", sys.argv[2]], capture_output=True,
                           text=True, check=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "tTwW":
        syms.append((int(f[0], 16), f[2]))
addrs = [a for a, _ in syms]
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i
per = collections.defaultdict(collections.Counter)
i = 0
while i + 12 <= len(data):
    if data[i:i + 4] != b"\xb5BMP":
        i += 1
        continue
    typ, ln = data[i + 4], struct.unpack_from("<H", data, i + 6)[0]
    p, i = data[i + 8:i + 8 + ln], i + 12 + ln
    if typ != 3:
        continue
    cpu, n = struct.unpack_from("<HH", p)
    j, pc = 8, 0
    for _ in range(n):
        _, j = varint(p, j)
        d, j = varint(p, j)
        cnt, j = varint(p, j)
        pc += (d >> 1) ^ -(d & 1)
        k = bisect.bisect_right(addrs, pc) - 1
        per[cpu][syms[k][1] if k >= 0 else "?"] += cnt
json.dump({c: dict(v) for c, v in per.items()}, sys.stdout)
PY
}

# check N JSON DECODED OUT LOSSLESS
check() {
	python3 - "$@" <<'PY' || exit 1
import json, re, sys
n, r, per, out, lossless = int(sys.argv[1]), json.load(open(sys.argv[2])), \
    json.load(open(sys.argv[3])), open(sys.argv[4]).read(), sys.argv[5] == "1"
m = r["meta"]
assert m["ncpus"] == n, f"HELLO announces {m['ncpus']} CPUs, want {n}"
cpus = {c["cpu"]: c for c in m["cpus"]}
assert sorted(cpus) == list(range(n)), f"CPUs reported: {sorted(cpus)}, want 0..{n - 1}"
st = m["stream"]
assert st["frames_bad_crc"] == 0 and st["frames_malformed"] == 0 and st["bytes_skipped"] == 0, st
for k, c in cpus.items():
    assert c["have_totals"], f"cpu {k}: no TOTALS"
    assert c["seq_gaps"] == 0 and c["lost_in_transit"] == 0, f"cpu {k}: frames lost {c}"
    if lossless:
        assert c["lost_full"] == 0 and c["lost_transport"] == 0, f"cpu {k}: lost samples {c}"
    mine = per.get(str(k), {})
    assert sum(mine.values()) == c["delivered"], f"cpu {k}: decoded {sum(mine.values())} != delivered {c['delivered']}"
    assert mine.get(f"work_cpu{k}", 0) >= 5, f"cpu {k}: {mine.get(f'work_cpu{k}', 0)} samples in work_cpu{k}: {mine}"
    foreign = {f: v for f, v in mine.items() if f.startswith("work_cpu") and f != f"work_cpu{k}"}
    assert not foreign, f"cpu {k} has samples of other CPUs' work: {foreign}"
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0, m["end"]
ok = [re.compile(p) for p in (r"smp_work: cpu \d step \d of 4",
      r"smp_work: cpu (\d): work_cpu\1 ran on cpu \1, result [0-9a-f]{16}, ok",
      r"smp_work: %d cpus, ok, \d+ us" % n)]
lines = out.splitlines()
bad = [l for l in lines if not any(p.fullmatch(l) for p in ok)]
assert not bad, f"console lines broken or unexpected: {bad[:5]}"
assert sum(1 for l in lines if "step" in l) == 4 * n, "progress lines missing"
print(f"{n} CPUs ok:", [(k, c["taken"], c["lost_full"]) for k, c in sorted(cpus.items())])
PY
}

run() {   # run NAME ELF FREQ N LOSSLESS
	local name=$1 elf=$2 freq=$3 n=$4 rc=0
	"$BMPROF" qemu --timeout 60 --freq "$freq" -o "$T/$name.data" "$elf" -- -smp "$n" \
		>"$T/$name.out" 2>"$T/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $rc"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report failed"
	check_accounting "$T/$name.json"
	decode "$T/$name.data" "$elf" >"$T/$name.per" || fail "$name: cannot decode the profile"
	check "$n" "$T/$name.json" "$T/$name.per" "$T/$name.out" "$5" || fail "$name"
}

for n in 1 2 4 8; do
	run "smp$n" "$IMAGES/smp_work.elf" 4000 "$n" 1
done

cd "$ROOT"
tiny=$BUILD/x86_64-smp-tiny
make --no-print-directory -s -j2 image SRC=tests/e2e/progs/smp_work.c NAME=smp_tiny \
	BUILD="$BUILD" X86_OUT="$tiny" \
	X86_DEFS="-DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=8" >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image (tiny buffers) failed"; }
for n in 1 2 4 8; do
	run "tiny$n" "$tiny/smp_tiny.elf" 20000 "$n" 0
done

# The raw serial stream: frames and console lines, each whole.
timeout 60 qemu-system-x86_64 -M q35 -m 256M -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-display none -no-reboot -monitor none -serial "file:$T/raw" -accel tcg -cpu max -smp 8 \
	-fw_cfg name=opt/bmprof/config,string=freq=20000 -kernel "$tiny/smp_tiny.elf" >"$T/qout" 2>&1
rc=$?
[ "$rc" -eq 3 ] || { cat "$T/qout"; fail "raw run: QEMU exited $rc, want 3 (main returned 0)"; }
python3 - "$T/raw" <<'PY' || fail "raw serial stream"
import re, struct, sys, zlib
b = open(sys.argv[1], "rb").read()
i, text, frames = 0, bytearray(), 0
while i < len(b):
    if b[i:i + 4] == b"\xb5BMP":
        ln = struct.unpack_from("<H", b, i + 6)[0]
        crc = struct.unpack_from("<I", b, i + 8 + ln)[0]
        assert zlib.crc32(b[i + 4:i + 8 + ln]) == crc, f"frame at byte {i}: bad CRC"
        assert not text or text.endswith(b"\n"), f"frame at byte {i} inside a console line: {bytes(text[-40:])}"
        frames += 1
        i += 12 + ln
        continue
    assert b[i] in b"\n" or 32 <= b[i] < 127, f"byte {i}: {b[i]:#x} outside a frame"
    text.append(b[i])
    i += 1
lines = text.decode().splitlines()
assert all(l.startswith("smp_work: ") for l in lines), [l for l in lines if not l.startswith("smp_work: ")][:5]
assert "smp_work: 8 cpus, ok" in text.decode(), "no summary line"
print(f"raw stream ok: {frames} frames, {len(lines)} console lines")
PY

# ended_by NAME IMAGE N STATUS: the run ends on another CPU; every CPU is flushed
ended_by() {
	local name=$1 n=$3 want=$4 rc=0
	"$BMPROF" qemu --timeout 60 --freq 4000 -o "$T/$name.data" "$IMAGES/$2.elf" -- -smp "$n" \
		>"$T/$name.out" 2>"$T/$name.err" || rc=$?
	[ "$rc" -eq "$want" ] || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $rc, want $want"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report failed"
	check_accounting "$T/$name.json"
	pyassert "$T/$name.json" "sorted(c['cpu'] for c in r['meta']['cpus']) == list(range($n))"
	pyassert "$T/$name.json" "all(c['have_totals'] for c in r['meta']['cpus'])"
}
ended_by exit smp_exit 4 5
pyassert "$T/exit.json" 'r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 5'
grep -q "^smp_exit: cpu 3 ends the run$" "$T/exit.out" || fail "smp_exit: CPU 3 did not end the run"
ended_by fault smp_fault 4 126
pyassert "$T/fault.json" 'r["meta"]["end"]["reason"] == "exception" and r["meta"]["end"]["vector"] == 14'
grep -q "^bmprof: CPU exception #PF (14)" "$T/fault.out" || fail "smp_fault: no exception line"

# CPU 1 spins with interrupts disabled: it is left out after the wait, CPUs 0 and 2 are sent
rc=0
"$BMPROF" qemu --timeout 60 --freq 4000 -o "$T/cli.data" "$IMAGES/smp_cli.elf" -- -smp 3 \
	>"$T/cli.out" 2>"$T/cli.err" || rc=$?
[ "$rc" -eq 0 ] || { tail -20 "$T/cli.err"; fail "smp_cli: bmprof qemu exited $rc"; }
grep -q "^bmprof: CPU 1 did not stop" "$T/cli.out" || { cat "$T/cli.out"; fail "smp_cli: no line for CPU 1"; }
"$BMPROF" report -i "$T/cli.data" --format json >"$T/cli.json" || fail "smp_cli: report failed"
python3 - "$T/cli.json" <<'PY' || fail "smp_cli"
import json, sys
cpus = {c["cpu"]: c for c in json.load(open(sys.argv[1]))["meta"]["cpus"]}
for k in (0, 2):
    c = cpus[k]
    assert c["have_totals"] and c["taken"] == c["delivered"] + c["lost_full"] + c["lost_transport"] \
        and c["received"] == c["delivered"], c
assert 1 not in cpus or not cpus[1]["have_totals"], cpus.get(1)
PY
exit 0
