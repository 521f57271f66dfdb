#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof report --format html in a real browser: headless Chromium loads the page (no
# network: everything is inline), and the DOM it renders holds the run's metadata, the
# loss accounting, every row of the flat profile with bmprof report's counts, the flame
# graph with its script run (a #search= in the URL marks frames and says their share), the
# per-CPU split and the annotated hottest functions; a screenshot of it is a PNG. A
# --data-space profile's page also holds the data-space views (types, types and members,
# the hottest structs' layouts with cache-line boundaries) as report's own.
. "$(dirname "$0")/lib.sh"
need_qemu
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome) ||
	skip "chromium is not installed (scripts/deps.sh installs it)"

"$BMPROF" qemu --icount --freq 10000 -o "$T/p.data" "$IMAGES/shares.elf" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "qemu run failed"; }
"$BMPROF" report -i "$T/p.data" --format html -o "$T/r.html" 2>"$T/e" || { cat "$T/e"; fail "report --format html"; }
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report json"
"$BMPROF" report -i "$T/p.data" >"$T/r.txt" || fail "report text"
grep -Eq '(src|href|action)="[^#]|url\(|@import' "$T/r.html" && fail "the page refers to something outside itself"

# the browser's own profile and cache in the test's directory; the DOM after the scripts ran
chrome() {
	HOME=$T timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/chrome" "$@" 2>>"$T/chrome.log"
}
chrome --dump-dom "file://$T/r.html" >"$T/dom.html" || { tail -5 "$T/chrome.log"; fail "chromium --dump-dom"; }
chrome --dump-dom "file://$T/r.html#search=work_%5Bab%5D" >"$T/dom-search.html" ||
	fail "chromium --dump-dom with a search"
SHARES_SRC=$ROOT/tests/e2e/progs/shares.c python3 - "$T/dom.html" "$T/dom-search.html" "$T/r.json" "$T/r.txt" <<'PY' || fail "the rendered page"
import json, os, re, sys
from html.parser import HTMLParser
class Dom(HTMLParser):
    """The rendered page: table rows by table id, text by element id and class."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.rows, self.text, self.attrs = [], {}, {}, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.attrs.append((tag, a))
        table = a.get("id") if tag == "table" else None
        self.stack.append((tag, a, table or (self.stack[-1][2] if self.stack else None)))
        if tag == "tr":
            self.rows.setdefault(self.stack[-1][2], []).append([])
        if tag == "td" or tag == "th":
            self.rows.setdefault(self.stack[-1][2], [[]])[-1].append("")
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass
    def handle_data(self, d):
        for tag, a, table in self.stack:
            for k in (a.get("id"), a.get("class")):
                if k:
                    self.text[k] = self.text.get(k, "") + d
        if self.stack and self.stack[-1][0] in ("td", "th") and self.stack[-1][2]:
            self.rows[self.stack[-1][2]][-1][-1] += d
def load(path):
    d = Dom(); d.feed(open(path, encoding="utf-8").read()); return d
dom, found = load(sys.argv[1]), load(sys.argv[2])
r = json.load(open(sys.argv[3]))
text = open(sys.argv[4]).read()
# metadata: the text report's header lines, as they are
header = dom.text["header"]
for line in text.split("\n#\n")[0].splitlines():
    if not line.startswith("# profile"):
        assert line in header, ("header line missing", line)
assert "# samples   taken" in header and "shares.elf" in header
# loss accounting: cpu 0 taken = delivered + lost, what the JSON says
loss = [x for x in dom.rows["loss-table"] if x and x[0] == "0"]
c = r["meta"]["cpus"][0]
assert loss and [int(v) for v in loss[0][1:7]] == [c["taken"], c["delivered"], c["lost_full"],
        c["lost_transport"], c["received"], 0], (loss, c)
# the flat profile: every row, in order, with its samples and percent
flat = [x for x in dom.rows["flat-table"][1:]]
assert [(int(x[0]), x[2]) for x in flat] == [(y["samples"], y["name"]) for y in r["rows"]], flat
assert all(x[1] == "%.2f%%" % y["percent"] for x, y in zip(flat, r["rows"])), flat
# the flame graph: the script ran (Reset Zoom hidden, the frames sized), one frame per function + root
frames = [a for t, a in dom.attrs if t == "g" and a.get("class", "").split()[:1] == ["f"]]
assert len(frames) == len(r["rows"]) + 1, frames
assert {a["data-name"] for a in frames} == {y["name"] for y in r["rows"]} | {"all"}
assert any(t == "text" and "fg-reset" in a.get("class", "") and "display: none" in a.get("style", "")
           for t, a in dom.attrs), "the flame graph's script did not run"
# the search from the URL: the frames of work_a and work_b, and their share
want = sum(y["samples"] for y in r["rows"] if y["name"] in ("work_a", "work_b"))
svg = [a for t, a in found.attrs if t == "svg"][0]
assert int(svg.get("data-matched", -1)) == want, (svg.get("data-matched"), want)
assert ("Matched: %.2f%%" % (100.0 * want / r["meta"]["samples"]["reported"])) in found.text["fg-matched"]
marked = {a["data-name"] for t, a in found.attrs if t == "g" and "fg-match" in a.get("class", "")}
assert marked == {"work_a", "work_b"}, marked
# the per-CPU split and the annotated functions
split = dom.rows["cpu-table"]
assert split[0][:3] == ["function", "samples", "cpu 0"], split[0]
assert [(x[0], int(x[1]), int(x[2])) for x in split[1:len(r["rows"]) + 1]] == \
    [(y["name"], y["samples"], y["samples"]) for y in r["rows"]], split
ann = dom.text["annotate"]
la = [i + 1 for i, l in enumerate(open(os.environ["SHARES_SRC"])) if "uint64_t work_a(" in l][0]
assert "bmprof annotate: work_a" in ann and f"shares.c:{la}" in ann, ann[:400]
print("html ok:", len(flat), "rows,", len(frames), "frames, search matched", want)
PY

# the flame graph on its own: a click's zoom (#zoom=) fills the width with the frame, hides
# its siblings, fades its callers; the search (#search=) marks frames and adds them up
"$BMPROF" flamegraph -i "$T/p.data" -o "$T/f.svg" || fail "flamegraph"
chrome --dump-dom "file://$T/f.svg#zoom=work_b&search=work_" >"$T/dom-zoom.svg" ||
	fail "chromium --dump-dom of the SVG"
python3 - "$T/dom-zoom.svg" "$T/r.json" <<'PY' || fail "zoom and search in the SVG"
import json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
r = json.load(open(sys.argv[2]))
g = {m.group(2): m.group(1) for m in re.finditer(r'<g ([^>]*data-name="([^"]*)"[^>]*)>', dom)}
rect = {n: re.search(r'data-name="%s"[^>]*>.*?<rect ([^>]*)>' % re.escape(n), dom, re.S).group(1) for n in g}
def attr(s, a):
    return re.search(r'\b%s="([^"]*)"' % a, s).group(1)
assert attr(rect["work_b"], "width") == "1200.00" and attr(rect["work_b"], "x") == "10.00", rect["work_b"]
assert "display: none" in g["work_a"] and "display: none" in g["work_c"], g
assert "fg-parent" in g["all"] and "display: none" not in g["all"], g["all"]
assert all("fg-match" in g[n] for n in ("work_a", "work_b", "work_c")), g
assert 'data-zoom="work_b"' in dom and 'data-matched="%d"' % r["meta"]["samples"]["reported"] in dom
print("svg zoom and search ok")
PY

# a screenshot: a PNG of the page
chrome --screenshot="$T/shot.png" --window-size=1280,2000 "file://$T/r.html" >/dev/null ||
	{ tail -5 "$T/chrome.log"; fail "chromium --screenshot"; }
python3 - "$T/shot.png" <<'PY' || fail "the screenshot"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (1280, 2000) and len(b) > 10000, (w, h, len(b))
print("screenshot ok:", w, "x", h, len(b), "bytes")
PY

# the data-space section: a --data-space profile of the MCF-like example; its tables hold
# what report --sort type, --sort type,member and --layout say, with the cache-line
# boundaries and holes where the layout puts them; a profile without raw samples has none
grep -q 'id="data"' "$T/r.html" && fail "a profile without raw samples has a data-space section"
"$BMPROF" qemu --icount --data-space --freq 20000 -o "$T/ds.data" "$IMAGES/mcf.elf" >/dev/null 2>"$T/ds.err" ||
	{ tail -5 "$T/ds.err"; fail "qemu --data-space run failed"; }
"$BMPROF" report -i "$T/ds.data" --format html -o "$T/ds.html" 2>"$T/e" || { cat "$T/e"; fail "report --format html (data space)"; }
for k in type type,member; do
	"$BMPROF" report -i "$T/ds.data" --sort $k -a --format json >"$T/ds.$k.json" || fail "report --sort $k"
done
for s in node arc; do
	"$BMPROF" report -i "$T/ds.data" --layout "struct $s" --format json >"$T/ds.$s.json" || fail "--layout struct $s"
done
chrome --dump-dom "file://$T/ds.html" >"$T/ds-dom.html" || fail "chromium --dump-dom (data space)"
python3 - "$T/ds-dom.html" "$T" <<'PY' || fail "the rendered data-space section"
import json, sys
from html.parser import HTMLParser
class Dom(HTMLParser):
    """Rows of each table (by id), each row its class and cells; text by element id."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.rows, self.text, self.tables = [], {}, {}, {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        table = a.get("id") if tag == "table" else None
        if table:
            self.tables[table] = a
        self.stack.append((tag, a, table or (self.stack[-1][2] if self.stack else None)))
        if tag == "tr":
            self.rows.setdefault(self.stack[-1][2], []).append((a.get("class", ""), []))
        if tag in ("td", "th"):
            self.rows[self.stack[-1][2]][-1][1].append("")
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass
    def handle_data(self, d):
        for tag, a, table in self.stack:
            if a.get("id"):
                self.text[a["id"]] = self.text.get(a["id"], "") + d
        if self.stack and self.stack[-1][0] in ("td", "th") and self.stack[-1][2]:
            self.rows[self.stack[-1][2]][-1][1][-1] += d
dom, T = Dom(), sys.argv[2]
dom.feed(open(sys.argv[1], encoding="utf-8").read())
ty = json.load(open(T + "/ds.type.json"))
tm = json.load(open(T + "/ds.type,member.json"))
# the source and backtracking effectiveness lines
assert dom.text["ds-source"] == "Samples from %s: %s" % (ty["data_space_source"], ty["source_line"]), dom.text["ds-source"]
b = ty["backtracking"]
assert dom.text["ds-backtracking"] == ("Backtracking: %d raw samples: %.1f%% to a trigger instruction, "
    "%.1f%% to an address, %.1f%% to a type" % (b["raw_samples"], b["trigger_percent"],
    b["address_percent"], b["type_percent"])), dom.text["ds-backtracking"]
# the type and type,member tables: every row of the JSON view, in order
for tid, view in (("ds-type-table", ty), ("ds-member-table", tm)):
    rows = [c for cls, c in dom.rows[tid][1:]]
    want = [[str(x["samples"]), "%.2f%%" % x["percent"], x["name"]] for x in view["rows"]]
    assert rows == want, (tid, rows[:5], want[:5])
assert any(x["name"] == "{struct node}.+80 potential" for x in tm["rows"])
# the layouts: struct arc and struct node, members in order with their samples, a
# cache-line row before the first member of each new line, a hole row before a member
# that follows a hole
shown = {a["data-type"]: t for t, a in dom.tables.items() if "ds-layout" in a.get("class", "")}
assert set(shown) >= {"struct node", "struct arc"}, shown
lines = 0
for s in ("node", "arc"):
    lay = json.load(open("%s/ds.%s.json" % (T, s)))["layout"]
    rows = dom.rows[shown["struct " + s]][1:]
    want, line = [], 0
    for fl in lay["fields"]:
        if fl["hole"]:
            want.append(("ds-hole", ["hole: %d bytes" % fl["hole"]]))
        if fl["line"] != line:
            want.append(("ds-line", ["cache line %d (byte %d)" % (fl["line"], 64 * fl["line"])]))
            line = fl["line"]
            lines += 1
        want.append(("ds-member" + (" warn" if fl["crosses"] else ""),
                     [fl["name"], fl["type"], str(fl["offset"]), str(fl["size"]),
                      str(fl["samples"]), "%.2f%%" % fl["percent"]]))
    if lay["tail"]:
        want.append(("ds-hole", ["padding: %d bytes" % lay["tail"]]))
    assert rows == want, (s, rows, want)
    assert ("struct %s: size %d, %d cache lines, %d samples" % (s, lay["size"], lay["lines"],
            lay["samples"])) in dom.text.values(), s
assert lines >= 1, "no cache-line boundary shown"
print("data space html ok:", len(ty["rows"]), "types,", len(tm["rows"]), "members,", lines, "line boundaries")
PY

# --format html refuses another sort; -o replaces the file whole
"$BMPROF" report -i "$T/p.data" --format html --sort line -o "$T/x.html" 2>/dev/null; [ $? -eq 2 ] || fail "html with --sort line"
[ -e "$T/x.html" ] && fail "a refused report wrote its file"
echo "report html ok"
