#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof record --itm-port: a stream from a real run (x86-64 under QEMU, -icount), wrapped
# into an SWO capture (swo_wrap.py: ITM packets of the stream's port among other ports'
# packets, timestamps, overflow and synchronization packets), records to the profile the
# raw stream gives; a damaged capture is resynchronized and accounted; the wrong port and
# a capture that is not SWO are refused with one line.
. "$(dirname "$0")/lib.sh"
need_qemu
img=$IMAGES/shares.elf
wrap=$(dirname "$0")/swo_wrap.py
timeout 600 qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none -accel tcg \
	-icount shift=0,sleep=off -device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$T/raw" \
	-fw_cfg name=opt/bmprof/config,string=freq=4000 -kernel "$img" >/dev/null 2>&1
[ -s "$T/raw" ] || fail "no serial capture"

"$BMPROF" record --from "$T/raw" -o "$T/direct.data" --elf "$img" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "record of the raw stream"; }
"$BMPROF" report -i "$T/direct.data" --format json >"$T/direct.json" || fail "report (direct)"

compare() {   # profile json A, profile json B: same rows and accounting
	python3 - "$1" "$2" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
rows = lambda r: [(x["symbol"], x["samples"]) for x in r["rows"]]
assert rows(a) == rows(b), (rows(a)[:5], rows(b)[:5])
ca, cb = a["meta"]["cpus"], b["meta"]["cpus"]
assert ca == cb, (ca, cb)
assert rows(a)[0][0] == "work_a", rows(a)[:3]
PY
}

for port in 0 5 37; do
	python3 "$wrap" "$T/raw" "$T/swo$port.bin" --port $port --seed $port
	"$BMPROF" record --from "$T/swo$port.bin" --itm-port $port -o "$T/swo$port.data" \
		--elf "$img" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "record --itm-port $port"; }
	grep -q "^shares: " "$T/out" || fail "console text of port $port not passed through"
	grep -q "  itm       port $port: $(stat -c %s "$T/raw") bytes" "$T/err" ||
		{ cat "$T/err"; fail "itm summary line (port $port)"; }
	grep -aq "itm_port" "$T/swo$port.data" &&
		grep -aq "delivered=$(stat -c %s "$T/raw") " "$T/swo$port.data" ||
		fail "the profile does not record the ITM port and counts"
	"$BMPROF" report -i "$T/swo$port.data" --format json >"$T/swo$port.json" ||
		fail "report of the SWO capture (port $port)"
	compare "$T/direct.json" "$T/swo$port.json"
done

# the same from stdin, in whatever pieces the pipe gives
"$BMPROF" record --from - --itm-port 5 -o "$T/pipe.data" <"$T/swo5.bin" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "record --itm-port from stdin"; }
"$BMPROF" report -i "$T/pipe.data" --elf "$img" --format json >"$T/pipe.json" || fail "report (pipe)"
compare "$T/direct.json" "$T/pipe.json"

# damage: a reserved header and a broken zero run inside, the end cut off mid-packet
python3 "$wrap" "$T/raw" "$T/bad.bin" --port 0 --seed 9 --cut 3 --damage
"$BMPROF" record --from "$T/bad.bin" --itm-port 0 -o "$T/bad.data" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "record of a damaged capture"; }
grep -q "  itm       2 malformed packets, 5 bytes skipped; the capture ends inside a packet" "$T/err" ||
	{ cat "$T/err"; fail "damage not reported"; }

# refusals: the wrong port names the right one; a capture that is no SWO at all
"$BMPROF" record --from "$T/swo5.bin" --itm-port 3 -o "$T/x.data" >/dev/null 2>"$T/e" &&
	fail "a port with no data accepted"
[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "port 3 .*ports 5, 6" "$T/e" || { cat "$T/e"; fail "wrong-port error"; }
[ ! -e "$T/x.data" ] || fail "a profile written for a port with no data"
"$BMPROF" record --from "$T/raw" --itm-port 0 -o "$T/x.data" >/dev/null 2>"$T/e" &&
	fail "a raw serial capture accepted as SWO"
[ "$(wc -l <"$T/e")" -eq 1 ] || { cat "$T/e"; fail "not-SWO: want one line"; }
"$BMPROF" record --from "$T/raw" --itm-port 256 -o "$T/x.data" >/dev/null 2>"$T/e" &&
	fail "port 256 accepted"
exit 0
