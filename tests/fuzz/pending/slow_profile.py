#!/usr/bin/env python3
"""Inputs for tests/fuzz/fuzz_profile that load in time quadratic in their size
(analysis/profile.c looks keys and COUNTS records up by linear search):

  meta-keys.data    a profile whose HOST_META frames hold 65,000 distinct keys (325 KB)
  counts-recs.data  a profile whose COUNTS frames hold 65,504 distinct (cpu, event)
                    records (2 MB)

Each starts with the harness's flags byte. When profile.c indexes them, move the files
into tests/fuzz/regress/fuzz_profile/ (make fuzz-check then keeps them fast).

Run from the repository root: python3 tests/fuzz/pending/slow_profile.py OUTDIR
"""
import os
import struct
import sys
import zlib


def frame(t, p):
    h = struct.pack("<BBH", t, 0, len(p))
    return b"\xb5BMP" + h + p + struct.pack("<I", zlib.crc32(h + p))


def meta(kv):
    return b"".join(bytes([len(k)]) + k + struct.pack("<H", len(v)) + v for k, v in kv)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    head = frame(0x40, meta([(b"format", b"bmprof-profile-1")]))
    tail = frame(0x41, struct.pack("<5Q", 0, 0, 0, 0, 0))
    keys = [bytes([a, b]) for a in range(1, 256) for b in range(1, 256)]
    body = b"".join(frame(0x40, meta([(k, b"") for k in keys[i:i + 13000]]))
                    for i in range(0, 65000, 13000))
    with open(os.path.join(out, "meta-keys.data"), "wb") as f:
        f.write(b"\0" + head + body + tail)
    body = b""
    for n in range(32):
        recs = b"".join(struct.pack("<HHIQQQ", (n // 256) * 2047 + i, 0, 0, 1, 1, 1)
                        for i in range(2047))
        body += frame(0x06, struct.pack("<HH", n % 256, 2047) + recs)
    with open(os.path.join(out, "counts-recs.data"), "wb") as f:
        f.write(b"\0" + head + body + tail)


if __name__ == "__main__":
    main()
