# SPDX-License-Identifier: BSD-2-Clause
"""Tables for bench/transport.sh from its runs' console text and reports.

  transport.py stream --serial A.out... --shm B.out...
  transport.py drain  --serial A.out... --shm B.out...

stream: each console has bench/progs/stream.c's line "stream: sent=N refused=N ms=N"
(1012-byte frames for ms of guest time), and CONSOLE.json beside it the run's JSON report,
whose frame count must match; the table has the median bytes per second over the runs of
each transport.
drain: each console has bench/progs/drainrate.c's phase lines; per transport, the median
over every round of every run of the TSC ticks per sample of each phase kind.
"""
import argparse
import json
import re
import statistics
import sys

FRAME_BYTES = 1012   # 1000-byte payload, header and CRC
STREAM = re.compile(r"stream: sent=(\d+) refused=(\d+) ms=(\d+)")
DHEAD = re.compile(r"drainrate: hz=(\d+) samples=(\d+) rounds=(\d+) table=(\d+) ovf=(\d+)")
DPHASE = re.compile(r"drainrate: phase=(\w+) round=\d+ samples=(\d+) ticks=(\d+) bytes=(\d+) "
                    r"lost=(\d+)")


def read(path, pat, what):
    text = open(path, errors="replace").read()
    found = pat.findall(text)
    if not found:
        sys.exit(f"transport bench: {path}: no '{what}' line: the image did not run")
    return text, found


def stream(a):
    rows = {}
    for name, paths in (("serial", a.serial), ("shm", a.shm)):
        bps, refused = [], 0
        for p in paths:
            sent, ref, ms = map(int, read(p, STREAM, "stream:")[1][0])
            got = json.load(open(p + ".json"))["meta"]["stream"]["frames_unknown"]
            if got != sent:
                sys.exit(f"transport bench: {name}: the guest sent {sent} frames, the host "
                         f"received {got}: frames lost in transit")
            bps.append(sent * FRAME_BYTES * 1000 / ms)
            refused += ref
        rows[name] = (statistics.median(bps), min(bps), max(bps), refused)
    s, r = rows["serial"], rows["shm"]
    runs = len(a.serial)
    print(f"  1. raw stream: 1012-byte frames back to back for 1 s of guest time; MB/s "
          f"delivered, median of {runs} runs [lowest .. highest]")
    for name, (med, lo, hi, ref) in rows.items():
        print(f"     {name:8s} {med / 1e6:9.2f} MB/s  [{lo / 1e6:.2f} .. {hi / 1e6:.2f}]  "
              f"frames refused {ref}")
    print(f"     shm / serial {r[0] / s[0]:9.1f}x")
    if r[3]:
        print("     (shm refused frames: the ring was full, so the host's reader, not the "
              "guest, set shm's rate)")
    else:
        print("     (no frame refused: the ring never filled, so the guest's copying under "
              "TCG set shm's rate, not")
        print("      the host's reader; serial never refuses: the guest waits for each "
              "byte's emulated UART write)")


def drain(a):
    rows, hz, nbytes = {}, 0, {}
    for name, paths in (("serial", a.serial), ("shm", a.shm)):
        per = {"null": [], "transport": []}
        lost, samples = 0, 0
        for p in paths:
            text, ph = read(p, DPHASE, "drainrate: phase=")
            hz = int(DHEAD.search(text).group(1))
            for kind, n, ticks, b, l in ph:
                per[kind].append(int(ticks) / int(n))
                nbytes.setdefault(kind, []).append(int(b) / int(n))
                if kind == "transport":
                    lost += int(l)
                    samples += int(n)
        rows[name] = {k: statistics.median(v) for k, v in per.items()}
        rows[name]["lost"], rows[name]["samples"] = lost, samples
        rows[name]["n"] = len(per["transport"])
    us = lambda t: t * 1e6 / hz
    bps = statistics.median(nbytes["null"])
    print(f"  2. sample path, every sample a new pc ({bps:.2f} bytes per sample on the "
          f"wire), samples recorded by direct calls")
    print("     (no interrupt), each full overflow buffer drained at once; null: drained "
          "into a sink that only counts")
    print("     bytes (record, evict, sort, encode, CRC); transport: the same through the "
          "transport. Median microseconds")
    print("     per sample over every round:")
    print(f"     {'':10s} {'null':>9s} {'transport':>10s} {'transport adds':>15s} "
          f"{'samples/s carried':>18s} {'lost':>6s}")
    for name, r in rows.items():
        print(f"     {name:10s} {us(r['null']):9.3f} {us(r['transport']):10.3f} "
              f"{us(r['transport'] - r['null']):15.3f} {hz / r['transport']:18,.0f} "
              f"{r['lost']:6d}  ({r['n']} rounds)")
    s, m = rows["serial"], rows["shm"]
    print(f"     samples/s carried, shm / serial: {s['transport'] / m['transport']:.1f}x")
    print("     (no interrupt is taken here, so the emulator's interrupt cost is not in these "
          "figures: they are the most")
    print("      each transport carries when every sample misses; timer sampling under TCG "
          "is capped by the interrupt")
    print("      cost first: make bench-irq)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("stream", "drain"))
    ap.add_argument("--serial", nargs="+", required=True)
    ap.add_argument("--shm", nargs="+", required=True)
    a = ap.parse_args()
    (stream if a.what == "stream" else drain)(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
