#!/usr/bin/env bash
# Sampling on several CPUs with the AArch64 runtime (QEMU virt -cpu max -smp N, TCG; the
# vCPUs run in parallel host threads unless a run says thread=single or -icount):
#   - smp_work.elf on 1, 2, 4 and 8 CPUs (GICv2), and on 4 CPUs with a GICv3 and entered
#     at EL2: HELLO announces N CPUs, every CPU sends TOTALS with taken = delivered + lost
#     exactly and nothing lost, every frame arrives, CPU k's samples are in work_cpuK and
#     never in another CPU's work, the console lines arrive whole;
#   - PMU cycle-counter sampling on 2 CPUs (source pmu; the same checks), and counting on 4
#     CPUs (COUNTS from every CPU);
#   - smp_chatty.elf (long console lines from every CPU) built with 4-entry tables and
#     1-entry overflow buffers, at 50 kHz on 1, 2, 4 and 8 CPUs: samples are lost and each
#     CPU's accounting stays exact; at 100 kHz under -icount on 4 CPUs every CPU loses
#     some;
#   - raw serial captures of it (8 CPUs, TCG single-threaded; 4, multi-threaded): every
#     frame intact, none inside a console line, every line whole, drains during the run;
#   - runs ended by CPU 3 of 4 (smp_exit: bm_exit(5); smp_fault: a data abort): every CPU
#     stopped and flushed.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-aarch64 >/dev/null ||
	skip "qemu-system-aarch64 not installed (make deps)"
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$A64/smp_work.elf" ] && [ -f "$A64/smp_chatty.elf" ] ||
	skip "no AArch64 SMP test images in $A64: run make test-images-aarch64"
QEMU=(qemu-system-aarch64 -M virt -cpu max -m 256M -display none -no-reboot -monitor none
      -semihosting)

# exact JSON: taken = delivered + lost on every CPU and every delivered sample received
# (check_accounting without its "every CPU took samples": a CPU stopped early may not have)
exact() {
	python3 - "$1" <<'PY' || exit 1
import json, sys
for c in json.load(open(sys.argv[1]))["meta"]["cpus"]:
    assert c["taken"] == c["delivered"] + c["lost_full"] + c["lost_transport"], c
    assert c["received"] == c["delivered"], c
PY
}

# decode DATA ELF: per CPU, samples per function, from the profile's SAMPLES frames
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
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
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

# check N JSON DECODED OUT SOURCE: smp_work's run on N CPUs, nothing lost
check_work() {
	python3 - "$@" <<'PY' || exit 1
import json, re, sys
n, r, per, out, source = int(sys.argv[1]), json.load(open(sys.argv[2])), \
    json.load(open(sys.argv[3])), open(sys.argv[4], errors="replace").read(), sys.argv[5]
m = r["meta"]
assert m["arch"] == "aarch64" and m["source"] == source, (m["arch"], m["source"])
assert m["ncpus"] == n, f"HELLO announces {m['ncpus']} CPUs, want {n}"
cpus = {c["cpu"]: c for c in m["cpus"]}
assert sorted(cpus) == list(range(n)), f"CPUs reported: {sorted(cpus)}, want 0..{n - 1}"
st = m["stream"]
assert st["frames_bad_crc"] == 0 and st["frames_malformed"] == 0 and st["bytes_skipped"] == 0, st
for k, c in cpus.items():
    assert c["have_totals"], f"cpu {k}: no TOTALS"
    assert c["seq_gaps"] == 0 and c["lost_in_transit"] == 0, f"cpu {k}: frames lost: {c}"
    assert c["lost_full"] == 0 and c["lost_transport"] == 0, f"cpu {k}: samples lost: {c}"
    mine = per.get(str(k), {})
    assert sum(mine.values()) == c["delivered"], \
        f"cpu {k}: decoded {sum(mine.values())} samples, delivered {c['delivered']}"
    assert mine.get(f"work_cpu{k}", 0) >= 10, f"cpu {k}: too few samples in work_cpu{k}: {mine}"
    foreign = {f: v for f, v in mine.items() if f.startswith("work_cpu") and f != f"work_cpu{k}"}
    assert not foreign, f"cpu {k} has samples of other CPUs' work: {foreign}"
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0, m["end"]
ok = [re.compile(p) for p in (r"smp_work: cpu \d step \d of 4",
      r"smp_work: cpu (\d): work_cpu\1 ran on cpu \1, result [0-9a-f]{16}, ok",
      r"smp_work: %d cpus, ok, \d+ us" % n)]
lines = out.splitlines()
bad = [l for l in lines if not any(p.fullmatch(l) for p in ok)]
assert not bad, f"console lines broken or unexpected: {bad[:5]}"
assert sum(1 for l in lines if " step " in l) == 4 * n, "progress lines missing"
print(f"{n} CPUs ok:", [(k, c["taken"]) for k, c in sorted(cpus.items())])
PY
}

# work NAME N SOURCE BMPROF-ARGS... [-- QEMU-ARGS...]: smp_work.elf through bmprof qemu
work() {
	local name=$1 n=$2 source=$3
	shift 3
	"$BMPROF" qemu -o "$T/$name.data" "$@" >"$T/$name.out" 2>"$T/$name.err" ||
		{ tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $?"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" ||
		fail "$name: report failed"
	check_accounting "$T/$name.json"
	decode "$T/$name.data" "$A64/smp_work.elf" >"$T/$name.per" ||
		fail "$name: cannot decode the profile"
	check_work "$n" "$T/$name.json" "$T/$name.per" "$T/$name.out" "$source" || fail "$name"
}

for n in 1 2 4 8; do
	work "work$n" "$n" timer --freq 10000 "$A64/smp_work.elf" -- -smp "$n"
done
work gicv3 4 timer --freq 10000 "$A64/smp_work.elf" -- -smp 4 -M virt,gic-version=3
work el2 4 timer --freq 10000 "$A64/smp_work.elf" -- -smp 4 -M virt,virtualization=on
work pmu 2 pmu --event cycles:period=100000 "$A64/smp_work.elf" -- -smp 2

# raw NAME ELF CONFIG QEMU-ARGS...: QEMU's serial output in $T/NAME.bin, its status in
# $T/NAME.rc, recorded into $T/NAME.data and reported in $T/NAME.json
raw() {
	local name=$1 elf=$2 cfg=$3
	shift 3
	timeout 120 "${QEMU[@]}" -serial "file:$T/$name.bin" -kernel "$elf" \
		-fw_cfg "name=opt/bmprof/config,string=$cfg" "$@" >"$T/$name.qemu" 2>&1
	echo $? >"$T/$name.rc"
	"$BMPROF" record --from "$T/$name.bin" --elf "$elf" -o "$T/$name.data" \
		>"$T/$name.out" 2>"$T/$name.rec" || { cat "$T/$name.rec"; fail "$name: record failed"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" ||
		fail "$name: report failed"
}

# Counting on 4 CPUs: one COUNTS record per CPU and event, each CPU's enabled time the run's.
raw count "$A64/smp_work.elf" "mode=count freq=1000 event=1:cycles:0 event=2:0x11:0" -smp 4
[ "$(cat "$T/count.rc")" -eq 3 ] || fail "count: QEMU exit status $(cat "$T/count.rc"), want 3"
python3 - "$T/count.bin" <<'PY' || fail "count: COUNTS"
import struct, sys
b, i, seen = open(sys.argv[1], "rb").read(), 0, {}
while (j := b.find(b"\xb5BMP", i)) >= 0:
    t, ln = b[j + 4], struct.unpack_from("<H", b, j + 6)[0]
    if t == 6:
        cpu, n = struct.unpack_from("<HH", b, j + 8)
        for r in range(n):
            ev, _, _, v, en, ru = struct.unpack_from("<HHIQQQ", b, j + 12 + 32 * r)
            seen[(cpu, ev)] = (v, en, ru)
    i = j + 12 + ln
assert sorted(seen) == [(c, e) for c in range(4) for e in (1, 2)], sorted(seen)
assert all(v > 0 and en == ru > 0 for v, en, ru in seen.values()), seen
print("counts ok:", {k: v[0] for k, v in seen.items()})
PY

# stress NAME N FREQ [QEMU ARGS...]: smp_chatty with tiny tables; prints the samples lost
# per CPU
cd "$ROOT"
tiny=$BUILD/aarch64-smp-tiny
make --no-print-directory -s -j2 image ARCH=aarch64 SRC=tests/e2e/progs-aarch64/smp_chatty.c \
	NAME=chatty BUILD="$BUILD" A64_OUT="$tiny" \
	A64_DEFS="-DBMPROF_A64_TABLE_ENTRIES=4 -DBMPROF_A64_OVF_ENTRIES=1" >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image (tiny tables) failed"; }
stress() {
	local name=$1 n=$2 freq=$3
	shift 3
	raw "$name" "$tiny/chatty.elf" "freq=$freq" -smp "$n" "$@"
	[ "$(cat "$T/$name.rc")" -eq 3 ] ||
		{ cat "$T/$name.qemu"; fail "$name: QEMU exit status $(cat "$T/$name.rc"), want 3"; }
	grep -aq "smp_chatty: $n cpus, ok" "$T/$name.out" || fail "$name: no summary line"
	exact "$T/$name.json"
	python3 - "$T/$name.json" "$n" <<'PY' || fail "$name"
import json, sys
r, n = json.load(open(sys.argv[1])), int(sys.argv[2])
m = r["meta"]
assert m["ncpus"] == n and sorted(c["cpu"] for c in m["cpus"]) == list(range(n)), m["cpus"]
assert all(c["have_totals"] and c["seq_gaps"] == 0 for c in m["cpus"]), m["cpus"]
assert sum(c["taken"] for c in m["cpus"]) > 0, "no samples"
print(" ".join(str(c["lost_full"]) for c in m["cpus"]))
PY
}
lost=()
for n in 1 2 4 8; do
	l=$(stress "stress$n" "$n" 50000) || { echo "$l"; exit 1; }
	echo "stress, $n CPUs: lost per CPU: $l"
	lost+=($l)
done
total=0
for l in "${lost[@]}"; do total=$((total + l)); done
[ "$total" -gt 0 ] || fail "stress: no sample lost with 4-entry tables at 50 kHz"
l=$(stress icount4 4 100000 -icount shift=0) || { echo "$l"; exit 1; }
echo "stress, 4 CPUs, -icount: lost per CPU: $l"
for x in $l; do [ "$x" -gt 0 ] || fail "icount4: a CPU lost nothing: $l"; done

# The raw serial stream: frames and console lines, each whole, with frames from drains
# among the lines (8 CPUs taking turns on one host thread; 4 in parallel threads, fewer so
# that each samples often enough to drain).
for run in single:8 multi:4; do
	acc=${run%:*} n=${run#*:}
	timeout 120 "${QEMU[@]}" -serial "file:$T/$acc.bin" -kernel "$tiny/chatty.elf" -smp "$n" \
		-accel "tcg,thread=$acc" -fw_cfg name=opt/bmprof/config,string=freq=50000 \
		>"$T/$acc.qemu" 2>&1
	rc=$?
	[ "$rc" -eq 3 ] || { cat "$T/$acc.qemu"; fail "raw, thread=$acc: QEMU exited $rc, want 3"; }
	python3 - "$T/$acc.bin" "$n" <<'PY' || fail "raw serial stream, thread=$acc, $n CPUs"
import re, struct, sys, zlib
b, n = open(sys.argv[1], "rb").read(), int(sys.argv[2])
i, text, frames, drained, flushing = 0, bytearray(), 0, 0, False
while i < len(b):
    if b[i:i + 4] == b"\xb5BMP":
        typ, ln = b[i + 4], struct.unpack_from("<H", b, i + 6)[0]
        crc = struct.unpack_from("<I", b, i + 8 + ln)[0]
        assert zlib.crc32(b[i + 4:i + 8 + ln]) == crc, f"frame at byte {i}: bad CRC"
        assert not text or text.endswith(b"\n"), \
            f"frame at byte {i} inside a console line: {bytes(text[-40:])}"
        flushing |= typ == 4
        drained += typ == 3 and not flushing
        frames += 1
        i += 12 + ln
        continue
    assert b[i] == 10 or 32 <= b[i] < 127, f"byte {i}: {b[i]:#x} outside a frame"
    text.append(b[i])
    i += 1
pat = re.compile(r"smp_chatty: cpu ([0-7]) line (\d+) 0123456789abcdefghijklmnopqrstuvwxyz"
                 r"ABCDEFGHIJKLMNOPQRSTUVWXYZZYXWVUTSRQPONMLKJIHGFEDCBA"
                 r"zyxwvutsrqponmlkjihgfedcba9876543210 end")
summary = f"smp_chatty: {n} cpus, ok"
lines = text.decode().splitlines()
bad = [l for l in lines if not pat.fullmatch(l) and l != summary]
assert not bad, f"broken console lines: {bad[:3]}"
assert len(lines) == n * 24 + 1 and summary in lines, f"{len(lines)} console lines"
assert drained >= 10, f"only {drained} SAMPLES frames from drains during the run"
print(f"raw stream ok: {frames} frames ({drained} from drains), {len(lines)} console lines")
PY
done

# Runs that CPU 3 of 4 ends: bm_exit(5) while CPU 0 waits and CPUs 1, 2 print; a data
# abort while the others spin.
raw exit4 "$A64/smp_exit.elf" "freq=10000" -smp 4
[ "$(cat "$T/exit4.rc")" -eq 13 ] || fail "smp_exit: QEMU exit status $(cat "$T/exit4.rc"), want 13"
pyassert "$T/exit4.json" 'r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 5'
pyassert "$T/exit4.json" 'sorted(c["cpu"] for c in r["meta"]["cpus"] if c["have_totals"]) == [0, 1, 2, 3]'
grep -aq "smp_exit: cpu 3 ends the run" "$T/exit4.out" || fail "smp_exit: no line from CPU 3"
exact "$T/exit4.json" || fail "smp_exit: accounting"
raw fault4 "$A64/smp_fault.elf" "freq=10000" -smp 4
[ "$(cat "$T/fault4.rc")" -eq 255 ] || fail "smp_fault: QEMU exit status $(cat "$T/fault4.rc"), want 255"
pyassert "$T/fault4.json" 'r["meta"]["end"]["reason"] == "exception" and r["meta"]["end"]["vector"] == 0x25'
pyassert "$T/fault4.json" 'r["meta"]["end"]["fault_addr"] == "0x0"'
pyassert "$T/fault4.json" 'sorted(c["cpu"] for c in r["meta"]["cpus"] if c["have_totals"]) == [0, 1, 2, 3]'
grep -aq "CPU exception EC 0x25 (data abort) .* cpu=3" "$T/fault4.out" ||
	fail "smp_fault: no exception line naming CPU 3"
exact "$T/fault4.json" || fail "smp_fault: accounting"

echo "smp aarch64 ok"
