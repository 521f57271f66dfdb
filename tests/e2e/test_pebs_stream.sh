#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# PEBS-sourced data-space reports, host side (QEMU has no PEBS): a synthetic stream from an
# x86-64 image with PEBS (an EVENT frame saying precise = PEBS, RAW_SAMPLES records with
# the exact-pc and data-address flags), whose data addresses point into the globals of the
# MCF-like test image (nodes, arcs, negative) at chosen members, recorded with bmprof
# record --data-space --from and reported with --sort type,member, object and --layout,
# text and JSON. Checked field by field:
#   - the source line says PEBS;
#   - every record's address is the hardware's, used as it is: every record's pc is the
#     entry of price_out, where backtracking would find nothing (a branch target), yet each
#     is charged to the member its address lies in;
#   - each row's count is the number of records put at that member or object;
#   - the exact-pc records count as resolved to a trigger, the others do not;
#   - a PEBS event that fell back (precise = DISABLED) says why and backtracks.
. "$(dirname "$0")/lib.sh"

img=$IMAGES/mcf.elf
[ -f "$img" ] || fail "no $img (make test-images)"

python3 - "$BMPROF" "$img" "$T" "$ROOT/tests/e2e" <<'PY' || fail "PEBS stream reports"
import json, subprocess, sys
bmprof, elf, tmp, here = sys.argv[1:5]
sys.path.insert(0, here)
import frames as F

syms = F.nm_symbols(elf)
nodes, arcs, negative, price_out = syms["nodes"], syms["arcs"], syms["negative"], syms["price_out"]
NODE, ARC = 112, 64   # sizeof(struct node), sizeof(struct arc) (examples/mcf.c)

# (address, how many records): members by offset (struct node: child 24, potential 80;
# struct arc: tail 0, head 8, cost 32), a global scalar, and an address in no object
want = [
    ("{struct node}.+80 potential", [nodes + NODE * k + 80 for k in range(37)]),
    ("{struct arc}.+0 tail", [arcs + ARC * k for k in range(23)]),
    ("{struct arc}.+8 head", [arcs + ARC * (100 + k) + 8 for k in range(11)]),
    ("{struct node}.+24 child", [nodes + NODE * (500 + k) + 24 for k in range(9)]),
    ("{struct arc}.+32 cost", [arcs + ARC * (7 + k) + 32 for k in range(5)]),
    ("<Scalars>", [negative] * 4),
    ("<Unknown> (Unidentified)", [0x10, 0x18]),
]
regs = {0: 1, 7: 0x7ff000}   # rax, rsp: present, not needed


def stream(precise, flags):
    recs = [(1, flags(i), price_out, a, regs)
            for i, a in enumerate(a for _, addrs in want for a in addrs)]
    out = F.enc_hello(1, F.build_id(elf), source=2) + \
        F.enc_pmu_event(1, "mem-loads", 0x81d0, 20000, 0, precise)
    seq = 0
    for i in range(0, len(recs), 30):
        out += F.enc_raw_samples(0, seq, recs[i:i + 30])
        seq += 1
    out += F.enc_samples_of(0, 0, 1, [(price_out, len(recs))])
    out += F.enc_totals_raw(0, len(recs), 1, len(recs), len(recs), 0, seq)
    return out + F.enc_end_exit0(), len(recs)


def run(*args):
    r = subprocess.run([bmprof, *args], capture_output=True, text=True)
    assert r.returncode == 0, f"{args}: exit {r.returncode}: {r.stderr}"
    assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr
    return r


def report(data, *args):
    return run("report", "-i", data, "--elf", elf, *args).stdout


# PEBS: records with DATA_ADDR | PC_EXACT, except every fifth without PC_EXACT
raw, total = stream(1, lambda i: 1 if i % 5 == 4 else 3)
exact = sum(1 for i in range(total) if i % 5 != 4)
open(f"{tmp}/pebs.raw", "wb").write(raw)
data = f"{tmp}/pebs.data"
rec = run("record", "--data-space", "--from", f"{tmp}/pebs.raw", "-o", data)
assert "by PEBS" in rec.stderr, rec.stderr
assert "  event 1   mem-loads, period 20000, PMU counter 0, by PEBS records\n" in rec.stderr, \
    rec.stderr
assert "source    timer" not in rec.stderr, rec.stderr
ev = json.loads(report(data, "--format", "json"))["meta"]["events"]
assert [(e["name"], e["precise"]) for e in ev] == [("mem-loads", "pebs")], ev

txt = report(data, "--sort", "type,member", "-a")
src = [l for l in txt.splitlines() if l.startswith("# data space:")]
assert src == ["# data space: samples from mem-loads: raw samples from PMU event mem-loads by "
               "PEBS: each record's pc is the instruction that caused the event and its data "
               "address is the hardware's (no backtracking)"], src
assert f"# hardware addresses: {total} raw samples (100.0%) carry the data address the " \
       "hardware recorded, used as it is" in txt, txt
rows = {}
for l in txt.splitlines():
    f = l.split(None, 2)
    if len(f) == 3 and f[0].isdigit() and f[1].endswith("%"):
        rows[f[2]] = int(f[0])
assert rows == {name: len(a) for name, a in want}, rows

j = json.loads(report(data, "--sort", "type,member", "--format", "json"))
assert j["view"] == "type,member" and j["data_space_source"] == "mem-loads", j["view"]
assert "by PEBS" in j["source_line"], j["source_line"]
bt = j["backtracking"]
typed = total - 2
assert (bt["raw_samples"], bt["hardware_address"], bt["address"], bt["trigger"], bt["type"]) \
    == (total, total, total, exact, typed), bt
assert {r["name"]: r["samples"] for r in j["rows"]} == {n: len(a) for n, a in want}, j["rows"]
for r in j["rows"]:
    assert abs(r["percent"] - 100.0 * r["samples"] / total) < 1e-9, r
assert j["categories"]["objects"] == total - 4 - 2 and j["categories"]["<Scalars>"] == 4 \
    and j["categories"]["(Unidentified)"] == 2, j["categories"]
# every pc is price_out's entry, charged to every row
assert {p["pc"] for p in j["pcs"]} == {hex(price_out)}, j["pcs"]
assert sum(p["samples"] for p in j["pcs"]) == total
assert j["functions"] == [{"function": "price_out", "raw_samples": total, "trigger": exact,
                           "address": total, "type": typed}], j["functions"]

objs = {r["name"]: r["samples"] for r in
        json.loads(report(data, "--sort", "object", "--format", "json"))["rows"]}
assert objs == {"nodes": 46, "arcs": 39, "negative": 4, "<Unknown> (Unidentified)": 2}, objs
txt = report(data, "--sort", "object", "-a")
assert "      46  50.55%  nodes" in txt and "      39  42.86%  arcs" in txt, txt

lay = json.loads(report(data, "--layout", "struct node", "--format", "json"))["layout"]
assert (lay["type"], lay["size"], lay["samples"], lay["samples_at_no_member"]) == \
    ("struct node", NODE, 46, 0), lay
got = {f["name"]: (f["offset"], f["samples"]) for f in lay["fields"] if f["samples"]}
assert got == {"child": (24, 9), "potential": (80, 37)}, got
txt = report(data, "--layout", "struct arc")
for member, off, n in (("tail", 0, 23), ("head", 8, 11), ("cost", 32, 5)):
    line = [l for l in txt.splitlines() if l.strip().split(" ")[-1:] and f" {member};" in l]
    assert len(line) == 1 and line[0].split()[-4:-1] == [str(off), "8", str(n)], (member, line)

# PEBS asked for but unavailable: the interrupt's samples, no address, backtracked
raw, total = stream(3, lambda i: 0)
open(f"{tmp}/nopebs.raw", "wb").write(raw)
data = f"{tmp}/nopebs.data"
rec = run("record", "--data-space", "--from", f"{tmp}/nopebs.raw", "-o", data)
assert ", by its interrupt (no PEBS: IA32_MISC_ENABLE[12] says PEBS is unavailable)" in \
    rec.stderr, rec.stderr
ev = json.loads(report(data, "--format", "json"))["meta"]["events"]
assert [(e["name"], e["precise"]) for e in ev] == [("mem-loads", "pebs_disabled")], ev
j = json.loads(report(data, "--sort", "type,member", "--format", "json"))
assert j["source_line"] == "raw samples from PMU event mem-loads (its overflow interrupt; no " \
    "PEBS: IA32_MISC_ENABLE[12] says PEBS is unavailable); the host backtracks from each " \
    "delivered pc to the memory instruction", j["source_line"]
assert j["backtracking"]["hardware_address"] == 0 and j["backtracking"]["address"] == 0
# the entry of price_out is a branch target: every sample Unverifiable
assert [(r["name"], r["samples"]) for r in j["rows"]] == [("<Unknown> (Unverifiable)", total)]
print("PEBS stream: %d records, rows, objects, layouts and the fallback as put in" % total)
PY
echo "ok"
