#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The first five minutes: make builds quietly (one "  CC      path" line per step, the full
# commands with V=1), and make demo's closing advice (scripts/demo-next.sh) names three
# commands on the demo's profile that work as printed: annotate the hottest function (it
# is the demo's hottest function, by its base name), the HTML report (a page is written),
# and a second run diffed against the first.
. "$(dirname "$0")/lib.sh"
need_qemu

# quiet and V=1 builds of a small image
(cd "$ROOT" && make --no-print-directory BUILD="$T/b" image SRC=tests/e2e/progs/exitcode.c NAME=q) \
	>"$T/quiet.log" 2>&1 || { cat "$T/quiet.log"; fail "quiet build failed"; }
grep -qE '^  CC      .*/exitcode\.o$' "$T/quiet.log" && grep -qE "^  LD      $T/b/x86_64/q\.elf$" "$T/quiet.log" ||
	{ cat "$T/quiet.log"; fail "no CC/LD lines"; }
grep -vE '^  [A-Z]+ +[^ ]+$' "$T/quiet.log" && fail "a quiet build printed more than step lines"
rm -f "$T/b/x86_64/q.elf"
(cd "$ROOT" && make --no-print-directory BUILD="$T/b" V=1 image SRC=tests/e2e/progs/exitcode.c NAME=q) \
	>"$T/v1.log" 2>&1 || { cat "$T/v1.log"; fail "V=1 build failed"; }
grep -q -- "-o $T/b/x86_64/q.elf" "$T/v1.log" || { cat "$T/v1.log"; fail "V=1 printed no link command"; }
grep -qE '^  LD ' "$T/v1.log" && fail "V=1 printed step lines"

# make demo's next steps, on the demo's own image
(cd "$ROOT" && make --no-print-directory -s BUILD="$T/b" image SRC=examples/demo.c NAME=demo) \
	>"$T/demo.log" 2>&1 || { cat "$T/demo.log"; fail "demo build failed"; }
elf=$T/b/x86_64/demo.elf
"$BMPROF" qemu --icount --freq 4000 -o "$T/demo.data" "$elf" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "demo run failed"; }
bash "$ROOT/scripts/demo-next.sh" "$BMPROF" "$T/demo.data" "$elf" 4000 >"$T/next.txt" ||
	fail "demo-next.sh failed"
top=$("$BMPROF" report -i "$T/demo.data" --limit 1 | awk '/^ +[0-9]+ +[0-9.]+%/ { print $3; exit }')
[ "$(grep -c "^  $BMPROF " "$T/next.txt")" = 3 ] || { cat "$T/next.txt"; fail "not three commands"; }
grep -q "annotate -i $T/demo.data ${top%%.*}\$" "$T/next.txt" || { cat "$T/next.txt"; fail "annotate does not name the hottest function ($top)"; }
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	(cd "$T" && bash -c "$cmd") >"$T/cmd$n.out" 2>&1 || { cat "$T/cmd$n.out"; fail "as printed, it fails: $cmd"; }
done < <(grep "^  $BMPROF " "$T/next.txt" | sed 's/^  //')
grep -q "${top%%.*}" "$T/cmd1.out" || fail "annotate printed nothing of the hot function"
[ -s "$T/demo.html" ] && grep -q "<svg" "$T/demo.html" || fail "no HTML report"
[ -s "$T/demo-2.data" ] || fail "no second profile"
echo "demo next ok"
