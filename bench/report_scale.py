#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""How bmprof report and export scale with the number of distinct sampled pcs.

  report_scale.py --bmprof BMPROF --elf ELF --gen PROFILE_GEN --out DIR [--pcs N,N,...]
                  [--runs 3]

Writes a profile per size with profile_gen (the first size is the baseline), then times
`report -n 3`, `export --format folded` and `export --format pprof` on each: wall time, CPU
time and peak RSS (from wait4), the median of --runs runs. Prints, per size, the cost per
distinct (pc, event, cpu) entry against the baseline's (time) and the memory each entry
beyond the baseline's adds; then whether the goals hold: the largest profile under 10 s and
1 GB for every command, and under 100 bytes per entry.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    """(wall s, cpu s, peak RSS bytes) of one run; exits if it fails."""
    with open(os.devnull, "wb") as null:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=null)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    if status:
        sys.exit(f"report bench: {' '.join(cmd)} failed (status {status})")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024


def measure(cmd, runs):
    r = [run(cmd) for _ in range(runs)]
    return (statistics.median(x[0] for x in r), statistics.median(x[1] for x in r),
            max(x[2] for x in r))


def build_id(elf):
    out = subprocess.run(["readelf", "-n", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "Build ID:" in line:
            return line.split()[-1]
    return ""


def text_range(elf):
    out = subprocess.run(["readelf", "-SW", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == ".text":
            lo, size = int(f[3], 16), int(f[5], 16)
            return f"{lo:x}:{lo + size:x}"
    sys.exit(f"report bench: no .text in {elf}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bmprof", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pcs", default="200000,2000000,20000000")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    sizes = [int(x) for x in a.pcs.split(",")]
    bid, text = build_id(a.elf), text_range(a.elf)
    profiles = []
    for n in sizes:
        path = os.path.join(a.out, f"p{n}.data")
        if not os.path.exists(path):
            subprocess.run([a.gen, "--pcs", str(n), "--elf", os.path.abspath(a.elf),
                            "--build-id", bid, "--text", text, path], check=True)
        profiles.append((n, path))
    cmds = [("report -n 3", lambda p: [a.bmprof, "report", "-i", p, "-n", "3"]),
            ("export folded", lambda p: [a.bmprof, "export", "--format", "folded", "-i", p,
                                         "-o", os.path.join(a.out, "out.folded")]),
            ("export pprof", lambda p: [a.bmprof, "export", "--format", "pprof", "-i", p,
                                        "-o", os.path.join(a.out, "out.pb.gz")])]
    print(f"report bench: profiles of N distinct (pc, event, cpu) entries, most outside "
          f"the image {a.elf}; median of {a.runs} runs ({os.cpu_count()} CPUs)")
    print(f"{'command':14s} {'entries':>10s} {'wall s':>8s} {'cpu s':>8s} {'peak MB':>8s} "
          f"{'cpu/entry':>10s} {'bytes/entry':>12s}")
    ok = True
    for name, make in cmds:
        base = None
        for n, path in profiles:
            runs = a.runs if n <= 2000000 else max(1, a.runs // 3)
            wall, cpu, rss = measure(make(path), runs)
            if base is None:
                base = (n, cpu, rss)
                ratio, per = "1.00x", f"{rss / n:.0f} (all)"
            else:
                ratio = f"{(cpu / n) / (base[1] / base[0]):.2f}x"
                per = f"{(rss - base[2]) / (n - base[0]):.0f}"
            print(f"{name:14s} {n:10d} {wall:8.2f} {cpu:8.2f} {rss / 1e6:8.0f} {ratio:>10s} "
                  f"{per:>12s}")
            if n == sizes[-1]:
                ok &= wall < 10 and rss < 1e9 and (rss - base[2]) / max(1, n - base[0]) < 100
    print("cpu/entry: CPU time per entry against the smallest profile's; bytes/entry: peak "
          "RSS added per entry beyond the smallest profile's")
    print(f"goal ({sizes[-1]:,} entries: every command under 10 s and 1 GB, under 100 bytes "
          f"per entry): {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
