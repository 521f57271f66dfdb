#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# RISC-V images (RV64GC, machine mode) on QEMU virt with -bios none, run by bmprof qemu
# under --icount: the machine timer (CLINT mtimecmp) and Sscofpmf counter overflow on an
# hpm counter both split shares.c 50/30/20 within half a point; main's return value is
# bmprof's exit status (through the SiFive test device) and in END; a store access fault
# is reported with mcause, mepc and mtval and ends the run with an END frame; counting
# mode counts the work's instructions; three events on QEMU's pmu-num=2 counters are
# multiplexed and scaled; four harts each sample their own work and a run ended by hart 3
# flushes them all; and with 16-entry tables and 8-entry overflow buffers the accounting
# stays exact (taken = delivered + lost) while the table evicts.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-riscv64 >/dev/null || skip "qemu-system-riscv64 not installed (make deps)"
RV=$ROOT/$BUILD/test-images-riscv64
[ -f "$RV/shares.elf" ] || skip "no RISC-V test images in $RV: run make test-images-riscv64"

# run NAME ELF [BMPROF QEMU OPTIONS...] [-- QEMU ARGS]: $T/NAME.data, .json, .out, .err, .rc
run() {
	local name=$1 elf=$2 opts=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	"$BMPROF" qemu --icount -o "$T/$name.data" "${opts[@]}" "$elf" "$@" \
		>"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" ||
		{ cat "$T/$name.err"; fail "$name: report failed"; }
}

shares() {
	python3 - "$T/$1.json" "$2" <<'PY' || { cat "$T/$1.err"; exit 1; }
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
    print(f"{f}: {got:.2f}% (want {w}%)")
    assert abs(got - w) <= 0.5, f"{f}: {got:.2f}% is not within 0.5 points of {w}%"
m = r["meta"]
assert m["arch"] == "riscv64" and m["source"] == sys.argv[2], (m["arch"], m["source"])
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0
PY
}

run timer "$RV/shares.elf" --freq 4000
[ "$(cat "$T/timer.rc")" -eq 0 ] || { cat "$T/timer.err"; fail "timer: exit status $(cat "$T/timer.rc")"; }
grep -q "^shares: a:b:c = 50:30:20" "$T/timer.out" || fail "timer: no console text on stdout"
shares timer timer
check_accounting "$T/timer.json"

run cycles "$RV/shares.elf" --event cycles:period=200000
shares cycles pmu
pyassert "$T/cycles.json" 'r["meta"]["events"][0]["encoding"] == "0x1"'
pyassert "$T/cycles.json" 'r["meta"]["events"][0]["period"] == 200000'
check_accounting "$T/cycles.json"

run exit "$RV/exitcode.elf"
[ "$(cat "$T/exit.rc")" -eq 42 ] || fail "exitcode: exit status $(cat "$T/exit.rc"), want 42"
pyassert "$T/exit.json" 'r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 42'
check_accounting "$T/exit.json"

run crash "$RV/crash.elf" --freq 4000
[ "$(cat "$T/crash.rc")" -eq 126 ] || fail "crash: exit status $(cat "$T/crash.rc"), want 126"
grep -q "^bmprof: target: error: CPU exception mcause 7 (store access fault) at mepc=0x[0-9a-f]* mtval=0x0*4000000000 sp=" "$T/crash.err" ||
	{ cat "$T/crash.err"; fail "no exception message"; }
line=$(grep -n 'UNMAPPED = x;' "$ROOT/tests/e2e/progs/crash.c" | cut -d: -f1)
grep -q "^  crashed   in main+0x[0-9a-f]* at .*tests/e2e/progs/crash.c:$line\$" "$T/crash.err" ||
	{ cat "$T/crash.err"; fail "no crash location (crash.c:$line) in the summary"; }
pyassert "$T/crash.json" 'r["meta"]["end"]["reason"] == "exception" and r["meta"]["end"]["vector"] == 7'
pyassert "$T/crash.json" 'r["meta"]["end"]["fault_addr"] == "0x4000000000"'
pyassert "$T/crash.json" 'any(x["symbol"] == "busy" and x["percent"] > 50 for x in r["rows"])'
check_accounting "$T/crash.json"

# bmprof refuses an ELF the board cannot start (entry not at the start of RAM)
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[24:32] = (0x80000010).to_bytes(8, "little"); open(sys.argv[2], "wb").write(b)' \
	"$RV/exitcode.elf" "$T/entry.elf"
"$BMPROF" qemu "$T/entry.elf" >"$T/entry.out" 2>"$T/entry.err" && fail "an ELF entered at 0x80000010 booted"
grep -q "is not a bootable image: QEMU's RISC-V virt board with -bios none starts at 0x80000000, but it loads at 0x80000000 with its entry at 0x80000010" "$T/entry.err" ||
	{ cat "$T/entry.err"; fail "no clear message for an ELF entered elsewhere"; }

# counting: exitcode.c's 5M iterations of 4 instructions, and the runtime's few
"$BMPROF" stat --icount --event cycles,instructions -F json -o "$T/stat.json" "$RV/exitcode.elf" \
	>"$T/stat.out" 2>"$T/stat.err"
[ $? -eq 42 ] || { cat "$T/stat.err"; fail "stat: exit status, want 42"; }
pyassert "$T/stat.json" '[e["name"] for e in r["events"]] == ["cycles", "instructions"]'
pyassert "$T/stat.json" 'all(2e7 <= e["count"] <= 2.05e7 and e["scaled"] == e["count"] for e in r["events"])'

# multiplexing: three events on two counters take turns; each is scaled to the whole run
run mux "$RV/shares.elf" --event cycles:period=1000000,instructions:period=1000000,cycles:period=500000 \
	-- -cpu rv64,sscofpmf=true,pmu-num=2
pyassert "$T/mux.json" 'sum(1 for e in r["meta"]["events"] if e.get("group") is not None) >= 2'
pyassert "$T/mux.json" 'all(3.9e8 <= e["scaled"] <= 4.1e8 for e in r["meta"]["events"])'
pyassert "$T/mux.json" '[e["encoding"] for e in r["meta"]["events"]] == ["0x1", "0x2", "0x1"]'
check_accounting "$T/mux.json"

# four harts: each one's samples land in its own work function (smp_work, until each took
# 40 samples there), every hart reports exactly; a run ended by hart 3 (bm_exit(5) while
# hart 0 waits in bm_wait) stops and flushes all four
"$BMPROF" qemu --icount --smp 4 --freq 10000 --param own_samples=40 -o "$T/smp.data" \
	"$RV/smp_work.elf" >"$T/smp.out" 2>"$T/smp.err" || { tail -20 "$T/smp.err"; fail "smp_work: exit $?"; }
"$BMPROF" report -i "$T/smp.data" --format json >"$T/smp.json" || fail "smp_work: report failed"
check_accounting "$T/smp.json"
pyassert "$T/smp.json" "sorted(c['cpu'] for c in r['meta']['cpus']) == [0, 1, 2, 3]"
python3 -m frames smp-work 4 "$T/smp.json" "$T/smp.data" "$RV/smp_work.elf" "$T/smp.out" 1 10 ||
	fail "smp_work on 4 harts"
run smpexit "$RV/smp_exit.elf" --smp 4 --freq 10000
[ "$(cat "$T/smpexit.rc")" -eq 5 ] || { cat "$T/smpexit.err"; fail "smp_exit: exit status $(cat "$T/smpexit.rc"), want 5"; }
grep -q "smp_exit: cpu 3 ends the run" "$T/smpexit.out" || fail "smp_exit: no line from hart 3"
check_accounting "$T/smpexit.json"
pyassert "$T/smpexit.json" "sorted(c['cpu'] for c in r['meta']['cpus']) == [0, 1, 2, 3]"

# tiny tables: the table evicts and the buffers drain all through the run (make
# test-images-riscv64 built the image already; this only checks it is up to date)
tiny=$BUILD/riscv64-tiny
(cd "$ROOT" && make --no-print-directory -s -j2 rv-tiny-image BUILD="$BUILD") >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image (tiny buffers)"; }
run tiny "$ROOT/$tiny/manypc_tiny.elf" --freq 20000
[ "$(cat "$T/tiny.rc")" -eq 0 ] || { cat "$T/tiny.err"; fail "tiny: exit status $(cat "$T/tiny.rc")"; }
check_accounting "$T/tiny.json"
pyassert "$T/tiny.json" "sum(c['lost_full'] + c['evictions'] for c in r['meta']['cpus']) > 0"
echo "riscv64: timer and Sscofpmf sampling, exit codes, crash report, counting, multiplexing, exact accounting"
