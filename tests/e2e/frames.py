# SPDX-License-Identifier: BSD-2-Clause
"""Wire-format frames for the end-to-end tests: split a raw serial capture or a profile
file into frames and console text, decode the payloads (transport/wire.h), and attribute
SAMPLES to functions with nm's symbol table; and the other way, encode the frames of a
synthetic stream (enc_*) for tests that record one with bmprof record --from.

As a program:
  python3 -m frames per-function DATA ELF    prints, as JSON, the samples per function of
      every CPU ({"cpu": {"function": count}}) from DATA's SAMPLES frames;
  python3 -m frames smp-work N JSON DATA ELF OUT LOSSLESS MIN_OWN    checks a run of
      smp_work on N CPUs (check_smp_work); exits 1 naming the first failed check."""
import bisect
import collections
import json
import re
import struct
import subprocess
import sys
import zlib

MAGIC = b"\xb5BMP"
HELLO, EVENT, SAMPLES, TOTALS, END, COUNTS, LOG = 1, 2, 3, 4, 5, 6, 7
RAW_SAMPLES = 0x0B

# off: byte offset of the magic; ok: the frame is whole and its CRC good
Frame = collections.namedtuple("Frame", "off type payload ok")


def scan(data):
    """Yield, in stream order, the console text between frames (bytes) and every frame
    (Frame). A frame that is cut short or fails its CRC is yielded with ok False, and the
    scan resumes one byte after its magic, that byte counted as text."""
    i = 0
    while i < len(data):
        j = data.find(MAGIC, i)
        if j < 0:
            yield data[i:]
            return
        if j > i:
            yield data[i:j]
        end = j + 12 + struct.unpack_from("<H", data, j + 6)[0] if j + 8 <= len(data) else -1
        ok = 0 <= end <= len(data) and \
            zlib.crc32(data[j + 4:end - 4]) == struct.unpack_from("<I", data, end - 4)[0]
        typ = data[j + 4] if j + 4 < len(data) else None
        yield Frame(j, typ, data[j + 8:end - 4] if ok else data[j + 8:], ok)
        if ok:
            i = end
        else:
            yield data[j:j + 1]
            i = j + 1


def frames(data):
    """The whole frames with a good CRC, in order."""
    return [f for f in scan(data) if isinstance(f, Frame) and f.ok]


def console_and_frames(data):
    """A raw capture that must be clean: every frame whole, none inside a console line,
    every byte outside a frame printable ASCII or a newline. Returns (frames, text);
    an AssertionError names the first offence."""
    text, out = bytearray(), []
    for x in scan(data):
        if isinstance(x, Frame):
            assert x.ok, f"frame at byte {x.off}: bad CRC or cut short"
            assert not text or text.endswith(b"\n"), \
                f"frame at byte {x.off} inside a console line: {bytes(text[-40:])}"
            out.append(x)
            continue
        for k, c in enumerate(x):
            assert c == 10 or 32 <= c < 127, f"byte {len(text) + k}: {c:#x} outside a frame"
        text += x
    return out, bytes(text)


def varint(b, i):
    """Unsigned LEB128 at b[i]: (value, index after it)."""
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return v, i


def samples(p):
    """SAMPLES payload: (cpu, seq, [(event_id, pc, count)])."""
    cpu, n, seq = struct.unpack_from("<HHI", p)
    j, pc, out = 8, 0, []
    for _ in range(n):
        ev, j = varint(p, j)
        d, j = varint(p, j)
        cnt, j = varint(p, j)
        pc += (d >> 1) ^ -(d & 1)
        out.append((ev, pc, cnt))
    return cpu, seq, out


def raw_samples(p):
    """RAW_SAMPLES payload: (cpu, seq, arch, nregs, [(event_id, flags, pc, data_addr,
    {register number: value})]); the whole payload must be used."""
    cpu, n, seq, arch, nregs = struct.unpack_from("<HHIBB", p)
    j, out = 12, []
    for _ in range(n):
        ev, j = varint(p, j)
        fl = p[j]
        j += 1
        valid, j = varint(p, j)
        pc, j = varint(p, j)
        addr = None
        if fl & 1:
            addr, j = varint(p, j)
        regs = {}
        for r in range(nregs):
            if valid >> r & 1:
                regs[r], j = varint(p, j)
        out.append((ev, fl, pc, addr, regs))
    assert j == len(p), "RAW_SAMPLES: %d bytes past the records" % (len(p) - j)
    return cpu, seq, arch, nregs, out


def event(p):
    """EVENT payload (version 1.1, with the status fields) as a dict."""
    eid, src, fl, enc, per, _ = struct.unpack_from("<HBBQQQ", p)
    nl = p[28]
    st = list(p[29 + nl:35 + nl])
    assert len(st) == 6, "EVENT without the status fields"
    return eid, dict(source=src, flags=fl, encoding=enc, period=per,
                     name=p[29:29 + nl].decode(), status=st[0], reason=st[1],
                     kind=st[2], counter=st[3], group=st[4], ngroups=st[5],
                     precise=p[35 + nl] if len(p) > 35 + nl else 0)


def counts(p):
    """COUNTS payload: (cpu, [(event_id, flags, value, enabled, running)])."""
    cpu, n = struct.unpack_from("<HH", p)
    assert len(p) == 4 + 32 * n, "COUNTS length"
    return cpu, [(eid, fl, v, en, ru) for eid, fl, _, v, en, ru in
                 (struct.unpack_from("<HHIQQQ", p, 4 + 32 * r) for r in range(n))]


def totals(p):
    """TOTALS payload: (cpu, counters in wire order)."""
    cpu, nf = struct.unpack_from("<HH", p)
    return cpu, struct.unpack_from("<%dQ" % nf, p, 4)


def enc_frame(t, payload):
    """A whole frame of type t around payload: magic, header, payload, CRC."""
    h = struct.pack("<BBH", t, 0, len(payload))
    return MAGIC + h + payload + struct.pack("<I", zlib.crc32(h + payload))


def enc_uleb(v):
    """v as unsigned LEB128 (the inverse of varint)."""
    b = b""
    while v >= 0x80:
        b += bytes([(v & 0x7f) | 0x80])
        v >>= 7
    return b + bytes([v])


def enc_hello(ncpus, build_id, load_bias=0, source=1):
    """HELLO frame of an x86-64 image sampling on the timer (source 1; 2: a PMU event): a
    1 GHz timebase, GenuineIntel."""
    return enc_frame(HELLO, struct.pack("<HBBHHQQ16sIIIIB3x", 1, 1, source, ncpus, 0, 10**9,
                                        load_bias, b"GenuineIntel", 6, 0xcf, 2, 0x806f2,
                                        len(build_id)) + build_id)


def enc_timer_event():
    """EVENT frame of the timer, event 0, 1 MHz period, active."""
    return enc_frame(EVENT, struct.pack("<HBBQQQ", 0, 1, 0, 0, 10**6, 0) + bytes([5]) +
                     b"timer" + bytes([0, 0, 3, 0xff, 0xff, 1]))


def enc_pmu_event(eid, name, encoding, period, counter, precise):
    """EVENT frame of a PMU event sampling on GP counter `counter`, active, with a fixed
    period; precise: enum bmprof_precise (1: PEBS)."""
    n = name.encode()
    return enc_frame(EVENT, struct.pack("<HBBQQQ", eid, 2, 0, encoding, period, 0) +
                     bytes([len(n)]) + n + bytes([0, 0, 1, counter, 0xff, 1, precise]))


def enc_raw_samples(cpu, seq, recs):
    """RAW_SAMPLES frame (x86-64, 16 register slots): recs of (event, flags, pc, data_addr
    or None, {register: value})."""
    p = struct.pack("<HHIBBH", cpu, len(recs), seq, 1, 16, 0)
    for ev, fl, pc, addr, regs in recs:
        valid = sum(1 << r for r in regs)
        p += enc_uleb(ev) + bytes([fl]) + enc_uleb(valid) + enc_uleb(pc)
        if fl & 1:
            p += enc_uleb(addr)
        p += b"".join(enc_uleb(regs[r]) for r in sorted(regs))
    return enc_frame(RAW_SAMPLES, p)


def enc_samples_of(cpu, seq, event_id, pcs):
    """SAMPLES frame of event_id: [(pc, count)] in pc order."""
    p, prev = struct.pack("<HHI", cpu, len(pcs), seq), 0
    for pc, n in pcs:
        d = pc - prev
        p += enc_uleb(event_id) + enc_uleb(d << 1 if d >= 0 else (-d << 1) - 1) + enc_uleb(n)
        prev = pc
    return enc_frame(SAMPLES, p)


def enc_totals_raw(cpu, taken, nframes, raw_taken, raw_delivered, raw_full, raw_frames):
    """TOTALS frame (version 3 fields): every sample delivered, the raw counters."""
    return enc_frame(TOTALS, struct.pack("<HH17Q", cpu, 17, taken, 0, taken, 0, taken, 0, 0,
                                         nframes, 0, 0, 0, 0, raw_taken, raw_delivered,
                                         raw_full, 0, raw_frames))


def enc_samples(cpu, seq, pcs):
    """SAMPLES frame of event 0: [(pc, count)] in order, pcs as zigzag deltas."""
    p, prev = struct.pack("<HHI", cpu, len(pcs), seq), 0
    for pc, n in pcs:
        d = pc - prev
        p += enc_uleb(0) + enc_uleb(d << 1 if d >= 0 else (-d << 1) - 1) + enc_uleb(n)
        prev = pc
    return enc_frame(SAMPLES, p)


def enc_totals(cpu, taken, delivered, full, xmit, nframes):
    """TOTALS frame: samples taken, delivered, lost to full buffers and to the transport,
    SAMPLES frames sent."""
    return enc_frame(TOTALS, struct.pack("<HH8Q", cpu, 8, taken, 0, 0, 0, delivered, full,
                                         xmit, nframes))


def enc_log(level, text, text_len=None):
    """LOG frame: a runtime message (bytes) at level; text_len to claim another length."""
    n = len(text) if text_len is None else text_len
    return enc_frame(LOG, struct.pack("<BBH", level, 0, n) + text)


def enc_end_exit0():
    """END frame: exit code 0."""
    return enc_frame(END, struct.pack("<iB3xQI4xQ", 0, 0, 0, 0, 0))


def nm_symbols(elf):
    """{name: address} of every symbol nm lists with an address."""
    s = {}
    for line in subprocess.run(["nm", elf], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3:
            s[f[2]] = int(f[0], 16)
    return s


def build_id(elf):
    """The ELF's GNU build-id note, as bytes."""
    notes = subprocess.run(["readelf", "-n", elf], capture_output=True, text=True,
                           check=True).stdout
    return bytes.fromhex(re.search(r"Build ID: ([0-9a-f]+)", notes).group(1))


def symbolizer(elf):
    """pc -> the name of the function (nm text or weak symbol) at or below it, "?" below all."""
    syms = []
    for line in subprocess.run(["nm", "-n", "--defined-only", elf], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2]))
    addrs = [a for a, _ in syms]

    def name(pc):
        k = bisect.bisect_right(addrs, pc) - 1
        return syms[k][1] if k >= 0 else "?"
    return name


def per_function(data, elf):
    """{cpu: Counter(function: samples)} over data's SAMPLES frames."""
    name, per = symbolizer(elf), collections.defaultdict(collections.Counter)
    for f in frames(data):
        if f.type == SAMPLES:
            cpu, _, entries = samples(f.payload)
            for _, pc, cnt in entries:
                per[cpu][name(pc)] += cnt
    return per


SHARES = {"work_a": 50.0, "work_b": 30.0, "work_c": 20.0}


def check_shares(r):
    """shares.elf's run, from its JSON report r: work_a, work_b and work_c of shares.c hold
    at least 90% of the samples reported and at least 1000, split 50:30:20 within 3 points,
    and the image exited with 0."""
    rows = {x["symbol"]: x for x in r["rows"]}
    for f in SHARES:
        assert f in rows, f"{f} missing from the report: {sorted(rows)}"
        assert rows[f]["file"].endswith("shares.c"), rows[f]
    tot = sum(rows[f]["samples"] for f in SHARES)
    allsamples = r["meta"]["samples"]["reported"]
    assert tot >= 0.9 * allsamples, f"the three functions hold only {tot} of {allsamples} samples"
    assert tot >= 1000, f"too few samples ({tot}) for a share test"
    for f, w in SHARES.items():
        got = 100.0 * rows[f]["samples"] / tot
        print(f"{f}: {got:.1f}% (want {w}%)")
        assert abs(got - w) <= 3.0, f"{f}: {got:.1f}% is not within 3 points of {w}%"
    assert r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 0, \
        r["meta"]["end"]


def check_smp_work(n, r, per, out, lossless, min_own):
    """smp_work's run on n CPUs, from its JSON report r, per_function of its profile and its
    console text: every CPU announced and flushed, every frame received, nothing lost when
    lossless, each CPU's samples all decoded, at least min_own of them in its own work_cpuK
    and none in another CPU's, a clean exit, every console line whole."""
    m = r["meta"]
    assert m["ncpus"] == n, f"HELLO announces {m['ncpus']} CPUs, want {n}"
    cpus = {c["cpu"]: c for c in m["cpus"]}
    assert sorted(cpus) == list(range(n)), f"CPUs reported: {sorted(cpus)}, want 0..{n - 1}"
    st = m["stream"]
    assert st["frames_bad_crc"] == 0 and st["frames_malformed"] == 0 and st["bytes_skipped"] == 0, st
    for k, c in cpus.items():
        assert c["have_totals"], f"cpu {k}: no TOTALS"
        assert c["seq_gaps"] == 0 and c["lost_in_transit"] == 0, f"cpu {k}: frames lost: {c}"
        if lossless:
            assert c["lost_full"] == 0 and c["lost_transport"] == 0, f"cpu {k}: samples lost: {c}"
        mine = per.get(k, {})
        assert sum(mine.values()) == c["delivered"], \
            f"cpu {k}: decoded {sum(mine.values())} samples, delivered {c['delivered']}"
        assert mine.get(f"work_cpu{k}", 0) >= min_own, f"cpu {k}: too few samples in work_cpu{k}: {mine}"
        foreign = {f: v for f, v in mine.items() if f.startswith("work_cpu") and f != f"work_cpu{k}"}
        assert not foreign, f"cpu {k} has samples of other CPUs' work: {foreign}"
    assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 0, m["end"]
    ok = [re.compile(p) for p in (r"smp_work: cpu \d step \d of 4",
          r"smp_work: cpu (\d): work_cpu\1 ran on cpu \1, result [0-9a-f]{16}, ok",
          r"smp_work: %d cpus, ok, \d+ us" % n)]
    lines = out.splitlines()
    bad = [l for l in lines if not any(p.fullmatch(l) for p in ok)]
    assert not bad, f"console lines broken or unexpected: {bad[:5]}"
    assert sum(1 for l in lines if " step " in l) == 4 * n, "progress lines missing"
    print(f"{n} CPUs ok:", [(k, c["taken"], c["lost_full"]) for k, c in sorted(cpus.items())])


def main(argv):
    if len(argv) == 4 and argv[1] == "per-function":
        per = per_function(open(argv[2], "rb").read(), argv[3])
        json.dump({c: dict(v) for c, v in per.items()}, sys.stdout)
    elif len(argv) == 9 and argv[1] == "smp-work":
        n, r, data, elf, out, lossless, min_own = argv[2:]
        try:
            check_smp_work(int(n), json.load(open(r)), per_function(open(data, "rb").read(), elf),
                           open(out, errors="replace").read(), lossless == "1", int(min_own))
        except AssertionError as e:
            sys.exit(f"smp_work check failed: {e}")
    else:
        sys.exit("usage: python3 -m frames per-function DATA ELF | "
                 "smp-work N JSON DATA ELF OUT LOSSLESS MIN_OWN")


if __name__ == "__main__":
    main(sys.argv)


# HOST_META keys that differ between two runs of the same image: when, the profile's own
# path, and the QEMU command line (it names a temporary config file)
RUN_SPECIFIC_META = {"date", "command", "qemu"}


def meta_kv(payload):
    """A HOST_META payload as a list of (key, value) byte strings."""
    out, i = [], 0
    while i < len(payload):
        kl = payload[i]
        k = payload[i + 1:i + 1 + kl]
        vl = struct.unpack_from("<H", payload, i + 1 + kl)[0]
        v = payload[i + 3 + kl:i + 3 + kl + vl]
        out.append((k, v))
        i += 3 + kl + vl
    return out


def run_content(data):
    """A profile file's frames with the run-specific metadata left out: two runs that
    executed the same way give equal lists."""
    out = []
    for f in frames(data):
        if f.type == 0x40:
            kv = [(k, v) for k, v in meta_kv(f.payload)
                  if k.decode(errors="replace") not in RUN_SPECIFIC_META]
            out.append((f.type, tuple(kv)))
        else:
            out.append((f.type, f.payload))
    return out
