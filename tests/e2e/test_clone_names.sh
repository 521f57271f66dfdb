#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof annotate and bmprof cpi find a function by the name a reader knows, without QEMU: a
# host-built ELF whose f_a the compiler cloned (its code under f_a.constprop.0, its cold
# blocks under f_a.cold: symbols named by asm labels) is annotated and analysed as f_a; a
# C++ function by its demangled name, with or without its parameters; an ambiguous name
# (two whole clones) and an unknown one are errors; a function inlined everywhere is named
# with the caller its code went into.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

cat >"$T/prog.c" <<'EOF2'
volatile int sink;
void f_a(int n) __asm__("f_a.constprop.0");
void f_a_cold(void) __asm__("f_a.cold");
void f_b1(int n) __asm__("f_b.isra.0");
void f_b2(int n) __asm__("f_b.constprop.1");
__attribute__((noinline)) void f_a(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void f_a_cold(void) { sink = 7; }
__attribute__((noinline)) void f_b1(int n) { for (int i = 0; i < n; i++) sink ^= i; }
__attribute__((noinline)) void f_b2(int n) { for (int i = 0; i < n; i++) sink -= i; }
void _start(void) { f_a(1000); f_a_cold(); f_b1(10); f_b2(10); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/prog.c" ||
	fail "cannot build the test ELF"

# gen.py OUT ELF SYMBOL...: 100 samples at the first instruction of each symbol
cat >"$T/gen.py" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
syms = nm_symbols(elf)
pcs = sorted((syms[n], 100) for n in sys.argv[3:])
total = sum(n for _, n in pcs)
open(out, "wb").write(enc_hello(1, build_id(elf)) + enc_timer_event() +
                      enc_samples(0, 0, pcs) + enc_totals(0, total, total, 0, 0, 1) +
                      enc_end_exit0())
PY
python3 "$T/gen.py" "$T/s.bin" "$T/prog.elf" f_a.constprop.0 f_a.cold f_b.isra.0 ||
	fail "cannot write the stream"
"$BMPROF" record --from "$T/s.bin" --elf "$T/prog.elf" -o "$T/p.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record"; }

# --- the clone: f_a is f_a.constprop.0 (the whole one, not the .cold fragment)
"$BMPROF" annotate -i "$T/p.data" f_a >"$T/a.txt" 2>"$T/e" || { cat "$T/e"; fail "annotate f_a"; }
grep -q "annotating f_a.constprop.0" "$T/a.txt" || { cat "$T/a.txt"; fail "annotate f_a: not the clone"; }
"$BMPROF" cpi -i "$T/p.data" --uarch tcg --period 1000 f_a >"$T/c.txt" 2>"$T/e" || { cat "$T/e"; fail "cpi f_a"; }
grep -q "f_a" "$T/c.txt" || { cat "$T/c.txt"; fail "cpi f_a: no function named"; }
"$BMPROF" cpi -i "$T/p.data" --uarch tcg --period 1000 f_a.constprop.0 >"$T/c2.txt" 2>"$T/e" ||
	{ cat "$T/e"; fail "cpi f_a.constprop.0"; }
cmp -s "$T/c.txt" "$T/c2.txt" || { diff "$T/c.txt" "$T/c2.txt"; fail "cpi f_a differs from cpi f_a.constprop.0"; }
"$BMPROF" annotate -i "$T/p.data" "f_a [clone .cold]" >"$T/ac.txt" 2>"$T/e" ||
	{ cat "$T/e"; fail "annotate by the shown name"; }
grep -q "f_a.cold" "$T/ac.txt" || fail "annotate 'f_a [clone .cold]': not f_a.cold"

# --- two whole clones: f_b names neither; an unknown name is an error too
"$BMPROF" cpi -i "$T/p.data" --uarch tcg --period 1000 f_b >/dev/null 2>"$T/e"; rc=$?
[ $rc -ne 0 ] || fail "cpi f_b (ambiguous): exit 0"
[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "no function 'f_b'" "$T/e" || { cat "$T/e"; fail "cpi f_b: error"; }
"$BMPROF" annotate -i "$T/p.data" f_b >/dev/null 2>"$T/e" && fail "annotate f_b (ambiguous): exit 0"
"$BMPROF" annotate -i "$T/p.data" f_ >/dev/null 2>"$T/e" && fail "annotate f_: exit 0"

# --- inlined everywhere: sift_down has no symbol; its samples are in sort_ints's code
cat >"$T/inl.c" <<'EOF2'
volatile int sink;
static inline __attribute__((always_inline)) void sift_down(int n)
{
	for (int i = 0; i < n; i++)
		sink += i * 3;
}
__attribute__((noinline)) void sort_ints(int n) { sink = 0; sift_down(n); sink ^= 1; }
void _start(void) { sort_ints(1000); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/inl.elf" "$T/inl.c" ||
	fail "cannot build the inlining test ELF"
! nm "$T/inl.elf" | grep -q sift_down || fail "sift_down has a symbol: not inlined"
# one sample at every byte of sort_ints: some fall in sift_down's inlined code
python3 - "$T/inl.bin" "$T/inl.elf" <<'PY' || fail "cannot write the inlining stream"
import subprocess, sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, enc_totals
out, elf = sys.argv[1], sys.argv[2]
f = [l.split() for l in subprocess.run(["nm", "-S", elf], capture_output=True, text=True,
                                        check=True).stdout.splitlines()]
lo, size = next((int(x[0], 16), int(x[1], 16)) for x in f if len(x) == 4 and x[3] == "sort_ints")
pcs = [(lo + i, 1) for i in range(size)]
open(out, "wb").write(enc_hello(1, build_id(elf)) + enc_timer_event() + enc_samples(0, 0, pcs) +
                      enc_totals(0, size, size, 0, 0, 1) + enc_end_exit0())
PY
"$BMPROF" record --from "$T/inl.bin" --elf "$T/inl.elf" -o "$T/inl.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record inlining"; }
"$BMPROF" annotate -i "$T/inl.data" sift_down >/dev/null 2>"$T/e" && fail "annotate sift_down: exit 0"
[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "inlined into sort_ints (bmprof annotate sort_ints)" "$T/e" ||
	{ cat "$T/e"; fail "annotate sift_down does not name sort_ints"; }
"$BMPROF" cpi -i "$T/inl.data" --uarch tcg --period 1000 sift_down >/dev/null 2>"$T/e" &&
	fail "cpi sift_down: exit 0"
[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "inlined into sort_ints (bmprof cpi sort_ints)" "$T/e" ||
	{ cat "$T/e"; fail "cpi sift_down does not name sort_ints"; }
"$BMPROF" cpi -i "$T/inl.data" --uarch tcg --period 1000 sort_int >/dev/null 2>"$T/e"
grep -q "no function 'sort_int'" "$T/e" || { cat "$T/e"; fail "cpi of an unknown name"; }

# --- C++: the demangled name, with or without the parameters
command -v g++ >/dev/null || { echo "clone names ok (g++ not installed: C++ names not tested)"; exit 0; }
cat >"$T/x.cpp" <<'EOF2'
volatile int sink;
namespace ns { __attribute__((noinline)) void work(int n) { for (int i = 0; i < n; i++) sink += i; } }
extern "C" void _start(void) { ns::work(1000); for (;;); }
EOF2
g++ -g -O1 -nostdlib -static -no-pie -fno-exceptions -Wl,--build-id -o "$T/x.elf" "$T/x.cpp" ||
	fail "cannot build the C++ test ELF"
python3 "$T/gen.py" "$T/x.bin" "$T/x.elf" _ZN2ns4workEi || fail "cannot write the C++ stream"
"$BMPROF" record --from "$T/x.bin" --elf "$T/x.elf" -o "$T/x.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record C++"; }
if ! "$BMPROF" report -i "$T/x.data" 2>/dev/null | grep -q "ns::work(int)"; then
	echo "clone names ok (bmprof built without a demangler: C++ names not tested)"
	exit 0
fi
for n in "ns::work(int)" "ns::work"; do
	"$BMPROF" annotate -i "$T/x.data" "$n" >"$T/x.txt" 2>"$T/e" || { cat "$T/e"; fail "annotate $n"; }
	grep -q "ns::work(int)" "$T/x.txt" || { cat "$T/x.txt"; fail "annotate $n: not ns::work"; }
	"$BMPROF" cpi -i "$T/x.data" --uarch tcg --period 1000 "$n" >/dev/null 2>"$T/e" || { cat "$T/e"; fail "cpi $n"; }
done
echo "clone names ok"
