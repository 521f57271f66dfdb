#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof flamegraph: the SVG of a QEMU run (--icount) is well-formed XML with one frame per
# distinct stack prefix of the profile's stacks (bmprof export --format folded), each as
# wide as its samples; a symbol name made hostile in the ELF (markup, script, control and
# non-UTF-8 bytes) stays text in the SVG and in the HTML report; --cpu keeps one CPU's
# samples; errors are one line and leave an existing output file alone.
. "$(dirname "$0")/lib.sh"
need_qemu
command -v gcc >/dev/null || skip "gcc not installed"

"$BMPROF" qemu --icount --freq 10000 -o "$T/p.data" "$IMAGES/shares.elf" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "qemu run failed"; }
"$BMPROF" flamegraph -i "$T/p.data" -o "$T/f.svg" 2>"$T/e" || { cat "$T/e"; fail "flamegraph"; }
"$BMPROF" export --format folded -i "$T/p.data" -o "$T/f.txt" || fail "export folded"

# frames and widths against the stacks
check_svg() {
	python3 - "$1" "$2" "${3:-1200}" <<'PY' || fail "the SVG of $1"
import sys, xml.etree.ElementTree as ET
svg, folded, W = sys.argv[1], sys.argv[2], float(sys.argv[3])
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()                      # well-formed, or this raises
assert root.tag == NS + "svg"
stacks = []
for line in open(folded, encoding="utf-8", errors="surrogateescape"):
    st, n = line.rstrip("\n").rsplit(" ", 1)
    stacks.append((st.split(";"), int(n)))
total = sum(n for _, n in stacks)
assert int(root.get("data-total")) == total, (root.get("data-total"), total)
want = {(): total}                                  # each stack prefix: its samples
for fr, n in stacks:
    for k in range(1, len(fr) + 1):
        want[tuple(fr[:k])] = want.get(tuple(fr[:k]), 0) + n
frames = root.findall(".//%sg[@class='f']" % NS)
assert len(frames) == len(want), (len(frames), len(want))
got, depth1 = {}, 0.0
starts = {}
for g in sorted(frames, key=lambda g: (int(g.get("data-d")), int(g.get("data-s")))):
    d, s, n = int(g.get("data-d")), int(g.get("data-s")), int(g.get("data-n"))
    rect, title = g.find(NS + "rect"), g.find(NS + "title").text
    assert len(g.findall(NS + "rect")) == 1
    w = float(rect.get("width"))
    assert abs(w - n / total * W) < 0.01, (g.get("data-name"), w, n)
    assert title.startswith(g.get("data-name") + " (%d sample" % n), title
    assert ("%.2f%%" % (100.0 * n / total)) in title, title
    # the frame's path: its parent is the frame one level down that spans it
    parent = () if d <= 1 else next(p for (pd, ps, pn), p in starts.items()
                                    if pd == d - 1 and ps <= s and s + n <= ps + pn)
    path = () if d == 0 else parent + (g.get("data-name"),)
    starts[(d, s, n)] = path
    got[path] = n
    if d == 1:
        depth1 += w
assert got == want, (got, want)
assert abs(depth1 - W) < 0.05, depth1
print("svg ok:", svg.split("/")[-1], len(frames), "frames,", total, "samples")
PY
}
check_svg "$T/f.svg" "$T/f.txt"
# the functions bmprof report lists are the frames above the root, with its counts
"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report json"
python3 - "$T/r.json" "$T/f.txt" <<'PY' || fail "flame graph and report disagree"
import json, sys
rows = {r["name"]: r["samples"] for r in json.load(open(sys.argv[1]))["rows"]}
roots = {}
for line in open(sys.argv[2]):
    st, n = line.rstrip("\n").rsplit(" ", 1)
    roots[st.split(";")[0]] = roots.get(st.split(";")[0], 0) + int(n)
assert rows == roots, (rows, roots)
PY
"$BMPROF" flamegraph -i "$T/p.data" -o - --width 600 >"$T/w.svg" || fail "flamegraph -o -"
check_svg "$T/w.svg" "$T/f.txt" 600

# --- a hostile symbol name, samples on two CPUs (a synthetic stream, no QEMU)
cat >"$T/prog.c" <<'EOF2'
volatile int sink;
void XHOSTILEMARKER_0123456789abcdefghijklmnopqrst(void) { for (int i = 0; i < 100; i++) sink += i; }
void f_b(void) { for (int i = 0; i < 100; i++) sink -= i; }
void _start(void) { XHOSTILEMARKER_0123456789abcdefghijklmnopqrst(); f_b(); for (;;); }
EOF2
gcc -g -O1 -nostdlib -static -no-pie -Wl,--build-id -o "$T/prog.elf" "$T/prog.c" || fail "cannot build the test ELF"
python3 - "$T/s.bin" "$T/prog.elf" <<'PY' || fail "cannot write the stream"
import sys
from frames import build_id, enc_end_exit0, enc_hello, enc_samples, enc_timer_event, enc_totals, nm_symbols
out, elf = sys.argv[1], sys.argv[2]
s = nm_symbols(elf)
evil = s["XHOSTILEMARKER_0123456789abcdefghijklmnopqrst"]     # the name is made hostile below
c0, c1 = [(evil, 60), (s["f_b"], 40)], [(s["f_b"], 25)]
open(out, "wb").write(enc_hello(2, build_id(elf)) + enc_timer_event() + enc_samples(0, 0, c0) +
                      enc_samples(1, 0, c1) + enc_totals(0, 100, 100, 0, 0, 1) +
                      enc_totals(1, 25, 25, 0, 0, 1) + enc_end_exit0())
PY
python3 - "$T/prog.elf" <<'PY' || fail "cannot make the name hostile"
import sys
b = open(sys.argv[1], "rb").read()
marker = b"XHOSTILEMARKER_0123456789abcdefghijklmnopqrst"
evil = b"<script>alert(1)</script>&\"'\x01\xff]]>"
evil += b"z" * (len(marker) - len(evil))
assert b.count(marker) >= 1
open(sys.argv[1], "wb").write(b.replace(marker, evil))
PY
"$BMPROF" record --from "$T/s.bin" --elf "$T/prog.elf" -o "$T/h.data" >/dev/null 2>"$T/e" || { cat "$T/e"; fail "record"; }
"$BMPROF" flamegraph -i "$T/h.data" -o "$T/h.svg" || fail "flamegraph of the hostile ELF"
"$BMPROF" export --format folded -i "$T/h.data" -o "$T/h.txt" || fail "folded of the hostile ELF"
check_svg "$T/h.svg" "$T/h.txt"
python3 - "$T/h.svg" <<'PY' || fail "the hostile name is not text in the SVG"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
want = "<script>alert(1)</script>&\"'\\x01\\xff]]>"
names = [g.get("data-name") for g in root.iter(NS + "g")]
evil = [n for n in names if n and n.startswith("<script>")]
assert len(evil) == 1 and evil[0].startswith(want), names
assert len(list(root.iter(NS + "script"))) == 1, "a script element other than the SVG's own"
assert all(len(list(t)) == 0 for t in root.iter(NS + "text")), "markup inside a text element"
print("hostile name ok in the SVG")
PY
"$BMPROF" report -i "$T/h.data" --format html -o "$T/h.html" || fail "report --format html"
python3 - "$T/h.html" <<'PY' || fail "the hostile name is not text in the HTML report"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.tags = {}; self.fn = []; self.cur = None
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.cur = dict(attrs).get("class")
    def handle_data(self, d):
        if self.cur == "fn": self.fn.append(d)
    def handle_endtag(self, tag): self.cur = None
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
assert p.tags.get("script") == 2, p.tags          # the page's and the flame graph's
assert not p.tags.get("img") and not p.tags.get("iframe"), p.tags
assert any(x.startswith("<script>alert(1)</script>&\"'\\x01\\xff]]>") for x in p.fn), p.fn
# the per-CPU split: f_b's samples on each CPU
page = open(sys.argv[1], encoding="utf-8").read()
split = page[page.index('id="cpu-table"'):]
assert '<th class="n">cpu 0</th><th class="n">cpu 1</th>' in split, split[:300]
assert '<tr><td>f_b</td><td class="n" data-v="65">65</td><td class="n" data-v="40">40</td>' \
       '<td class="n" data-v="25">25</td></tr>' in split, split[:800]
print("hostile name ok in the HTML, per-CPU split ok")
PY

# --cpu: one CPU's samples
"$BMPROF" flamegraph -i "$T/h.data" --cpu 1 -o "$T/c1.svg" || fail "--cpu 1"
python3 - "$T/c1.svg" <<'PY' || fail "--cpu 1 has other CPUs' samples"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
fr = {g.get("data-name"): int(g.get("data-n")) for g in root.iter(NS + "g") if g.get("class") == "f"}
assert root.get("data-total") == "25" and fr == {"all": 25, "f_b": 25}, fr
PY

# errors: one line, the exit status, and the output file left as it was
echo keep >"$T/keep.svg"
"$BMPROF" flamegraph -i "$T/h.data" --cpu 5 -o "$T/keep.svg" 2>"$T/e"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "CPU 5 has no samples" "$T/e" || { cat "$T/e"; fail "--cpu without samples: rc $rc"; }
"$BMPROF" flamegraph -i "$T/nope.data" -o "$T/keep.svg" 2>"$T/e"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$T/e")" -eq 1 ] || { cat "$T/e"; fail "missing profile: rc $rc"; }
"$BMPROF" flamegraph -i "$T/h.data" --event nosuch -o "$T/keep.svg" 2>"$T/e"; [ $? -eq 1 ] || fail "unknown event"
[ "$(cat "$T/keep.svg")" = keep ] || fail "a failed run changed the output file"
"$BMPROF" flamegraph --cpu x 2>/dev/null; [ $? -eq 2 ] || fail "bad --cpu: want exit 2"
"$BMPROF" flamegraph --frobnicate 2>/dev/null; [ $? -eq 2 ] || fail "bad option: want exit 2"
"$BMPROF" flamegraph extra 2>/dev/null; [ $? -eq 2 ] || fail "extra argument: want exit 2"
echo "flamegraph ok"
