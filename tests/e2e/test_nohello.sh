#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# An image that never sends HELLO (a crash at boot looks like this): one clear line, a
# non-zero exit, the console text still shown, no profile written.
. "$(dirname "$0")/lib.sh"
need_qemu
"$BMPROF" qemu -o "$T/p.data" "$IMAGES/nohello.elf" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 125 ] || { cat "$T/err"; fail "exit status $rc, want 125"; }
grep -q "nohello: booted" "$T/out" || fail "console text not shown"
grep -q "HELLO" "$T/err" || { cat "$T/err"; fail "the error does not say that no HELLO came"; }
[ ! -e "$T/p.data" ] || fail "a profile was written for a run with no stream"
