#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# AArch64 images on QEMU virt (-cpu max, TCG), captured with bmprof record from QEMU's
# serial output: the generic timer on GICv2 and the PMU cycle counter on GICv3 both split
# shares.c 50/30/20 under -icount; main's return value comes back as QEMU's semihosting
# exit status (2n + 3) and in END; a fault ends the run with an END frame carrying the
# exception class and FAR. PMU events: counting mode (COUNTS: cycles and instructions
# under -icount, 8 events multiplexed on 6 + 1 counters), event status and reasons in the
# EVENT frames (NO_OVERFLOW for an event counter under -icount, UNSUPPORTED,
# BAD_ENCODING, the timer standing in without a PMU), and sampling on an event counter.
# COUNTS and the EVENT status fields are decoded from the raw capture here (wire.h
# layout), independently of the host's reader.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-aarch64 >/dev/null ||
	skip "qemu-system-aarch64 not installed (make deps)"
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$A64/shares.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"

# run NAME ELF CONFIG [QEMU ARGS...]: boot, record $T/NAME.data, report $T/NAME.json;
# QEMU's exit status in $T/NAME.rc
run() {
	local name=$1 elf=$2 cfg=(-fw_cfg "name=opt/bmprof/config,string=$3")
	[ -n "$3" ] || cfg=()
	shift 3
	timeout 600 qemu-system-aarch64 -M virt -cpu max -m 256M -display none -no-reboot \
		-monitor none -serial stdio -semihosting -kernel "$elf" "${cfg[@]}" "$@" \
		>"$T/$name.bin" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	if ! "$BMPROF" record --from "$T/$name.bin" --elf "$elf" -o "$T/$name.data" \
		>"$T/$name.out" 2>"$T/$name.rec"; then
		cat "$T/$name.err" "$T/$name.rec"
		fail "$name: record failed"
	fi
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" ||
		fail "$name: report failed"
}

shares() {
	python3 - "$1" "$2" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
rows = {x["symbol"]: x for x in r["rows"]}
want = {"work_a": 50.0, "work_b": 30.0, "work_c": 20.0}
for f in want:
    assert f in rows, f"{f} missing from the report: {sorted(rows)}"
tot = sum(rows[f]["samples"] for f in want)
assert tot >= 1000, f"too few samples ({tot}) for a share test"
for f, w in want.items():
    got = 100.0 * rows[f]["samples"] / tot
    print(f"{f}: {got:.1f}% (want {w}%)")
    assert abs(got - w) <= 3.0, f"{f}: {got:.1f}% is not within 3 points of {w}%"
m = r["meta"]
assert m["arch"] == "aarch64" and m["source"] == sys.argv[2], (m["arch"], m["source"])
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0
PY
}

run timer "$A64/shares.elf" "freq=20000" -icount shift=0,sleep=off
[ "$(cat "$T/timer.rc")" -eq 3 ] || fail "timer: QEMU exit status $(cat "$T/timer.rc"), want 3"
shares "$T/timer.json" timer
check_accounting "$T/timer.json"

run cycles "$A64/shares.elf" "event=1:cycles:100000" -icount shift=0,sleep=off -M virt,gic-version=3
shares "$T/cycles.json" pmu
pyassert "$T/cycles.json" 'r["meta"]["events"][0]["encoding"] == "0x11"'
pyassert "$T/cycles.json" 'r["meta"]["events"][0]["period"] == 100000'
check_accounting "$T/cycles.json"

run exit "$A64/exitcode.elf" "" -M virt,virtualization=on -icount shift=0,sleep=off
[ "$(cat "$T/exit.rc")" -eq 87 ] || fail "exitcode: QEMU exit status $(cat "$T/exit.rc"), want 87"
pyassert "$T/exit.json" 'r["meta"]["end"]["reason"] == "exit"'
pyassert "$T/exit.json" 'r["meta"]["end"]["exit_code"] == 42'
check_accounting "$T/exit.json"

run crash "$A64/crash.elf" "freq=4000" -icount shift=0,sleep=off
[ "$(cat "$T/crash.rc")" -eq 255 ] || fail "crash: QEMU exit status $(cat "$T/crash.rc"), want 255"
grep -q "^bmprof: target: error: CPU exception EC 0x25 (data abort)" "$T/crash.rec" ||
	{ cat "$T/crash.rec"; fail "no exception message"; }
pyassert "$T/crash.json" 'r["meta"]["end"]["reason"] == "exception"'
pyassert "$T/crash.json" 'r["meta"]["end"]["vector"] == 0x25'
pyassert "$T/crash.json" 'r["meta"]["end"]["fault_addr"] == "0x4000000000"'
pyassert "$T/crash.json" 'any(x["symbol"] == "busy" and x["percent"] > 50 for x in r["rows"])'
check_accounting "$T/crash.json"
# frames NAME: the raw capture decoded to $T/NAME.frames.json: hello source, events by id
# (with the status fields), counts by id, totals
frames() {
	python3 - "$T/$1.bin" >"$T/$1.frames.json" <<'PY' || fail "$1: cannot decode the capture"
import json, sys
from frames import COUNTS, EVENT, HELLO, TOTALS, counts, event, frames, totals
out = {"events": {}, "counts": {}, "totals": None, "source": None}
for f in frames(open(sys.argv[1], "rb").read()):
    if f.type == HELLO:
        out["source"] = f.payload[3]
    elif f.type == EVENT:
        eid, e = event(f.payload)
        out["events"][eid] = e
    elif f.type == COUNTS:
        cpu, recs = counts(f.payload)
        for eid, fl, v, en, ru in recs:
            out["counts"][eid] = dict(cpu=cpu, flags=fl, value=v, enabled=en, running=ru)
    elif f.type == TOTALS:
        out["totals"] = totals(f.payload)[1]
json.dump(out, sys.stdout)
PY
}

# fassert NAME 'python expression over f (the decoded frames; ids are strings)'
fassert() {
	python3 - "$T/$1.frames.json" "$2" <<'PY' || exit 1
import json, sys
f = json.load(open(sys.argv[1]))
ev, co = f["events"], f["counts"]
ok = eval(sys.argv[2], {"f": f, "ev": ev, "co": co})
if not ok:
    print("assertion failed:", sys.argv[2])
    print(json.dumps(f, indent=1))
    sys.exit(1)
PY
}

# wire.h values
ACTIVE=0 UNAVAILABLE=1 FALLBACK=2 NO_PMU=1 UNSUPPORTED=2 BAD_ENCODING=4 NO_OVERFLOW=5
GP=1 FIXED=2 TIMER=3 COUNTING=2

# Counting mode under -icount shift=0: shares.c runs 3 x 100M iterations of 3 instructions,
# and the cycle counter counts virtual ns, one per instruction: cycles == instructions.
run count "$A64/shares.elf" "mode=count freq=1000 event=1:cycles:0 event=2:instructions:0 event=3:0x11:0:cyc-ec" -icount shift=0,sleep=off
frames count
[ "$(cat "$T/count.rc")" -eq 3 ] || fail "count: QEMU exit status $(cat "$T/count.rc"), want 3"
fassert count 'f["source"] == 1 and f["totals"][0] == 0'          # timer source, no samples
fassert count 'all(ev[i]["status"] == 0 and ev[i]["flags"] == 2 and ev[i]["period"] == 0 for i in "123")'
fassert count 'ev["1"]["kind"] == 2 and ev["2"]["kind"] == 1 and ev["2"]["encoding"] == 8'
fassert count 'ev["3"]["name"] == "cyc-ec" and ev["1"]["ngroups"] == 1 and ev["1"]["group"] == 255'
fassert count '300000000 <= co["2"]["value"] <= 302000000'
fassert count 'co["1"]["value"] == co["2"]["value"] == co["3"]["value"]'
fassert count 'all(c["enabled"] == c["running"] > 0 and c["flags"] == 0 for c in co.values())'
# enabled is in CNTFRQ ticks (62.5 MHz): the run's virtual time, 1 ns per instruction
fassert count 'abs(co["1"]["enabled"] * 16 - co["1"]["value"]) < co["1"]["value"] // 200'
pyassert "$T/count.json" 'r["meta"]["end"]["reason"] == "exit"'

# 8 events on 6 event counters + the cycle counter, counting: 2 groups; the events whose
# counters only one group uses stay on, the two sharing event counter 0 take turns, and
# scaled by enabled/running they come within 1% of the cycle count.
run mux "$A64/shares.elf" "mode=count freq=1000 event=1:cycles:0 event=2:0x11:0 event=3:0x11:0 event=4:0x11:0 event=5:0x11:0 event=6:0x11:0 event=7:0x11:0 event=8:0x11:0" -icount shift=0,sleep=off
frames mux
fassert mux 'all(e["ngroups"] == 2 and e["status"] == 0 for e in ev.values()) and len(co) == 8'
fassert mux 'ev["2"]["group"] == 0 and ev["8"]["group"] == 1 and ev["2"]["counter"] == ev["8"]["counter"] == 0'
fassert mux 'all(ev[i]["group"] == 255 for i in "134567")'
fassert mux 'all(co[i]["running"] == co[i]["enabled"] for i in "134567")'
fassert mux 'all(0.4 < co[i]["running"] / co[i]["enabled"] < 0.6 for i in "28")'
fassert mux 'abs(co["2"]["running"] + co["8"]["running"] - co["1"]["enabled"]) <= 1'
fassert mux 'all(abs(co[i]["value"] * co[i]["enabled"] / co[i]["running"] / co["1"]["value"] - 1) < 0.01 for i in "28")'

# Sampling on the cycle counter while an event counter samples too, under -icount: only
# the cycle counter interrupts there, so the event counter counts (reason NO_OVERFLOW)
# and the cycle counter's samples split shares.c as usual.
run noovf "$A64/shares.elf" "event=1:cycles:100000 event=2:0x11:100000 event=3:intel.0x3c:0 event=4:0x23:0:stall-fe" -icount shift=0,sleep=off
frames noovf
shares "$T/noovf.json" pmu
fassert noovf 'f["source"] == 2 and ev["1"]["status"] == 0 and ev["1"]["reason"] == 0 and ev["1"]["flags"] == 1'
fassert noovf 'ev["2"]["status"] == 0 and ev["2"]["reason"] == 5 and ev["2"]["flags"] == 2 and ev["2"]["kind"] == 1'
fassert noovf 'ev["3"]["status"] == 1 and ev["3"]["reason"] == 4 and ev["3"]["kind"] == 0 and ev["3"]["counter"] == 255'
fassert noovf 'ev["4"]["status"] == 0 and "4" in co and "3" not in co'
fassert noovf 'abs(co["2"]["value"] - co["1"]["value"]) < co["1"]["value"] // 1000'
grep -q "^bmprof: target: warning: event 2 (r11): counted, not sampled" "$T/noovf.rec" ||
	fail "noovf: no message for event 2"
check_accounting "$T/noovf.json"

# Without -icount an event counter interrupts: CPU_CYCLES (0x11) sampled on one. The rate
# follows the host's time and load there, so only the mechanism is checked: the event
# samples on its event counter, and every one of shares.c's functions got samples.
run evctr "$A64/shares.elf" "event=2:0x11:100000:cyc-ec event=3:0x08:0"
frames evctr
fassert evctr 'f["source"] == 2 and ev["2"]["status"] == 0 and ev["2"]["reason"] == 0 and ev["2"]["kind"] == 1'
fassert evctr 'ev["3"]["status"] == 1 and ev["3"]["reason"] == 2'     # INST_RETIRED: icount only
pyassert "$T/evctr.json" 'all(any(x["symbol"] == f and x["samples"] > 0 for x in r["rows"]) for f in ("work_a", "work_b", "work_c"))'
check_accounting "$T/evctr.json"

# No PMU (pmu=off): the timer samples in the event's place and says why.
run nopmu "$A64/shares.elf" "freq=20000 event=1:cycles:100000 event=2:0x11:0" -icount shift=0,sleep=off -cpu max,pmu=off
frames nopmu
shares "$T/nopmu.json" timer
fassert nopmu 'f["source"] == 1 and ev["0"]["kind"] == 3 and ev["0"]["status"] == 0'
fassert nopmu 'ev["1"]["status"] == 2 and ev["1"]["reason"] == 1 and ev["1"]["kind"] == 3 and ev["1"]["source"] == 1'
fassert nopmu 'ev["2"]["status"] == 1 and ev["2"]["reason"] == 1 and co == {}'

echo "aarch64 ok"
