#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# make image with several sources; the hot function lives in the second file (under
# --icount: its share of the samples follows the instructions, not the host's load).
. "$(dirname "$0")/lib.sh"
need_qemu
cd "$ROOT"
make --no-print-directory -s image SRC="tests/e2e/progs/multi/a.c tests/e2e/progs/multi/b.c" \
	NAME=e2e_multi BUILD="$BUILD" >"$T/make" 2>&1 || { cat "$T/make"; fail "make image failed"; }
elf=$BUILD/x86_64/e2e_multi.elf
[ -f "$elf" ] || fail "make image did not write $elf"
"$BMPROF" qemu --icount --freq 4000 -o "$T/p.data" "$elf" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "qemu run failed"; }
grep -q "^multi: " "$T/out" || fail "program output missing"
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report failed"
pyassert "$T/r.json" 'r["rows"][0]["symbol"] == "hot_in_b" and r["rows"][0]["file"].endswith("multi/b.c") and r["rows"][0]["percent"] > 80'
# make image with no sources is a one-line usage error
make --no-print-directory -s image >"$T/make2" 2>&1 && fail "make image without SRC succeeded"
grep -q "SRC=" "$T/make2" || { cat "$T/make2"; fail "no usage line"; }
exit 0
