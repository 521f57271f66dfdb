#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Multi-CPU profiles without QEMU: a synthetic 4-CPU stream (one CPU lost samples on the
# target, one lost a frame in transit, one sent no TOTALS) against a small host-built ELF.
# report --sort cpu (text and JSON), the per-CPU column of the function view, the header's
# per-CPU accounting, a 6-CPU profile (the cpu:samples list), and bmprof qemu --smp against
# a stand-in for QEMU.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

cat >"$T/prog.c" <<'EOF'
volatile int sink;
void f_a(void) { for (int i = 0; i < 100; i++) sink += i; }
void f_b(void) { for (int i = 0; i < 100; i++) sink ^= i; }
void f_c(void) { for (int i = 0; i < 100; i++) sink -= i; }
void _start(void) { f_a(); f_b(); f_c(); for (;;); }
/* the PVH entry note bmprof qemu wants before it starts QEMU (here a stand-in) */
__asm__(".pushsection .note.Xen, \"a\", @note\n.balign 4\n.long 4, 8, 18\n"
	".asciz \"Xen\"\n.balign 4\n.quad _start\n.popsection");
EOF
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/prog.c" ||
	fail "cannot build the test ELF"

# stream.py OUT ELF NCPUS [cycles]: the synthetic stream. Per CPU, (function, samples) as
# below, all of the timer's event 0; with "cycles", an EVENT for cycles (id 1, no samples)
# is described first.
cat >"$T/stream.py" <<'PY'
import struct, sys
from frames import build_id, enc_end_exit0, enc_frame, enc_hello, enc_samples, \
    enc_timer_event, enc_totals as totals, nm_symbols
out, elf, ncpus = sys.argv[1], sys.argv[2], int(sys.argv[3])
cycles = sys.argv[4:] == ["cycles"]
syms = nm_symbols(elf)

def samples(cpu, seq, entries):
    return enc_samples(cpu, seq, [(syms[name], n) for name, n in entries])

s = enc_hello(ncpus, build_id(elf))
if cycles:
    s += enc_frame(2, struct.pack("<HBBQQQ", 1, 2, 0, 0x11, 10**5, 0) + bytes([6]) + b"cycles" +
                   bytes([0, 0, 1, 0, 0xff, 1]))
s += enc_timer_event()
if ncpus == 4:
    # cpu 0: all well
    s += samples(0, 0, [("f_a", 600), ("f_b", 300), ("f_c", 100)])
    s += totals(0, 1000, 1000, 0, 0, 1)
    # cpu 1: 15 lost to full buffers, 5 to the transport
    s += samples(1, 0, [("f_a", 100), ("f_b", 700)])
    s += totals(1, 820, 800, 15, 5, 1)
    # cpu 2: frame 1 (50 samples) lost in transit
    s += samples(2, 0, [("f_c", 500)])
    s += samples(2, 2, [("f_a", 200)])
    s += totals(2, 750, 750, 0, 0, 3)
    # cpu 3: its stream cut short before its TOTALS
    s += samples(3, 0, [("f_b", 400)])
else:
    for cpu in range(ncpus):
        s += samples(cpu, 0, [("f_a", 10 * (cpu + 1)), ("f_b", 5)])
        s += totals(cpu, 10 * (cpu + 1) + 5, 10 * (cpu + 1) + 5, 0, 0, 1)
s += enc_end_exit0()
open(out, "wb").write(s)
PY
python3 "$T/stream.py" "$T/s4.bin" "$T/prog.elf" 4 || fail "cannot write the stream"
"$BMPROF" record --from "$T/s4.bin" --elf "$T/prog.elf" -o "$T/p4.data" >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err"; fail "record"; }
# the capture summary: one row per CPU, cpu 3 without TOTALS, the reasons as warnings
grep -Eq '^  3 +- +- +- +- +400 +0 +0$' "$T/rec.err" || { cat "$T/rec.err"; fail "summary: cpu 3 row"; }
grep -q "warning   cpu 3 sent no TOTALS frame: its stream was cut short" "$T/rec.err" ||
	fail "summary: cpu 3 not flagged"
grep -q "warning   cpu 1 lost 20 samples on the target (15 buffers full, 5 transport failed)" "$T/rec.err" ||
	fail "summary: cpu 1 losses"
grep -q "warning   cpu 2: 50 delivered samples did not arrive (lost in transit: 1 SAMPLES frame missing)" \
	"$T/rec.err" || fail "summary: cpu 2 in transit"

# --- the default function view: a column per CPU (4 CPUs)
"$BMPROF" report -i "$T/p4.data" >"$T/fn.txt" 2>"$T/e" || { cat "$T/e"; fail "report"; }
cat "$T/fn.txt"
grep -Eq '^ +samples +percent +cpu0 +cpu1 +cpu2 +cpu3 +function +hottest line$' "$T/fn.txt" ||
	fail "function view: no per-CPU column heads"
grep -Eq '^ +1400 +48\.28% +300 +700 +0 +400 +f_b ' "$T/fn.txt" || fail "function view: f_b split"
grep -Eq '^ +900 +31\.03% +600 +100 +200 +0 +f_a ' "$T/fn.txt" || fail "function view: f_a split"
grep -Eq '^ +600 +20\.69% +100 +0 +500 +0 +f_c ' "$T/fn.txt" || fail "function view: f_c split"
# the header: what became of each CPU's samples, and why
grep -q '^# samples   taken 2570, delivered 2550, lost 20; received 2500 of 2550 delivered; and 400 from 1 CPU without TOTALS$' \
	"$T/fn.txt" || fail "header: samples line"
grep -q '^#   cpu 0   taken 1000, delivered 1000, lost 0; received 1000$' "$T/fn.txt" || fail "header cpu 0"
grep -q '^#   cpu 1   taken 820, delivered 800, lost 20 (15 buffers full, 5 transport failed); received 800$' \
	"$T/fn.txt" || fail "header cpu 1"
grep -q '^#   cpu 2   taken 750, delivered 750, lost 0; received 700 of 750: 50 lost in transit (1 SAMPLES frame missing)$' \
	"$T/fn.txt" || fail "header cpu 2"
grep -q '^#   cpu 3   received 400; no TOTALS (its stream was cut short): taken and lost unknown$' \
	"$T/fn.txt" || fail "header cpu 3"
grep -q '^# warning   cpu 3 sent no TOTALS frame' "$T/fn.txt" || fail "no warning for cpu 3"

# --- --sort cpu, text: grouped by CPU, a header line per CPU
"$BMPROF" report -i "$T/p4.data" --sort cpu >"$T/cpu.txt" 2>"$T/e" || { cat "$T/e"; fail "report --sort cpu"; }
cat "$T/cpu.txt"
python3 - "$T/cpu.txt" <<'PY' || exit 1
import re, sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index("# 2900 samples, by cpu")
body = [l for l in lines[start + 1:] if l and l != "#"]
want = [
    "# cpu 0: 1000 samples (34.48% of all); taken 1000, delivered 1000, lost 0; received 1000",
    ("f_a", 600, 60.00, 20.69), ("f_b", 300, 30.00, 10.34), ("f_c", 100, 10.00, 3.45),
    "# cpu 1: 800 samples (27.59% of all); taken 820, delivered 800, lost 20 (15 buffers full, 5 transport failed); received 800",
    ("f_b", 700, 87.50, 24.14), ("f_a", 100, 12.50, 3.45),
    "# cpu 2: 700 samples (24.14% of all); taken 750, delivered 750, lost 0; received 700 of 750: 50 lost in transit (1 SAMPLES frame missing)",
    ("f_c", 500, 71.43, 17.24), ("f_a", 200, 28.57, 6.90),
    "# cpu 3: 400 samples (13.79% of all); received 400; no TOTALS (its stream was cut short): taken and lost unknown",
    ("f_b", 400, 100.00, 13.79),
]
got = []
for l in body:
    if l.startswith("# cpu "):
        got.append(l)
    else:
        m = re.match(r"^ +(\d+) +([\d.]+)% +([\d.]+)% +(\S+) ", l)
        if m:
            got.append((m.group(4), int(m.group(1)), float(m.group(2)), float(m.group(3))))
        else:
            assert re.match(r"^ +samples +of cpu +of all +function +hottest line$", l), l
assert got == want, "\n".join(map(str, got))
print("sort cpu text ok")
PY

# --- --sort cpu and function, JSON
"$BMPROF" report -i "$T/p4.data" --sort cpu --format json >"$T/cpu.json" || fail "report --sort cpu json"
"$BMPROF" report -i "$T/p4.data" --format json >"$T/fn.json" || fail "report json"
python3 - "$T/cpu.json" "$T/fn.json" <<'PY' || exit 1
import json, sys
c, f = (json.load(open(p)) for p in sys.argv[1:])
assert c["meta"]["sort"] == "cpu"
rows = [(r["cpu"], r["symbol"], r["samples"], round(r["cpu_percent"], 2)) for r in c["rows"]]
assert rows == [(0, "f_a", 600, 60.0), (0, "f_b", 300, 30.0), (0, "f_c", 100, 10.0),
                (1, "f_b", 700, 87.5), (1, "f_a", 100, 12.5),
                (2, "f_c", 500, 71.43), (2, "f_a", 200, 28.57),
                (3, "f_b", 400, 100.0)], rows
assert all("per_cpu" not in r for r in c["rows"])
assert abs(sum(r["percent"] for r in c["rows"]) - 100) < 1e-9
split = {r["symbol"]: [(x["cpu"], x["samples"]) for x in r["per_cpu"]] for r in f["rows"]}
assert split == {"f_b": [(0, 300), (1, 700), (3, 400)], "f_a": [(0, 600), (1, 100), (2, 200)],
                 "f_c": [(0, 100), (2, 500)]}, split
for r in f["rows"]:
    assert sum(x["samples"] for x in r["per_cpu"]) == r["samples"]
cpus = {x["cpu"]: x for x in f["meta"]["cpus"]}
assert [cpus[i]["samples"] for i in range(4)] == [1000, 800, 700, 400]
assert cpus[1]["lost_full"] == 15 and cpus[1]["lost_transport"] == 5
assert cpus[2]["lost_in_transit"] == 50 and cpus[2]["seq_gaps"] == 1
assert not cpus[3]["have_totals"] and cpus[3]["received"] == 400
assert not f["meta"]["samples"]["have_totals"]
assert any(w.startswith("cpu 3 sent no TOTALS frame") for w in f["meta"]["warnings"])
print("json ok")
PY
# --limit is per CPU with --sort cpu
"$BMPROF" report -i "$T/p4.data" --sort cpu --limit 1 --format json >"$T/l1.json" || fail "--limit 1"
pyassert "$T/l1.json" '[(x["cpu"], x["symbol"]) for x in r["rows"]] == [(0, "f_a"), (1, "f_b"), (2, "f_c"), (3, "f_b")]'

# --- 6 CPUs: the split is a cpu:samples list at the end of the line
python3 "$T/stream.py" "$T/s6.bin" "$T/prog.elf" 6 || fail "cannot write the 6-CPU stream"
"$BMPROF" record --from "$T/s6.bin" --elf "$T/prog.elf" -o "$T/p6.data" >/dev/null 2>&1 || fail "record 6"
"$BMPROF" report -i "$T/p6.data" >"$T/fn6.txt" || fail "report 6"
grep -Eq '^ +samples +percent +function +hottest line +cpus \(cpu:samples\)$' "$T/fn6.txt" ||
	{ cat "$T/fn6.txt"; fail "6 CPUs: no cpus column head"; }
grep -Eq '^ +210 +87\.50% +f_a +.* 0:10 1:20 2:30 3:40 4:50 5:60$' "$T/fn6.txt" ||
	{ cat "$T/fn6.txt"; fail "6 CPUs: f_a list"; }
grep -Eq '^ +30 +12\.50% +f_b +.* 0:5 1:5 2:5 3:5 4:5 5:5$' "$T/fn6.txt" || fail "6 CPUs: f_b list"

# --- annotate picks the event report picks: the first with samples, not the first described
python3 "$T/stream.py" "$T/s2e.bin" "$T/prog.elf" 4 cycles || fail "cannot write the 2-event stream"
"$BMPROF" record --from "$T/s2e.bin" --elf "$T/prog.elf" -o "$T/p2e.data" >/dev/null 2>&1 || fail "record 2e"
"$BMPROF" report -i "$T/p2e.data" >"$T/r2e.txt" || fail "report 2e"
grep -q '^# event 0   timer: .*<- reported$' "$T/r2e.txt" || { cat "$T/r2e.txt"; fail "report: not the timer"; }
grep -q '^# 2900 samples of event timer, by function$' "$T/r2e.txt" || fail "report: not 2900 timer samples"
"$BMPROF" annotate -i "$T/p2e.data" f_b >"$T/a2e.txt" 2>"$T/e" || { cat "$T/e"; fail "annotate 2e"; }
grep -q "of event timer" "$T/a2e.txt" || { cat "$T/a2e.txt"; fail "annotate: not the timer's samples"; }
grep -q "1400 samples" "$T/a2e.txt" || { cat "$T/a2e.txt"; fail "annotate: not f_b's 1400 samples"; }

# --- bmprof qemu --smp: passed to QEMU, kept in the profile; bad values are usage errors
cat >"$T/fake-qemu" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$T/fake.args"
cat "$T/s4.bin" >&3
EOF
chmod +x "$T/fake-qemu"
"$BMPROF" qemu --qemu "$T/fake-qemu" --accel tcg --smp 4 -o "$T/q.data" "$T/prog.elf" -- -d int \
	>/dev/null 2>"$T/q.err" || { cat "$T/q.err"; fail "qemu --smp 4 against the stand-in"; }
tr '\n' ' ' <"$T/fake.args" | grep -q -- "-accel tcg -cpu max -smp 4 -d int $" ||
	fail "QEMU's arguments: $(tr '\n' ' ' <"$T/fake.args")"
grep -q "warning   cpu 3 sent no TOTALS frame" "$T/q.err" || { cat "$T/q.err"; fail "qemu summary: cpu 3"; }
grep -Eq '^ +1400 +48\.28% +300 +700 +0 +400 +f_b ' "$T/q.err" || fail "qemu: hottest functions lack the split"
"$BMPROF" report -i "$T/q.data" --format json >"$T/q.json" || fail "report of the qemu profile"
pyassert "$T/q.json" 'r["meta"]["host"]["smp"] == "4" and " -smp 4 " in r["meta"]["host"]["qemu"]'
"$BMPROF" report -i "$T/q.data" | grep -q '^# run       accel tcg, icount off, smp 4, exit code 0$' ||
	fail "report: smp not in the run line"
for bad in 0 9 -1 x 2x ""; do
	"$BMPROF" qemu --smp "$bad" "$T/prog.elf" >/dev/null 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] || fail "--smp '$bad': exit $rc, want 2"
	[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q -- "--smp takes a number of CPUs from 1 to 8, not '$bad'" "$T/e" ||
		{ cat "$T/e"; fail "--smp '$bad': want one line naming the range"; }
done
"$BMPROF" stat --smp 9 "$T/prog.elf" >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "stat --smp 9: want exit 2"
grep -q "^bmprof: stat: --smp takes a number of CPUs from 1 to 8, not '9'$" "$T/e" || { cat "$T/e"; fail "stat --smp 9 message"; }
echo "report cpu ok"
