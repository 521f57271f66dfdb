#!/usr/bin/env python3
"""Writes the synthetic seeds of tests/fuzz/corpus (the streams captured from QEMU and the
ELFs from tests/fuzz/mkseeds-elf.sh sit beside them):

  fuzz_reader/syn-*    a stream with every frame type the target sends (and a LOG frame
                       whose text_len is too long), text around and
                       between frames, a bad-CRC frame, a truncated tail, a maximum-size
                       frame; each behind the harness's prefix (chunk sizes, flags)
  fuzz_profile/syn-*   profile files: a complete one with every frame type, one cut short,
                       one with a damaged frame, one with long meta values; each behind the
                       harness's flags byte (1: fix CRCs, except in the damaged one)

Run from the repository root: python3 tests/fuzz/mkseeds.py
"""
import os
import struct
import zlib

MAGIC = b"\xb5BMP"
HELLO, EVENT, SAMPLES, TOTALS, END, COUNTS, LOG = 1, 2, 3, 4, 5, 6, 7
HOST_META, HOST_STREAM = 0x40, 0x41


def frame(t, payload, flags=0):
    hdr = struct.pack("<BBH", t, flags, len(payload))
    return MAGIC + hdr + payload + struct.pack("<I", zlib.crc32(hdr + payload))


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zigzag(v):
    return ((v << 1) ^ (v >> 63)) & (2**64 - 1)


def hello(arch=1, source=1, ncpus=2, build_id=bytes(range(20))):
    p = struct.pack("<HBBHHQQ", 1, arch, source, ncpus, 0, 1_000_000_000, 0)
    p += b"GenuineIntel".ljust(16, b"\0")
    p += struct.pack("<IIII", 6, 0x55, 4, 0x50654)
    p += struct.pack("<B3x", len(build_id)) + build_id
    return p


def event(eid, source, enc, period, jitter, name, status=None):
    p = struct.pack("<HBBQQQ", eid, source, 1, enc, period, jitter)
    p += bytes([len(name)]) + name
    if status is not None:
        p += bytes(status)
    return p


def samples(cpu, seq, entries):
    p = struct.pack("<HHI", cpu, len(entries), seq)
    prev = 0
    for ev, pc, count in entries:
        p += varint(ev) + varint(zigzag(pc - prev)) + varint(count)
        prev = pc
    return p


def totals(cpu, fields):
    return struct.pack("<HH", cpu, len(fields)) + b"".join(struct.pack("<Q", f) for f in fields)


def end(code=0, reason=0, pc=0, vector=0, addr=0):
    return struct.pack("<iB3xQII", code, reason, pc, vector, 0) + struct.pack("<Q", addr)


def counts(cpu, recs):
    p = struct.pack("<HH", cpu, len(recs))
    for ev, flags, value, enabled, running in recs:
        p += struct.pack("<HHIQQQ", ev, flags, 0, value, enabled, running)
    return p


def meta(kv):
    p = b""
    for k, v in kv:
        p += bytes([len(k)]) + k + struct.pack("<H", len(v)) + v
    return p


def log(level, text, claim=None):
    return struct.pack("<BBH", level, 0, len(text) if claim is None else claim) + text


def stream_stats(ok, bad=0, unknown=0, skipped=0, truncated=0):
    return struct.pack("<5Q", ok, bad, unknown, skipped, truncated)


def target_frames():
    base = 0x101000
    return [
        frame(HELLO, hello()),
        frame(EVENT, event(0, 1, 0, 250000, 15000, b"timer")),
        frame(EVENT, event(1, 2, 0x3C, 100000, 6000, b"cycles", [0, 0, 1, 0, 0xFF, 1])),
        frame(SAMPLES, samples(0, 0, [(0, base + 0x10, 5), (0, base + 0x4, 1),
                                      (1, base + 0x400, 300), (0, 2**64 - 16, 2)])),
        frame(SAMPLES, samples(1, 0, [(0, base + 0x20, 7)])),
        frame(SAMPLES, samples(0, 2, [(1, base + 0x10, 1)])),
        frame(0x33, b"a frame type from the future"),
        frame(COUNTS, counts(0, [(1, 0, 123456, 1000, 600), (0, 1, 2**40, 1000, 1000)])),
        frame(TOTALS, totals(0, [309, 300, 9, 2, 309, 0, 0, 2, 77])),
        frame(TOTALS, totals(1, [7, 6, 1, 0, 7, 0, 0, 1])),
        frame(END, end(3, 1, base + 0x42, 14, 0xDEAD000)),
        frame(LOG, log(2, b"config: mode=stat: want sample or count")),
        frame(LOG, log(1, b"\x1b[2J\nbad \xff", claim=40)),
    ]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    root = "tests/fuzz/corpus"
    fr = target_frames()
    text = [b"boot: hello\r\n", b"", b"a \xb5 and \xb5B in text\n", b"", b"tick\n", b"",
            b"\xb5BM", b"", b"", b"", b"bye\n", b"", b"late\n"]
    s = b"".join(t + f for t, f in zip(text, fr))
    bad = bytearray(fr[3])
    bad[12] ^= 0x40
    s_bad = fr[0] + bytes(bad) + fr[4] + b"junk" + fr[10]
    big = frame(0x50, bytes((i * 7) & 0xFF for i in range(65535)))

    # reader seeds: [k][k chunk sizes][stream]
    write(f"{root}/fuzz_reader/syn-all", b"\0" + s)
    write(f"{root}/fuzz_reader/syn-all-chunked", bytes([3, 1, 7, 200]) + s)
    write(f"{root}/fuzz_reader/syn-all-fixcrc", bytes([0x12, 9, 130]) + s)
    write(f"{root}/fuzz_reader/syn-badcrc", bytes([2, 5, 129]) + s_bad)
    write(f"{root}/fuzz_reader/syn-truncated", b"\0" + s[: len(s) - 9])
    write(f"{root}/fuzz_reader/syn-maxframe", bytes([1, 255]) + b"x\n" + big + fr[10])

    # profile seeds
    head = frame(HOST_META, meta([(b"format", b"bmprof-profile-1")]))
    head += frame(HOST_META, meta([(b"elf", b"/tmp/image.elf"), (b"accel", b"tcg"),
                                   (b"command", b"bmprof qemu image.elf")]))
    body = b"".join(fr)
    tail = frame(HOST_STREAM, stream_stats(len(fr), 1, 1, 17, 0))
    write(f"{root}/fuzz_profile/syn-full", b"\1" + head + body + tail)
    write(f"{root}/fuzz_profile/syn-cut", b"\1" + head + body[: len(body) - 20])
    dmg = bytearray(head + body + tail)
    dmg[len(head) + 40] ^= 1
    write(f"{root}/fuzz_profile/syn-damaged", b"\0" + bytes(dmg))
    longv = frame(HOST_META, meta([(b"k" * 255, b"v" * 4000), (b"elf", b"")]))
    write(f"{root}/fuzz_profile/syn-meta", b"\1" + head + longv + fr[0] + tail)
    write(f"{root}/fuzz_profile/syn-raw-stream", b"\1" + body)


if __name__ == "__main__":
    main()
