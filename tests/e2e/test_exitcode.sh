#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# main's return value comes back as bmprof qemu's exit status and in the END frame (under
# --icount, so the samples its work gets do not depend on the host's load).
. "$(dirname "$0")/lib.sh"
need_qemu
"$BMPROF" qemu --icount -o "$T/p.data" "$IMAGES/exitcode.elf" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 42 ] || { cat "$T/err"; fail "exit status $rc, want 42"; }
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report failed"
pyassert "$T/r.json" 'r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 42'
check_accounting "$T/r.json"
