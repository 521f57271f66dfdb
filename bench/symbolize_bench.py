#!/usr/bin/env python3
"""Time bmprof's symbolizer against binutils addr2line (and llvm-symbolizer when installed)
on the same address files, in one run, and check that bmprof prints what addr2line prints.

  symbolize_bench.py --elf ELF --addrs DIR --driver PATH --out DIR [--runs 3]

DIR holds mkaddrs.py's sets: a.txt (profiler-like Zipf draws), b.txt (distinct uniform),
agree.txt (a small distinct sample). Each tool runs --runs times per set; the median wall
time is reported with the peak RSS of that tool (from wait4). Agreement is checked on the
whole output of every set: every frame of every address.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def run_once(cmd, stdin_path, out_path):
    if os.path.exists(out_path):
        os.unlink(out_path)
    with open(stdin_path, "rb") as fin, open(out_path, "wb") as fout:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=fin, stdout=fout)
        _, status, ru = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"symbolize bench: {' '.join(cmd)} failed (status {status})")
    return elapsed, ru.ru_maxrss * 1024


def timed(cmd, stdin_path, out_path, runs):
    times, rss = [], 0
    for _ in range(runs):
        t, r = run_once(cmd, stdin_path, out_path)
        times.append(t)
        rss = max(rss, r)
    return statistics.median(times), rss


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def distinct(path):
    with open(path) as f:
        return len(set(line.strip() for line in f if line.strip()))


def same(path_a, path_b):
    """(identical, number of differing lines)"""
    with open(path_a, "rb") as fa, open(path_b, "rb") as fb:
        a, b = fa.read(), fb.read()
    if a == b:
        return True, 0
    la, lb = a.split(b"\n"), b.split(b"\n")
    diff = sum(1 for x, y in zip(la, lb) if x != y) + abs(len(la) - len(lb))
    return False, diff


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elf", required=True)
    ap.add_argument("--addrs", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    tools = [("addr2line", lambda elf, _addrs: ["addr2line", "-f", "-i", "-e", elf])]
    llvm = shutil.which("llvm-symbolizer")
    if llvm:
        tools.append(("llvm-symbolizer", lambda elf, _addrs: [
            llvm, "--obj=" + elf, "--output-style=GNU", "--functions=linkage", "--inlines"]))
    else:
        print("symbolize bench: llvm-symbolizer not installed, comparing with addr2line only")
    tools.append(("bmprof", lambda elf, addrs: [a.driver, elf, addrs, "-"]))

    size_mb = os.path.getsize(a.elf) / 1e6
    print(f"symbolize bench: {a.elf} ({size_mb:.0f} MB), median of {a.runs} runs, "
          "wall time and peak RSS per tool")
    sets = [("a", "profiler-like Zipf draws"), ("b", "distinct, uniform"),
            ("agree", "distinct sample")]
    results = {}
    for name, what in sets:
        path = os.path.join(a.addrs, name + ".txt")
        n = count_lines(path)
        print(f"set {name}: {n:,} addresses ({distinct(path):,} distinct, {what})")
        for tool, make_cmd in tools:
            out = os.path.join(a.out, f"{name}.{tool}.txt")
            t, rss = timed(make_cmd(a.elf, path), path, out, a.runs)
            results[(name, tool)] = (t, rss, out)
            print(f"  {tool:16s} {t:8.3f} s  {n / t / 1e3:9.1f} k addr/s  {rss / 1e6:6.0f} MB")
        ours = results[(name, "bmprof")][0]
        for tool, _ in tools[:-1]:
            print(f"  bmprof vs {tool}: {results[(name, tool)][0] / ours:.1f}x faster")

    print("agreement with addr2line, every frame of every address:")
    ok_all = True
    for name, _ in sets:
        ref = results[(name, "addr2line")][2]
        for tool, _ in tools[1:]:
            ok, diff = same(ref, results[(name, tool)][2])
            if tool == "bmprof":
                ok_all &= ok
            verdict = "identical output" if ok else f"{diff} lines differ"
            print(f"  set {name}: {tool}: {verdict}")
    speedup = results[("a", "addr2line")][0] / results[("a", "bmprof")][0]
    goal = "met" if speedup >= 10 and ok_all else "NOT met"
    print(f"target (set a at least 10x faster than addr2line, agreeing on every frame): "
          f"{goal} ({speedup:.1f}x)")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
