#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Hardware events end to end: a bad --event spec is refused with one line; a recorded
# stream with a timer fallback, an unsupported event and a multiplexed event is reported
# with each event's source, reason and scaling; cycles sampled on the AArch64 PMU (the
# cycle counter under -icount) split shares.c 50/30/20; an x86-64 run asking for events
# falls back to the timer and its report says so.
. "$(dirname "$0")/lib.sh"
A64=$ROOT/$BUILD/test-images-aarch64

# A bad spec: exit 2, one line naming the problem and the known names, QEMU not started.
for spec in cycels 'x86/event=0x3c,umask=0x100/' '{cycles' 'cycles:period=5'; do
	"$BMPROF" qemu -e "$spec" -o "$T/bad.data" /nonexistent.elf >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "--event '$spec': exit $rc, want 2"
	[ "$(wc -l <"$T/bad.err")" -eq 1 ] || { cat "$T/bad.err"; fail "--event '$spec': not one line"; }
	grep -q "^bmprof: qemu: --event '" "$T/bad.err" || fail "--event '$spec': $(cat "$T/bad.err")"
done
"$BMPROF" qemu -e cycles -e cycels x.elf >/dev/null 2>"$T/bad.err"
grep -q "^bmprof: qemu: --event 'cycels': unknown event 'cycels': did you mean cycles? (known: cycles, instructions, ref-cycles, branches, branch-misses, " "$T/bad.err" ||
	{ cat "$T/bad.err"; fail "the unknown-event error does not list the known names"; }
[ ! -e "$T/bad.data" ] || fail "a profile was written for a bad spec"

# The report of a stream with every kind of event status, recorded from a file (no QEMU).
ELF=$IMAGES/shares.elf
[ -f "$ELF" ] || skip "no test images in $IMAGES: run make test-images"
python3 - "$T/synth.bin" <<'PY'
import struct, sys, zlib

def frame(t, p):
    h = bytes([0xB5, ord('B'), ord('M'), ord('P'), t, 0]) + struct.pack('<H', len(p))
    return h + p + struct.pack('<I', zlib.crc32(h[4:] + p))

def event(i, name, src, period, st):
    p = struct.pack('<HBBQQQ', i, src, 1 if period else 2, 0x11, period, period // 16)
    return p + bytes([len(name)]) + name.encode() + bytes(st)

def varint(v):
    out = b''
    while v >= 0x80:
        out += bytes([v & 0x7f | 0x80]); v >>= 7
    return out + bytes([v])

hello = struct.pack('<HBBHHQQ16sIIII', 1, 1, 1, 1, 0, 1000000000, 0, b'GenuineIntel',
                    6, 0xcf, 1, 0x806f8) + bytes([0, 0, 0, 0])
s = frame(1, hello)
# id 1 cycles: no PMU, the timer samples for it; id 2 branches: not implemented;
# id 3 r08 and id 4 r11: multiplexed, group 2 and 1 of 2
s += frame(2, event(1, 'cycles', 1, 1000000, [2, 1, 3, 0xff, 0xff, 1]))
s += frame(2, event(2, 'branches', 2, 200000, [1, 2, 0, 0xff, 0xff, 1]))
s += frame(2, event(3, 'r08', 2, 100000, [0, 0, 1, 2, 1, 2]))
s += frame(2, event(4, 'r11', 2, 100000, [0, 0, 1, 2, 0, 2]))
ents = [(1, 0x1000, 400), (3, 0x1000, 150), (4, 0x1010, 100)]
p = struct.pack('<HHI', 0, len(ents), 0)
prev = 0
for ev, pc, n in ents:
    d = pc - prev; prev = pc
    p += varint(ev) + varint((d << 1) ^ (d >> 63)) + varint(n)
s += frame(3, p)
recs = [(3, 0, 15000000, 1000, 250), (4, 0, 10000000, 1000, 750)]
p = struct.pack('<HH', 0, len(recs))
for ev, fl, v, en, ru in recs:
    p += struct.pack('<HHIQQQ', ev, fl, 0, v, en, ru)
s += frame(6, p)
s += frame(4, struct.pack('<HH', 0, 8) + struct.pack('<8Q', 650, 640, 10, 0, 650, 0, 0, 1))
s += frame(5, struct.pack('<iB3xQI4xQ', 0, 0, 0, 0, 0))
open(sys.argv[1], 'wb').write(s)
PY
"$BMPROF" record --from "$T/synth.bin" --elf "$ELF" -o "$T/synth.data" >"$T/rec.out" 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "record of the synthetic stream failed"; }
grep -q "event 1   cycles: not counted: no PMU on this CPU; sampled by the timer instead" "$T/rec.err" ||
	{ cat "$T/rec.err"; fail "the capture summary does not say cycles fell back"; }
"$BMPROF" report -i "$T/synth.data" --elf "$ELF" >"$T/synth.txt" 2>&1 || fail "report failed"
cat "$T/synth.txt"
grep -q "^# source    timer (events were requested, but none samples on the PMU: sampling fell back to the timer)" "$T/synth.txt" ||
	fail "the header does not say sampling fell back to the timer"
grep -q "^# event 1   cycles: not counted: no PMU on this CPU; sampled by the timer instead" "$T/synth.txt" ||
	fail "no fallback line for cycles"
grep -q "^# event 2   branches: not counted: this CPU does not implement the event" "$T/synth.txt" ||
	fail "no reason for branches"
grep -q "^# event 3   r08: PMU counter 2, period 100000 events, randomized in \[93750, 100000\], group 2 of 2, count 15000000, on the PMU 25.0% of the time: multiplexed, samples scaled x4 (count scaled to 60000000)" "$T/synth.txt" ||
	fail "no multiplexing line for r08"
grep -q "^# 400 samples of event cycles" "$T/synth.txt" || fail "the event with samples is not the default"
"$BMPROF" report -i "$T/synth.data" --elf "$ELF" --event r08 >"$T/r08.txt" 2>&1 || fail "report --event r08"
grep -q "^# 150 samples of event r08 (multiplexed: scaled x4 to 600; percentages are unchanged)" "$T/r08.txt" ||
	{ cat "$T/r08.txt"; fail "the r08 report does not say it is scaled"; }
"$BMPROF" report -i "$T/synth.data" --elf "$ELF" --event cpu-cycles >"$T/alias.txt" 2>&1 ||
	fail "report --event with an alias failed"
grep -q "^# 400 samples of event cycles" "$T/alias.txt" || fail "the alias did not pick cycles"
if "$BMPROF" report -i "$T/synth.data" --elf "$ELF" --event instructions >"$T/none.txt" 2>&1; then
	fail "report --event of an event not in the profile succeeded"
fi
grep -q "no event 'instructions' in the profile; it has: cycles, branches, r08, r11" "$T/none.txt" ||
	{ cat "$T/none.txt"; fail "no list of the profile's events"; }
"$BMPROF" report -i "$T/synth.data" --elf "$ELF" --format json >"$T/synth.json" || fail "json report"
pyassert "$T/synth.json" 'r["meta"]["fell_back_to_timer"] is True'
pyassert "$T/synth.json" '[(e["name"], e["status"], e["reason"], e["counter_kind"]) for e in r["meta"]["events"]] == [("cycles", "fallback", "no_pmu", "timer"), ("branches", "unavailable", "unsupported", "none"), ("r08", "active", "none", "gp"), ("r11", "active", "none", "gp")]'
pyassert "$T/synth.json" 'r["meta"]["events"][2]["counter"] == 2 and r["meta"]["events"][2]["group"] == 1 and r["meta"]["events"][2]["ngroups"] == 2'
pyassert "$T/synth.json" 'r["meta"]["events"][2]["count"] == 15000000 and r["meta"]["events"][2]["enabled"] == 1000 and r["meta"]["events"][2]["running"] == 250'
pyassert "$T/synth.json" 'r["meta"]["events"][2]["scaled"] == 60000000 and r["meta"]["events"][2]["multiplexed"] is True'
pyassert "$T/synth.json" 'r["meta"]["events"][2]["samples"] == 150 and r["meta"]["events"][2]["samples_scaled"] == 600'
pyassert "$T/synth.json" 'abs(r["meta"]["events"][3]["scale"] - 4 / 3) < 1e-9 and r["meta"]["events"][0]["count"] is None'

# PMU sampling of cycles on AArch64: the cycle counter interrupts under -icount.
if command -v qemu-system-aarch64 >/dev/null && [ -f "$A64/shares.elf" ]; then
	"$BMPROF" qemu --icount -e cycles:period=100000 -o "$T/a64.data" "$A64/shares.elf" \
		>"$T/a64.out" 2>"$T/a64.err" || { cat "$T/a64.err"; fail "bmprof qemu -e cycles failed"; }
	grep -q "accel tcg (aarch64 image on an x86_64 host" "$T/a64.err" ||
		[ "$(uname -m)" = aarch64 ] || fail "no accel line for an aarch64 image"
	"$BMPROF" report -i "$T/a64.data" --format json >"$T/a64.json" || fail "report failed"
	check_accounting "$T/a64.json"
	python3 - "$T/a64.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
assert m["arch"] == "aarch64" and m["source"] == "pmu", (m["arch"], m["source"])
e = [x for x in m["events"] if x["name"] == "cycles"]
assert len(e) == 1, m["events"]
e = e[0]
assert e["source"] == "pmu" and e["status"] == "active" and e["counter_kind"] == "fixed", e
assert e["period"] == 100000, e
rows = {x["symbol"]: x for x in r["rows"]}
tot = sum(rows[f]["samples"] for f in ("work_a", "work_b", "work_c"))
assert tot >= 2500, f"too few samples: {tot}"
for f, w in (("work_a", 50), ("work_b", 30), ("work_c", 20)):
    got = 100.0 * rows[f]["samples"] / tot
    print(f"{f}: {got:.1f}% (want {w}%)")
    assert abs(got - w) <= 3, f"{f}: {got:.1f}%"
assert m["end"]["exit_code"] == 0
assert m["host"]["events"] == "cycles:period=100000" and m["host"]["mode"] == "sample"
assert "event=1:cycles:100000:cycles" in m["host"]["config"]
PY
else
	echo "skipping the AArch64 run: no qemu-system-aarch64 or no $A64/shares.elf"
fi

# x86-64 under TCG has no PMU: the events fall back to the timer, and the report says so.
need_qemu
"$BMPROF" qemu --icount --accel tcg -e cycles,instructions -o "$T/x86.data" "$IMAGES/shares.elf" \
	>"$T/x86.out" 2>"$T/x86.err" || { cat "$T/x86.err"; fail "x86 run with events failed"; }
"$BMPROF" report -i "$T/x86.data" >"$T/x86.txt" || fail "x86 report failed"
grep -q "^# source    timer (events were requested, but none samples on the PMU: sampling fell back to the timer)" "$T/x86.txt" ||
	{ cat "$T/x86.txt"; fail "the x86 report does not say sampling fell back to the timer"; }
"$BMPROF" report -i "$T/x86.data" --format json >"$T/x86.json" || fail "x86 json report"
pyassert "$T/x86.json" 'r["meta"]["fell_back_to_timer"] is True and r["meta"]["source"] == "timer"'
pyassert "$T/x86.json" 'r["meta"]["samples"]["reported"] > 100'
python3 - "$T/x86.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in r["meta"]["events"]}
assert "cycles" in ev, f"no EVENT frame for cycles: {sorted(ev)}"
c = ev["cycles"]
assert c["status"] in ("fallback", "unavailable") and c["reason"] == "no_pmu", c
PY
echo "events ok"
