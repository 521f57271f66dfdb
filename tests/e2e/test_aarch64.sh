#!/usr/bin/env bash
# AArch64 images on QEMU virt (-cpu max, TCG), captured with bmprof record from QEMU's
# serial output: the generic timer on GICv2 and the PMU cycle counter on GICv3 both split
# shares.c 50/30/20 under -icount; main's return value comes back as QEMU's semihosting
# exit status (2n + 3) and in END; a fault ends the run with an END frame carrying the
# exception class and FAR.
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
	timeout 120 qemu-system-aarch64 -M virt -cpu max -m 256M -display none -no-reboot \
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

run timer "$A64/shares.elf" "freq=20000" -icount shift=0
[ "$(cat "$T/timer.rc")" -eq 3 ] || fail "timer: QEMU exit status $(cat "$T/timer.rc"), want 3"
shares "$T/timer.json" timer
check_accounting "$T/timer.json"

run cycles "$A64/shares.elf" "event=1:cycles:100000" -icount shift=0 -M virt,gic-version=3
shares "$T/cycles.json" pmu
pyassert "$T/cycles.json" 'r["meta"]["events"][0]["encoding"] == "0x11"'
pyassert "$T/cycles.json" 'r["meta"]["events"][0]["period"] == 100000'
check_accounting "$T/cycles.json"

run exit "$A64/exitcode.elf" "" -M virt,virtualization=on
[ "$(cat "$T/exit.rc")" -eq 87 ] || fail "exitcode: QEMU exit status $(cat "$T/exit.rc"), want 87"
pyassert "$T/exit.json" 'r["meta"]["end"]["reason"] == "exit"'
pyassert "$T/exit.json" 'r["meta"]["end"]["exit_code"] == 42'
check_accounting "$T/exit.json"

run crash "$A64/crash.elf" "freq=4000"
[ "$(cat "$T/crash.rc")" -eq 255 ] || fail "crash: QEMU exit status $(cat "$T/crash.rc"), want 255"
grep -q "CPU exception EC 0x25 (data abort)" "$T/crash.out" || fail "no exception line"
pyassert "$T/crash.json" 'r["meta"]["end"]["reason"] == "exception"'
pyassert "$T/crash.json" 'r["meta"]["end"]["vector"] == 0x25'
pyassert "$T/crash.json" 'r["meta"]["end"]["fault_addr"] == "0x4000000000"'
pyassert "$T/crash.json" 'any(x["symbol"] == "busy" and x["percent"] > 50 for x in r["rows"])'
check_accounting "$T/crash.json"
echo "aarch64 ok"
