#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A profile made where the sources were elsewhere (a CI machine's checkout): the ELF names
# its source under a directory that is gone. annotate says which file it could not find
# and what helps; --prefix-map OLD=NEW and --source-path DIR find the moved tree; report
# --sort line shows the mapped paths.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

mkdir -p "$T/ci/src/lib"
cat >"$T/ci/src/lib/work.c" <<'EOF2'
volatile int sink;
void work(void)
{
	for (int i = 0; i < 100; i++)
		sink += i * 7;   /* the hot line */
}
void _start(void) { work(); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/ci/src/lib/work.c" ||
	fail "cannot build the test ELF"
cat >"$T/stream.py" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, \
    enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
w = nm_symbols(elf)["work"]
s = enc_hello(1, build_id(elf)) + enc_timer_event()
s += enc_samples(0, 0, [(w + 4, 90), (w + 8, 10)]) + enc_totals(0, 100, 100, 0, 0, 1)
open(out, "wb").write(s + enc_end_exit0())
PY
python3 "$T/stream.py" "$T/s.bin" "$T/prog.elf" || fail "cannot write the stream"
"$BMPROF" record --from "$T/s.bin" --elf "$T/prog.elf" -o "$T/p.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record"; }
"$BMPROF" annotate -i "$T/p.data" work >"$T/here.txt" || fail "annotate"
grep -q 'the hot line' "$T/here.txt" || fail "annotate: no source text where the source is"
grep -q 'not found' "$T/here.txt" && fail "annotate: a note for a source that is there"

# the tree moves: a note naming the path tried and the options, no source text
mkdir -p "$T/home"
mv "$T/ci" "$T/home/checkout"
"$BMPROF" annotate -i "$T/p.data" work >"$T/gone.txt" || fail "annotate (source gone)"
cat "$T/gone.txt"
grep -q 'the hot line' "$T/gone.txt" && fail "source text of a file that is gone"
[ "$(grep -c '^note: source file .* not found' "$T/gone.txt")" -eq 1 ] || fail "not one not-found note"
grep -qF "note: source file $T/ci/src/lib/work.c not found (tried $T/ci/src/lib/work.c): --prefix-map OLD=NEW and --source-path DIR find a moved source tree" \
	"$T/gone.txt" || fail "the note does not name the path and the options"

# --prefix-map: found, the note gone, the listing's paths mapped
"$BMPROF" annotate -i "$T/p.data" --prefix-map "$T/ci=$T/home/checkout" work >"$T/map.txt" ||
	fail "annotate --prefix-map"
grep -q 'the hot line' "$T/map.txt" || { cat "$T/map.txt"; fail "--prefix-map: source not found"; }
grep -q 'not found' "$T/map.txt" && fail "--prefix-map: the note stays"
grep -qF "$T/home/checkout/src/lib/work.c:" "$T/map.txt" || fail "--prefix-map: the path shown is not mapped"
# the last map that matches wins, as gcc's; a map of a partial name does not match
"$BMPROF" annotate -i "$T/p.data" --prefix-map "$T/ci=/nowhere" --prefix-map "$T/ci/src=$T/home/checkout/src" \
	work >"$T/map2.txt" || fail "annotate, two maps"
grep -q 'the hot line' "$T/map2.txt" || fail "two maps: the last one that matches is not used"
"$BMPROF" annotate -i "$T/p.data" --prefix-map "$T/c=$T/home/checkout" work >"$T/map3.txt" ||
	fail "annotate, partial map"
grep -qF "tried $T/ci/src/lib/work.c" "$T/map3.txt" || fail "a map of a partial directory name applied"

# --source-path: the file under DIR with the path's leading directories dropped
"$BMPROF" annotate -i "$T/p.data" --source-path /nonexistent --source-path "$T/home/checkout" work \
	>"$T/sp.txt" || fail "annotate --source-path"
grep -q 'the hot line' "$T/sp.txt" || { cat "$T/sp.txt"; fail "--source-path: source not found"; }
"$BMPROF" annotate -i "$T/p.data" --source-path /nonexistent work >"$T/sp2.txt" || fail "annotate --source-path (miss)"
grep -q 'not found (tried .* and under --source-path)' "$T/sp2.txt" || fail "--source-path miss: note"

# report --sort line shows mapped paths
"$BMPROF" report -i "$T/p.data" --sort line --prefix-map "$T/ci=/src" >"$T/line.txt" || fail "report --prefix-map"
grep -Eq ' /src/src/lib/work\.c:[0-9]+ ' "$T/line.txt" || { cat "$T/line.txt"; fail "report --sort line: path not mapped"; }
for bad in noequals =x; do
	"$BMPROF" annotate -i "$T/p.data" --prefix-map "$bad" work >/dev/null 2>"$T/e"
	[ $? -eq 2 ] || fail "--prefix-map $bad: not a usage error"
	grep -q -- '--prefix-map takes OLD=NEW' "$T/e" || fail "--prefix-map $bad: message"
done
echo ok
