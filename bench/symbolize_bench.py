#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Time bmprof's symbolizer against binutils addr2line (and llvm-symbolizer when installed)
on the same address files, in one run, under the same conditions, and check that bmprof
prints what addr2line prints.

  symbolize_bench.py --elf ELF --addrs DIR --driver PATH --out DIR [--runs 3]

DIR holds mkaddrs.py's sets: a.txt (profiler-like Zipf draws), b.txt (distinct uniform),
agree.txt (a small distinct sample); a-distinct.txt (a's distinct addresses, in order of
first appearance) is made here. Each tool runs --runs times per set and condition, the
tools taking turns; the median wall time is reported with the peak RSS (from wait4).
Conditions:

  shipped      each tool as it comes: addr2line and llvm-symbolizer write and flush every
               address's text on its own; bmprof's driver formats each distinct address
               once and writes 1 MiB at a time; output to a file; both cores
  /dev/null    the same, output to /dev/null (set a only)
  1 core       the same, output to a file, every tool pinned to one core (taskset -c 0):
               bmprof decodes DWARF, resolves and formats in threads, the peers in one
  1 core, -w   bmprof's driver writes as the peers do: every address formatted anew,
               written and flushed on its own (the peers as in "1 core")
The summary for set a adds the peers given only a's distinct addresses (a-distinct), and
both given only those, on one core, with -w: every advantage of the driver's taken away.

Agreement is checked on the whole output of every set and condition: every frame of every
address.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time


def run_once(cmd, stdin_path, out_path):
    if out_path != os.devnull and os.path.exists(out_path):
        os.unlink(out_path)
    with open(stdin_path, "rb") as fin, open(out_path, "wb") as fout:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=fin, stdout=fout)
        _, status, ru = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"symbolize bench: {' '.join(cmd)} failed (status {status})")
    return elapsed, ru.ru_maxrss * 1024


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def write_distinct(src, dst):
    seen, out = set(), []
    with open(src) as f:
        for line in f:
            a = line.strip()
            if a and a not in seen:
                seen.add(a)
                out.append(a + "\n")
    with open(dst, "w") as f:
        f.writelines(out)
    return len(out)


DISCR = re.compile(rb" \(discriminator \d+\)$")


def same(path_a, path_b):
    """(identical, number of differing lines, how many of those differ only in a
    discriminator)"""
    with open(path_a, "rb") as fa, open(path_b, "rb") as fb:
        a, b = fa.read(), fb.read()
    if a == b:
        return True, 0, 0
    la, lb = a.split(b"\n"), b.split(b"\n")
    pairs = [(x, y) for x, y in zip(la, lb) if x != y]
    discr = sum(1 for x, y in pairs if DISCR.sub(b"", x) == DISCR.sub(b"", y))
    return False, len(pairs) + abs(len(la) - len(lb)), discr


class Bench:
    def __init__(self, a):
        self.a = a
        self.taskset = shutil.which("taskset")
        self.tools = [("addr2line", lambda: ["addr2line", "-f", "-i", "-e", a.elf])]
        llvm = shutil.which("llvm-symbolizer")
        if llvm:
            self.tools.append(("llvm-symbolizer", lambda: [
                llvm, "--obj=" + a.elf, "--output-style=GNU", "--functions=linkage",
                "--inlines"]))
        else:
            print("symbolize bench: llvm-symbolizer not installed (make bench-deps installs "
                  "it), comparing with addr2line only")
        self.peers = [t for t, _ in self.tools]
        self.results = {}   # (set, condition, tool) -> (seconds, rss, output path)

    def cmd(self, tool, addrs, condition):
        if tool == "bmprof":
            c = [self.a.driver] + (["-w"] if condition.endswith("-w") else []) + \
                [self.a.elf, addrs, "-"]
        else:
            c = dict(self.tools)[tool]()
        if condition.startswith("1 core") and self.taskset:
            c = [self.taskset, "-c", "0"] + c
        return c

    def measure(self, name, path, condition, tools):
        """Each tool --runs times, the tools taking turns, so that a slow spell of the
        host's falls on all of them."""
        times, rss, outs = {t: [] for t in tools}, dict.fromkeys(tools, 0), {}
        for _ in range(self.a.runs):
            for tool in tools:
                outs[tool] = os.devnull if condition == "/dev/null" else os.path.join(
                    self.a.out,
                    f"{name}.{condition.replace(' ', '').replace('/', '')}.{tool}.txt")
                t, r = run_once(self.cmd(tool, path, condition), path, outs[tool])
                times[tool].append(t)
                rss[tool] = max(rss[tool], r)
        for tool in tools:
            self.results[(name, condition, tool)] = (statistics.median(times[tool]),
                                                     rss[tool], outs[tool])

    def table(self, name, n, conditions):
        cols = self.peers + ["bmprof"]
        head = "".join(f"{t:>17s}" for t in cols) + "".join(
            f"{'vs ' + p:>20s}" for p in self.peers)
        print(f"  {'seconds (k addr/s)':18s}{head}")
        for cond in conditions:
            row, ours = "", self.results[(name, cond, "bmprof")][0]
            for t in cols:
                key = (name, cond if (name, cond, t) in self.results else "1 core", t)
                s = self.results[key][0]
                row += f"{s:8.3f} ({n / s / 1e3:6.0f})"
            for p in self.peers:
                key = (name, cond if (name, cond, p) in self.results else "1 core", p)
                row += f"{self.results[key][0] / ours:19.1f}x"
            print(f"  {cond:18s}{row}")
        rss = ", ".join(f"{t} {self.results[(name, 'shipped', t)][1] / 1e6:.0f} MB" for t in cols)
        print(f"  peak RSS (shipped): {rss}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elf", required=True)
    ap.add_argument("--addrs", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    b = Bench(a)
    all_tools = b.peers + ["bmprof"]
    a_distinct = os.path.join(a.out, "a-distinct.txt")
    nd = write_distinct(os.path.join(a.addrs, "a.txt"), a_distinct)

    size_mb = os.path.getsize(a.elf) / 1e6
    print(f"symbolize bench: {a.elf} ({size_mb:.0f} MB); wall seconds, median of {a.runs} runs "
          f"(k addresses/s), and how many times")
    print("faster bmprof is. Conditions: shipped = each tool as it comes (the peers write and "
          "flush every address;")
    print("bmprof's driver formats each distinct address once, writes 1 MiB at a time), output "
          "to a file, both cores;")
    print("/dev/null = the same into /dev/null; 1 core = pinned to one core (taskset -c 0; "
          "bmprof decodes, resolves")
    print("and formats in threads); 1 core, -w = bmprof writing as the peers do, every address "
          "formatted, written and flushed alone.")
    if not b.taskset:
        print("  (taskset not found: the 1 core rows run unpinned)")
    sets = [("a", os.path.join(a.addrs, "a.txt"), "profiler-like Zipf draws",
             ["shipped", "/dev/null", "1 core", "1 core, -w"]),
            ("a-distinct", a_distinct, "set a's distinct addresses",
             ["shipped", "1 core", "1 core, -w"]),
            ("b", os.path.join(a.addrs, "b.txt"), "distinct, uniform",
             ["shipped", "1 core", "1 core, -w"]),
            ("agree", os.path.join(a.addrs, "agree.txt"), "distinct sample", ["shipped"])]
    for name, path, what, conds in sets:
        n = count_lines(path)
        print(f"\nset {name}: {n:,} addresses ({what})")
        for cond in conds:
            b.measure(name, path, cond, ["bmprof"] if cond.endswith("-w") else all_tools)
        b.table(name, n, conds)

    print("\nagreement with addr2line, every frame of every address:")
    ok_all = True
    for name, _, _, conds in sets:
        ref = b.results[(name, "shipped", "addr2line")][2]
        for cond in conds:
            if cond == "/dev/null":
                continue
            for tool in all_tools[1:] if cond == "shipped" else ["bmprof"]:
                if (name, cond, tool) not in b.results:
                    continue
                ok, diff, discr = same(ref, b.results[(name, cond, tool)][2])
                if tool == "bmprof":
                    ok_all &= ok
                verdict = "identical output" if ok else f"{diff} lines differ" + (
                    " (only in the discriminator addr2line repeats on outer frames)"
                    if discr == diff else f" ({discr} of them only in the discriminator)")
                print(f"  set {name}, {cond}: {tool}: {verdict}")

    r = b.results
    t = lambda s, c, tool: r[(s, c, tool)][0]
    print("\nset a (1M profiler-like addresses), bmprof against each peer:")
    for p in b.peers:
        print(f"  vs {p}:")
        rows = [("shipped", t("a", "shipped", p), t("a", "shipped", "bmprof")),
                ("output to /dev/null", t("a", "/dev/null", p), t("a", "/dev/null", "bmprof")),
                ("one core", t("a", "1 core", p), t("a", "1 core", "bmprof")),
                ("one core, bmprof -w (the peers' output path)", t("a", "1 core", p),
                 t("a", "1 core, -w", "bmprof")),
                (f"{p} given only the {nd:,} distinct addresses, bmprof all (shipped)",
                 t("a-distinct", "shipped", p), t("a", "shipped", "bmprof")),
                ("both given only the distinct addresses, one core, bmprof -w",
                 t("a-distinct", "1 core", p), t("a-distinct", "1 core, -w", "bmprof"))]
        for what, peer, ours in rows:
            print(f"    {what:80s} {peer / ours:5.1f}x")
    shipped = t("a", "shipped", "addr2line") / t("a", "shipped", "bmprof")
    floor = t("a-distinct", "1 core", "addr2line") / t("a-distinct", "1 core, -w", "bmprof")
    print(f"headline: set a {shipped:.1f}x faster than addr2line as shipped; {floor:.1f}x with "
          f"every advantage of the")
    print("driver's taken away (both given only the distinct addresses, one core, every "
          "address written and flushed alone)")
    if not ok_all:
        print("symbolize bench: bmprof's output differs from addr2line's (above): a "
              "symbolizer bug", file=sys.stderr)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
