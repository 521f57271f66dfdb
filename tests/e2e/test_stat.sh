#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof stat on AArch64 (QEMU virt, TCG): under -icount the cycle counter counts virtual
# nanoseconds, one per instruction, so cycles and instructions of shares.c both come to
# its instruction count (100M iterations of a 3-instruction loop: ~300M); the default
# events print like perf stat; more events than counters are multiplexed and scaled; a
# group stays together; the image's exit status comes back; x86-64 (no PMU under TCG)
# says <not supported>; a bad spec is refused.
. "$(dirname "$0")/lib.sh"
A64=$ROOT/$BUILD/test-images-aarch64

"$BMPROF" stat -e 'x86/event=0x3c,bogus=1/' /nonexistent.elf >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad spec: exit $rc, want 2"
[ "$(wc -l <"$T/bad.err")" -eq 1 ] || fail "bad spec: not one line: $(cat "$T/bad.err")"
grep -q "^bmprof: stat: --event 'x86/event=0x3c,bogus=1/': unknown x86 term 'bogus'" "$T/bad.err" ||
	fail "bad spec: $(cat "$T/bad.err")"

# The whole of stat against a stand-in for QEMU that checks the config it is given and
# plays a recorded stream: the perf-stat lines, multiplexing, <not counted>, the derived
# values, the elapsed time from the timebase, the exit status.
[ -f "$IMAGES/shares.elf" ] || skip "no test images in $IMAGES: run make test-images"
python3 - "$T/fake.bin" <<'PY'
import struct, sys, zlib

def frame(t, p):
    h = bytes([0xB5, ord('B'), ord('M'), ord('P'), t, 0]) + struct.pack('<H', len(p))
    return h + p + struct.pack('<I', zlib.crc32(h[4:] + p))

def event(i, name, src, st):
    p = struct.pack('<HBBQQQ', i, src, 2, 0, 0, 0)
    return p + bytes([len(name)]) + name.encode() + bytes(st)

hello = struct.pack('<HBBHHQQ16sIIII', 1, 1, 1, 1, 0, 1000000000, 0, b'GenuineIntel',
                    6, 0xcf, 1, 0x806f8) + bytes(4)
s = frame(1, hello)
s += frame(2, event(1, 'cycles', 3, [0, 0, 2, 1, 0xff, 2]))
s += frame(2, event(2, 'instructions', 3, [0, 0, 2, 0, 0xff, 2]))
s += frame(2, event(3, 'branches', 2, [0, 0, 1, 0, 0, 2]))
s += frame(2, event(4, 'branch-misses', 2, [1, 3, 0, 0xff, 0xff, 2]))
recs = [(1, 2000000000, 10**9, 10**9), (2, 3000000000, 10**9, 10**9),
        (3, 100000000, 10**9, 5 * 10**8)]
p = struct.pack('<HH', 0, len(recs))
for ev, v, en, ru in recs:
    p += struct.pack('<HHIQQQ', ev, 0, 0, v, en, ru)
s += frame(6, p)
s += frame(4, struct.pack('<HH', 0, 8) + bytes(64))
s += frame(5, struct.pack('<iB3xQI4xQ', 7, 0, 0, 0, 0))
open(sys.argv[1], 'wb').write(s)
PY
cat >"$T/fake-qemu" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$T/fake.args"
for a in "\$@"; do
	case "\$a" in name=opt/bmprof/config,file=*) cp "\${a#name=opt/bmprof/config,file=}" "$T/fake.cfg" ;; esac
done
cat "$T/fake.bin" >&3
exit 17
EOF
chmod +x "$T/fake-qemu"
"$BMPROF" stat --qemu "$T/fake-qemu" --accel tcg --smp 2 "$IMAGES/shares.elf" -- -d int \
	>"$T/fake.out" 2>"$T/fake.err"
rc=$?
cat "$T/fake.err"
[ "$rc" -eq 7 ] || fail "stat against the stand-in exited $rc, want the image's 7"
printf 'mode=count\nfreq=1000\nevent=1:cycles:0:cycles\nevent=2:instructions:0:instructions\nevent=3:intel.c4/amd.c2/arm.21:0:branches\nevent=4:intel.c5/amd.c3/arm.22:0:branch-misses\n' >"$T/want.cfg"
cmp -s "$T/fake.cfg" "$T/want.cfg" || { cat "$T/fake.cfg"; fail "the config file is not the one expected"; }
[ -z "$(ls "${TMPDIR:-/tmp}"/bmprof-config-* 2>/dev/null | xargs -r grep -l "^event=4:intel.c5/amd.c3/arm.22:0:branch-misses$" 2>/dev/null | xargs -r grep -l "^mode=count$")" ] ||
	echo "note: a bmprof-config file like this run's is in ${TMPDIR:-/tmp} (another run's?)"
tr '\n' ' ' <"$T/fake.args" | grep -q -- "-accel tcg -cpu max -smp 2 -d int $" ||
	fail "QEMU's arguments: $(tr '\n' ' ' <"$T/fake.args")"
grep -q "^ *2,000,000,000      cycles                       #     2.000 GHz$" "$T/fake.err" || fail "cycles line"
grep -q "^ *3,000,000,000      instructions                 #      1.50  insn per cycle$" "$T/fake.err" || fail "instructions line"
grep -q "^ *200,000,000      branches                       (50.00%)$" "$T/fake.err" || fail "multiplexed branches line"
grep -q "^ *<not counted>      branch-misses                (no counter could hold it)$" "$T/fake.err" || fail "<not counted> line"
grep -q "^ *1.000000000 seconds time elapsed (guest timebase)$" "$T/fake.err" || fail "elapsed line"
grep -q "(NN.NN%): the event was on a counter that share of the time" "$T/fake.err" || fail "no multiplexing note"
grep -q "run ended: exit code 7" "$T/fake.err" || fail "no end line"
"$BMPROF" stat --qemu "$T/fake-qemu" --accel tcg --format json -o "$T/fake.json" "$IMAGES/shares.elf" >/dev/null 2>&1
[ $? -eq 7 ] || fail "json: not the image's exit status"
pyassert "$T/fake.json" 'r["events"][2]["scaled"] == 2e8 and r["events"][2]["percent_running"] == 50 and r["events"][2]["multiplexed"]'
pyassert "$T/fake.json" 'r["events"][2]["counter_kind"] == "gp" and r["events"][2]["group"] == 0 and r["events"][2]["ngroups"] == 2'
pyassert "$T/fake.json" 'r["events"][3]["state"] == "not counted" and r["events"][3]["reason"] == "no_counter"'
pyassert "$T/fake.json" 'r["derived"]["insn_per_cycle"] == 1.5 and r["derived"]["ghz"] == 2 and r["derived"]["branch_miss_percent"] is None'
pyassert "$T/fake.json" 'r["elapsed_seconds"] == 1 and r["exit_status"] == 7 and r["end"]["exit_code"] == 7'
pyassert "$T/fake.json" 'r["events"][0]["cpus"] == [{"cpu": 0, "count": 2000000000, "enabled": 10**9, "running": 10**9, "scaled": 2e9, "percent_running": 100, "multiplexed": False}]'

command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
[ -f "$A64/shares.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"

# cycles and instructions under -icount: the known instruction count, twice.
"$BMPROF" stat --icount -e cycles,instructions --format json -o "$T/ci.json" "$A64/shares.elf" \
	>"$T/ci.out" 2>"$T/ci.err" || { cat "$T/ci.err"; fail "stat exited $?"; }
grep -q "^shares: a:b:c = 50:30:20" "$T/ci.out" || fail "the console did not reach stdout"
python3 - "$T/ci.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in r["events"]}
for n in ("cycles", "instructions"):
    e = ev[n]
    assert e["state"] == "counted" and e["status"] == "active", e
    assert not e["multiplexed"] and e["running"] == e["enabled"] > 0, e
    print(f"{n}: {e['count']:,}")
# 100M iterations of madd, subs, b.ne, plus the runtime's start and end
insns = ev["instructions"]["count"]
assert 300_000_000 <= insns <= 301_500_000, f"instructions {insns:,}, want ~300M"
cyc = ev["cycles"]["count"]
assert abs(cyc - insns) <= 0.005 * insns, f"cycles {cyc:,} != instructions {insns:,} under icount"
assert ev["cycles"]["counter_kind"] == "fixed", ev["cycles"]
assert abs(r["derived"]["insn_per_cycle"] - 1.0) < 0.01, r["derived"]
# the elapsed time comes from the timebase: 1 ns per instruction
assert abs(r["elapsed_seconds"] - cyc / 1e9) < 0.01, (r["elapsed_seconds"], cyc)
assert r["exit_status"] == 0 and r["end"]["exit_code"] == 0 and r["arch"] == "aarch64"
PY

# The default events, as text: QEMU 7.2 implements neither BR_RETIRED nor
# BR_MIS_PRED_RETIRED, so the branch events are <not supported>, with the reason.
"$BMPROF" stat --icount --per-cpu "$A64/shares.elf" >"$T/def.out" 2>"$T/def.err" ||
	{ cat "$T/def.err"; fail "stat with the default events exited $?"; }
cat "$T/def.err"
grep -Eq "^CPU0 +[0-9,]{11,} +cycles" "$T/def.err" || fail "no per-CPU cycles line"
grep -Eq "^CPU0 +[0-9,]{11,} +instructions" "$T/def.err" || fail "no per-CPU instructions line"
grep -Eq "^ +<not supported> +branches +\(this CPU does not implement the event\)" "$T/def.err" ||
	fail "branches is not <not supported> with its reason"
grep -Eq "^ +<not supported> +branch-misses +\(" "$T/def.err" || fail "branch-misses line"
grep -Eq "^ +0\.[0-9]{9} seconds time elapsed \(guest timebase\)" "$T/def.err" ||
	fail "no elapsed time"
"$BMPROF" stat --icount "$A64/shares.elf" >"$T/def2.out" 2>"$T/def2.err" || fail "stat exited $?"
grep -Eq "^ +[0-9,]{11,} +instructions +# +1\.00  insn per cycle" "$T/def2.err" ||
	{ cat "$T/def2.err"; fail "no IPC"; }

# Without -icount QEMU's PMU does not count instructions: <not supported>, saying that
# --icount counts them.
"$BMPROF" stat -e instructions "$A64/exitcode.elf" >"$T/noic.out" 2>"$T/noic.err"
grep -Eq "^ +<not supported> +instructions +\(.*--icount counts them exactly\)$" "$T/noic.err" ||
	{ cat "$T/noic.err"; fail "instructions without --icount: no hint"; }
grep -q "not counted" "$T/noic.out" && fail "the runtime's event line went to the console (stdout)"

# More events than counters (6 event counters here): multiplexed, each scaled back to the
# whole run; the group {g1,g2} is always on the PMU together, so under -icount its two
# members count the same.
spec=cycles
for i in 1 2 3 4 5 6 7; do spec="$spec,arm/8,name=i$i/"; done
spec="$spec,{arm/8,name=g1/,arm/0x11,name=g2/}"
"$BMPROF" stat --icount -e "$spec" --format json -o "$T/mux.json" "$A64/shares.elf" \
	>"$T/mux.out" 2>"$T/mux.err" || { cat "$T/mux.err"; fail "multiplexed stat exited $?"; }
python3 - "$T/mux.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in r["events"]}
cyc = ev["cycles"]["count"]
assert ev["cycles"]["state"] == "counted", ev["cycles"]
mux = [ev[f"i{i}"] for i in range(1, 8)] + [ev["g1"], ev["g2"]]
assert any(e["multiplexed"] for e in mux), "nothing was multiplexed"
for e in mux:
    assert e["state"] == "counted", e
    assert e["ngroups"] > 1, e
    print(f"{e['name']}: {e['count']:,} on the PMU {e['percent_running']:.1f}%, scaled {e['scaled']:,.0f}")
    if e["multiplexed"]:
        assert e["percent_running"] < 100
    # a uniform loop: the scaled count is the whole run's within a few percent
    assert abs(e["scaled"] - cyc) <= 0.05 * cyc, (e["name"], e["scaled"], cyc)
g1, g2 = ev["g1"], ev["g2"]
assert g1["group"] == g2["group"] and g1["running"] == g2["running"], (g1, g2)
assert abs(g1["count"] - g2["count"]) <= 0.001 * g1["count"], (g1["count"], g2["count"])
PY

# The image's exit status, as bmprof qemu gives it; --smp is passed on.
"$BMPROF" stat -e cycles --smp 2 "$A64/exitcode.elf" >"$T/ex.out" 2>"$T/ex.err"
rc=$?
[ "$rc" -eq 42 ] || { cat "$T/ex.err"; fail "exitcode.elf: stat exited $rc, want 42"; }
grep -q "run ended: exit code 42" "$T/ex.err" || fail "no end line"

# x86-64 under TCG: no PMU, so nothing is counted, and stat says why.
need_qemu
"$BMPROF" stat --accel tcg --format json -o "$T/x86.json" "$IMAGES/shares.elf" \
	>"$T/x86.out" 2>"$T/x86.err" || { cat "$T/x86.err"; fail "x86 stat exited $?"; }
python3 - "$T/x86.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["events"]:
    assert e["state"] == "not supported" and e["reason"] == "no_pmu", e
assert r["exit_status"] == 0
PY
echo "stat ok"
