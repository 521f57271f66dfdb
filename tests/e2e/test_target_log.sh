#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The runtime's own messages (LOG frames) reach bmprof's stderr, prefixed and escaped,
# never its stdout, which carries only the program's console text; the profile keeps them
# (report's JSON target_log, the text header's runtime lines). First with a stand-in for
# QEMU that plays a crafted stream (messages before HELLO, terminal escapes and newlines
# in the text, an unknown level, a malformed one), then with real images: x86-64 under TCG
# asked for an event it cannot count, and bmprof stat of instructions on AArch64 without
# --icount.
. "$(dirname "$0")/lib.sh"
[ -f "$IMAGES/shares.elf" ] || skip "no test images in $IMAGES: run make test-images"

python3 - "$T/fake.bin" "$IMAGES/shares.elf" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_log, enc_samples, \
    enc_timer_event, enc_totals, nm_symbols
pc = nm_symbols(sys.argv[2])["work_a"]
s = enc_log(2, b"config: mode=stat: want sample or count")
s += b"console before HELLO\n"
s += enc_hello(1, build_id(sys.argv[2])) + enc_timer_event()
s += enc_log(3, b"esc \x1b[2J nl \n fake bmprof: line\r\ttab \\ \xff end")
s += b"console line\n"
s += enc_log(9, b"odd level")
s += enc_log(1, b"claims more text than it has", text_len=100)
s += enc_log(1, b"x" * 2000)
s += enc_samples(0, 0, [(pc, 10)]) + enc_totals(0, 10, 10, 0, 0, 1) + enc_end_exit0()
open(sys.argv[1], "wb").write(s)
PY
cat >"$T/fake-qemu" <<EOF
#!/bin/sh
cat "$T/fake.bin" >&3
exit 3
EOF
chmod +x "$T/fake-qemu"
"$BMPROF" qemu --qemu "$T/fake-qemu" --accel tcg -o "$T/f.data" "$IMAGES/shares.elf" \
	>"$T/f.out" 2>"$T/f.err" || { cat "$T/f.err"; fail "bmprof qemu against the stand-in exited $?"; }
printf 'console before HELLO\nconsole line\n' | cmp -s - "$T/f.out" ||
	{ cat -A "$T/f.out"; fail "stdout is not exactly the console text"; }
grep '^bmprof: target: ' "$T/f.err" >"$T/f.log"
x2000=$(printf 'x%.0s' $(seq 2000))
cat >"$T/want.log" <<EOF
bmprof: target: warning: config: mode=stat: want sample or count
bmprof: target: esc \\x1b[2J nl \\n fake bmprof: line\\r\\ttab \\\\ \\xff end
bmprof: target: level 9: odd level
bmprof: target: error: $x2000
EOF
cmp -s "$T/want.log" "$T/f.log" || { diff "$T/want.log" "$T/f.log" | cut -c1-200; fail "the messages on stderr"; }
[ "$(tr -d '\n\t\040-\176' <"$T/f.err" | wc -c)" = 0 ] || fail "a control or non-ASCII byte reached stderr"
grep -q "0 bad CRC, 0 unknown type, 1 malformed" "$T/f.err" || fail "the malformed LOG frame is not counted"

"$BMPROF" report -i "$T/f.data" --format json >"$T/f.json" || fail "report failed"
python3 - "$T/f.json" <<'PY' || fail "the profile's messages"
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
got = [(l["level"], l["text"], l["cut"]) for l in m["target_log"]]
assert got == [
    ("warning", "config: mode=stat: want sample or count", False),
    ("info", "esc \x1b[2J nl \n fake bmprof: line\r\ttab \\ \ufffd end", False),
    ("level 9", "odd level", False),
    ("error", "x" * 1024, True),
], got
assert m["target_log_dropped"] == 0
assert m["stream"]["frames_malformed"] == 1
PY
"$BMPROF" report -i "$T/f.data" >"$T/f.txt" 2>&1 || fail "text report failed"
grep -q "^# runtime   warning: config: mode=stat: want sample or count$" "$T/f.txt" ||
	{ head -20 "$T/f.txt"; fail "the text report does not show the warning"; }
grep -q "^# runtime   error: x\{1024\}\.\.\.$" "$T/f.txt" || fail "the text report: the cut error"
grep -q "esc" "$T/f.txt" && fail "the text report shows an info message"

# x86-64 under TCG has no PMU: the runtime says so, on stderr only.
need_qemu
"$BMPROF" qemu --accel tcg -e instructions -o "$T/x.data" "$IMAGES/exitcode.elf" >"$T/x.out" 2>"$T/x.err"
[ $? = 42 ] || { cat "$T/x.err"; fail "exitcode.elf: not its exit status"; }
grep -q "^bmprof: target: warning: event 1 (instructions): not counted: no PMU on this CPU; sampled by the timer instead$" "$T/x.err" ||
	{ cat "$T/x.err"; fail "x86-64: no message on stderr"; }
[ "$(cat "$T/x.out")" = "$(grep '^exitcode: ' "$T/x.out")" ] || { cat "$T/x.out"; fail "x86-64: stdout holds more than the program's text"; }

command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$A64/exitcode.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"
"$BMPROF" stat -e instructions "$A64/exitcode.elf" >"$T/a.out" 2>"$T/a.err"
[ $? = 42 ] || { cat "$T/a.err"; fail "aarch64 stat: not the image's exit status"; }
grep -q "^bmprof: target: warning: event 1 (instructions): not counted: this CPU does not implement the event$" "$T/a.err" ||
	{ cat "$T/a.err"; fail "aarch64: no message on stderr"; }
grep -q "bmprof\|not counted" "$T/a.out" && { cat "$T/a.out"; fail "aarch64: a runtime message on stdout"; }
grep -q "^exitcode: " "$T/a.out" || fail "aarch64: the program's console text is not on stdout"
echo "target log ok"
