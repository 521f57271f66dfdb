#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The option tables against the docs and the CLI's own help, so neither can drift:
#   - every option in a command's table (bmprof VERB --man-options, what its man page's
#     OPTIONS section is made from) appears on its page docs/bmprof-VERB.md, and every
#     option the page's OPTIONS section and SYNOPSIS name is in the table;
#   - every command of bmprof --help has a page and a table, and --help prints from it;
#   - a mistyped command or option gets one line naming it and the closest that exists,
#     exit status 2; bmprof help COMMAND and bmprof help --help print usage.
. "$(dirname "$0")/lib.sh"

drift=0
verbs=$("$BMPROF" --help | sed -n '/Commands:/,/^  help /s/^  \([a-z]\+\) .*/\1/p' | grep -v '^help$')
[ "$(echo "$verbs" | wc -w)" -ge 14 ] || fail "bmprof --help lists too few commands: $verbs"
for v in $verbs; do
	page=$ROOT/docs/bmprof-$v.md
	[ -f "$page" ] || fail "$v: no docs/bmprof-$v.md"
	"$BMPROF" "$v" --man-options >"$T/$v.roff" || fail "$v --man-options failed"
	grep -q '^\.SH OPTIONS$' "$T/$v.roff" || fail "$v --man-options: no .SH OPTIONS"
	"$BMPROF" "$v" --help >"$T/$v.help" || fail "$v --help failed"
	grep -q "^usage: bmprof $v" "$T/$v.help" || fail "$v --help: no usage line"
	python3 - "$v" "$T/$v.roff" "$page" <<'PY' || drift=1
import re, sys
verb, roff, page = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read()
roff = roff.replace("\\-", "-")
table = set(re.findall(r"\\fB--([a-z0-9-]+)\\fR", roff))
table |= {"-" + c for c in re.findall(r"\\fB-([A-Za-z0-9])\\fR", roff)}
def section(name):
    m = re.search(r"^## " + name + r"\n(.*?)(?=^## |\Z)", page, re.S | re.M)
    return m.group(1) if m else ""
# the terms of the OPTIONS section (lines starting with `) and the SYNOPSIS
named = "\n".join(l for l in section("OPTIONS").split("\n") if l.startswith("`"))
named += section("SYNOPSIS")
in_page = set(re.findall(r"(?<![\w-])--([a-z0-9][a-z0-9-]*)", named))
in_page |= {"-" + c for c in re.findall(r"(?<![\w-])-([A-Za-z0-9])(?![\w-])", named)}
bad = []
for o in sorted(table - {"help", "-h"}):
    spelled = o if o.startswith("-") else "--" + o
    if not re.search(r"(?<![\w-])" + re.escape(spelled) + r"(?![\w-])", page):
        bad.append(f"{spelled} is in the table but not on docs/bmprof-{verb}.md")
for o in sorted(in_page - table - {"help"}):
    spelled = o if o.startswith("-") else "--" + o
    bad.append(f"{spelled} is on docs/bmprof-{verb}.md (OPTIONS or SYNOPSIS) but not in "
               f"bmprof {verb}'s table")
for b in bad:
    print(f"FAIL: {verb}: {b}")
sys.exit(1 if bad else 0)
PY
done
[ $drift = 0 ] || fail "the option tables and docs/bmprof-*.md disagree (above)"

# errors: one line, the offending word named, the closest suggested, exit 2
usage_err() {   # usage_err PATTERN ARGS...
	local want=$1
	shift
	"$BMPROF" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "bmprof $*: exit $rc, want 2"
	[ "$(wc -l <"$T/err")" -eq 1 ] || { cat "$T/err"; fail "bmprof $*: not one line"; }
	grep -qF -- "$want" "$T/err" || { cat "$T/err"; fail "bmprof $*: want '$want'"; }
}
usage_err "unknown command 'reprot'; did you mean report?" reprot
usage_err "unknown command 'reprot'; did you mean report?" help reprot
usage_err "report: unknown option -x (in '-xq'" report -xq
usage_err "report: unknown option --sotr; did you mean --sort?" report --sotr line
usage_err "report: --sort takes function, line, address, cpu, type, type,member or object, not 'lines'; did you mean line?" \
	report --sort lines
usage_err "qemu: unknown option --frq; did you mean --freq?" qemu --frq 100 x.elf
usage_err "stat: -F takes text or json, not 'jsn'; did you mean json?" stat -F jsn x.elf
usage_err "db: unknown command 'ad'; did you mean 'add'?" db ad x.data
usage_err "db add: unknown option --db" db add --db x x.data
usage_err "export: --output needs FILE" export --format folded --output
usage_err "unknown option --hlp; did you mean --help?" --hlp

"$BMPROF" help --help | grep -q "^usage: bmprof \[--version\]" || fail "bmprof help --help"
"$BMPROF" help report | cmp -s - "$T/report.help" || fail "bmprof help report is not bmprof report --help"
"$BMPROF" report --man-options | cmp -s - "$T/report.roff" || fail "--man-options is not stable"
echo "options and docs ok"
