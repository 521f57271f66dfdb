#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# report's filters and keys without QEMU, on a synthetic 3-CPU stream against a small
# host-built ELF (as test_report_cpu.sh makes them) and on a relocated image with firmware
# samples (as test_report_firmware.sh makes them): --cpu, --addr-range and --symbols rows
# and totals against the unfiltered report; --percent-limit and --min-percent; multi-key
# --sort orders and its usage errors; --sort module rows; --color and NO_COLOR; the pager
# under a pseudo-terminal (script) and not when piped, with -o or --no-pager.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"
command -v addr2line >/dev/null || skip "addr2line not installed"

cat >"$T/prog.c" <<'EOF2'
volatile int sink;
void f_a(void)
{
	for (int i = 0; i < 100; i++)
		sink += i;
	sink *= 3;
}
void f_b(void) { for (int i = 0; i < 100; i++) sink ^= i; }
void f_c(void) { for (int i = 0; i < 100; i++) sink -= i; }
void _start(void) { f_a(); f_b(); f_c(); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/prog.c" ||
	fail "cannot build the test ELF"

# Per CPU, (pc, samples). f_a has samples on two of its lines (a1, a2: the first and the
# last address of f_a whose lines differ), so line rows split it.
cat >"$T/stream.py" <<'PY'
import subprocess, sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
syms = nm_symbols(elf)
lo, hi = syms["f_a"], syms["f_b"]
addrs = list(range(lo, hi))
lines = subprocess.run(["addr2line", "-e", elf] + [hex(a) for a in addrs], capture_output=True,
                       text=True, check=True).stdout.split()
known = [(a, l) for a, l in zip(addrs, lines) if not l.endswith(":?") and not l.endswith(":0")]
a1 = known[0]
a2 = [x for x in known if x[1] != a1[1]][-1]
per = {0: [(a1[0], 500), (syms["f_b"], 100)],
       1: [(a2[0], 150), (syms["f_b"], 300), (syms["f_c"], 50)],
       2: [(syms["f_c"], 400)]}
s = enc_hello(3, build_id(elf)) + enc_timer_event()
for cpu, pcs in per.items():
    n = sum(c for _, c in pcs)
    s += enc_samples(cpu, 0, sorted(pcs)) + enc_totals(cpu, n, n, 0, 0, 1)
open(out, "wb").write(s + enc_end_exit0())
print(hex(a1[0]), hex(a2[0]))
PY
read -r A1 A2 < <(python3 "$T/stream.py" "$T/s.bin" "$T/prog.elf") || fail "cannot write the stream"
"$BMPROF" record --from "$T/s.bin" --elf "$T/prog.elf" -o "$T/p.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record"; }
R() { "$BMPROF" report -i "$T/p.data" "$@"; }
R --format json >"$T/all.json" || fail "report json"

# --- --cpu: rows and totals are those of the CPUs kept, from the unfiltered per-CPU split
R --cpu 1,2 --format json >"$T/cpu.json" || fail "--cpu 1,2"
python3 - "$T/all.json" "$T/cpu.json" <<'PY' || exit 1
import json, sys
a, c = (json.load(open(f)) for f in sys.argv[1:])
want = {}
for r in a["rows"]:
    n = sum(x["samples"] for x in r["per_cpu"] if x["cpu"] in (1, 2))
    if n:
        want[r["symbol"]] = n
got = {r["symbol"]: r["samples"] for r in c["rows"]}
assert got == want == {"f_a": 150, "f_b": 300, "f_c": 450}, (got, want)
total = c["meta"]["samples"]["reported"]
assert total == 900, total
assert c["meta"]["filters"][0] == "--cpu 1,2" and a["meta"]["filters"] == [], c["meta"]["filters"]
for r in c["rows"]:
    assert abs(r["percent"] - 100.0 * r["samples"] / total) < 1e-9, r
    assert all(x["cpu"] in (1, 2) for x in r["per_cpu"]), r
print("--cpu ok")
PY
R --cpu 1,2 >"$T/cpu.txt" || fail "--cpu text"
grep -q '^# filter    --cpu 1,2$' "$T/cpu.txt" || fail "--cpu: no filter line"
grep -q '^# filter    kept 900 of the run.s 1500 samples' "$T/cpu.txt" || fail "--cpu: kept line"
grep -Eq '^# 900 samples, by function$' "$T/cpu.txt" || fail "--cpu: title total"
grep -Eq '^ +samples +percent +cpu1 +cpu2 +function' "$T/cpu.txt" || fail "--cpu: per-CPU columns"
# --sort cpu with --cpu: only that CPU's group
R --cpu 2 --sort cpu >"$T/cpu2.txt" || fail "--cpu 2 --sort cpu"
grep -q '^# cpu 2: 400 samples' "$T/cpu2.txt" || fail "--cpu 2: its group"
grep -q '^# cpu [01]:' "$T/cpu2.txt" && fail "--cpu 2: other CPUs' groups shown"
R --cpu 7 >/dev/null 2>"$T/e" && fail "--cpu 7 (no samples) accepted"
grep -q 'CPU 7 has no samples' "$T/e" || fail "--cpu 7: message"
R --cpu 1,x >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "--cpu 1,x: not a usage error"
[ "$(wc -l <"$T/e")" -eq 1 ] || fail "--cpu 1,x: not one line"

# --- --addr-range: only f_a's samples (both of its lines), the totals of those alone
FA=$(nm "$T/prog.elf" | awk '$3 == "f_a" { print $1 }')
FB=$(nm "$T/prog.elf" | awk '$3 == "f_b" { print $1 }')
HI=$(printf '%x' $((0x$FB - 1)))
R --addr-range "0x$FA-0x$HI" --format json >"$T/range.json" || fail "--addr-range"
pyassert "$T/range.json" '[(x["symbol"], x["samples"], x["percent"]) for x in r["rows"]] == [("f_a", 650, 100.0)] and r["meta"]["samples"]["reported"] == 650'
R --addr-range "${A2#0x}-${A2#0x}" --format json >"$T/range2.json" || fail "--addr-range one pc"
pyassert "$T/range2.json" '[(x["symbol"], x["samples"]) for x in r["rows"]] == [("f_a", 150)]'
R --addr-range 0x10-0x20 >/dev/null 2>"$T/e" && fail "--addr-range with no samples accepted"
grep -q 'no samples at 0x10-0x20' "$T/e" || fail "--addr-range empty: message"
R --addr-range 0x20-0x10 >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "--addr-range HI<LO: not a usage error"

# --- --symbols: those rows, their samples and percentages unchanged (of all samples)
R --symbols f_c,f_a --format json >"$T/sym.json" || fail "--symbols"
python3 - "$T/all.json" "$T/sym.json" <<'PY' || exit 1
import json, sys
a, s = (json.load(open(f)) for f in sys.argv[1:])
want = [(r["symbol"], r["samples"], r["percent"]) for r in a["rows"] if r["symbol"] in ("f_a", "f_c")]
got = [(r["symbol"], r["samples"], r["percent"]) for r in s["rows"]]
assert got == want and len(got) == 2, (got, want)
assert s["meta"]["samples"]["reported"] == a["meta"]["samples"]["reported"] == 1500
print("--symbols ok")
PY
R --symbols f_b >"$T/sym.txt" || fail "--symbols text"
grep -q '^# filter    --symbols f_b: 1 row, 400 samples (26.67%' "$T/sym.txt" || fail "--symbols: filter line"
[ "$(grep -Ec '^ +[0-9]+ +[0-9.]+% ' "$T/sym.txt")" -eq 1 ] || fail "--symbols f_b: not one row"
R --sort line --symbols f_a --format json >"$T/syml.json" || fail "--symbols with --sort line"
pyassert "$T/syml.json" 'sorted(x["samples"] for x in r["rows"]) == [150, 500] and {x["function"] for x in r["rows"]} == {"f_a"}'
R --symbols nosuch >/dev/null 2>"$T/e" && fail "--symbols nosuch accepted"
grep -q 'no sampled function is named nosuch' "$T/e" || fail "--symbols nosuch: message"

# --- --percent-limit is --min-percent
R --percent-limit 28 >"$T/pl.txt" || fail "--percent-limit"
R --min-percent 28 >"$T/mp.txt" || fail "--min-percent"
cmp -s "$T/pl.txt" "$T/mp.txt" || fail "--percent-limit and --min-percent differ"
grep -q '^# 1 rows below 28% left out (--percent-limit)$' "$T/pl.txt" || fail "--percent-limit: left-out line"
grep -Eq ' f_b ' "$T/pl.txt" && fail "--percent-limit 28: f_b (26.67%) kept"
grep -Eq ' f_c ' "$T/pl.txt" || fail "--percent-limit 28: f_c (30%) missing"

# --- multi-key sort. By line, the hottest line first: f_a's 500, f_c's 450, f_b's 400,
# f_a's 150. Grouped by function (f_a 650 first), f_a's two lines come together.
order() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join("%s/%d" % (x["function"], x["samples"]) for x in r["rows"]))' "$1"; }
R --sort line --format json >"$T/line.json" || fail "--sort line"
[ "$(order "$T/line.json")" = "f_a/500 f_c/450 f_b/400 f_a/150" ] || fail "--sort line order: $(order "$T/line.json")"
R --sort function,line --format json >"$T/fl.json" || fail "--sort function,line"
[ "$(order "$T/fl.json")" = "f_a/500 f_a/150 f_c/450 f_b/400" ] || fail "--sort function,line order: $(order "$T/fl.json")"
pyassert "$T/fl.json" 'r["meta"]["sort"] == "function, line"'
R --sort function,address --format json >"$T/fa.json" || fail "--sort function,address"
[ "$(order "$T/fa.json")" = "f_a/500 f_a/150 f_c/450 f_b/400" ] || fail "--sort function,address order: $(order "$T/fa.json")"
R --sort function,line >"$T/fl.txt" || fail "--sort function,line text"
grep -q '^# 1500 samples, by function, line$' "$T/fl.txt" || fail "--sort function,line: title"
R --sort cpu,function >"$T/cf.txt" || fail "--sort cpu,function"
R --sort cpu >"$T/c.txt" || fail "--sort cpu"
cmp -s "$T/cf.txt" "$T/c.txt" || fail "--sort cpu,function is not --sort cpu"
R --sort sym,srcline --format json >"$T/alias.json" || fail "--sort sym,srcline (perf's names)"
cmp -s "$T/alias.json" "$T/fl.json" || fail "--sort sym,srcline is not function,line"
for bad in cpu,line line,function module,cpu function,function function,line,address; do
	R --sort "$bad" >/dev/null 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] || fail "--sort $bad: exit $rc, want 2"
	[ "$(wc -l <"$T/e")" -eq 1 ] || { cat "$T/e"; fail "--sort $bad: not one line"; }
	grep -q 'cpu,function, module,function' "$T/e" || { cat "$T/e"; fail "--sort $bad: combinations not named"; }
done
R --sort function,lnie >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "--sort function,lnie: not a usage error"
grep -q "not 'lnie'; did you mean line?" "$T/e" || { cat "$T/e"; fail "--sort lnie: no suggestion"; }
R --sort module --children >/dev/null 2>&1; [ $? -eq 2 ] || fail "--sort with --children: not a usage error"

# --- --sort module without firmware: one row, the image
R --sort module --format json >"$T/mod1.json" || fail "--sort module"
pyassert "$T/mod1.json" '[(x["symbol"], x["samples"], x["outside"]) for x in r["rows"]] == [("prog.elf", 1500, False)]'

# --- --sort module on a profile with firmware samples: a relocated image (a shared
# object loaded at 0x6000000, as a UEFI application is), samples in two firmware modules
# and in firmware pages nothing names (test_report_firmware.sh makes it the same way)
cat >"$T/app.c" <<'EOF2'
volatile int sink;
void app_work(void) { for (int i = 0; i < 100; i++) sink += i; }
void app_main(void) { app_work(); for (;;); }
EOF2
cat >"$T/timer.c" <<'EOF2'
volatile int ticks;
void CoreTimerTick(void) { ticks++; }
void CoreDispatcher(void) { for (int i = 0; i < 10; i++) ticks--; }
EOF2
cat >"$T/other.c" <<'EOF2'
volatile int n;
void OtherPoll(void) { n++; }
EOF2
so() { gcc -g -O1 -nostdlib -shared -fPIC -Wl,--build-id "$@" || fail "cannot build $*"; }
so -o "$T/app.elf" "$T/app.c"
so -o "$T/TimerDxe.debug" "$T/timer.c"
so -o "$T/Other.debug" "$T/other.c"
cat >"$T/fwstream.py" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, t = sys.argv[1], sys.argv[2]
app, timer, other = nm_symbols(t + "/app.elf"), nm_symbols(t + "/TimerDxe.debug"), \
    nm_symbols(t + "/Other.debug")
BIAS, TIMER, OTHER = 0x6000000, 0x7e8e5000, 0x7f000000
pcs = [(app["app_work"] + BIAS, 500), (app["app_main"] + BIAS, 300),
       (timer["CoreTimerTick"] + TIMER, 100), (timer["CoreDispatcher"] + TIMER, 50),
       (other["OtherPoll"] + OTHER, 20), (0x7ea1234, 30), (0x7ea1f00, 10), (0x7eb0010, 5)]
total = sum(n for _, n in pcs)
s = enc_hello(1, build_id(t + "/app.elf"), BIAS) + enc_timer_event()
s += enc_samples(0, 0, sorted(pcs)) + enc_totals(0, total, total, 0, 0, 1) + enc_end_exit0()
open(out, "wb").write(s)
PY
python3 "$T/fwstream.py" "$T/fw.bin" "$T" || fail "cannot write the firmware stream"
"$BMPROF" record --from "$T/fw.bin" --elf "$T/app.elf" -o "$T/fw.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record (firmware)"; }
FWOPTS=(--firmware-sym "$T/TimerDxe.debug@0x7e8e5000" --firmware-sym "$T/Other.debug@0x7f000000")
"$BMPROF" report -i "$T/fw.data" --sort module --format json "${FWOPTS[@]}" >"$T/mod.json" ||
	fail "--sort module (firmware)"
"$BMPROF" report -i "$T/fw.data" --format json --all "${FWOPTS[@]}" >"$T/fwfn.json" ||
	fail "report (firmware)"
python3 - "$T/mod.json" "$T/fwfn.json" <<'PY' || exit 1
import json, sys
m, f = (json.load(open(x)) for x in sys.argv[1:])
rows = [(r["symbol"], r["samples"], r["outside"], r["module"], r["region_lo"]) for r in m["rows"]]
assert rows == [("app.elf", 800, False, None, None),
                ("TimerDxe", 150, True, "TimerDxe", None),
                ("[firmware 0x7ea1000-0x7ea1fff]", 40, True, None, "0x7ea1000"),
                ("Other", 20, True, "Other", None),
                ("[firmware 0x7eb0000-0x7eb0fff]", 5, True, None, "0x7eb0000")], rows
# each module row is the sum of the function rows in it
by = {}
for r in f["rows"]:
    k = r["module"] if r["module"] else (r["region_lo"] if r["outside"] else "image")
    by[k] = by.get(k, 0) + r["samples"]
assert by == {"image": 800, "TimerDxe": 150, "Other": 20, "0x7ea1000": 40, "0x7eb0000": 5}, by
assert sum(r["samples"] for r in m["rows"]) == m["meta"]["samples"]["reported"] == 1015
print("--sort module ok")
PY
"$BMPROF" report -i "$T/fw.data" --sort module "${FWOPTS[@]}" >"$T/mod.txt" || fail "--sort module text"
grep -Eq '^ +800 +78\.82% +app\.elf +the image$' "$T/mod.txt" || { cat "$T/mod.txt"; fail "module text: image row"; }
grep -Eq '^ +150 +14\.78% +TimerDxe +firmware module$' "$T/mod.txt" || fail "module text: module row"
grep -Eq '^ +40 +3\.94% +\[firmware 0x7ea1000-0x7ea1fff\] +0x7ea1234\.\.0x7ea1f00$' "$T/mod.txt" ||
	fail "module text: region row"
# module,function: each module's functions together, the modules hottest first
"$BMPROF" report -i "$T/fw.data" --sort module,function --format json "${FWOPTS[@]}" >"$T/mf.json" ||
	fail "--sort module,function"
pyassert "$T/mf.json" '[(x["module"], x["symbol"]) for x in r["rows"]] == [(None, "app_work"), (None, "app_main"), ("TimerDxe", "CoreTimerTick"), ("TimerDxe", "CoreDispatcher"), (None, "[firmware 0x7ea1000-0x7ea1fff]"), (None, "[firmware 0x7eb0000-0x7eb0fff]"), ("Other", "OtherPoll")]'
# --symbols on a firmware function; --addr-range over one module
"$BMPROF" report -i "$T/fw.data" --symbols CoreDispatcher --format json "${FWOPTS[@]}" >"$T/fs.json" ||
	fail "--symbols (firmware)"
pyassert "$T/fs.json" '[(x["module"], x["symbol"], x["samples"]) for x in r["rows"]] == [("TimerDxe", "CoreDispatcher", 50)]'
"$BMPROF" report -i "$T/fw.data" --symbols 'TimerDxe!CoreTimerTick,Other!CoreDispatcher' --format json \
	"${FWOPTS[@]}" >"$T/fs2.json" || fail "--symbols MODULE!FUNCTION"
pyassert "$T/fs2.json" '[(x["module"], x["symbol"], x["samples"]) for x in r["rows"]] == [("TimerDxe", "CoreTimerTick", 100)]'
"$BMPROF" report -i "$T/fw.data" --addr-range 0x7e8e5000-0x7e8fffff --sort module --format json \
	"${FWOPTS[@]}" >"$T/fr.json" || fail "--addr-range (firmware)"
pyassert "$T/fr.json" '[(x["symbol"], x["samples"], x["percent"]) for x in r["rows"]] == [("TimerDxe", 150, 100.0)]'
# colours: red at 5% and above, green from 0.5%, none below
"$BMPROF" report -i "$T/fw.data" --sort module --color=always "${FWOPTS[@]}" >"$T/modc.txt" ||
	fail "--sort module --color=always"
grep -Eq $'\033''\[31m +14\.78%' "$T/modc.txt" || fail "14.78% not red"
grep -Eq $'\033''\[32m +1\.97%' "$T/modc.txt" || fail "1.97% not green"
grep -Eq '^ +5 +0\.49% ' "$T/modc.txt" || fail "0.49% coloured"

# --- colour: --color=always colours the percentages as perf does (red >= 5%, green >=
# 0.5%), never and a pipe do not
R --color=always >"$T/col.txt" || fail "--color=always"
grep -q $'\033\[31m  43.33%\033\[0m' "$T/col.txt" || { cat -v "$T/col.txt"; fail "--color=always: no red percentage"; }
R --color=never >"$T/nocol.txt" || fail "--color=never"
R >"$T/pipe.txt" || fail "report piped"
grep -q $'\033' "$T/nocol.txt" && fail "--color=never: escape codes"
grep -q $'\033' "$T/pipe.txt" && fail "piped: escape codes"
# annotate and cpi take the same --color
"$BMPROF" annotate -i "$T/p.data" --color=always f_a >"$T/ann.txt" || fail "annotate --color=always"
grep -Eq $'\033''\[31m +76\.92%'$'\033''\[0m' "$T/ann.txt" || { cat -v "$T/ann.txt"; fail "annotate: no red percentage"; }
"$BMPROF" annotate -i "$T/p.data" f_a | grep -q $'\033' && fail "annotate piped: escape codes"
"$BMPROF" cpi -i "$T/p.data" --period 1000 --color=always f_a >"$T/cpi.txt" || fail "cpi --color=always"
grep -q $'\033\[31m' "$T/cpi.txt" || fail "cpi: no red samples"
"$BMPROF" cpi -i "$T/p.data" --period 1000 --stdio f_a | grep -q $'\033' && fail "cpi piped: escape codes"
command -v script >/dev/null || skip "script (util-linux) not installed: the terminal checks"

# --- the pager and auto colour on a pseudo-terminal
cat >"$T/pager.sh" <<EOF2
#!/bin/sh
echo ran >>"$T/pager.ran"
cat >"$T/pager.out"
EOF2
chmod +x "$T/pager.sh"
tty_run() {   # tty_run ENV... -- ARGS: bmprof ARGS on a pseudo-terminal, its output to $T/tty.out
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	rm -f "$T/pager.ran" "$T/pager.out"
	env -u BMPROF_PAGER -u NO_COLOR "${env[@]}" script -qc "$(printf '%q ' "$BMPROF" "$@")" \
		/dev/null </dev/null >"$T/tty.out" 2>&1
}
tty_run PAGER="$T/pager.sh" -- report -i "$T/p.data"
[ -f "$T/pager.ran" ] || { cat "$T/tty.out"; fail "the pager did not run on a terminal"; }
grep -q ' f_a ' "$T/pager.out" || fail "the pager did not get the report"
grep -q $'\033\[31m' "$T/pager.out" || fail "auto colour: none on a terminal"
tty_run PAGER="$T/pager.sh" NO_COLOR=1 -- report -i "$T/p.data"
grep -q $'\033' "$T/pager.out" && fail "NO_COLOR: escape codes"
tty_run PAGER=/bin/false BMPROF_PAGER="$T/pager.sh" -- annotate -i "$T/p.data" f_a
[ -f "$T/pager.ran" ] || fail "BMPROF_PAGER not used (annotate)"
tty_run PAGER="$T/pager.sh" -- report -i "$T/p.data" --no-pager
[ -f "$T/pager.ran" ] && fail "--no-pager: the pager ran"
grep -q ' f_a ' "$T/tty.out" || fail "--no-pager: no report on the terminal"
tty_run PAGER="$T/pager.sh" -- report -i "$T/p.data" -o "$T/o.txt"
[ -f "$T/pager.ran" ] && fail "-o: the pager ran"
grep -q $'\033' "$T/o.txt" && fail "-o: escape codes in the file"
rm -f "$T/pager.ran"
PAGER="$T/pager.sh" "$BMPROF" report -i "$T/p.data" | cat >/dev/null
[ -f "$T/pager.ran" ] && fail "piped: the pager ran"
tty_run PAGER="$T/pager.sh" -- cpi -i "$T/p.data" --period 1000 --color=never f_a
[ -f "$T/pager.ran" ] || fail "cpi: the pager did not run"
echo "ok"
