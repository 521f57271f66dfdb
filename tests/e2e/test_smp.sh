#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
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
# The vCPUs race without -icount, so nothing may depend on how much of the host they get:
# each CPU's work goes on until it took 20 samples in it (own_samples), the run ends only
# once every CPU took samples (smp_exit, smp_fault), and the runtime waits as long as it
# takes for a CPU to start or stop (--cpu-wait; smp_cli's CPU that never stops is waited for
# 10 s). Every run is limited to 600 s, so a deadlock (on the UART lock, in the stop) fails
# the test instead of hanging it.
. "$(dirname "$0")/lib.sh"
need_qemu

run() {   # run NAME ELF FREQ N LOSSLESS
	local name=$1 elf=$2 freq=$3 n=$4 rc=0
	"$BMPROF" qemu --timeout 600 --cpu-wait 600000 --freq "$freq" --param own_samples=20 \
		-o "$T/$name.data" "$elf" -- -smp "$n" \
		>"$T/$name.out" 2>"$T/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $rc"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report failed"
	check_accounting "$T/$name.json"
	python3 -m frames smp-work "$n" "$T/$name.json" "$T/$name.data" "$elf" "$T/$name.out" "$5" 5 ||
		fail "$name"
}

for n in 1 2 4 8; do
	run "smp$n" "$IMAGES/smp_work.elf" 4000 "$n" 1
done

cd "$ROOT"
make_smp_tiny
for n in 1 2 4 8; do
	run "tiny$n" "$tiny/smp_tiny.elf" 20000 "$n" 0
done

# The raw serial stream: frames and console lines, each whole.
timeout 600 qemu-system-x86_64 -M q35 -m 256M -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-display none -no-reboot -monitor none -serial "file:$T/raw" -accel tcg -cpu max -smp 8 \
	-fw_cfg "name=opt/bmprof/config,string=freq=20000 cpu_wait_ms=600000" \
	-kernel "$tiny/smp_tiny.elf" >"$T/qout" 2>&1
rc=$?
[ "$rc" -eq 3 ] || { cat "$T/qout"; fail "raw run: QEMU exited $rc, want 3 (main returned 0)"; }
python3 - "$T/raw" <<'PY' || fail "raw serial stream"
import sys
from frames import console_and_frames
fs, text = console_and_frames(open(sys.argv[1], "rb").read())
frames = len(fs)
lines = text.decode().splitlines()
assert all(l.startswith("smp_work: ") for l in lines), [l for l in lines if not l.startswith("smp_work: ")][:5]
assert "smp_work: 8 cpus, ok" in text.decode(), "no summary line"
print(f"raw stream ok: {frames} frames, {len(lines)} console lines")
PY

# ended_by NAME IMAGE N STATUS: the run ends on another CPU; every CPU is flushed
ended_by() {
	local name=$1 n=$3 want=$4 rc=0
	"$BMPROF" qemu --timeout 600 --cpu-wait 600000 --freq 4000 -o "$T/$name.data" \
		"$IMAGES/$2.elf" -- -smp "$n" \
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
grep -q "^bmprof: target: error: CPU exception #PF (14) .* cpu=[1-3]" "$T/fault.err" ||
	{ cat "$T/fault.err"; fail "smp_fault: no exception message"; }

# CPU 1 spins with interrupts disabled: it is left out after the wait, CPUs 0 and 2 are sent
rc=0
"$BMPROF" qemu --timeout 600 --cpu-wait 10000 --freq 4000 -o "$T/cli.data" "$IMAGES/smp_cli.elf" \
	-- -smp 3 \
	>"$T/cli.out" 2>"$T/cli.err" || rc=$?
[ "$rc" -eq 0 ] || { tail -20 "$T/cli.err"; fail "smp_cli: bmprof qemu exited $rc"; }
grep -q "^bmprof: target: warning: CPU 1 did not stop within 10000 ms" "$T/cli.err" ||
	{ cat "$T/cli.err"; fail "smp_cli: no message for CPU 1"; }
"$BMPROF" report -i "$T/cli.data" --format json >"$T/cli.json" || fail "smp_cli: report failed"
pyassert "$T/cli.json" 'r["meta"]["host"]["cpu_wait_ms"] == "10000"'
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
