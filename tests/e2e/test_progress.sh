#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The live status line of bmprof qemu on a terminal (run under script(1), a pseudo-
# terminal): "bmprof: T s, N samples (asked F/s of guest time)" rewritten in place
# (\r, erase to the end of the line), its sample counts never going down nor past what
# the run received; the line is erased before the program's console text and before the
# summary, so neither starts after it; and with stderr not a terminal, none of it.
. "$(dirname "$0")/lib.sh"
need_qemu
command -v script >/dev/null || skip "script(1) not installed (bsdutils)"

script -qec "'$BMPROF' qemu --icount --freq 4000 -o '$T/p.data' '$IMAGES/shares.elf'" \
	"$T/tty" >/dev/null 2>&1 || { cat "$T/tty"; fail "bmprof qemu under a terminal failed"; }
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report"
python3 - "$T/tty" "$T/r.json" <<'PY' || exit 1
import json, re, sys
out = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
received = json.load(open(sys.argv[2]))["meta"]["samples"]["received"]
status = re.findall(r"\r\x1b\[Kbmprof: ([0-9.]+) s, ([0-9]+) samples \(asked 4000/s of guest time\)", out)
assert status, "no status line:\n" + out[:800]
counts = [int(n) for _, n in status]
assert counts == sorted(counts) and counts[-1] <= received, (counts, received)
times = [float(t) for t, _ in status]
assert times == sorted(times), times
# the console line and the summary each begin a line of their own
for text in ("shares: a:b:c", "bmprof: stream from"):
    assert text in out, (text, out[-1500:])
    i = out.index(text)
    assert out[i - 4:i] == "\r\x1b[K" or out[i - 1] == "\n", repr(out[i - 40:i + 20])
print(f"{len(status)} status lines, last {counts[-1]} of {received} samples")
PY
# on a terminal the image flushes every second unless told otherwise; not without one
pyassert "$T/r.json" 'r["meta"]["host"].get("flush_ms") == "1000"' || fail "no default flush on a terminal"

# samples counted as they arrive: a run that spins until the timeout, flushing often
script -qec "'$BMPROF' qemu --icount --freq 4000 --flush-interval 50 --timeout 8 --param mode=0 \
	--param work=1 -o '$T/h.data' '$IMAGES/hang.elf'" "$T/tty2" >/dev/null 2>&1
python3 - "$T/tty2" <<'PY' || exit 1
import re, sys
out = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
counts = [int(n) for n in re.findall(r"\r\x1b\[Kbmprof: [0-9.]+ s, ([0-9]+) samples", out)]
assert counts and max(counts) > 0 and counts == sorted(counts), counts
print("live counts up to", max(counts))
PY
"$BMPROF" qemu --icount --freq 4000 -o "$T/q.data" "$IMAGES/shares.elf" >"$T/out" 2>"$T/err" ||
	fail "bmprof qemu failed"
grep -q $'\033\\[K' "$T/err" && fail "a status line went to a stderr that is not a terminal"
grep -q "samples (asked" "$T/err" && fail "status text without a terminal"
"$BMPROF" report -i "$T/q.data" --format json >"$T/q.json" || fail "report"
pyassert "$T/q.json" '"flush_ms" not in r["meta"]["host"]' || fail "a flush without a terminal"
# bmprof record on a terminal: the same line while a board's stream comes in (here QEMU's
# serial port on a pipe, the image flushing every 50 ms until the timeout ends it)
printf 'freq=4000\nflush_ms=50\nmode=0\nwork=1\n' >"$T/rec.cfg"
cat >"$T/rec.sh" <<EOF
timeout 8 qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none -accel tcg \
	-icount shift=0,sleep=off -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial stdio \
	-fw_cfg name=opt/bmprof/config,file='$T/rec.cfg' -kernel '$IMAGES/hang.elf' </dev/null 2>/dev/null |
	'$BMPROF' record --from - -o '$T/rec.data' --elf '$IMAGES/hang.elf'
EOF
script -qec "bash '$T/rec.sh'" "$T/tty3" >/dev/null 2>&1 || { cat "$T/tty3"; fail "bmprof record under a terminal failed"; }
"$BMPROF" report -i "$T/rec.data" --format json >"$T/rec.json" || fail "report of the recorded stream"
python3 - "$T/tty3" "$T/rec.json" <<'PY' || exit 1
import json, re, sys
out = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
received = json.load(open(sys.argv[2]))["meta"]["samples"]["received"]
counts = [int(n) for n in re.findall(r"\r\x1b\[Kbmprof: [0-9.]+ s, ([0-9]+) samples", out)]
assert counts and max(counts) > 0 and counts == sorted(counts) and counts[-1] <= received, (counts, received)
i = out.index("bmprof: stream from")
assert out[i - 4:i] == "\r\x1b[K" or out[i - 1] == "\n", repr(out[i - 40:i + 20])
print(f"record: {len(counts)} status lines, up to {max(counts)} of {received} samples")
PY
"$BMPROF" record --from - -o "$T/rec2.data" <"$T/rec.data" >/dev/null 2>"$T/err" || fail "record from a file"
grep -q $'\033\\[K' "$T/err" && fail "record drew a status line on a stderr that is not a terminal"
echo "progress ok"
