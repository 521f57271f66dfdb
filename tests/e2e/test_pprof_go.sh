#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof export --format pprof read by pprof itself (go tool pprof): the top functions and
# their counts are bmprof report's; the time per sample is the profile's period; the
# Mapping is the ELF's code segment (start, limit, file offset); every sample is labelled
# with its CPU (-tagfocus=cpu=N selects one); C++ names are demangled and GCC clones are
# counted under their function (bar.constprop.0 under bar).
. "$(dirname "$0")/lib.sh"
need_qemu
command -v gcc >/dev/null || skip "gcc not installed"
command -v go >/dev/null || skip "go is not installed (scripts/deps.sh installs golang-go)"
export HOME=$T GOCACHE=$T/gocache GOFLAGS=-mod=mod PPROF_TMPDIR=$T/pprof
pprof() { go tool pprof "$@" 2>"$T/pprof.err" || { cat "$T/pprof.err"; fail "go tool pprof $*"; }; }

# pprof's -top rows as "name<TAB>flat", the report's rows by function name (clones under it)
top_rows() {
	python3 -c '
import sys
rows, on = {}, False
for line in sys.stdin:
    f = line.split(None, 5)
    if f[:2] == ["flat", "flat%"]:
        on = True
    elif on and len(f) == 6:
        rows[f[5].strip()] = rows.get(f[5].strip(), 0) + int(float(f[0]))
for k in sorted(rows):
    print("%s\t%d" % (k, rows[k]))'
}
report_rows() {
	python3 -c '
import json, re, sys
rows = {}
for r in json.load(open(sys.argv[1]))["rows"]:
    k = re.sub(r" \[clone [^]]*\]$", "", r["name"])
    rows[k] = rows.get(k, 0) + r["samples"]
for k in sorted(rows):
    print("%s\t%d" % (k, rows[k]))' "$1"
}

# --- a QEMU run
"$BMPROF" qemu --icount --freq 10000 -o "$T/p.data" "$IMAGES/shares.elf" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "qemu run failed"; }
"$BMPROF" export --format pprof -i "$T/p.data" -o "$T/p.pb.gz" || fail "export pprof"
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report json"
pprof -top -nodecount=1000 -sample_index=samples "$T/p.pb.gz" | top_rows >"$T/top"
report_rows "$T/r.json" >"$T/want"
cat "$T/top"
cmp -s "$T/top" "$T/want" || { diff "$T/want" "$T/top"; fail "go tool pprof -top differs from bmprof report"; }
# the timer's period: 10 kHz, so 100000 ns a sample, and the time value is samples x period
pprof -raw "$T/p.pb.gz" >"$T/raw"
grep -q '^PeriodType: cpu nanoseconds$' "$T/raw" || fail "no cpu/nanoseconds period type"
period=$(awk '/^Period:/ {print $2}' "$T/raw")
python3 - "$period" "$T/r.json" <<'PY' || fail "period $period"
import json, sys
r = json.load(open(sys.argv[2]))
ev = r["meta"]["events"][0]
want = 1e9 * ev["period"] / r["meta"]["timebase_hz"]
assert abs(int(sys.argv[1]) - want) <= 1, (sys.argv[1], want)
PY
# the mapping: the ELF's executable PT_LOAD, start and offset rounded to the page
read -r vaddr off memsz < <(readelf -lW "$IMAGES/shares.elf" | awk '$1 == "LOAD" && ($7 ~ /E/ || $8 ~ /E/) {print $3, $2, $6; exit}')
want=$(python3 -c 'import sys; v, o, m = (int(x, 16) for x in sys.argv[1:]); s = v % 4096
print("0x%x/0x%x/0x%x" % (v - s, v + m, o - s))' "$vaddr" "$off" "$memsz")
grep -Eq "^1: $want .*shares\.elf [0-9a-f]+ \[FN\]\[FL\]\[LN\]\[IN\]" "$T/raw" ||
	{ sed -n '/^Mappings/,$p' "$T/raw"; fail "mapping is not $want"; }
grep -q 'cpu:\[0 cpu\]' "$T/raw" || fail "samples are not labelled with their CPU"

# --- C++ and clone names, two CPUs (a synthetic stream of a host-built ELF)
cat >"$T/prog.c" <<'EOF2'
volatile int sink;
void run(void) __asm__("_ZN3Foo3runEm");
void run(void) { for (int i = 0; i < 100; i++) sink += i; }
void bar(void) { for (int i = 0; i < 100; i++) sink -= i; }
void bar_copy(void) __asm__("bar.constprop.0");
void bar_copy(void) { for (int i = 0; i < 100; i++) sink ^= i; }
void _start(void) { run(); bar(); bar_copy(); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/prog.c" || fail "cannot build the test ELF"
python3 - "$T/s.bin" "$T/prog.elf" <<'PY' || fail "cannot write the stream"
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
s = nm_symbols(elf)
c0 = sorted([(s["_ZN3Foo3runEm"], 50), (s["bar"], 30)])
c1 = sorted([(s["bar.constprop.0"], 20), (s["_ZN3Foo3runEm"] + 4, 5)])
open(out, "wb").write(enc_hello(2, build_id(elf)) + enc_timer_event() + enc_samples(0, 0, c0) +
                      enc_samples(1, 0, c1) + enc_totals(0, 80, 80, 0, 0, 1) +
                      enc_totals(1, 25, 25, 0, 0, 1) + enc_end_exit0())
PY
"$BMPROF" record --from "$T/s.bin" --elf "$T/prog.elf" -o "$T/c.data" >/dev/null 2>"$T/e" || { cat "$T/e"; fail "record"; }
"$BMPROF" export --format pprof -i "$T/c.data" -o "$T/c.pb.gz" || fail "export pprof"
"$BMPROF" report -i "$T/c.data" --format json >"$T/c.json" || fail "report json"
"$BMPROF" report -i "$T/c.data" >"$T/c.txt" || fail "report"
if nm -C "$T/prog.elf" | grep -q 'Foo::run' && grep -q BMPROF_HAVE_LIBIBERTY "$ROOT/mk/common.mk" &&
   [ -e /usr/include/libiberty/demangle.h ]; then
	run="Foo::run(unsigned long)"
else
	run="_ZN3Foo3runEm"
fi
grep -Fq "$run" "$T/c.txt" || { cat "$T/c.txt"; fail "report does not show $run"; }
grep -Fq "bar [clone .constprop.0]" "$T/c.txt" || { cat "$T/c.txt"; fail "report does not note the clone"; }
pprof -top -sample_index=samples "$T/c.pb.gz" | top_rows >"$T/top"
printf '%s\t%s\n' "$run" 55 bar 50 | sort >"$T/want"
cat "$T/top"
cmp -s "$T/top" "$T/want" || { diff "$T/want" "$T/top"; fail "pprof's functions"; }
report_rows "$T/c.json" | sort >"$T/rep"
cmp -s "$T/rep" "$T/want" || { diff "$T/want" "$T/rep"; fail "report's functions, clones merged"; }
# one CPU's samples
pprof -top -sample_index=samples -tagfocus=cpu=1 "$T/c.pb.gz" | top_rows >"$T/top1"
printf '%s\t%s\n' "$run" 5 bar 20 | sort >"$T/want1"
cmp -s "$T/top1" "$T/want1" || { diff "$T/want1" "$T/top1"; fail "pprof -tagfocus=cpu=1"; }
echo "pprof (go tool pprof) ok"
