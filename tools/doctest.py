#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Extract the C code examples of docs/*.md that are meant to compile.

A block is marked by an HTML comment on the line before its fence (invisible when the
page is rendered):

    <!-- doctest ARCH[,ARCH] [file=NAME] [after=NAME] [prog] [run="ARGS"] [expect="TEXT"] -->
    ```c
    ...
    ```

  ARCH      x86_64 and/or aarch64: compile (and link) the block for each
  file=     the name it is extracted to (default DOC-LINE.c); kernels and other blocks
            refer to it by this name
  after=    the block is compiled after that one (in one file): for an example that
            uses what an earlier one defined
  prog      a whole program for the bmprof runtime (#include <bmrt.h>, int main(void)),
            built with `make image`; without it, code for a kernel of one's own, compiled
            against the library with tests/kit/doc_env.h forced in
  run=      with prog: run it with `bmprof qemu ARGS` (x86-64), and
  expect=   find TEXT in its console output

Unmarked blocks are fragments and are left alone.

    doctest.py extract OUTDIR DOC.md...
    doctest.py commands BMPROF DOC.md...

extract writes each marked block to OUTDIR/NAME and OUTDIR/manifest.tsv, one line per
block, its fields separated by tabs, "-" for an empty one: NAME, arches (comma-separated),
kind (lib or prog), after, run, expect, DOC:LINE.
A marker that is malformed or not followed by a ```c block, a duplicate name or an after=
naming no block is an error: one line on stderr, exit status 1.

commands checks the shell examples: every line of a code block or an indented block that
runs `bmprof VERB ...` (or `$ bmprof`, `build/bin/bmprof`) must name a command BMPROF
knows, and every long option on it (up to a ` -- `) must appear in `BMPROF VERB --help`.
It prints one line per problem and exits 1 if there was one.
"""
import os
import re
import shlex
import sys

MARK = re.compile(r"^<!--\s*doctest\s+(.*?)\s*-->\s*$")
ARCHES = ("x86_64", "aarch64")


class DocError(Exception):
    pass


def parse_marker(text, where):
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise DocError(f"{where}: doctest marker: {e}")
    if not words:
        raise DocError(f"{where}: doctest marker names no architecture")
    arches = words[0].split(",")
    for a in arches:
        if a not in ARCHES:
            raise DocError(f"{where}: doctest marker: unknown architecture '{a}' "
                           f"(known: {', '.join(ARCHES)})")
    b = {"arches": arches, "file": None, "after": "", "prog": False, "run": "", "expect": ""}
    for w in words[1:]:
        if w == "prog":
            b["prog"] = True
            continue
        k, eq, v = w.partition("=")
        if not eq or k not in ("file", "after", "run", "expect"):
            raise DocError(f"{where}: doctest marker: unknown attribute '{w}'")
        b[k] = v
    if (b["run"] or b["expect"]) and not b["prog"]:
        raise DocError(f"{where}: doctest marker: run= and expect= need prog")
    return b


def blocks_of(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        where = f"{path}:{i + 1}"
        b = parse_marker(m.group(1), where)
        j = i + 1
        if j >= len(lines) or lines[j].strip() != "```c":
            raise DocError(f"{where}: doctest marker not followed by a ```c block")
        k = j + 1
        while k < len(lines) and lines[k].strip() != "```":
            k += 1
        if k >= len(lines):
            raise DocError(f"{where}: the ```c block never ends")
        b["code"] = "\n".join(lines[j + 1:k]) + "\n"
        b["where"] = where
        b["line"] = j + 2
        if not b["file"]:
            b["file"] = f"{os.path.splitext(os.path.basename(path))[0]}-{j + 2}.c"
        yield b
        i = k + 1


def extract(out, docs):
    found = {}
    for d in docs:
        for b in blocks_of(d):
            if b["file"] in found:
                raise DocError(f"{b['where']}: file={b['file']} is also "
                               f"{found[b['file']]['where']}")
            found[b["file"]] = b
    for b in found.values():
        if b["after"] and b["after"] not in found:
            raise DocError(f"{b['where']}: after={b['after']}: no block of that name")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8") as mf:
        for name, b in found.items():
            parts = [found[b["after"]], b] if b["after"] else [b]
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                for p in parts:
                    # #line keeps compiler messages pointing into the doc
                    f.write(f'#line {p["line"]} "{p["where"].rsplit(":", 1)[0]}"\n')
                    f.write(p["code"])
            fields = [name, ",".join(b["arches"]), "prog" if b["prog"] else "lib",
                      b["after"], b["run"], b["expect"], b["where"]]
            mf.write("\t".join(f or "-" for f in fields) + "\n")
    return len(found)


COMMAND = re.compile(r"^\s*(?:\$ )?(?:\S*/)?bmprof ([a-z]+)\b(.*)$")
LONG_OPT = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def commands(bmprof, docs):
    """The shell examples' bmprof command lines against the commands' --help."""
    import subprocess
    helps, bad, seen = {}, 0, 0

    def help_of(verb):
        if verb not in helps:
            args = [bmprof, "help", verb] if verb != "help" else [bmprof, "--help"]
            p = subprocess.run(args, capture_output=True, text=True)
            helps[verb] = (p.returncode, p.stdout + p.stderr)
        return helps[verb]

    for doc in docs:
        fenced = False
        for n, line in enumerate(open(doc, encoding="utf-8"), 1):
            s = line.rstrip("\n")
            if s.strip().startswith("```"):
                fenced = not fenced
                continue
            m = COMMAND.match(s) if fenced or s.startswith("    ") else None
            if not m:
                continue
            verb, rest = m.group(1), m.group(2).split(" -- ")[0].split(" # ")[0]
            if verb == "help":      # bmprof help COMMAND
                continue
            seen += 1
            rc, text = help_of(verb)
            if rc != 0:
                print(f"{doc}:{n}: bmprof has no command '{verb}': {s.strip()}")
                bad += 1
                continue
            for opt in LONG_OPT.findall(rest):
                if not re.search(re.escape(opt) + r"(?![a-z0-9-])", text):
                    print(f"{doc}:{n}: bmprof {verb} has no option {opt}: {s.strip()}")
                    bad += 1
    print(f"doctest: {seen} bmprof command lines, {bad} problems")
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "commands":
        return commands(argv[1], argv[2:])
    if len(argv) < 3 or argv[0] != "extract":
        print("usage: doctest.py extract OUTDIR DOC.md... | commands BMPROF DOC.md...",
              file=sys.stderr)
        return 2
    try:
        n = extract(argv[1], argv[2:])
    except (DocError, OSError) as e:
        print(f"doctest: {e}", file=sys.stderr)
        return 1
    print(f"doctest: {n} marked blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
