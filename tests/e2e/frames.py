"""Wire-format frames for the end-to-end tests: split a raw serial capture or a profile
file into frames and console text, decode the payloads (transport/wire.h), and attribute
SAMPLES to functions with nm's symbol table.

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
HELLO, EVENT, SAMPLES, TOTALS, END, COUNTS = 1, 2, 3, 4, 5, 6

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


def event(p):
    """EVENT payload (version 1.1, with the status fields) as a dict."""
    eid, src, fl, enc, per, _ = struct.unpack_from("<HBBQQQ", p)
    nl = p[28]
    st = list(p[29 + nl:35 + nl])
    assert len(st) == 6, "EVENT without the status fields"
    return eid, dict(source=src, flags=fl, encoding=enc, period=per,
                     name=p[29:29 + nl].decode(), status=st[0], reason=st[1],
                     kind=st[2], counter=st[3], group=st[4], ngroups=st[5])


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
