#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Resynchronization on a damaged serial capture. One raw capture (2 CPUs, 16-entry tables:
# many SAMPLES frames, console lines between them) is mutated about a hundred ways:
# truncated at every frame end and at two points inside every frame, bits flipped in
# magics, headers, payloads and CRCs, bytes deleted and inserted, console text spliced
# between and inside frames (a UTF-8 "µBMP" too), several of these at once. A frame is
# intact when its bytes are all there, unmodified and contiguous. For each mutated stream
# the clean stream of exactly its intact frames is built, both are recorded with bmprof
# record --from and reported with bmprof report --format json, and the two reports must
# agree on the rows (symbol, samples), every CPU's accounting, frames and END. The damaged
# one must also count what the reader rejected (bad CRCs, skipped bytes, a truncated last
# frame) exactly as the rules in docs/wire-format.md ("Reading a stream") give them, warn
# about each, and pass every byte outside a frame through as console text.
. "$(dirname "$0")/lib.sh"
need_qemu

cd "$ROOT"
make_smp_tiny
elf=$ROOT/$tiny/smp_tiny.elf

# under -icount shift=0,sleep=off the capture is the same on every run, however busy the host
timeout 600 qemu-system-x86_64 -M q35 -m 256M -display none -no-reboot -monitor none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$T/raw" -accel tcg -cpu max \
	-icount shift=0,sleep=off -smp 2 -fw_cfg name=opt/bmprof/config,string=freq=2000 \
	-kernel "$elf" >"$T/qout" 2>&1
rc=$?
[ "$rc" -eq 3 ] || { cat "$T/qout"; fail "capture run: QEMU exited $rc, want 3 (main returned 0)"; }

python3 - "$BMPROF" "$elf" "$T/raw" "$T" <<'PY' || fail "stream mutation"
import hashlib, json, os, random, re, struct, subprocess, sys, time, zlib

bmprof, elf, raw_path, tmp = sys.argv[1:5]
raw = open(raw_path, "rb").read()
MAGIC = b"\xb5BMP"
HELLO, EVENT, SAMPLES, TOTALS, END = 1, 2, 3, 4, 5
t0 = time.time()


def u16(b, i):
    return struct.unpack_from("<H", b, i)[0]


def u32(b, i):
    return struct.unpack_from("<I", b, i)[0]


# The clean capture: (start, end, type) of every frame; every CRC good.
frames = []
i = 0
while i < len(raw):
    if raw[i:i + 4] != MAGIC:
        i += 1
        continue
    e = i + 12 + u16(raw, i + 6)
    assert e <= len(raw) and zlib.crc32(raw[i + 4:e - 4]) == u32(raw, e - 4), f"capture: bad frame at {i}"
    frames.append((i, e, raw[i + 4]))
    i = e
types = [t for _, _, t in frames]
gaps = [frames[k + 1][0] - frames[k][1] for k in range(len(frames) - 1)]
assert types[0] == HELLO and types[1] == EVENT and types[-1] == END, types
assert types.count(SAMPLES) >= 8, f"only {types.count(SAMPLES)} SAMPLES frames: {types}"
assert sum(1 for g in gaps if g) >= 3, "the console text is not between frames"
print(f"capture: {len(raw)} bytes, {len(frames)} frames ({types.count(SAMPLES)} SAMPLES), "
      f"{len(raw) - sum(e - s for s, e, _ in frames)} bytes of console text")


def reader(b):
    """The reading rules of docs/wire-format.md: the good frames, bad CRCs, bytes skipped,
    whether the stream ended inside a frame, and the console text."""
    found, bad, skipped, trunc, text = [], 0, 0, False, bytearray()
    i = skip = 0
    n = len(b)
    while i < n:
        m = b.find(MAGIC, i)
        m = n if m < 0 else m
        if m > i:                       # not a frame: skipped inside a bad extent, else text
            s = min(skip, m - i)
            skip -= s
            skipped += s
            text += b[i + s:m]
            i = m
            continue
        total = 12 + u16(b, i + 6) if n - i >= 8 else n - i + 1
        if n - i < total:               # the input ends inside the extent the header claims
            trunc = True
            skip = max(skip, n - i) - 1
        elif zlib.crc32(b[i + 4:i + total - 4]) == u32(b, i + total - 4):
            found.append(bytes(b[i:i + total]))
            skip = 0
            i += total
            continue
        else:                           # bad CRC: drop the magic byte, skip the extent
            bad += 1
            skip = max(skip, total) - 1
        skipped += 1
        i += 1
    return found, bad, skipped, trunc, bytes(text)


class Stream:
    """The capture with mutations applied; org[k] is the capture offset of byte k, or -1
    for a byte inserted or modified."""

    def __init__(self, name):
        self.name, self.b, self.org = name, bytearray(raw), list(range(len(raw)))

    def at(self, off):
        return len(self.b) if off >= len(raw) else self.org.index(off)

    def flip(self, off, bit):
        k = self.at(off)
        self.b[k] ^= 1 << bit
        self.org[k] = -1
        return self

    def delete(self, off, n):
        k = self.at(off)
        del self.b[k:k + n], self.org[k:k + n]
        return self

    def insert(self, off, data):
        k = self.at(off)
        self.b[k:k] = data
        self.org[k:k] = [-1] * len(data)
        return self

    def cut(self, off):
        k = self.at(off)
        del self.b[k:], self.org[k:]
        return self

    def intact(self):
        out = []
        for s, e, _ in frames:
            if s in self.org:
                k = self.org.index(s)
                if self.org[k:k + e - s] == list(range(s, e)):
                    out.append(raw[s:e])
        return out


rng = random.Random(20240601)
F = len(frames)
cases = []      # (Stream, check on (bad, skipped, trunc) independent of the model)


def add(st, want):
    cases.append((st, want))


clean = lambda bad, sk, tr: bad == 0 and sk == 0 and not tr
rejected = lambda bad, sk, tr: (bad >= 1 or tr) and sk >= 1

# Truncation: at nothing, at the end of every frame, and the whole capture.
add(Stream("cut at 0").cut(0), clean)
for k, (s, e, t) in enumerate(frames):
    add(Stream(f"cut after frame {k}").cut(e), clean)
add(Stream("the whole capture"), clean)
# ... and at two points inside every frame: in the magic (text), in the header, right
# after the header, in the payload, before the CRC, inside the CRC.
for k, (s, e, t) in enumerate(frames):
    for c in (2 * k % 6, (2 * k + 1) % 6):
        off = [rng.randint(1, 3), rng.randint(4, 7), 8, rng.randint(9, e - s - 5), e - s - 4,
               rng.randint(e - s - 3, e - s - 1)][c]
        want = clean if off < 4 else (lambda off: lambda bad, sk, tr: tr and sk == off and bad == 0)(off)
        add(Stream(f"cut {off} bytes into frame {k} (type {t})").cut(s + off), want)

# Bit flips, two per chosen frame: the magic (the frame turns into text), the type or
# flags, the length, the payload, the CRC.
samples = [k for k in range(F) if types[k] == SAMPLES]
chosen = [0, 1, samples[0], samples[len(samples) // 2], samples[-1], types.index(TOTALS),
          F - 2, F - 1]
where = ["magic", "type", "flags", "len", "payload", "crc"]
for j, k in enumerate(chosen):
    s, e, t = frames[k]
    for w in (where[2 * j % 6], where[(2 * j + 1) % 6]):
        off = {"magic": rng.randint(0, 3), "type": 4, "flags": 5, "len": rng.choice([6, 7]),
               "payload": rng.randint(8, e - s - 5), "crc": rng.randint(e - s - 4, e - s - 1)}[w]
        bit = rng.randint(0, 7)
        want = {"magic": clean, "len": rejected}.get(
            w, (lambda n: lambda bad, sk, tr: bad == 1 and sk == n and not tr)(e - s))
        add(Stream(f"flip bit {bit} of the {w} of frame {k} (type {t}, byte {off})").flip(s + off, bit), want)

# Deletions: one byte and a run inside a frame, across a frame boundary, console text only.
mid = samples[len(samples) // 3]
add(Stream(f"delete 1 byte in frame {mid}").delete(frames[mid][0] + 20, 1), rejected)
add(Stream("delete 5 bytes of the HELLO header").delete(4, 5), rejected)
add(Stream("delete the END frame's last byte").delete(frames[-1][1] - 1, 1),
    lambda bad, sk, tr: tr and sk == frames[-1][1] - frames[-1][0] - 1)
add(Stream(f"delete across frames {mid}..{mid + 1}").delete(
    frames[mid][1] - 6, frames[mid + 1][0] + 6 - (frames[mid][1] - 6)), rejected)
tgap = next(k for k in range(F - 1) if gaps[k] >= 10)
add(Stream(f"delete console text after frame {tgap}").delete(frames[tgap][1] + 3, 5), clean)
add(Stream("delete the first 3 bytes").delete(0, 3), clean)

# Insertions: garbage inside a frame, between frames, a header claiming 32 KiB, a fake frame
# with a bad CRC, a magic alone.
add(Stream(f"insert garbage in frame {mid}").insert(frames[mid][0] + 11, b"\x00\xff\x13"), rejected)
add(Stream(f"insert garbage after frame {mid}").insert(frames[mid][1], b"\x00\x01\xfe\xff"), clean)
add(Stream("insert a header claiming 32 KiB after HELLO").insert(frames[1][0], MAGIC + b"\x03\x00\xff\x7f"),
    lambda bad, sk, tr: tr and bad == 0)
add(Stream("insert a frame with a bad CRC before TOTALS").insert(
    frames[types.index(TOTALS)][0], MAGIC + b"\x03\x00\x04\x00abcd\x00\x00\x00\x00"),
    lambda bad, sk, tr: bad == 1 and sk == 16 and not tr)
add(Stream(f"insert a bare magic before frame {mid}").insert(frames[mid][0], MAGIC), rejected)
add(Stream("insert a magic before the END frame").insert(frames[-1][0], MAGIC), rejected)

# Console text spliced between frames, inside headers, payloads and CRCs, and a UTF-8 µ
# (C2 B5) followed by BMP in a console line.
line = b"console: spliced line\n"
add(Stream(f"text between frames {mid} and {mid + 1}").insert(frames[mid][1], line), clean)
add(Stream("text before HELLO").insert(0, line), clean)
add(Stream("text inside the HELLO header").insert(6, line), rejected)
add(Stream(f"text inside the payload of frame {mid}").insert(frames[mid][0] + 15, line), rejected)
add(Stream("text inside the CRC of the END frame").insert(frames[-1][1] - 2, line), rejected)
add(Stream("a \u00b5BMP line after EVENT").insert(frames[2][0], "sensor: 3 \u00b5BMP ok\n".encode()),
    lambda bad, sk, tr: (bad == 1 or tr) and sk >= 8)

# Several at once, on distinct frames, last first so offsets stay valid.
for j in range(10):
    st = Stream(f"combined {j}:")
    for k in sorted(rng.sample(range(F), rng.randint(2, 5)), reverse=True):
        s, e, t = frames[k]
        op = rng.choice(["flip", "delete", "insert", "text", "textin"])
        if op == "flip":
            off = rng.randint(4, e - s - 1)
            st.flip(s + off, rng.randint(0, 7))
        elif op == "delete":
            off = rng.randint(0, e - s - 2)
            st.delete(s + off, rng.randint(1, 3))
        elif op == "insert":
            off = rng.randint(1, e - s - 1)
            st.insert(s + off, bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))))
        elif op == "text":
            off = 0
            st.insert(s, line)
        else:
            off = rng.randint(1, e - s - 1)
            st.insert(s + off, line)
        st.name += f" {op} frame {k} at {off};"
    add(st, lambda bad, sk, tr: True)
print(f"{len(cases)} mutated streams")


def run(path):
    """record --from path, then report --format json: (record rc, stdout, report or None)."""
    data = path + ".data"
    rec = subprocess.run([bmprof, "record", "--from", path, "-o", data], capture_output=True)
    assert b"Sanitizer" not in rec.stderr and b"runtime error" not in rec.stderr, rec.stderr.decode(errors="replace")
    if not os.path.exists(data):
        return rec.returncode, rec.stdout, rec.stderr.decode(errors="replace"), None
    rep = subprocess.run([bmprof, "report", "-i", data, "--format", "json", "--elf", elf],
                         capture_output=True)
    assert rep.returncode == 0 and not rep.stderr, f"{path}: report exit {rep.returncode}: {rep.stderr}"
    return rec.returncode, rec.stdout, rec.stderr.decode(errors="replace"), json.loads(rep.stdout)


READER = re.compile(r"\d+ frames failed their CRC and were dropped|"
                    r"\d+ bytes that were not a valid frame were skipped|"
                    r"the stream ended inside a frame")


def view(r):
    m = r["meta"]
    return {
        "rows": [(x["symbol"], x["samples"]) for x in r["rows"]],
        "cpus": [(c["cpu"], c["received"], c["frames_received"], c["seq_gaps"],
                  c["lost_in_transit"], c["have_totals"], c["taken"], c["delivered"],
                  c["lost_full"]) for c in m["cpus"]],
        "frames_ok": m["stream"]["frames_ok"], "end": m["end"], "arch": m["arch"],
        "events": [e["name"] for e in m["events"]],
        "warnings": sorted(re.sub(r"(; |: )the stream was corrupted", "", w)
                           for w in m["warnings"] if not READER.fullmatch(w)),
    }


expected_cache, failures, stats = {}, [], [0, 0, 0]
for n, (st, want) in enumerate(cases):
    found, bad, skipped, trunc, text = reader(bytes(st.b))
    intact = st.intact()
    name = st.name
    if found != intact:
        failures.append(f"{name}: the test's own reader finds {len(found)} frames, {len(intact)} are intact")
        continue
    if not want(bad, skipped, trunc):
        failures.append(f"{name}: the rules give bad {bad}, skipped {skipped}, truncated {trunc}: "
                        "not what this damage must give")
        continue
    stats[0] += bad
    stats[1] += skipped
    stats[2] += trunc
    exp = b"".join(intact)
    key = hashlib.sha1(exp).hexdigest()
    if key not in expected_cache:
        p = os.path.join(tmp, f"exp{len(expected_cache)}.bin")
        open(p, "wb").write(exp)
        expected_cache[key] = run(p)
    erc, eout, eerr, erep = expected_cache[key]
    p = os.path.join(tmp, f"mut{n}.bin")
    open(p, "wb").write(st.b)
    rc, out, err, rep = run(p)
    why = []
    if rc != erc:
        why.append(f"record exit {rc}, {erc} for the intact frames: {err.strip()}")
    if out != text:
        why.append(f"console text {out[:80]!r}... is not the {len(text)} bytes outside frames")
    if (rep is None) != (erep is None):
        why.append(f"a profile written for one stream only: {err.strip()}")
    elif rep is None:
        if "no bmprof stream" not in err:
            why.append(f"no profile, and not the no-stream error: {err.strip()}")
    else:
        a, b = view(rep), view(erep)
        for f in a:
            if a[f] != b[f]:
                why.append(f"{f}: {a[f]} != {b[f]} (intact frames only)")
        s, es = rep["meta"]["stream"], erep["meta"]["stream"]
        got = (s["frames_bad_crc"], s["bytes_skipped"], s["truncated"])
        if got != (bad, skipped, trunc):
            why.append(f"stream counts (bad CRC, skipped, truncated) {got}, want {(bad, skipped, trunc)}")
        if (es["frames_bad_crc"], es["bytes_skipped"], es["truncated"]) != (0, 0, False):
            why.append(f"the clean stream has rejections: {es}")
        w = set(rep["meta"]["warnings"])
        for cond, line in ((bad, f"{bad} frames failed their CRC and were dropped"),
                           (skipped, f"{skipped} bytes that were not a valid frame were skipped"),
                           (trunc, "the stream ended inside a frame")):
            if bool(cond) != (line in w):
                why.append(f"warning {'missing' if cond else 'unexpected'}: {line}")
    for f in (p, p + ".data"):
        if os.path.exists(f):
            os.unlink(f)
    if why:
        failures.append(f"{name}: " + "; ".join(why))

print(f"{len(cases)} streams, {len(expected_cache)} distinct intact-frame streams; rejected in all: "
      f"{stats[0]} bad CRCs, {stats[1]} bytes skipped, {stats[2]} truncated; {time.time() - t0:.1f} s")
for f in failures[:15]:
    print("FAIL:", f)
if failures:
    print(f"{len(failures)} of {len(cases)} mutated streams failed")
    sys.exit(1)
PY
echo "stream mutation ok"
