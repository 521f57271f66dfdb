# SPDX-License-Identifier: BSD-2-Clause
"""The Cortex-M unwind against GCC's own call-frame information, for
test_cm_unwind_cfi.sh: cm_unwind_cfi.py FRAMES-TOOL IMAGE.elf WORKDIR.

For every instruction of every function that has its own .ARM.exidx entry (the ones the
unwind walks through) and a DWARF FDE, the frame the unwind finds with the pc interrupted
there (cm_frames) must agree with the FDE's row for that pc: the return address's and the
caller's r7's slots from the CFA (or still in their registers), and the CFA itself where
both use the same register; where one uses sp and the other r7, the two must differ by
the function's `add r7, sp, #K`. "Unknown" (the unwind leaves the chain there) is
allowed; a different answer is not. Prints the counts; exits 1 on any disagreement.
"""
import re
import struct
import subprocess
import sys

tool, img, work = sys.argv[1:4]


def run(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, check=True, **kw).stdout


sections = run("arm-none-eabi-readelf", "-S", img)
text_at = int(re.search(r"\.text\s+PROGBITS\s+([0-9a-f]+)", sections).group(1), 16)
exidx_at = int(re.search(r"\.ARM\.exidx\s+ARM_EXIDX\s+([0-9a-f]+)", sections).group(1), 16)
run("arm-none-eabi-objcopy", "-O", "binary", "--only-section=.text", img, work + "/text.bin")
run("arm-none-eabi-objcopy", "-O", "binary", "--only-section=.ARM.exidx", img,
    work + "/exidx.bin")

# the functions with an unwind entry of their own (not EXIDX_CANTUNWIND)
starts = set()
data = open(work + "/exidx.bin", "rb").read()
for i in range(0, len(data), 8):
    w0, w1 = struct.unpack_from("<II", data, i)
    off = (w0 << 1) & 0xFFFFFFFF
    off = (off - (1 << 32) if off & 0x80000000 else off) >> 1
    if w1 != 1:
        starts.add((exidx_at + i + off) & 0xFFFFFFFF)

insns, setups = [], []
for line in run("arm-none-eabi-objdump", "-d", img).splitlines():
    m = re.match(r"\s*([0-9a-f]+):\s+[0-9a-f]{4}( [0-9a-f]{4})?\s+(\S+)(.*)", line)
    if not m or m.group(3).startswith("."):
        continue
    a = int(m.group(1), 16)
    insns.append(a)
    s = re.match(r"\s*r7, sp(, #(\d+))?$", m.group(4))
    if m.group(3) in ("add", "mov") and s:
        setups.append((a, int(s.group(2) or 0)))

fdes, cur = [], None
for line in run("arm-none-eabi-readelf", "--debug-dump=frames-interp", img).splitlines():
    m = re.search(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", line)
    if m:
        cur = {"lo": int(m.group(1), 16), "hi": int(m.group(2), 16), "rows": [], "cols": None}
        fdes.append(cur)
    elif " CIE" in line:
        cur = None
    elif cur is not None and line.strip().startswith("LOC"):
        cur["cols"] = line.split()
    elif cur is not None and cur["cols"] and re.match(r"[0-9a-f]{8} ", line):
        cur["rows"].append(dict(zip(cur["cols"], line.split())))
fdes = [f for f in fdes if f["lo"] in starts]
for f in fdes:
    f["k"] = next((k for a, k in setups if f["lo"] <= a < f["hi"]), None)

queries = [(f, a) for f in fdes for a in insns if f["lo"] <= a < f["hi"]]
out = run(tool, work + "/text.bin", "%x" % text_at,
          input="".join("%x %x\n" % (f["lo"], a) for f, a in queries)).split("\n")


def slot(row, *cols):
    for c in cols:
        if c in row:
            if row[c] == "u":
                return 1
            m = re.match(r"c([+-]\d+)$", row[c])
            return int(m.group(1)) if m else None
    return 1


agree = unknown = wrong = 0
for (f, a), line in zip(queries, out):
    row = None
    for r in f["rows"]:
        if int(r["LOC"], 16) <= a:
            row = r
    v = line.split()
    if row is None:
        continue
    if v[1] == "-1":
        unknown += 1
        continue
    base, cfa, ra, r7 = map(int, v[1:])
    m = re.match(r"r(\d+)\+(\d+)$", row["CFA"])
    dbase, dcfa = int(m.group(1)), int(m.group(2))
    bad = []
    if dbase == base and dcfa != cfa:
        bad.append("cfa")
    if dbase != base and (f["k"] is None or
                          (cfa - dcfa if dbase == 7 else dcfa - cfa) != f["k"]):
        bad.append("cfa (r7 = sp + %s)" % f["k"])
    if slot(row, "lr", "ra") != ra:
        bad.append("return address")
    if slot(row, "r7") != r7:
        bad.append("caller's r7")
    if bad:
        wrong += 1
        print("%s: %#x: %s differ: CFI %s, unwind %s" % (img, a, ", ".join(bad), row, line))
    else:
        agree += 1
print("%s: %d functions, %d pcs agree with the CFI, %d unknown, %d differ" %
      (img.rsplit("/", 1)[-1], len(fdes), agree, unknown, wrong))
sys.exit(1 if wrong or agree < 1000 else 0)
