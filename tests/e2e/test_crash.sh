#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A program that faults: the runtime reports the exception, the samples taken up to the
# crash still arrive, and bmprof qemu says the image crashed (under --icount, so the work's
# share of the samples does not depend on the host's load).
. "$(dirname "$0")/lib.sh"
need_qemu
"$BMPROF" qemu --icount --freq 4000 -o "$T/p.data" "$IMAGES/crash.elf" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 126 ] || { cat "$T/err"; fail "exit status $rc, want 126 (crashed)"; }
grep -q "now writing to" "$T/out" || fail "the program's console text did not reach stdout"
grep -q "^bmprof: target: error: CPU exception #PF (14) at rip=0x[0-9a-f]* cr2=0x0*4000000000 " "$T/err" ||
	{ cat "$T/err"; fail "no exception message on stderr"; }
grep -q "exception" "$T/out" && fail "the exception message is on stdout"
# the summary names the crash by function and source line: the store to UNMAPPED
line=$(grep -n 'UNMAPPED = x;' "$ROOT/tests/e2e/progs/crash.c" | cut -d: -f1)
grep -q "^  crashed   in main+0x[0-9a-f]* at .*tests/e2e/progs/crash.c:$line\$" "$T/err" ||
	{ cat "$T/err"; fail "no crash location (crash.c:$line) in the summary"; }
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report failed"
pyassert "$T/r.json" 'r["meta"]["end"]["reason"] == "exception" and r["meta"]["end"]["vector"] == 14'
pyassert "$T/r.json" 'r["meta"]["end"]["fault_addr"] == "0x4000000000"'
pyassert "$T/r.json" 'any(x["symbol"] == "busy" and x["percent"] > 50 for x in r["rows"])'
check_accounting "$T/r.json"
