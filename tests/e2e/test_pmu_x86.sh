#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The x86-64 PMU integration under QEMU TCG, which has no PMU: an image asked for events on
# -cpu qemu64 and -cpu max falls back to the timer without crashing and says why, on the
# in the runtime's messages (stderr) and in the stream; the runtime's event settings (event, mode, pmi) are parsed, a
# malformed event is named; counting mode samples nothing; the NMI entry and the #GP fixup
# of the runtime work (tests/e2e/progs-x86_64/nmi_msr.c).
. "$(dirname "$0")/lib.sh"
need_qemu
ELF=$IMAGES/shares.elf
NMI=$IMAGES/nmi_msr.elf
[ -f "$ELF" ] && [ -f "$NMI" ] || skip "no test images in $IMAGES: run make test-images"

# bmprof qemu with events, on both CPU models: timer fallback, accounting exact (under
# --icount, so the timer's samples follow the work, not the host's load).
for cpu in qemu64 max; do
	"$BMPROF" qemu --accel tcg --icount -e cycles,instructions,branches -o "$T/$cpu.data" "$ELF" \
		-- -cpu "$cpu" >"$T/$cpu.out" 2>"$T/$cpu.err" ||
		{ cat "$T/$cpu.err"; fail "-cpu $cpu: bmprof qemu with events failed"; }
	grep -q "^bmprof: target: warning: event 1 (cycles): not counted: no PMU on this CPU; sampled by the timer instead" \
		"$T/$cpu.err" || { cat "$T/$cpu.err"; fail "-cpu $cpu: no message for the fallback"; }
	grep -q "no PMU on this CPU" "$T/$cpu.out" && fail "-cpu $cpu: the runtime's message is on stdout"
	"$BMPROF" report -i "$T/$cpu.data" --format json >"$T/$cpu.json" || fail "-cpu $cpu: report"
	check_accounting "$T/$cpu.json"
	python3 - "$T/$cpu.json" "$cpu" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
assert m["source"] == "timer" and m["fell_back_to_timer"] is True, (m["source"], sys.argv[2])
ev = {e["name"]: e for e in m["events"]}
for n in ("cycles", "instructions", "branches"):
    assert ev[n]["status"] == "fallback" and ev[n]["reason"] == "no_pmu", ev[n]
assert m["end"]["exit_code"] == 0
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
assert rows.get("work_a", 0) > rows.get("work_b", 0) > rows.get("work_c", 0) > 0, rows
print(sys.argv[2], "fallback ok:", m["samples"])
PY
done

# The runtime's own settings, straight through fw_cfg: a malformed event is named, IRQ
# delivery, counting mode and the CPU wait are accepted, and counting mode takes no sample. The raw
# serial output is read back with bmprof record, which shows the runtime's messages on
# stderr as bmprof qemu does.
qemu() {
	timeout 600 qemu-system-x86_64 -M q35 -cpu max -display none -no-reboot -monitor none \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$1" -kernel "$2" \
		-fw_cfg "name=opt/bmprof/config,string=$3"
}
qemu "$T/count.bin" "$ELF" "freq=2000 mode=count pmi=irq cpu_wait_ms=60000 event=1:cycles:0 event=2:0xc0:0:insts event=3:nonsense"
rc=$?
[ "$rc" -eq 3 ] || fail "counting run: QEMU exit $rc, want 3 (main returned 0)"
"$BMPROF" record --from "$T/count.bin" --elf "$ELF" -o "$T/count.data" >"$T/count.out" \
	2>"$T/count.err" || { cat "$T/count.err"; fail "record of the counting run failed"; }
grep -q "^bmprof: target: warning: config: event=3:nonsense: .*; ignored$" "$T/count.err" ||
	{ cat "$T/count.err"; fail "the malformed event is not named"; }
grep -q "^bmprof: target: warning: event 2 (insts): not counted: no PMU on this CPU$" "$T/count.err" ||
	fail "no message for the event that cannot count"
grep -q "unknown key\|want nmi or irq\|want sample or count\|cpu_wait_ms" "$T/count.err" &&
	fail "mode=, pmi= or cpu_wait_ms= was refused"
grep -q "event\|config" "$T/count.out" && { cat "$T/count.out"; fail "a runtime message on record's stdout"; }
"$BMPROF" report -i "$T/count.data" --format json >"$T/count.json" 2>/dev/null ||
	fail "report of the counting run failed"
pyassert "$T/count.json" 'all(c["taken"] == 0 for c in r["meta"]["cpus"])'
pyassert "$T/count.json" '[e["name"] for e in r["meta"]["events"]] == ["cycles", "insts"]'
pyassert "$T/count.json" 'all(e["status"] == "unavailable" and e["reason"] == "no_pmu" for e in r["meta"]["events"])'
# the config message came before HELLO, and the profile keeps it
pyassert "$T/count.json" 'r["meta"]["target_log"][0]["level"] == "warning" and r["meta"]["target_log"][0]["text"].startswith("config: event=3:nonsense: ")'

# NMIs sent to the CPU and a faulting WRMSR, while the timer samples; each NMI is waited
# for up to a minute (a busy host can hold QEMU up for long).
qemu "$T/nmi.bin" "$NMI" "freq=10000 event=1:cycles:100000 param=wait_ms=60000"
rc=$?
strings "$T/nmi.bin" | grep "nmi_msr:"
[ "$rc" -eq 3 ] || fail "nmi_msr: QEMU exit $rc, want 3"
strings "$T/nmi.bin" | grep -q "nmi_msr: ok" || fail "nmi_msr did not report ok"
echo "pmu x86 ok"
