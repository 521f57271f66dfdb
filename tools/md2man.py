#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A man page (troff -man) from one of bmprof's command pages, docs/bmprof*.md.

    md2man.py [--version V] [--options FILE] PAGE.md > PAGE.1

The markdown those pages use, and what it becomes:

  # bmprof-verb(1)          .TH BMPROF-VERB 1 (the page must have a ## NAME section)
  ## HEADING, ### Heading   .SH HEADING, .SS Heading
  paragraphs                filled text, .PP between them
  4-space indented or ```   a literal display (.nf)
  `term` line + ": text"    a tagged paragraph (.TP); lines indented 2 spaces continue it
  - item, 1. item           .IP with a bullet or the number
  | a | b | tables          tbl(1) (the page then starts with '\\" t)
  `code` **bold** *italic*  \\fB \\fB \\fI; [text](url) keeps the text
  <!-- comments -->         dropped

--options FILE replaces the page's OPTIONS section with FILE, troff text that starts with
.SH OPTIONS (as a command's option table writes it). Anything else is passed through as
text. Errors (no title, no NAME section, an unreadable file) are one line on stderr and
exit status 1.
"""
import re
import sys

CODE = re.compile(r"`([^`]*)`")
BOLD = re.compile(r"\*\*([^*]+)\*\*")
ITAL = re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])")
LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
TITLE = re.compile(r"^# (bmprof(?:[- ][a-z]+)?)(?:\((\d)\))?\s*$")
TABLE_RULE = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def esc(s):
    """Plain text for troff: backslashes, and characters outside ASCII as \\[uXXXX]."""
    s = s.replace("\\", "\\e")
    return "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in s)


def esc_code(s):
    return esc(s).replace("-", "\\-")


def inline(s):
    """Inline markup of one line of prose."""
    out, pos = [], 0
    for m in CODE.finditer(s):
        out.append(prose(s[pos:m.start()]))
        out.append("\\fB" + esc_code(m.group(1)) + "\\fR")
        pos = m.end()
    out.append(prose(s[pos:]))
    return "".join(out)


def prose(s):
    s = LINK.sub(r"\1", s)
    s = esc(s)
    s = BOLD.sub(lambda m: "\\fB" + m.group(1) + "\\fR", s)
    s = ITAL.sub(lambda m: "\\fI" + m.group(1) + "\\fR", s)
    return s


def line_out(s):
    """A text line: guard a leading control character."""
    return "\\&" + s if s[:1] in (".", "'") else s


def cells(row):
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    parts, cur, i = [], "", 0
    while i < len(row):
        if row[i] == "\\" and i + 1 < len(row) and row[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if row[i] == "|":
            parts.append(cur.strip())
            cur = ""
        else:
            cur += row[i]
        i += 1
    parts.append(cur.strip())
    return parts


def table(rows):
    head = cells(rows[0])
    body = [cells(r) for r in rows[2:]]
    n = max([len(head)] + [len(b) for b in body])
    out = [".TS", "allbox tab(\x07);", " ".join(["lb"] * n),
           " ".join(["l"] * (n - 1) + ["lx"]) + "."]

    def cell(c, last):
        text = inline(c)
        # a text block (wrapped) for the last column and for long cells
        return "T{\n" + line_out(text) + "\nT}" if last or len(c) > 30 else line_out(text)

    def row(cs):
        cs = cs + [""] * (n - len(cs))
        return "\x07".join(cell(c, k == n - 1) for k, c in enumerate(cs))

    out.append(row(head))
    out.extend(row(b) for b in body)
    out.append(".TE")
    return out


class Page:
    def __init__(self):
        self.out = []
        self.tables = False

    def emit(self, *ls):
        self.out.extend(ls)

    def literal(self, ls):
        self.emit(".PP", ".RS 4", ".nf")
        self.emit(*(line_out(esc_code(l)) if l else "" for l in ls))
        self.emit(".fi", ".RE")


def indent_of(s):
    return len(s) - len(s.lstrip(" "))


def convert(text, version, options):
    lines = re.sub(r"<!--.*?-->", "", text, flags=re.S).split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    m = TITLE.match(lines[0]) if lines else None
    if not m:
        raise ValueError("the first line is not a title '# bmprof-VERB(1)'")
    name = m.group(1).replace(" ", "-")
    section = m.group(2) or "1"
    if not any(l.strip() == "## NAME" for l in lines):
        raise ValueError("no '## NAME' section")
    p = Page()
    p.emit(f'.TH {esc_code(name.upper())} {section} "" "bmprof {esc(version)}" '
           f'"bmprof manual"')
    i, n = 1, len(lines)
    skipping = False
    while i < n:
        l = lines[i]
        s = l.strip()
        if l.startswith("## ") and l[3:].strip().upper() == "NAME":
            # "bmprof verb - what it does": the name as man -k and mandb want it
            j = i + 1
            while j < n and not lines[j].strip():
                j += 1
            desc = lines[j].split(" - ", 1)[-1].strip() if j < n else ""
            p.emit(".SH NAME", f"{esc_code(name)} \\- {prose(desc)}")
            i = j + 1
            continue
        if l.startswith("## "):
            head = l[3:].strip().upper()
            skipping = options is not None and head == "OPTIONS"
            if skipping:
                p.emit(*options.rstrip("\n").split("\n"))
            else:
                p.emit(".SH " + esc(head))
            i += 1
            continue
        if skipping:
            i += 1
            continue
        if l.startswith("### "):
            p.emit(".SS " + inline(l[4:].strip()))
            i += 1
        elif not s:
            i += 1
        elif s.startswith("```"):
            j = i + 1
            while j < n and not lines[j].strip().startswith("```"):
                j += 1
            p.literal(lines[i + 1:j])
            i = j + 1
        elif indent_of(l) >= 4:
            j = i
            while j < n and (indent_of(lines[j]) >= 4 or (not lines[j].strip() and j + 1 < n
                                                         and indent_of(lines[j + 1]) >= 4)):
                j += 1
            p.literal([x[4:] for x in lines[i:j]])
            i = j
        elif s.startswith("|") and i + 1 < n and TABLE_RULE.match(lines[i + 1].strip()):
            j = i
            while j < n and lines[j].strip().startswith("|"):
                j += 1
            p.tables = True
            p.emit(".PP", *table([x.strip() for x in lines[i:j]]))
            i = j
        elif i + 1 < n and lines[i + 1].startswith(": "):
            p.emit(".TP", line_out(inline(s)))
            i = item(p, lines, i + 1, lines[i + 1][2:], 2)
        elif re.match(r"^(- |\d+\. )", l):
            mark = l.split(" ", 1)[0]
            p.emit(".IP " + ("\\(bu 2" if mark == "-" else esc(mark) + " 4"))
            i = item(p, lines, i, l[len(mark) + 1:], len(mark) + 1)
        else:
            j = i
            para = []
            while j < n and lines[j].strip() and indent_of(lines[j]) < 4 and not (
                    lines[j].startswith("#") or lines[j].strip().startswith("```") or
                    re.match(r"^(- |\d+\. )", lines[j]) or
                    (j > i and lines[j].strip().startswith("|")) or
                    (j + 1 < n and lines[j + 1].startswith(": "))):
                para.append(lines[j].strip())
                j += 1
            if not para:          # a line no rule takes: keep it as text
                para, j = [s], i + 1
            p.emit(".PP", line_out(inline(" ".join(para))))
            i = j
    head = ["'\\\" t"] if p.tables else []
    return "\n".join(head + [f".\\\" Generated from {name}.md by tools/md2man.py."] +
                     p.out) + "\n"


def item(p, lines, i, first, ind):
    """The body of a tagged paragraph or list item: its first line, the lines indented by
    ind under it, and further paragraphs indented so (after blank lines); indented 4 more,
    a literal display."""
    n = len(lines)
    body = [first.strip()]
    i += 1
    while i < n and lines[i].strip() and indent_of(lines[i]) >= ind and not lines[i].lstrip(
            ).startswith(("- ", ": ")):
        body.append(lines[i].strip())
        i += 1
    p.emit(line_out(inline(" ".join(body))))
    while i + 1 < n and not lines[i].strip() and indent_of(lines[i + 1]) >= ind \
            and lines[i + 1].strip():
        j = i + 1
        if indent_of(lines[j]) >= ind + 4:
            k = j
            while k < n and (indent_of(lines[k]) >= ind + 4 or not lines[k].strip()) and not (
                    not lines[k].strip() and (k + 1 >= n or indent_of(lines[k + 1]) < ind + 4)):
                k += 1
            p.emit(".IP", ".nf")
            p.emit(*(line_out(esc_code(x[ind + 4:])) for x in lines[j:k]))
            p.emit(".fi")
            i = k
            continue
        k = j
        para = []
        while k < n and lines[k].strip() and indent_of(lines[k]) >= ind:
            para.append(lines[k].strip())
            k += 1
        p.emit(".IP", line_out(inline(" ".join(para))))
        i = k
    return i


def main(argv):
    version, options, args = "", None, []
    it = iter(argv)
    for a in it:
        if a == "--version":
            version = next(it, "")
        elif a == "--options":
            path = next(it, None)
            try:
                options = open(path, encoding="utf-8").read()
            except (OSError, TypeError) as e:
                print(f"md2man: --options: {e}", file=sys.stderr)
                return 1
        else:
            args.append(a)
    if len(args) != 1:
        print("usage: md2man.py [--version V] [--options FILE] PAGE.md", file=sys.stderr)
        return 2
    try:
        text = open(args[0], encoding="utf-8").read()
        sys.stdout.write(convert(text, version, options))
    except (OSError, ValueError) as e:
        print(f"md2man: {args[0]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
