# SPDX-License-Identifier: BSD-2-Clause
"""Raw samples of rawregs.c (tests/e2e/progs/rawregs.c) in a profile file: every record
decodes, the per-CPU sequence numbers have no gap, the records match TOTALS' raw counters
(taken = delivered + lost, delivered = received), and every sample whose pc is inside
raw_loop's body holds the registers the loop keeps there.

  python3 raw_check.py ARCH DATA ELF CONSOLE [MIN_IN_LOOP]
exits 1 naming the first failed check; prints "raw ok: N samples, M in the loop"."""
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import frames  # noqa: E402

MAGIC1, MAGIC2 = 0x5a5a1234c3c3beef, 0x0123456789abcdef
# DWARF numbers: base register, end register, MAGIC1's, MAGIC2's, sp; slots
REGS = {"x86_64": (3, 15, 13, 4, 7, 16), "aarch64": (19, 20, 21, 9, 31, 32)}
ARCH = {"x86_64": 1, "aarch64": 2}
TOTAL_RAW = 12   # BMPROF_TOTAL_RAW_TAKEN: delivered, lost_full, lost_transport, frames follow


def fail(msg):
    print("raw_check: " + msg)
    sys.exit(1)


def main(argv):
    arch, data, elf, console = argv[1:5]
    min_in_loop = int(argv[5]) if len(argv) > 5 else 1
    base_r, end_r, m1_r, m2_r, sp_r, nregs = REGS[arch]
    m = re.search(r"arr (0x[0-9a-f]+) (0x[0-9a-f]+)", open(console).read())
    if not m:
        fail("no 'arr LO HI' line on the console")
    lo, hi = int(m.group(1), 16), int(m.group(2), 16)
    names = frames.nm_symbols(elf)
    body, end = names["raw_loop_body"], names["raw_loop_end"]
    recs, seqs, tot = [], {}, {}
    for f in frames.frames(open(data, "rb").read()):
        if f.type == frames.RAW_SAMPLES:
            cpu, seq, a, n, rs = frames.raw_samples(f.payload)
            if a != ARCH[arch] or n != nregs:
                fail("arch %d with %d slots, want %d with %d" % (a, n, ARCH[arch], nregs))
            if seq != seqs.get(cpu, 0):
                fail("cpu %d: RAW_SAMPLES seq %d, want %d" % (cpu, seq, seqs.get(cpu, 0)))
            seqs[cpu] = seq + 1
            recs += [(cpu, r) for r in rs]
        elif f.type == frames.TOTALS:
            cpu, t = frames.totals(f.payload)
            if len(t) < TOTAL_RAW + 5:
                fail("cpu %d: TOTALS without the raw fields" % cpu)
            tot[cpu] = t[TOTAL_RAW:TOTAL_RAW + 5]
    if not recs:
        fail("no raw samples")
    for cpu, (taken, delivered, full, xmit, nframes) in tot.items():
        got = sum(1 for c, _ in recs if c == cpu)
        if taken != delivered + full + xmit:
            fail("cpu %d: raw taken %d != delivered %d + lost %d + %d" %
                 (cpu, taken, delivered, full, xmit))
        if delivered != got:
            fail("cpu %d: raw delivered %d, received %d" % (cpu, delivered, got))
        if nframes != seqs.get(cpu, 0):
            fail("cpu %d: %d raw frames sent, %d received" % (cpu, nframes, seqs.get(cpu, 0)))
    in_loop = 0
    for cpu, (ev, fl, pc, addr, regs) in recs:
        if sp_r not in regs:
            fail("pc %#x: no stack pointer" % pc)
        if not body <= pc < end:
            continue
        in_loop += 1
        want = {m1_r: MAGIC1, m2_r: MAGIC2, end_r: hi}
        for r, v in want.items():
            if regs.get(r) != v:
                fail("pc %#x: register %d is %s, want %#x" %
                     (pc, r, hex(regs[r]) if r in regs else "missing", v))
        b = regs.get(base_r)
        if b is None or not lo <= b <= hi or (b - lo) % 8:
            fail("pc %#x: base register %d = %s, not a word of arr [%#x, %#x]" %
                 (pc, base_r, hex(b) if b is not None else "missing", lo, hi))
    if in_loop < min_in_loop:
        fail("%d raw samples in raw_loop's body, want at least %d" % (in_loop, min_in_loop))
    print("raw ok: %d samples, %d in the loop" % (len(recs), in_loop))


main(sys.argv)
