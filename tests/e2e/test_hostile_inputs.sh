#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Every verb against hostile inputs: a FIFO with no writer, /dev/zero, a directory, an empty
# file, a huge sparse file, a path with a newline and a terminal escape in it, as each
# input a verb reads (profile, ELF, counts file, database, image); and a read-only output
# directory and a write limit for each file a verb writes. Each must exit non-zero within
# a bound, say what is wrong in one line on stderr with no raw control byte, and leave an
# existing output file as it was.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"
BOUND=30

# a good profile of a small host-built ELF (no QEMU)
cat >"$T/prog.c" <<'C'
volatile int sink;
void f_a(void) { for (int i = 0; i < 100; i++) sink += i; }
void _start(void) { f_a(); for (;;); }
C
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/good.elf" "$T/prog.c" || fail "cc"
python3 - "$T/good.bin" "$T/good.elf" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
s = nm_symbols(elf)
open(out, "wb").write(enc_hello(1, build_id(elf)) + enc_timer_event() +
                      enc_samples(0, 0, [(s["f_a"], 100)]) + enc_totals(0, 100, 100, 0, 0, 1) +
                      enc_end_exit0())
PY
"$BMPROF" record --from "$T/good.bin" --elf "$T/good.elf" -o "$T/good.data" >/dev/null 2>&1 ||
	fail "record of the good stream"

# the hostile inputs
mkfifo "$T/fifo"
mkdir "$T/dir"
: >"$T/empty"
truncate -s 64G "$T/sparse" 2>/dev/null || truncate -s 4G "$T/sparse"
weird="$T/bad"$'\n\x1b[31m'"name"
HOSTILE=("$T/fifo" /dev/zero "$T/dir" "$T/empty" "$T/sparse" "$weird")
[ -c /dev/urandom ] && HOSTILE+=(/dev/urandom)

checks=0
# expect_fail WHAT CMD...: a non-zero exit within the bound, one stderr line, no control byte
expect_fail() {
	local what=$1; shift
	timeout -k 5 "$BOUND" "$@" </dev/null >"$T/out" 2>"$T/err"
	local rc=$?
	[ $rc -eq 124 ] || [ $rc -eq 137 ] && fail "$what: did not return within $BOUND s"
	[ $rc -ne 0 ] || fail "$what: exit 0"
	[ $rc -lt 128 ] || { cat "$T/err"; fail "$what: died of signal $((rc - 128))"; }
	[ "$(wc -l <"$T/err")" -eq 1 ] || { cat -v "$T/err"; fail "$what: want one line on stderr, got $(wc -l <"$T/err")"; }
	LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/err" && { cat -v "$T/err"; fail "$what: a raw control byte on stderr"; }
	checks=$((checks + 1))
}

for x in "${HOSTILE[@]}"; do
	name=$(printf %q "$x")
	expect_fail "report -i $name" "$BMPROF" report -i "$x"
	expect_fail "report --elf $name" "$BMPROF" report -i "$T/good.data" --elf "$x"
	expect_fail "annotate -i $name" "$BMPROF" annotate -i "$x" f_a
	expect_fail "annotate --elf $name" "$BMPROF" annotate -i "$T/good.data" --elf "$x" f_a
	expect_fail "cpi -i $name" "$BMPROF" cpi -i "$x" f_a
	expect_fail "cpi --elf $name" "$BMPROF" cpi -i "$T/good.data" --elf "$x" f_a
	expect_fail "stalls -i $name" "$BMPROF" stalls -i "$x"
	expect_fail "export -i $name" "$BMPROF" export -i "$x" --format folded
	expect_fail "flamegraph -i $name" "$BMPROF" flamegraph -i "$x" -o "$T/fg.svg"
	expect_fail "flamegraph --elf $name" "$BMPROF" flamegraph -i "$T/good.data" --elf "$x" -o "$T/fg.svg"
	expect_fail "report --format html -i $name" "$BMPROF" report --format html -i "$x" -o "$T/r.html"
	expect_fail "export --elf $name" "$BMPROF" export -i "$T/good.data" --elf "$x" --format json
	expect_fail "diff $name" "$BMPROF" diff "$x" "$T/good.data"
	expect_fail "diff second $name" "$BMPROF" diff "$T/good.data" "$x"
	expect_fail "stats $name" "$BMPROF" stats "$T/good.data" "$x"
	expect_fail "topdown -i $name" "$BMPROF" topdown -i "$x"
	expect_fail "qemu $name" "$BMPROF" qemu --timeout 5 -o "$T/q.data" "$x"
	expect_fail "stat $name" "$BMPROF" stat --timeout 5 "$x"
	expect_fail "validate $name" "$BMPROF" validate --timeout 5 "$x"
	expect_fail "db add $name" "$BMPROF" db --db "$T/db" add "$x"
	expect_fail "record --elf $name" "$BMPROF" record --from "$T/good.bin" --elf "$x" -o "$T/r.data"
done
"$BMPROF" db --db "$T/db" init >/dev/null || fail "db init"
expect_fail "db on a directory that is not one" "$BMPROF" db --db "$T/fifo" ls
printf 'garbage\n' >"$T/dir/profiles.sqlite"
expect_fail "db on a garbage file" "$BMPROF" db --db "$T/dir" ls

# outputs: an existing file keeps its content when the write cannot be done
mkdir "$T/ro"
echo keep >"$T/ro/out"
chmod 555 "$T/ro"
if [ "$(id -u)" != 0 ]; then   # root writes anywhere: only the write limit tells then
	expect_fail "export into a read-only directory" "$BMPROF" export -i "$T/good.data" --format folded -o "$T/ro/out"
	[ "$(cat "$T/ro/out")" = keep ] || fail "export damaged a file in a read-only directory"
fi
chmod 755 "$T/ro"
# a write limit (RLIMIT_FSIZE, with SIGXFSZ ignored: writes fail with EFBIG) stands in for
# a full disk
big() {   # big CMD...: run under a 1-block write limit
	( trap '' XFSZ; ulimit -f 1; exec "$@" )
}
python3 -c 'import sys; sys.stdout.write("x" * 600 + "\n")' >"$T/long.txt"
for fmt in json folded pprof; do
	cp "$T/long.txt" "$T/exp.$fmt"
	expect_fail "export $fmt past the write limit" big "$BMPROF" export -i "$T/good.data" --format $fmt -o "$T/exp.$fmt"
	cmp -s "$T/long.txt" "$T/exp.$fmt" || fail "export $fmt damaged the file it could not write"
	expect_fail "export $fmt of a bad input" "$BMPROF" export -i "$T/empty" --format $fmt -o "$T/exp.$fmt"
	cmp -s "$T/long.txt" "$T/exp.$fmt" || fail "export $fmt of a bad input damaged the output file"
done
for verb in "flamegraph -o" "report --format html -o"; do
	cp "$T/long.txt" "$T/out.file"
	# shellcheck disable=SC2086
	expect_fail "$verb past the write limit" big "$BMPROF" $verb "$T/out.file" -i "$T/good.data"
	cmp -s "$T/long.txt" "$T/out.file" || fail "$verb damaged the file it could not write"
done
ls -A "$T" | grep -q '^\.exp\.\|^\.out\.file' && fail "a temporary output file was left behind"
echo "hostile inputs ok: $checks checks"
