#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# work_a, work_b and work_c run the same loop body 50:30:20 times. Under -icount guest time
# follows instructions, so the timer samples must split 50/30/20 within a few points.
. "$(dirname "$0")/lib.sh"
need_qemu
"$BMPROF" qemu --icount --freq 20000 -o "$T/p.data" "$IMAGES/shares.elf" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "bmprof qemu exited $?"; }
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report failed"
check_accounting "$T/r.json"
python3 - "$T/r.json" <<'PY' || exit 1
import json, sys
from frames import check_shares
r = json.load(open(sys.argv[1]))
check_shares(r)
assert r["meta"]["source"] == "timer"
PY
