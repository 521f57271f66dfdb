#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof record: a raw serial capture (what a real board's UART gives) from a file and from
# stdin, and a capture damaged on the wire (flipped bits, dropped and inserted bytes).
. "$(dirname "$0")/lib.sh"
need_qemu
img=$IMAGES/shares.elf
# under -icount, so work_a's lead follows the instructions, not the host's load
timeout 600 qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none -accel tcg \
	-icount shift=0,sleep=off -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$T/raw" \
	-fw_cfg name=opt/bmprof/config,string=freq=4000 -kernel "$img" >/dev/null 2>&1
[ -s "$T/raw" ] || fail "no serial capture"

"$BMPROF" record --from "$T/raw" -o "$T/f.data" --elf "$img" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "record --from file"; }
grep -q "^shares: " "$T/out" || fail "console text not passed through"
"$BMPROF" report -i "$T/f.data" --format json >"$T/f.json" || fail "report of recorded file"
check_accounting "$T/f.json"
pyassert "$T/f.json" 'r["rows"][0]["symbol"] == "work_a"'

"$BMPROF" record --from - -o "$T/s.data" <"$T/raw" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "record --from -"; }
"$BMPROF" report -i "$T/s.data" --elf "$img" --format json >"$T/s.json" || fail "report of stdin capture"
python3 - "$T/f.json" "$T/s.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert [(x["symbol"], x["samples"]) for x in a["rows"]] == [(x["symbol"], x["samples"]) for x in b["rows"]]
PY

# damage the capture: flip a bit inside every frame after HELLO, add garbage, drop bytes
python3 - "$T/raw" "$T/bad" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
magic = b"\xb5BMP"
starts = [i for i in range(len(b)) if b[i:i + 4] == magic]
assert len(starts) >= 5, starts
s = starts[2]                     # the first SAMPLES frame: corrupt it
b[s + 12] ^= 0x10
b[starts[1]:starts[1]] = b"line noise \x00\xff\xb5BM garbage\n"
open(sys.argv[2], "wb").write(bytes(b))
PY
"$BMPROF" record --from "$T/bad" -o "$T/b.data" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "record of a damaged stream failed"; }
"$BMPROF" report -i "$T/b.data" --elf "$img" --format json >"$T/b.json" 2>"$T/e" || { cat "$T/e"; fail "report of damaged capture"; }
python3 - "$T/b.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
st, c = r["meta"]["stream"], r["meta"]["cpus"][0]
assert st["frames_bad_crc"] >= 1, st
assert st["bytes_skipped"] > 0, st
assert c["received"] < c["delivered"] and c["lost_in_transit"] == c["delivered"] - c["received"], c
assert r["meta"]["warnings"], "no warning for a damaged stream"; print(r["meta"]["warnings"])
print("damaged stream:", st, "lost in transit", c["lost_in_transit"])
PY
# errors: no such device, no stream in the input
"$BMPROF" record --from "$T/nonexistent" -o "$T/x.data" >/dev/null 2>"$T/e" && fail "missing device accepted"
[ "$(wc -l <"$T/e")" -eq 1 ] || { cat "$T/e"; fail "missing device: want one line"; }
echo "just console text" >"$T/text"
"$BMPROF" record --from "$T/text" -o "$T/x.data" >/dev/null 2>"$T/e" && fail "a stream with no frames accepted"
grep -q "no bmprof stream" "$T/e" || { cat "$T/e"; fail "no-stream error"; }
exit 0
