#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof db: a database of synthetic profiles of two builds of a small host-built ELF (no
# QEMU): init, add with tags, ls, show, queries (tags, epoch, last), epochs, rm; bmprof diff
# and stats on db: queries; two processes adding at once lose nothing; a damaged database
# file, or one whose schema bmprof did not write, gives one line naming it; ls and show
# escape what they print.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "gcc not installed"

cat >"$T/prog.c" <<'EOF2'
volatile int sink;
#ifdef NEWBUILD
void f_new(void) { sink = 2; }
#endif
void f_a(void) { for (int i = 0; i < 100; i++) sink += i; }
void f_b(void) { for (int i = 0; i < 100; i++) sink ^= i; }
void _start(void) { f_a(); f_b(); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/a.elf" "$T/prog.c" &&
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -DNEWBUILD -o "$T/b.elf" "$T/prog.c" ||
	fail "cannot build the test ELFs"
# gen.py OUT ELF A B: f_a gets A samples, f_b B
cat >"$T/gen.py" <<'PY'
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, enc_totals, nm_symbols
out, elf, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
s = nm_symbols(elf)
pcs = sorted([(s["f_a"], a), (s["f_b"], b)])
open(out, "wb").write(enc_hello(1, build_id(elf)) + enc_timer_event() + enc_samples(0, 0, pcs) +
                      enc_totals(0, a + b, a + b, 0, 0, 1) + enc_end_exit0())
PY
mk() {  # mk NAME ELF A B
	python3 "$T/gen.py" "$T/$1.bin" "$2" "$3" "$4" || fail "stream $1"
	"$BMPROF" record --from "$T/$1.bin" --elf "$2" -o "$T/$1.data" >/dev/null 2>&1 || fail "record $1"
}
mk a1 "$T/a.elf" 1000 500; mk a2 "$T/a.elf" 1010 495; mk a3 "$T/a.elf" 990 505
mk b1 "$T/b.elf" 1000 1500; mk b2 "$T/b.elf" 1005 1490; mk b3 "$T/b.elf" 995 1510

export BMPROF_DB=$T/db
"$BMPROF" db ls >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "ls before init: want exit 1"
grep -q "bmprof db init" "$T/e" || { cat "$T/e"; fail "ls before init: no hint"; }
"$BMPROF" db init >/dev/null || fail "db init"
"$BMPROF" db add --commit aaa --tag branch=main "$T"/a?.data >"$T/add" || fail "db add a"
grep -q "as profile 1 (epoch 1)" "$T/add" || { cat "$T/add"; fail "first profile is not 1 in epoch 1"; }
"$BMPROF" db epoch new --note "after the fix" | grep -q "epoch 2" || fail "epoch new"
"$BMPROF" db add --commit bbb --tag branch=main "$T"/b?.data >/dev/null || fail "db add b"
"$BMPROF" db ls >"$T/ls" || fail "db ls"
cat "$T/ls"
[ "$(grep -c 'commit=' "$T/ls")" = 6 ] || fail "ls: want 6 profiles"
want_id=$(python3 -c 'import sys; from frames import build_id; print(build_id(sys.argv[1]).hex()[:12])' "$T/a.elf")
grep -Eq "^ +1 +1 .* $want_id +1500 .*branch=main commit=aaa$" "$T/ls" || fail "ls: row 1"
[ "$("$BMPROF" db ls commit=bbb | grep -c commit=bbb)" = 3 ] || fail "query commit=bbb"
[ "$("$BMPROF" db ls epoch=current | grep -c commit=bbb)" = 3 ] || fail "query epoch=current"
[ "$("$BMPROF" db ls epoch=1 | grep -c commit=aaa)" = 3 ] || fail "query epoch=1"
"$BMPROF" db ls branch=main,last=2 >"$T/l2"; [ "$(grep -Ec '^ +[56] ' "$T/l2")" = 2 ] || { cat "$T/l2"; fail "last=2"; }
[ "$("$BMPROF" db ls "build_id=$(python3 -c 'import sys; from frames import build_id; print(build_id(sys.argv[1]).hex())' "$T/b.elf")" | grep -c bbb)" = 3 ] ||
	fail "query build_id"
[ "$("$BMPROF" db ls tag=main | grep -c commit=)" = 6 ] || fail "tag=VALUE: any tag of that value"
"$BMPROF" db ls 'bad query' >/dev/null 2>&1; [ $? -eq 1 ] || fail "bad query accepted"
"$BMPROF" db epoch ls | grep -Eq '^ +2 .* 3 +after the fix$' || fail "epoch ls"
"$BMPROF" db show 4 >"$T/show" || fail "db show"
grep -q "^commit=\|^tags .*commit=bbb" "$T/show" && grep -Eq '^ +1500 +f_b$' "$T/show" &&
	grep -q "^cpu .*GenuineIntel family 6" "$T/show" || { cat "$T/show"; fail "show"; }
cmp -s "$T/b1.data" "$T/db/profiles/4.data" || fail "the stored copy differs from the file added"

# both times are SQLite date-function times
python3 - "$T/db/profiles.sqlite" <<'PY' || fail "times SQLite cannot read"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
rows = c.execute("SELECT datetime(recorded), datetime(added) FROM profiles").fetchall()
assert rows and all(r[0] and r[1] for r in rows), rows
PY

# diff and stats on queries: the stored profiles, by the ELFs stored with them (the image
# at the path the profiles name has since been rebuilt)
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -DNEWBUILD -DREBUILT -o "$T/a.elf" "$T/prog.c" || fail "rebuild"
[ "$(ls "$T/db/images" | wc -l)" = 2 ] || fail "want one stored ELF per build-id"
"$BMPROF" diff --fail-above 20 db:commit=aaa db:commit=bbb >"$T/d" 2>"$T/e"
[ $? -eq 3 ] || { cat "$T/d" "$T/e"; fail "diff on queries: gate did not fail"; }
grep -q "regression: f_b" "$T/e" || fail "diff on queries: f_b not named"
grep -q "^# base      3 runs" "$T/d" || fail "diff on queries: base is not 3 runs"
"$BMPROF" stats --db "$T/db" db:commit=aaa | grep -Eq '  f_a$' || fail "stats on a query"
"$BMPROF" diff db:commit=zzz db:commit=bbb >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "empty query accepted"
grep -q "no profile in the database matches" "$T/e" || fail "empty query: message"

# rm
"$BMPROF" db rm 6 || fail "db rm"
[ ! -e "$T/db/profiles/6.data" ] || fail "rm left the file"
[ "$("$BMPROF" db ls | grep -c commit=)" = 5 ] || fail "rm: want 5 left"
"$BMPROF" db rm 99 >/dev/null 2>&1; [ $? -eq 1 ] || fail "rm of no profile: want exit 1"

# hostile columns: a NULL file, a file naming a path outside the database, a bad elf; every
# verb gives one line naming the damage, exits 1, and never follows the path
echo keep >"$T/victim.txt"
cp -r "$T/db" "$T/hdb"
python3 - "$T/hdb/profiles.sqlite" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE profiles SET file = NULL WHERE id = 1")
c.execute("UPDATE profiles SET file = '../../victim.txt' WHERE id = 2")
c.execute("UPDATE profiles SET elf = '../../../etc/passwd' WHERE id = 3")
c.commit()
PY
for q in "stats --db $T/hdb db:last=5" "stats --db $T/hdb db:id=2" "diff --db $T/hdb db:id=1 db:id=4" \
	 "diff --db $T/hdb db:id=3 db:id=4"; do
	"$BMPROF" $q >/dev/null 2>"$T/e"; rc=$?
	[ $rc -eq 1 ] || { cat "$T/e"; fail "$q on a damaged row: exit $rc, want 1"; }
	[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "hdb/profiles.sqlite: profile [123] has .* column (the database is damaged)" "$T/e" ||
		{ cat "$T/e"; fail "$q on a damaged row: message"; }
done
"$BMPROF" db --db "$T/hdb" rm 2 2>"$T/e" || { cat "$T/e"; fail "rm of a damaged row"; }
grep -q "named no usable file.*no file was deleted" "$T/e" || { cat "$T/e"; fail "rm of a damaged row: message"; }
[ "$(cat "$T/victim.txt")" = keep ] || fail "db rm followed a stored path outside the database"
"$BMPROF" db --db "$T/hdb" rm 1 2>/dev/null || fail "rm of a NULL file row"
[ "$("$BMPROF" db --db "$T/hdb" ls | grep -c commit=)" = 3 ] || fail "rm of damaged rows: want 3 left"

# two processes adding at once lose nothing
"$BMPROF" db --db "$T/cdb" init >/dev/null || fail "init cdb"
adder() { for i in $(seq 1 15); do "$BMPROF" db --db "$T/cdb" add --tag who=$1 --tag n=$i "$T/b1.data" >/dev/null || exit 1; done; }
adder x & px=$!
adder y & py=$!
wait $px || fail "adder x failed"
wait $py || fail "adder y failed"
"$BMPROF" db --db "$T/cdb" ls >"$T/cls" || fail "ls cdb"
[ "$(grep -c 'who=x' "$T/cls")" = 15 ] && [ "$(grep -c 'who=y' "$T/cls")" = 15 ] || { cat "$T/cls"; fail "concurrent adds lost profiles"; }
[ "$(ls "$T/cdb/profiles" | grep -c '\.data$')" = 30 ] || fail "concurrent adds: want 30 stored files"
for f in "$T"/cdb/profiles/*.data; do cmp -s "$f" "$T/b1.data" || fail "stored copy $f differs"; done

# a damaged database file: one line naming it, exit 1
head -c 4096 /dev/urandom >"$T/cdb/profiles.sqlite"
"$BMPROF" db --db "$T/cdb" ls >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 1 ] || fail "damaged database: exit $rc, want 1"
[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "cdb/profiles.sqlite: .*bmprof db init" "$T/e" || { cat "$T/e"; fail "damaged database: message"; }
"$BMPROF" diff --db "$T/cdb" db:who=x db:who=y >/dev/null 2>"$T/e"; [ $? -eq 1 ] || fail "diff on a damaged database"
[ "$(wc -l <"$T/e")" -eq 1 ] || fail "diff on a damaged database: want one line"

# a schema bmprof did not write: refused at open (a view that never ends, a trigger on add)
"$BMPROF" db --db "$T/vdb" init >/dev/null && "$BMPROF" db --db "$T/tdb" init >/dev/null || fail "init vdb, tdb"
python3 - "$T/vdb/profiles.sqlite" "$T/tdb/profiles.sqlite" <<'PY' || fail "cannot write the schemas"
import sqlite3, sys
endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
v = sqlite3.connect(sys.argv[1])
v.executescript("DROP TABLE profiles; CREATE VIEW profiles AS " + endless + " SELECT x AS id, "
                "1 AS epoch, x || '.data' AS file, x AS samples FROM c;")
v.close()
t = sqlite3.connect(sys.argv[2])
t.executescript("CREATE TABLE sink(x); CREATE TRIGGER grow AFTER INSERT ON profiles BEGIN "
                "INSERT INTO sink " + endless + " SELECT x FROM c; END;")
t.close()
PY
for q in "vdb ls" "tdb add $T/a1.data" "vdb init"; do
	set -- $q
	"$BMPROF" db --db "$T/$1" "${@:2}" >/dev/null 2>"$T/e"; rc=$?
	[ $rc -eq 1 ] || { cat "$T/e"; fail "db $q on a foreign schema: exit $rc, want 1"; }
	[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "not a bmprof profile database: its \(view 'profiles'\|trigger 'grow'\|table 'sink'\) is not one bmprof makes: move it aside" "$T/e" ||
		{ cat "$T/e"; fail "db $q on a foreign schema: message"; }
done

# what ls and show print of a value is escaped: one line per profile
"$BMPROF" db --db "$T/edb" init >/dev/null || fail "init edb"
"$BMPROF" db --db "$T/edb" add --tag "$(printf 'k=two\nlines\033[2J')" "$T/a1.data" >/dev/null 2>&1 || fail "add edb"
"$BMPROF" db --db "$T/edb" ls >"$T/els" || fail "ls edb"
[ "$(wc -l <"$T/els")" -eq 2 ] && grep -qF 'k=two\x0alines\x1b[2J' "$T/els" || { cat -v "$T/els"; fail "ls: a tag's control bytes"; }
"$BMPROF" db --db "$T/edb" show 1 | grep -qF 'k=two\x0alines\x1b[2J' || fail "show: a tag's control bytes"
echo "db ok"
