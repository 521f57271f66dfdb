#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof bhive --arch aarch64 under TCG -icount (PMCCNTR_EL0 then counts instructions, so a
# block of N instructions measures N cycles per iteration), on hand-picked AArch64 blocks
# (little-endian 4-byte instructions) whose status, faults, pages and written pages are
# known exactly:
#   register-only adds and a multiply (0 faults), a load and a store from an unmapped
#   address (1 fault, mapped and restarted), a load then a store to one page (2 faults:
#   read, then a frame of its own), loads from three pages (3 faults), a load and a store
#   on two pages (the written page has a frame of its own: no aliasing), a store walk over
#   more written pages than frames (aliasing, one fault a page until they run out), a walk
#   over more pages than the fault cap (too-many-faults at exactly the cap), loads above the 48-bit range and from
#   the harness's own memory (unmappable), udf (invalid-opcode), an EL1 system register,
#   WFI (privileged), a misaligned load inside one cache line (run: only a load that
#   crosses a line is misaligned), branches, a return and SVC (control-flow, never run), a
#   length that is not a multiple of 4 (undecodable), a load through SP_EL0 and through V0
#   (they start at the constant too: one fault); then misaligned accesses: a load and a
#   pair that cross a 64-byte line (misaligned, line-split, with the address), a store and
#   a pair inside one (measured: the checks are off in the timed runs), an exclusive load
#   inside one (misaligned, strict: it faults with the checks off too);
# then blocks that end in a load from above the 48-bit range of a value ORed with bit 63,
# so the fault address shows the state every run starts from: NZCV 0, FPCR FZ only, SP_EL0
# and V31's upper lane the constant, and a load from a page the block mapped (after the
# restart the shared frame holds the constant); then --max-faults.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
cat >"$T/blocks.csv" <<'CSV'
0000018b
0000018b4200038b007c019b
200040f9
200000f9
200040f9200000f9
200040f9220048f9230050f9
200040f9220008f9
21044091200000f9
21044091200040f9
0100f0d2200040f9
0104a8d2200040f9
00000000
001038d5
7f2003d5
201040f8
01000014
c0035fd6
010000d4
0000018b00
e00340f9
003c084e000040f9
20c043f8
23c40091600840a9
201000f8
23840091600840a9
23040091607c5fc8
21040091200040f9
CSV
"$BMPROF" bhive --arch aarch64 --accel tcg --icount -o "$T/out.csv" "$T/blocks.csv" 2>"$T/err" ||
	{ cat "$T/err"; fail "bhive exited $?"; }
grep -q 'cycles are QEMU' "$T/err" || { cat "$T/err"; fail "no note that TCG timings are not a CPU's"; }
python3 - "$T/out.csv" <<'PY' || fail "the results (above)"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["hex", "cycles", "status", "detail"], rows[0]
rows = rows[1:]
want = [  # hex, status, cycles, faults, pages, written
    ("0000018b", "ok", "1.00", 0, 0, 0),
    ("0000018b4200038b007c019b", "ok", "3.00", 0, 0, 0),
    ("200040f9", "ok", "1.00", 1, 1, 0),
    ("200000f9", "ok", "1.00", 1, 1, 1),
    ("200040f9200000f9", "ok", "2.00", 2, 1, 1),
    ("200040f9220048f9230050f9", "ok", "3.00", 3, 3, 0),
    ("200040f9220008f9", "ok", "2.00", 2, 2, 1),
    ("21044091200000f9", "aliasing", "", -1, -1, -1),
    ("21044091200040f9", "too-many-faults", "", 32, 32, 0),
    ("0100f0d2200040f9", "unmappable", "", 0, 0, 0),
    ("0104a8d2200040f9", "unmappable", "", 0, 0, 0),
    ("00000000", "invalid-opcode", "", 0, 0, 0),
    ("001038d5", "privileged", "", 0, 0, 0),
    ("7f2003d5", "privileged", "", 0, 0, 0),
    ("201040f8", "ok", "1.00", 1, 1, 0),
    ("01000014", "control-flow", "", None, None, None),
    ("c0035fd6", "control-flow", "", None, None, None),
    ("010000d4", "control-flow", "", None, None, None),
    ("0000018b00", "undecodable", "", None, None, None),
    ("e00340f9", "ok", "1.00", 1, 1, 0),
    ("003c084e000040f9", "ok", "2.00", 1, 1, 0),
    ("20c043f8", "misaligned", "", 0, 0, 0),
    ("23c40091600840a9", "misaligned", "", 0, 0, 0),
    ("201000f8", "ok", "1.00", 1, 1, 1),
    ("23840091600840a9", "ok", "2.00", 1, 1, 0),
    ("23040091607c5fc8", "misaligned", "", 0, 0, 0),
    ("21040091200040f9", "misaligned", "", 1, 1, 0),
]
assert len(rows) == len(want), (len(rows), rows)
det = []
for r, (hx, st, cyc, faults, pages, written) in zip(rows, want):
    d = dict(kv.split("=", 1) for kv in r[3].split(";"))
    det.append(d)
    assert r[0] == hx and r[2] == st and r[1] == cyc, (r, st, cyc)
    if faults is None:
        assert "faults" not in d, r
        continue
    if faults == -1:     # one new written page a fault, until the frames run out
        assert 1 <= int(d["written"]) <= 8 and int(d["faults"]) == int(d["pages"]) == \
            int(d["written"]) and d["vector"] == "36", r
        continue
    assert (int(d["faults"]), int(d["pages"]), int(d["written"])) == (faults, pages, written), r
    assert d["accel"] == "tcg-icount", r
    if st == "ok":
        assert d["kept"] == "16+16/16" and d["u"] == "100+200", r
        assert d["clock"] == "pmc-core-cycles", r
# the exception that ended it: class (ESR_EL1.EC), offset in the block, FAR for aborts
assert (det[9]["vector"], det[9]["offset"], det[9]["addr"]) == ("36", "4", "0x8000000000000000"), det[9]
assert (det[10]["vector"], det[10]["offset"], det[10]["addr"]) == ("36", "4", "0x40200000"), det[10]
assert (det[8]["vector"], det[8]["offset"]) == ("36", "4"), det[8]
assert (det[11]["vector"], det[11]["offset"]) == ("0", "0"), det[11]
assert det[12]["vector"] == "0" and det[13]["vector"] == "1", (det[12], det[13])
# misaligned: an alignment fault (DFSC 0x21) at the access that crosses a line, its address
# and size: ldur x0, [x1, #0x3c] (8 bytes at 0x1234563c), ldp x0, x2, [x3] at 0x12345631;
# ldxr inside a line; and a load whose address moves a byte a copy (add x1, x1, #1;
# ldr x0, [x1]): inside the line in the first 56 copies, across it in the 57th
for k, off, addr, size, why in ((21, "0", "0x1234563c", "8", "line-split"),
                                (22, "4", "0x12345631", "16", "line-split"),
                                (25, "4", "0x12345601", "8", "strict"),
                                (26, "4", "0x12345639", "8", "line-split")):
    d = det[k]
    assert d["vector"] == "36" and int(d["error"], 16) & 0x3f == 0x21, d
    assert (d["offset"], d["addr"], d["size"], d["reason"]) == (off, addr, size, why), d
PY

# the state each run starts from, read through the fault address of a load from
# (value | 1 << 63): movk x0, #0x8000, lsl #48; ldr x1, [x0]
tail=0000f0f2010040f9
cat >"$T/state.csv" <<CSV
00423bd5$tail
00443bd5$tail
e0030091$tail
e03f184e$tail
600040f9$tail
CSV
"$BMPROF" bhive --arch aarch64 --accel tcg --icount -o "$T/state.out" "$T/state.csv" 2>"$T/err" ||
	{ cat "$T/err"; fail "state blocks: bhive exited $?"; }
python3 - "$T/state.out" <<'PY' || fail "the start state (above)"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
want = [  # what x0 held, the faults before
    (0x0, 0),              # mrs x0, nzcv
    (0x1000000, 0),        # mrs x0, fpcr: FZ
    (0x12345600, 0),       # mov x0, sp
    (0x12345600, 0),       # umov x0, v31.d[1]
    (0x12345600, 1),       # ldr x0, [x3]: the shared frame, after the restart
]
assert len(rows) == len(want), rows
for r, (x0, faults) in zip(rows, want):
    d = dict(kv.split("=", 1) for kv in r[3].split(";"))
    assert r[2] == "unmappable", r
    assert int(d["addr"], 16) == x0 | 1 << 63 and int(d["faults"]) == faults, (r, hex(x0))
PY

# --max-faults: the walk stops at the new cap; the two-page load still fits
printf '21044091200040f9\n200040f9220048f9\n' >"$T/cap.csv"
"$BMPROF" bhive --arch aarch64 --accel tcg --icount --max-faults 2 "$T/cap.csv" >"$T/cap.out" 2>"$T/err" ||
	{ cat "$T/err"; fail "--max-faults 2 exited $?"; }
grep -q '^21044091200040f9,,too-many-faults,.*;faults=2;' "$T/cap.out" || { cat "$T/cap.out"; fail "--max-faults 2: the walk"; }
grep -q '^200040f9220048f9,2.00,ok,.*;faults=2;' "$T/cap.out" || { cat "$T/cap.out"; fail "--max-faults 2: two pages"; }
echo "PASS"
