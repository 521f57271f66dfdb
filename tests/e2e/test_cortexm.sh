#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Cortex-M images on QEMU's MPS boards, booted by bmprof qemu from the image's board note
# (make test-images-cortexm), all under -icount so every run is the same:
#   - shares.c (50/30/20, a shorter run: -DUNIT) on every board, M3 (mps2-an385), M4
#     (mps2-an386), M33 (mps2-an505) and M55 (mps3-an547), sampled by SysTick at 20 kHz:
#     each share within 0.5 points, the board's CPU in HELLO, exit code 0, exact accounting;
#   - the same on the M3 with an 8-entry table and 4-entry overflow buffers: the table
#     evicts all through the run and the accounting stays exact;
#   - fpshares.c (60/40 with the FPU live) on the M4 and M55: the same results with
#     SysTick at 20 kHz as at 100 Hz (a chaotic map: one changed bit in an interrupted FP
#     register changes them), so the extended frame's FP state survives every interrupt;
#   - exitcode.c's 42 as bmprof's exit status and in END; an undefined instruction
#     (udf.c) reported as UsageFault with its pc, which the report attributes to its
#     function; annotate disassembles Thumb code with the samples on it.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-arm >/dev/null || skip "qemu-system-arm not installed (make deps)"
IMG=$ROOT/$BUILD/test-images
for a in cortex-m3 cortex-m4 cortex-m33 cortex-m55 cortex-m3-tiny; do
	[ -f "$IMG-$a/shares.elf" ] || skip "no Cortex-M test images in $IMG-$a: run make test-images-cortexm"
done

# run NAME ELF [bmprof qemu options]: $T/NAME.data, .json, .out (console), .err
run() {
	local name=$1 elf=$2
	shift 2
	"$BMPROF" qemu --icount --timeout 120 -o "$T/$name.data" "$@" "$elf" \
		>"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" ||
		{ cat "$T/$name.err"; fail "$name: report"; }
}

# shares JSON FUNCTION=PERCENT...: each function's share within 0.5 points
shares() {
	python3 - "$@" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
want = dict(w.split("=") for w in sys.argv[2:])
rows = {x["symbol"]: x for x in r["rows"]}
tot = sum(rows[f]["samples"] for f in want if f in rows)
assert tot >= 800, f"too few samples ({tot}) for a share test"
for f, w in want.items():
    got = 100.0 * rows.get(f, {"samples": 0})["samples"] / tot
    print(f"{sys.argv[1].split('/')[-1]}: {f} {got:.2f}% (want {w}%)")
    assert abs(got - float(w)) <= 0.5, f"{f}: {got:.2f}% is not within 0.5 points of {w}%"
m = r["meta"]
assert m["arch"] == "cortex-m" and m["source"] == "timer", (m["arch"], m["source"])
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0, m["end"]
PY
}


for a in cortex-m3 cortex-m4 cortex-m33 cortex-m55; do
	run "$a" "$IMG-$a/shares.elf" --freq 20000
	[ "$(cat "$T/$a.rc")" = 0 ] || { cat "$T/$a.err"; fail "$a: exit status $(cat "$T/$a.rc")"; }
	shares "$T/$a.json" work_a=50 work_b=30 work_c=20
	check_accounting "$T/$a.json"
	grep -q "^shares: a:b:c = 50:30:20" "$T/$a.out" || fail "$a: no console text"
done
grep -q "model 0xd22" <("$BMPROF" report -i "$T/cortex-m55.data" 2>&1) ||
	fail "cortex-m55: HELLO does not carry the Cortex-M55's part number"

run tiny "$IMG-cortex-m3-tiny/shares.elf" --freq 20000
shares "$T/tiny.json" work_a=50 work_b=30 work_c=20
check_accounting "$T/tiny.json"
pyassert "$T/tiny.json" 'r["meta"]["cpus"][0]["evictions"] > 100'

for a in cortex-m4 cortex-m55; do
	run "fp-$a" "$IMG-$a/fpshares.elf" --freq 20000
	run "fp1-$a" "$IMG-$a/fpshares.elf" --freq 100
	shares "$T/fp-$a.json" fp_a=60 fp_b=40
	check_accounting "$T/fp-$a.json"
	grep -q "^fpshares: " "$T/fp-$a.out" || fail "$a: fpshares printed nothing"
	cmp -s "$T/fp-$a.out" "$T/fp1-$a.out" ||
		fail "$a: FP results differ with sampling: $(cat "$T/fp-$a.out") vs $(cat "$T/fp1-$a.out")"
done

run exit "$IMG-cortex-m4/exitcode.elf"
[ "$(cat "$T/exit.rc")" = 42 ] || fail "exitcode: bmprof exit status $(cat "$T/exit.rc"), want 42"
pyassert "$T/exit.json" 'r["meta"]["end"]["exit_code"] == 42'
check_accounting "$T/exit.json"

run udf "$IMG-cortex-m33/udf.elf"
grep -q "^bmprof: target: error: CPU exception 6 (UsageFault) at pc=0x" "$T/udf.err" ||
	{ cat "$T/udf.err"; fail "udf: no UsageFault message"; }
pyassert "$T/udf.json" 'r["meta"]["end"]["reason"] == "exception" and r["meta"]["end"]["vector"] == 6'
pc=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["meta"]["end"]["fault_pc"])' "$T/udf.json")
crash=$(arm-none-eabi-nm "$IMG-cortex-m33/udf.elf" 2>/dev/null | awk '/ crash_here$/ { print $1 }')
if [ -n "$crash" ]; then
	[ $((pc)) -ge $((0x$crash & ~1)) ] && [ $((pc)) -lt $((0x$crash + 16)) ] ||
		fail "udf: fault pc $pc is not in crash_here (0x$crash)"
fi
grep -q "in crash_here" "$T/udf.err" || fail "udf: the crash is not attributed to crash_here"

"$BMPROF" annotate -i "$T/cortex-m4.data" work_a >"$T/annotate.txt" 2>&1 ||
	{ cat "$T/annotate.txt"; fail "annotate"; }
grep -Eq '^>.*[0-9a-f]+:  (umull|mla|adds|adc)' "$T/annotate.txt" ||
	{ cat "$T/annotate.txt"; fail "annotate: no Thumb instructions with samples"; }
echo "Cortex-M: shares on M3/M4/M33/M55, tiny tables, FP state, exit code, fault, annotate"
