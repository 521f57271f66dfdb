#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes the synthetic seeds of tests/fuzz/corpus (the streams captured from QEMU and the
ELFs from tests/fuzz/mkseeds-elf.sh sit beside them):

  fuzz_reader/syn-*    a stream with every frame type the target sends (and a LOG frame
                       whose text_len is too long), text around and
                       between frames, a bad-CRC frame, a truncated tail, a maximum-size
                       frame; each behind the harness's prefix (chunk sizes, flags)
  fuzz_profile/syn-*   profile files: a complete one with every frame type, one cut short,
                       one with a damaged frame, one with long meta values; each behind the
                       harness's flags byte (1: fix CRCs, except in the damaged one)

and, for the harnesses that run whole verbs, profiles of tests/fuzz/data/image-x86_64.elf
(its build-id, samples on its instructions; written by tests/fuzz/mkseeds-elf.sh: run that
first):

  data/run-a.data, run-b.data   two runs of the image (the profiles fuzz_db stores)
  fuzz_cli/*           profiles behind the flags byte: the two runs, two CPUs multiplexed,
                       no build-id, a Top-Down run, a cut one
  fuzz_diff/*          several runs separated by the harness's separator, each key
  fuzz_topdown/*       counts files (Skylake, Ice Lake groups, Neoverse, null and
                       unsupported counts) and Top-Down profiles
  fuzz_db/*            databases as bmprof db writes them (small pages), with NULLs, other
                       types, long strings, bad stored paths, WAL mode

Run from the repository root: python3 tests/fuzz/mkseeds.py
"""
import os
import re
import struct
import subprocess
import zlib

MAGIC = b"\xb5BMP"
HELLO, EVENT, SAMPLES, TOTALS, END, COUNTS, LOG = 1, 2, 3, 4, 5, 6, 7
PHASE = 0x0A
RAW_SAMPLES = 0x0B
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


def raw_samples(cpu, seq, arch, nregs, recs):
    """RAW_SAMPLES: recs of (event, flags, pc, data_addr or None, {register: value})."""
    p = struct.pack("<HHIBBH", cpu, len(recs), seq, arch, nregs, 0)
    for ev, flags, pc, addr, regs in recs:
        valid = sum(1 << r for r in regs)
        p += varint(ev) + bytes([flags]) + varint(valid) + varint(pc)
        if addr is not None:
            p += varint(addr)
        p += b"".join(varint(regs[r]) for r in sorted(regs))
    return p


def write_raw(root):
    """A profile with raw samples (wire version 3): x86-64 records with every register, one
    with a data address, AArch64 ones with 32 slots, a malformed record (unknown flag), a
    sequence gap, and TOTALS with the raw fields."""
    head = frame(HOST_META, meta([(b"format", b"bmprof-profile-1")]))
    x86 = {r: 0x200000 + 8 * r for r in range(16)}
    a64 = {r: 2**64 - 1 - r for r in range(32)}
    body = [
        frame(HELLO, hello()),
        frame(EVENT, event(0, 1, 0, 250000, 15000, b"timer")),
        frame(SAMPLES, samples(0, 0, [(0, 0x101010, 3)])),
        frame(RAW_SAMPLES, raw_samples(0, 0, 1, 16, [(0, 0, 0x101010, None, x86),
                                                     (0, 1, 0x101014, 0x200040, {7: 0x7000}),
                                                     (0, 0, 0x101010, None, {})])),
        frame(RAW_SAMPLES, raw_samples(1, 0, 2, 32, [(3, 0, 0x40001000, None, a64)])),
        frame(RAW_SAMPLES, raw_samples(1, 2, 2, 32, [(3, 2, 0x40001000, None, {})])),
        frame(TOTALS, totals(0, [3, 2, 1, 0, 3, 0, 0, 1, 0, 0, 0, 0, 4, 3, 1, 0, 1])),
        frame(END, end()),
    ]
    tail = frame(HOST_STREAM, stream_stats(len(body)))
    write(f"{root}/fuzz_profile/syn-rawsamples", b"\1" + head + b"".join(body) + tail)


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
        frame(PHASE, struct.pack("<HBBQ", 1, 4, 0, 123456) + b"boot"),
        frame(SAMPLES, samples(0, 3, [(0 | 1 << 16, base + 0x10, 3), (1 | 1 << 16, base + 0x20, 2)])),
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


IMAGE = "tests/fuzz/data/image-x86_64.elf"


def image_build_id():
    out = subprocess.run(["readelf", "-n", IMAGE], capture_output=True, text=True).stdout
    return bytes.fromhex(re.search(r"Build ID: ([0-9a-f]+)", out).group(1))


def image_insns():
    """Instruction addresses of the image's functions: {name: [addr, ...]}."""
    out = subprocess.run(["objdump", "-d", IMAGE], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:", line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = re.match(r"^ +([0-9a-f]+):\t", line)
        if m and cur is not None:
            cur.append(int(m.group(1), 16))
    return funcs


CYCLES, INSNS, DMISS = 0, 1, 2


FW_BASE = 0x7E8E5000


def run_profile(seed, build_id=None, cpus=1, extra_meta=(), cut=0, multiplexed=False, extra=()):
    """A run of the image: cycles, instructions and D-cache miss samples on its hot
    functions, TOTALS, COUNTS, END; deterministic for a seed."""
    funcs = image_insns()
    bid = image_build_id() if build_id is None else build_id
    meta_kv = [(b"format", b"bmprof-profile-1"), (b"elf", b"image.elf"), (b"accel", b"kvm"),
               (b"host", b"fuzzhost"), (b"date", b"2024-01-01T00:00:00Z"),
               (b"command", b"bmprof qemu image.elf")] + list(extra_meta)
    out = frame(HOST_META, meta(meta_kv))
    out += frame(HELLO, hello(arch=1, source=2, ncpus=cpus, build_id=bid))
    out += frame(EVENT, event(CYCLES, 2, 0x3C, 100000, 0, b"cycles",
                              [0, 0, 1, 0, 0xFF if not multiplexed else 0, 1 if not multiplexed else 2]))
    out += frame(EVENT, event(INSNS, 2, 0xC0, 100000, 0, b"instructions",
                              [0, 0, 1, 1, 0xFF if not multiplexed else 1, 1 if not multiplexed else 2]))
    out += frame(EVENT, event(DMISS, 2, 0x151, 10000, 0, b"l1d-misses", [0, 0, 1, 2, 0xFF, 1]))
    weights = {"jt_loop": 40, "jt_switch": 25, "compute": 20, "other_loop": 10, "main": 5}
    for cpu in range(cpus):
        entries = []
        for name, w in weights.items():
            for k, a in enumerate(funcs.get(name, [])):
                c = (w * (k * 7 + seed * 13 + cpu * 5) // 11) % 23
                if c:
                    entries.append((CYCLES, a, c))
                if k % 3 == seed % 3:
                    entries.append((INSNS, a, 1 + (c * 3) % 17))
                if k % 5 == 1:
                    entries.append((DMISS, a, 1 + c % 4))
        if cpu == 0:
            entries += list(extra)
        total = sum(e[2] for e in entries)
        for i in range(0, len(entries), 60):
            out += frame(SAMPLES, samples(cpu, i // 60, entries[i:i + 60]))
        out += frame(TOTALS, totals(cpu, [total, total - 9, 9, 0, total, 0, 0,
                                          (len(entries) + 59) // 60, 10**9, 10**9]))
        out += frame(COUNTS, counts(cpu, [(CYCLES, 0, 10**9 + seed, 10**6, 10**6 if not multiplexed else 5 * 10**5),
                                          (INSNS, 0, 2 * 10**9, 10**6, 10**6 if not multiplexed else 5 * 10**5)]))
    out += frame(END, end(0, 0))
    out += frame(HOST_STREAM, stream_stats(10, 0, 0, 0, 0))
    return out[: len(out) - cut] if cut else out


# The events of intel-skl's level 1-3 formulas, with a value each (Top-Down runs)
SKL = [(b"CPU_CLK_UNHALTED.THREAD", 1000000), (b"IDQ_UOPS_NOT_DELIVERED.CORE", 400000),
       (b"UOPS_ISSUED.ANY", 1300000), (b"UOPS_RETIRED.RETIRE_SLOTS", 1200000),
       (b"INT_MISC.RECOVERY_CYCLES", 25000), (b"CYCLE_ACTIVITY.STALLS_MEM_ANY", 300000),
       (b"RESOURCE_STALLS.SB", 20000), (b"CYCLE_ACTIVITY.STALLS_TOTAL", 450000),
       (b"RS_EVENTS.EMPTY_CYCLES", 50000), (b"UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", 600000),
       (b"UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", 500000),
       (b"CYCLE_ACTIVITY.STALLS_L1D_MISS", 180000), (b"CYCLE_ACTIVITY.STALLS_L2_MISS", 190000)]


def topdown_profile(with_samples):
    """A bmprof topdown --save run: events td1.. mapped by the topdown_events meta key, in two
    groups, their COUNTS; with_samples: sampled (--per-function) on the image's functions."""
    funcs = image_insns()
    ids = " ".join(f"{i + 1}:{i % 2}:{n.decode()}" for i, (n, _) in enumerate(SKL))
    out = frame(HOST_META, meta([(b"format", b"bmprof-profile-1"), (b"elf", b"image.elf"),
                                 (b"topdown_events", ids.encode()), (b"accel", b"kvm")]))
    out += frame(HELLO, hello(arch=1, source=2, ncpus=1, build_id=image_build_id()))
    recs = []
    for i, (n, v) in enumerate(SKL):
        out += frame(EVENT, event(i + 1, 2, 0, 100000 if with_samples else 0, 0,
                                  f"td{i + 1}".encode(), [0, 0, 1, i % 4, i % 2, 2]))
        recs.append((i + 1, 0, v, 1000, 500))
    out += frame(COUNTS, counts(0, recs))
    if with_samples:
        entries = []
        for k, a in enumerate(funcs["jt_loop"] + funcs["compute"]):
            entries.append((1 + k % 4, a, 1 + k % 9))
        out += frame(SAMPLES, samples(0, 0, entries))
    out += frame(END, end(0, 0))
    return out


def counts_json(cpu, recs):
    rows = ",\n    ".join(recs)
    return ('{ "format": "bmprof-topdown-counts", "version": 1,\n  "cpu": ' + cpu +
            ',\n  "counts": [\n    ' + rows + " ] }\n").encode()


def write_topdown(root):
    skl = [f'{{ "event": "{n.decode()}", "value": {v} }}' for n, v in SKL]
    skl.append('{ "event": "ARITH.DIVIDER_ACTIVE", "value": null, "why": "not in this capture" }')
    cpu = '{ "arch": "x86_64", "vendor": "GenuineIntel", "family": 6, "model": "0x5e" }'
    write(f"{root}/fuzz_topdown/skl.json", b"\x06" + counts_json(cpu, skl))
    icl = ['{ "event": "TOPDOWN.SLOTS_P", "value": 1000, "group": 0, "enabled": 10, "running": 5 }',
           '{ "event": "PERF_METRICS.RETIRING", "value": 300, "group": 0, "enabled": 10, "running": 5 }',
           '{ "event": "PERF_METRICS.BAD_SPECULATION", "value": 450, "group": 1, "enabled": 10, "running": 5 }',
           '{ "event": "PERF_METRICS.FRONTEND_BOUND", "value": 1.5e2, "group": "0x1" }',
           '{ "event": "CPU_CLK_UNHALTED.THREAD", "value": "0x100", "state": "not supported" }']
    write(f"{root}/fuzz_topdown/icl.json",
          b"\x0c" + counts_json('{ "topdown_family": "intel-icl", "gp_counters": 8 }', icl))
    arm = ['{ "event": "CPU_CYCLES", "value": 100000 }', '{ "event": "STALL_FRONTEND", "value": 20000 }',
           '{ "event": "STALL_BACKEND", "value": 30000 }', '{ "event": "INST_SPEC", "value": 90000 }',
           '{ "event": "INST_RETIRED", "value": 80000 }', '{ "event": "BR_MIS_PRED", "value": 100 }',
           '{ "event": "OP_SPEC", "value": null, "state": "not supported" }']
    write(f"{root}/fuzz_topdown/neoverse.json",
          b"\x04" + counts_json('{ "arch": "aarch64", "vendor": "ARM", "family": 0, "model": "0xd0c" }', arm))
    write(f"{root}/fuzz_topdown/bad-cpu.json", b"\x00" + counts_json('{ "arch": "x86_64" }', skl[:2]))
    write(f"{root}/fuzz_topdown/profile-counts", b"\x03" + topdown_profile(False))
    # regress: names, reasons and the vendor with control bytes (printed raw once)
    esc = ['{ "event": "CPU_CLK\\u001b[2J.THREAD", "value": 5 }',
           '{ "event": "X", "value": null, "why": "gone\\nlost\\u0007" }'] + skl[1:]
    write("tests/fuzz/regress/fuzz_topdown/json-control-bytes",
          b"\x06" + counts_json('{ "topdown_family": "intel-skl", "vendor": "Gen\\u001b]0;x\\u0007" }',
                                 esc))
    write(f"{root}/fuzz_topdown/profile-per-function", b"\x01" + topdown_profile(True))


def write_db(path, rows, wal=False, extra_sql=""):
    """A database as bmprof db writes it (host/profile/db.c's schema), page size 512, with rows
    (id, epoch, file, build_id, samples, elf, tags, functions)."""
    import sqlite3
    if os.path.exists(path):
        os.remove(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size=512")
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.executescript(db_schema())
    db.execute("UPDATE epochs SET created = '2024-01-01 00:00:00'")
    for r in rows:
        db.execute("INSERT INTO profiles(id, epoch, file, source, added, recorded, build_id, image,"
                   " machine, accel, cpu, arch, samples, elf) VALUES(?, ?, ?, '/tmp/x.data',"
                   " '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', ?, 'image.elf', 'fuzzhost',"
                   " 'kvm', 'GenuineIntel family 6 model 0x55 stepping 4', 'x86_64', ?, ?)",
                   r[:6])
        for k, v in r[6]:
            db.execute("INSERT OR REPLACE INTO tags VALUES(?, ?, ?)", (r[0], k, v))
        for n, c in r[7]:
            db.execute("INSERT INTO functions VALUES(?, ?, ?)", (r[0], n, c))
    if extra_sql:
        db.executescript(extra_sql)
    db.commit()
    if not wal:
        db.execute("VACUUM")
    db.close()
    with open(path, "rb") as f:
        data = f.read()
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(path + ext):
            os.remove(path + ext)
    return data


def db_schema():
    """host/profile/db.c's schema text, as bmprof db init runs it: bmprof refuses a database whose
    schema objects are not exactly these."""
    src = open("host/profile/db.c").read()
    version = re.search(r'#define SCHEMA_VERSION "([^"]*)"', src).group(1)
    body = src[src.index("static const char schema[] ="):]
    body = body[body.index("=") + 1: body.index(";\n")]
    body = body.replace("SCHEMA_VERSION", '"' + version + '"')
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body))


def write_dbs(root):
    bid = image_build_id().hex()
    elf = f"images/{bid}.elf"
    fn = [("jt_loop", 400), ("jt_switch", 250), ("compute", 200)]
    good = [(1, 1, "1.data", bid, 1000, elf, [("commit", "abc"), ("tag", "x")], fn),
            (2, 1, "2.data", bid, 900, elf, [("commit", "def"), ("who", "y")], fn[:2]),
            (3, 2, "3.data", bid, 800, None, [("commit", "abc")], [])]
    d = f"{root}/fuzz_db"
    tmp = "build/fuzz/seed.sqlite"
    write(f"{d}/good.sqlite", write_db(tmp, good, extra_sql="INSERT INTO epochs(id, created, note) "
                                       "VALUES(2, '2024-01-02 00:00:00', 'second');"))
    write(f"{d}/wal.sqlite", write_db(tmp, good, wal=True))
    nulls = [(1, 1, None, None, None, None, [("commit", None)], [(None, None)]),
             (2, 1, "2.data", bid, None, None, [], [])]
    write(f"{d}/nulls.sqlite", write_db(tmp, nulls))
    types = [(1, 1, 1, 12345, "many", 3.5, [("commit", 7)], [("jt_loop", "lots"), (5, -1)]),
             (2, 1, b"2.data", bid, 2**62, b"images/ab.elf", [("tag", b"\x00\x1b[2Jx")], fn)]
    write(f"{d}/types.sqlite", write_db(tmp, types))
    longs = [(1, 1, "1" * 30 + ".data", "b" * 3000, 1, "images/" + "a" * 200 + ".elf",
              [("k" * 500, "v\n" * 800)], [("f\x1b]0;title\x07" * 50, 10)]),
             (2, 1, "2.data", bid, 5, elf, [("commit", "line\nbreak\ttab\x1b[31m")], fn)]
    write(f"{d}/longs.sqlite", write_db(tmp, longs))
    paths = [(1, 1, "../../../etc/passwd", bid, 1, "/etc/passwd", [], []),
             (2, 1, "/dev/zero", bid, 1, "images/../../x.elf", [], []),
             (3, 1, "3.data/../1.data", bid, 1, "images/" + bid + ".elf\n", [], [])]
    write(f"{d}/paths.sqlite", write_db(tmp, paths))

    # regress/fuzz_db: schemas bmprof did not write (refused at open; a query over the
    # view ran forever, the trigger ran on db add)
    r = "tests/fuzz/regress/fuzz_db"
    view = ("DROP TABLE profiles; CREATE VIEW profiles AS WITH RECURSIVE c(x) AS (SELECT 1 UNION "
            "ALL SELECT x + 1 FROM c) SELECT x AS id, 1 AS epoch, x || '.data' AS file, NULL AS "
            "source, NULL AS added, NULL AS recorded, NULL AS build_id, NULL AS image, NULL AS "
            "machine, NULL AS accel, NULL AS cpu, NULL AS arch, x AS samples, NULL AS elf FROM c;")
    write(f"{r}/view-recursive-endless-ls", write_db(tmp, [], extra_sql=view))
    trig = ("CREATE TABLE sink(x); CREATE TRIGGER grow AFTER INSERT ON profiles BEGIN "
            "INSERT INTO sink WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
            "SELECT x FROM c; END;")
    write(f"{r}/trigger-endless-add", write_db(tmp, good, extra_sql=trig))
    gen = ("DROP TABLE functions; CREATE TABLE functions(profile INTEGER, samples INTEGER, "
           "name TEXT AS (printf('%.*c', 900000000, 'x'))); "
           "INSERT INTO functions(profile, samples) VALUES(1, 5);")
    write(f"{r}/generated-column-huge-value", write_db(tmp, good, extra_sql=gen))


def write_runs(root):
    data = "tests/fuzz/data"
    a, b = run_profile(1), run_profile(2)
    write(f"{data}/run-a.data", a)
    write(f"{data}/run-b.data", b)
    cli = f"{root}/fuzz_cli"
    write(f"{cli}/run-a", b"\x00" + a)
    write(f"{cli}/run-b-own-elf", b"\x02" + b)
    write(f"{cli}/two-cpus-multiplexed", b"\x01" + run_profile(3, cpus=2, multiplexed=True))
    write(f"{cli}/no-build-id", b"\x01" + run_profile(4, build_id=b""))
    write(f"{cli}/topdown", b"\x01" + topdown_profile(True))
    write(f"{cli}/cut", b"\x00" + run_profile(5, cut=300))
    # samples in a firmware module (the image again, loaded at FW_BASE) and its console log
    funcs = image_insns()
    lo = min(a for v in funcs.values() for a in v) & ~0xFFF
    fw = [(CYCLES, FW_BASE - lo + a, 1 + k % 7) for k, a in enumerate(funcs["jt_loop"])]
    log = (b"PROGRESS: boot\r\nLoading driver at 0x%011X EntryPoint=0x%011X Fuzz.efi\r\n"
           b"Loading PEIM at 0x0000FFD7B40 EntryPoint=0x0000FFD7F00 Other.efi\n"
           b"Loading driver at 0x000XYZ EntryPoint=junk\n" % (FW_BASE, FW_BASE + 0x150))
    write(f"{cli}/firmware-log", b"\x01" + run_profile(7, extra=fw) + b"\n=log=\n" + log)
    diff = f"{root}/fuzz_diff"
    sep = b"\n=next=\n"
    write(f"{diff}/two", b"\x00" + a + sep + b)
    write(f"{diff}/three-by-line", b"\x01" + a + sep + b + sep + run_profile(3))
    write(f"{diff}/four-by-address-own-elf", b"\x0a" + sep.join(run_profile(i) for i in range(4)))
    write(f"{diff}/one", b"\x04" + run_profile(6, cpus=2, multiplexed=True))


def main():
    root = "tests/fuzz/corpus"
    write_runs(root)
    write_topdown(root)
    write_dbs(root)
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
    write_raw(root)


if __name__ == "__main__":
    main()
