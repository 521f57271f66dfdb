#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Samples outside the image (firmware) without QEMU: a relocated image (a shared object
# linked at 0, loaded at 0x6000000 as a UEFI application is) and a synthetic stream with
# samples in it, in two firmware modules and in firmware code nothing names. Checks that
# every sample is reported: by 4 KiB page without firmware files; by module, function and
# line with an EDK2-style console log and a debug directory, and with --firmware-sym
# FILE@ADDR; the header's count and share; the JSON fields; the errors; and annotate.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

cat >"$T/app.c" <<'EOF'
volatile int sink;
void app_work(void) { for (int i = 0; i < 100; i++) sink += i; }
void app_main(void) { app_work(); for (;;); }
EOF
cat >"$T/timer.c" <<'EOF'
volatile int ticks;
void CoreTimerTick(void)
{
	ticks++;
}
void CoreDispatcher(void)
{
	for (int i = 0; i < 10; i++)
		ticks--;
}
void TimerEntry(void) { CoreTimerTick(); CoreDispatcher(); }
EOF
cat >"$T/other.c" <<'EOF'
volatile int n;
void OtherPoll(void) { n++; }
EOF
cc() { gcc -g -O1 -nostdlib -shared -fPIC -Wl,--build-id "$@" || fail "cannot build $*"; }
cc -o "$T/app.elf" "$T/app.c"
cc -Wl,-e,TimerEntry -o "$T/TimerDxe.debug" "$T/timer.c"
cc -o "$T/Other.debug" "$T/other.c"
mkdir "$T/dbg" && cp "$T/TimerDxe.debug" "$T/dbg/"

BIAS=0x6000000 TIMER=0x7e8e5000 OTHER=0x7f000000
# stream.py OUT: HELLO with load_bias, the timer event, one SAMPLES frame, TOTALS, END.
cat >"$T/stream.py" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, t = sys.argv[1], sys.argv[2]
app, timer, other = nm_symbols(t + "/app.elf"), nm_symbols(t + "/TimerDxe.debug"), \
    nm_symbols(t + "/Other.debug")
BIAS, TIMER, OTHER = 0x6000000, 0x7e8e5000, 0x7f000000
pcs = [(app["app_work"] + BIAS, 500), (app["app_main"] + BIAS, 300),
       (timer["CoreTimerTick"] + TIMER, 100), (timer["CoreDispatcher"] + TIMER + 2, 50),
       (other["OtherPoll"] + OTHER, 20),
       (0x7ea1234, 30), (0x7ea1f00, 10), (0x7eb0010, 5)]
total = sum(n for _, n in pcs)
s = enc_hello(1, build_id(t + "/app.elf"), BIAS) + enc_timer_event()
s += enc_samples(0, 0, sorted(pcs)) + enc_totals(0, total, total, 0, 0, 1) + enc_end_exit0()
open(out, "wb").write(s)
PY
python3 "$T/stream.py" "$T/s.bin" "$T" || fail "cannot write the stream"
"$BMPROF" record --from "$T/s.bin" --elf "$T/app.elf" -o "$T/p.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record"; }

# An EDK2 DEBUG build's console: load lines (one of a module without a debug file, one of a
# PEIM), lines that only look like them, and two malformed load lines.
entry=$(python3 -c "import subprocess; print(hex($TIMER + int(subprocess.run(['readelf','-h','$T/TimerDxe.debug'],capture_output=True,text=True).stdout.split('Entry point address:')[1].split()[0],16)))")
cat >"$T/console.log" <<EOF
PROGRESS CODE: V03020003 I0
Loading PEIM 9B3ADA4F-AE56-4C24-8DEA-F03B7558AE50
Loading PEIM at 0x0007FEE1000 EntryPoint=0x0007FEE2280 PcdPeim.efi
Loading driver 9F3A0016-AE55-4288-829D-D22FD344C347
InstallProtocolInterface: 5B1B31A1-9562-11D2-8E3F-00A0C969723B 7E8E6040
Loading driver at 0x000$(printf %X $TIMER) EntryPoint=0x000$(printf %X $entry) TimerDxe.efi
Loading driver at 0xZZZ EntryPoint=0x0007E000000 Broken.efi
Loading driver at 0x0007E000000 Entry=0x0007E000100 Broken2.efi
Loading driver at 0x0007E100000 EntryPoint=0x0007E100240 NoDebug.efi
EOF

# --- no firmware files: every outside sample in a 4 KiB page row, the header's count
"$BMPROF" report -i "$T/p.data" --all >"$T/plain.txt" 2>"$T/e" || { cat "$T/e"; fail "report"; }
cat "$T/plain.txt"
grep -q '^# outside   215 samples (21.18%) outside the image (0x6000000-0x[0-9a-f]*): firmware, by 4 KiB page' \
	"$T/plain.txt" || fail "header: no outside line"
grep -Eq '^ +500 +49\.26% +app_work ' "$T/plain.txt" || fail "app_work not symbolized with the load bias"
grep -Eq '^ +40 +3\.94% +\[firmware 0x7ea1000-0x7ea1fff\] +0x7ea1234\.\.0x7ea1f00$' "$T/plain.txt" ||
	fail "no firmware page row"
grep -Eq '^ +5 +0\.49% +\[firmware 0x7eb0000-0x7eb0fff\] ' "$T/plain.txt" || fail "second page row"
grep -q '\[unknown\]' "$T/plain.txt" && fail "an outside sample became [unknown]"
"$BMPROF" report -i "$T/p.data" --format json >"$T/plain.json" || fail "report json"
python3 - "$T/plain.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1])); m = r["meta"]
assert m["samples"]["outside"] == 215 and m["samples"]["outside_symbolized"] == 0, m["samples"]
assert m["image_range"]["lo"] == "0x6000000", m["image_range"]
assert sum(x["samples"] for x in r["rows"]) == m["samples"]["reported"] == 1015
out = [x for x in r["rows"] if x["outside"]]
assert sum(x["samples"] for x in out) == 215
assert all(x["region_lo"] and x["module"] is None and not x["unknown"] for x in out), out
page = [x for x in out if x["region_lo"] == "0x7ea1000"][0]
assert page["symbol"] == "[firmware 0x7ea1000-0x7ea1fff]" and page["region_hi"] == "0x7ea2000"
assert page["samples"] == 40 and page["addr_lo"] == "0x7ea1234" and page["addr_hi"] == "0x7ea1f01"
assert m["firmware"]["modules"] == [] and m["firmware"]["log"] is None
print("plain json ok")
PY
# line and address sorts keep them too
for sort in line address cpu; do
	"$BMPROF" report -i "$T/p.data" --sort $sort --format json >"$T/$sort.json" || fail "--sort $sort"
	pyassert "$T/$sort.json" 'sum(x["samples"] for x in r["rows"] if x["outside"]) == 215 and not any(x["unknown"] for x in r["rows"])'
done
"$BMPROF" report -i "$T/p.data" --sort address --all >"$T/addr.txt" || fail "--sort address text"
grep -Eq '^ +30 +[0-9.]+% +0x7ea1234 +\[firmware\]' "$T/addr.txt" || { cat "$T/addr.txt"; fail "address row"; }

# --- the console log and the debug directory: by module, function and line
"$BMPROF" report -i "$T/p.data" --all --firmware-log "$T/console.log" --firmware-debug "$T/dbg" \
	--firmware-sym "$T/Other.debug@$OTHER" >"$T/fw.txt" 2>"$T/e" || { cat "$T/e"; fail "report --firmware-*"; }
cat "$T/fw.txt"
grep -q '^# outside   215 samples (21.18%) outside the image .*: firmware; 170 symbolized with 2 firmware modules, the rest by 4 KiB page$' \
	"$T/fw.txt" || fail "header with modules"
grep -Eq '^ +100 +9\.85% +TimerDxe\.efi!CoreTimerTick +\S*timer\.c:4$' "$T/fw.txt" || fail "CoreTimerTick row"
grep -Eq '^ +50 +4\.93% +TimerDxe\.efi!CoreDispatcher +\S*timer\.c:(7|8|9|10)$' "$T/fw.txt" || fail "CoreDispatcher row"
grep -Eq '^ +20 +1\.97% +Other!OtherPoll ' "$T/fw.txt" || fail "--firmware-sym FILE@ADDR row"
grep -Eq '^ +40 +3\.94% +\[firmware 0x7ea1000-0x7ea1fff\]' "$T/fw.txt" || fail "unnamed page row lost"
grep -q '^# note      firmware log .*console.log: 2 malformed module load lines skipped$' "$T/fw.txt" ||
	fail "malformed lines not counted"
grep -q '^# note      2 modules of the firmware log have no debug ELF in .*dbg (the first: PcdPeim.efi)' \
	"$T/fw.txt" || fail "modules without a debug file not said"
"$BMPROF" report -i "$T/p.data" --format json --firmware-log "$T/console.log" --firmware-debug "$T/dbg" \
	--firmware-sym "$T/Other.debug@$OTHER" >"$T/fw.json" || fail "report --firmware-* json"
python3 - "$T/fw.json" "$TIMER" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1])); m = r["meta"]; timer = int(sys.argv[2], 16)
assert m["samples"]["outside"] == 215 and m["samples"]["outside_symbolized"] == 170, m["samples"]
fw = m["firmware"]
assert fw["log_modules"] == 3 and fw["log_malformed"] == 2 and fw["log_without_debug"] == 2, fw
mods = {x["name"]: x for x in fw["modules"]}
assert set(mods) == {"Other", "TimerDxe.efi"}, mods
t = mods["TimerDxe.efi"]
assert int(t["load_address"], 16) == timer and int(t["bias"], 16) == timer, t
assert int(t["lo"], 16) == timer and t["path"].endswith("dbg/TimerDxe.debug"), t
rows = {(x["module"], x["symbol"]): x for x in r["rows"]}
tick = rows[("TimerDxe.efi", "CoreTimerTick")]
assert tick["outside"] and tick["samples"] == 100 and tick["file"].endswith("timer.c") and tick["line"] == 4
assert rows[("Other", "OtherPoll")]["samples"] == 20
assert rows[(None, "app_work")]["samples"] == 500 and not rows[(None, "app_work")]["outside"]
assert sum(x["samples"] for x in r["rows"]) == 1015
print("firmware json ok")
PY
# the module by name from the log, without @ADDR
"$BMPROF" report -i "$T/p.data" --firmware-log "$T/console.log" --firmware-sym "$T/TimerDxe.debug" \
	--format json >"$T/byname.json" || fail "--firmware-sym by the log's name"
pyassert "$T/byname.json" 'r["meta"]["samples"]["outside_symbolized"] == 150'
# NAME.dll when there is no NAME.debug; a load address that disagrees with the entry point:
# the entry point wins (it is exact for the code), and a note says so
mkdir "$T/dbg2" && cp "$T/TimerDxe.debug" "$T/dbg2/TimerDxe.dll"
sed "s/^Loading driver at 0x000$(printf %X $TIMER) /Loading driver at 0x000$(printf %X $((TIMER - 0x1000))) /" \
	"$T/console.log" >"$T/console2.log"
grep -q "0x000$(printf %X $((TIMER - 0x1000)))" "$T/console2.log" || fail "cannot write console2.log"
"$BMPROF" report -i "$T/p.data" --firmware-log "$T/console2.log" --firmware-debug "$T/dbg2" \
	--format json >"$T/entry.json" || fail "report with the entry point's bias"
pyassert "$T/entry.json" 'r["meta"]["samples"]["outside_symbolized"] == 150 and [x["samples"] for x in r["rows"] if x["symbol"] == "CoreTimerTick"] == [100]'
pyassert "$T/entry.json" 'any("is not load address" in n and "TimerDxe.efi" in n for n in r["meta"]["notes"])'
pyassert "$T/entry.json" 'r["meta"]["firmware"]["modules"][0]["path"].endswith("dbg2/TimerDxe.dll")'
# line sort: the module's source lines
"$BMPROF" report -i "$T/p.data" --sort line --firmware-log "$T/console.log" --firmware-debug "$T/dbg" \
	>"$T/line.txt" || fail "--sort line with firmware"
grep -Eq '^ +100 +[0-9.]+% +\S*timer\.c:4 +TimerDxe\.efi!CoreTimerTick$' "$T/line.txt" ||
	{ cat "$T/line.txt"; fail "line row of a firmware module"; }

# --- errors: one line, exit 1
fails() { # fails WHAT PATTERN CMD...: exit 1 and one stderr line matching PATTERN
	local what=$1 pat=$2; shift 2
	"$@" >"$T/o" 2>"$T/e"; local rc=$?
	[ $rc -eq 1 ] || { cat "$T/e"; fail "$what: exit $rc, want 1"; }
	[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q -- "$pat" "$T/e" || { cat "$T/e"; fail "$what: want one line: $pat"; }
}
fails "missing --firmware-sym" "cannot read $T/nope.debug" \
	"$BMPROF" report -i "$T/p.data" --firmware-sym "$T/nope.debug@0x1000"
fails "not an ELF" "console.log is not an ELF file" \
	"$BMPROF" report -i "$T/p.data" --firmware-sym "$T/console.log"
gcc -O1 -nostdlib -static -no-pie -Wl,-e,OtherPoll -o "$T/static.elf" "$T/other.c" &&
	objcopy --strip-all "$T/static.elf" "$T/stripped.debug" || fail "cannot build a stripped ELF"
fails "no symbols" "has no function symbols" \
	"$BMPROF" report -i "$T/p.data" --firmware-sym "$T/stripped.debug@0x1000"
fails "bad @ADDR" "the load address after @ must be hex" \
	"$BMPROF" report -i "$T/p.data" --firmware-sym "$T/Other.debug@zz"
fails "missing log" "cannot read the firmware log" \
	"$BMPROF" report -i "$T/p.data" --firmware-log "$T/nope.log"
fails "--firmware-debug alone" "needs --firmware-log" \
	"$BMPROF" report -i "$T/p.data" --firmware-debug "$T/dbg"

# --- annotate: a firmware row is outside the image, unless its module's ELF is given
fails "annotate a page" "outside the image" "$BMPROF" annotate -i "$T/p.data" "[firmware 0x7ea1000-0x7ea1fff]"
fails "annotate a module function" "outside the image" \
	"$BMPROF" annotate -i "$T/p.data" "TimerDxe.efi!CoreTimerTick"
"$BMPROF" annotate -i "$T/p.data" --firmware-log "$T/console.log" --firmware-debug "$T/dbg" \
	"TimerDxe.efi!CoreTimerTick" >"$T/ann.txt" 2>"$T/e" || { cat "$T/e"; fail "annotate a firmware function"; }
grep -q "^100 samples in this function" "$T/ann.txt" || { cat "$T/ann.txt"; fail "annotate: not its 100 samples"; }
grep -q "timer.c:4" "$T/ann.txt" || fail "annotate: no source line"
"$BMPROF" annotate -i "$T/p.data" app_work >"$T/ann2.txt" || fail "annotate app_work"
grep -q "^500 samples in this function" "$T/ann2.txt" || { cat "$T/ann2.txt"; fail "annotate app_work: not 500"; }
echo "report firmware ok"
