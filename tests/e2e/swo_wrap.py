#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Wrap a raw bmprof stream into an SWO capture of ITM packets (Armv7-M ARM, Appendix D4),
as a debug probe would record it from a board sending the stream on one stimulus port.

    swo_wrap.py RAW OUT --port N [--seed S] [--cut K] [--damage]

The stream goes out as port N's instrumentation packets of 4 bytes (the target's 32-bit
stimulus writes), its 1- and 2-byte tails as shorter packets; between them, at random:
other ports' packets (console text, frame-like junk), DWT hardware packets, local and
global timestamps, overflow and synchronization packets, and extension packets (ports
past 31 are reached through the stimulus port page). --cut K drops the last K bytes;
--damage puts a reserved header and a zero run that is no synchronization packet between
two packets halfway through."""
import argparse
import random

SYNC = bytes([0, 0, 0, 0, 0, 0x80])


def stim(port, data):
    return bytes([(port & 31) << 3 | {1: 1, 2: 2, 4: 3}[len(data)]]) + data


def page(port):
    return bytes([0x08 | (port // 32) << 4])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("out")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cut", type=int, default=0)
    ap.add_argument("--damage", action="store_true")
    a = ap.parse_args()
    raw = open(a.raw, "rb").read()
    if a.cut:
        # whole 4-byte packets only, so that cutting K < 5 bytes always ends inside one
        # (the capture's length follows the run's, which varies)
        raw = raw[:len(raw) - len(raw) % 4]
    r = random.Random(a.seed)
    other = (a.port + 1) % 32
    out = bytearray(SYNC + page(a.port))
    i = 0
    while i < len(raw):
        x = r.randrange(24)
        if x == 0:
            out += page(other) + stim(other, b"ok\r\n") + page(a.port)
        elif x == 1:
            out += page(other) + stim(other, b"\xb5BMP") + page(a.port)
        elif x == 2:
            out += b"\x70"
        elif x == 3:
            out += bytes([0xC0, 0x80 | r.randrange(128), r.randrange(128)])
        elif x == 4:
            out += bytes([0x20])
        elif x == 5:
            out += bytes([0x94, 0x80 | r.randrange(128), r.randrange(128)])
        elif x == 6:
            out += bytes([0xB4, 0x80, 0x80, 0x80, 0x01])
        elif x == 7:
            out += bytes([0x0E, 0x12, 0x34]) + bytes([0x47, 1, 2, 3, 4])
        elif x == 8:
            out += SYNC + page(a.port)
        if a.damage and i // 4 == len(raw) // 8:
            out += b"\x80\x00\x00"
        n = 4 if len(raw) - i >= 4 else 2 if len(raw) - i >= 2 else 1
        out += stim(a.port, raw[i:i + n])
        i += n
    if a.cut:
        out = out[:-a.cut]
    open(a.out, "wb").write(out)


if __name__ == "__main__":
    main()
