#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof bhive under TCG -icount (guest time counts instructions, so a block of N
# instructions measures N cycles per iteration), on hand-picked blocks whose status, page
# faults, pages and written pages are known exactly:
#   register-only adds (0 faults; 1 and 3 cycles), a load and a store from an unmapped
#   address (1 fault, mapped and restarted), a load then a store to one page (2 faults: read,
#   then made writable), loads from two pages (2 faults), a load and a store on two pages
#   (4K aliasing through the shared frame: excluded), a walk over more pages than the fault
#   cap (too-many-faults at exactly the cap), privileged instructions (hlt, mov from CR3),
#   a non-canonical address, a divide error, ud2, a jump and bytes capstone cannot decode
#   (never run), an address in the harness's own memory (unmappable), a load through the
#   address in xmm0 (the vector registers start at the constant too: one fault), a
#   rip-relative load, alone and in a 34-byte block whose 300 copies span three pages
#   (every copy reaches one address: one fault, one page), a rip-relative store (one
#   written page); %fs:0x28 and %gs:0x28 (a stack canary: FS and GS are based at the
#   constant, one fault); misaligned accesses: a load and a store inside one 64-byte line
#   (measured), and loads across a line (misaligned, line-split, with the address the
#   harness computed: base + displacement, a load whose address moves a byte a copy and
#   crosses in the 57th, fs: + displacement, base + index * 4 + displacement). TCG raises
#   no #AC: the harness checks each described access in software at single steps;
# then a malformed line (one line naming it, exit 2, no output file), and --max-faults.
. "$(dirname "$0")/lib.sh"
need_qemu
cat >"$T/blocks.csv" <<'CSV'
4801d8,100.00
4801d84801d94801da
488b18,123
488918
488b18488918

488b18488b8800100000
488b1848898800100000
48c70000000005488b9800100000488b0b
480500100000488918
480500100000488b18
f4
0f20d8
48b800000000000000804c8b00
4831d248f7f2
0f0b
eb00
0f
48c7c0005000004c8b00
66480f7ec0488b00
8b0516470100
8b05164701000f1f40000f1f40000f1f40000f1f40000f1f40000f1f40000f1f4000
bf6031110048891d63ae1500
64488b042528000000
65488b042528000000
488b5801
48895801
488b583c
4883c001488b18
64488b04253c000000
488b4c8839
CSV
"$BMPROF" bhive --accel tcg --icount -o "$T/out.csv" "$T/blocks.csv" 2>"$T/err" ||
	{ cat "$T/err"; fail "bhive exited $?"; }
grep -q $'\r' "$T/err" && fail "progress written to a stderr that is not a terminal"
grep -q 'cycles are QEMU' "$T/err" || { cat "$T/err"; fail "no note that TCG timings are not a CPU's"; }
python3 - "$T/out.csv" <<'PY' || fail "the results (above)"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["hex", "cycles", "status", "detail"], rows[0]
rows = rows[1:]
want = [  # hex, status, cycles, faults, pages, written
    ("4801d8", "ok", "1.00", 0, 0, 0),
    ("4801d84801d94801da", "ok", "3.00", 0, 0, 0),
    ("488b18", "ok", "1.00", 1, 1, 0),
    ("488918", "ok", "1.00", 1, 1, 1),
    ("488b18488918", "ok", "2.00", 2, 1, 1),
    ("488b18488b8800100000", "ok", "2.00", 2, 2, 0),
    ("488b1848898800100000", "ok", "2.00", 2, 2, 1),
    ("48c70000000005488b9800100000488b0b", "ok", "3.00", 2, 2, 1),
    ("480500100000488918", "aliasing", "", -1, -1, -1),
    ("480500100000488b18", "too-many-faults", "", 32, 32, 0),
    ("f4", "privileged", "", 0, 0, 0),
    ("0f20d8", "privileged", "", 0, 0, 0),
    ("48b800000000000000804c8b00", "noncanonical", "", 0, 0, 0),
    ("4831d248f7f2", "divide-error", "", 0, 0, 0),
    ("0f0b", "invalid-opcode", "", 0, 0, 0),
    ("eb00", "control-flow", "", None, None, None),
    ("0f", "undecodable", "", None, None, None),
    ("48c7c0005000004c8b00", "unmappable", "", 0, 0, 0),
    ("66480f7ec0488b00", "ok", "2.00", 1, 1, 0),
    ("8b0516470100", "ok", "1.00", 1, 1, 0),
    ("8b05164701000f1f40000f1f40000f1f40000f1f40000f1f40000f1f40000f1f4000", "ok", "8.00", 1, 1, 0),
    ("bf6031110048891d63ae1500", "ok", "2.00", 1, 1, 1),
    ("64488b042528000000", "ok", "1.00", 1, 1, 0),
    ("65488b042528000000", "ok", "1.00", 1, 1, 0),
    ("488b5801", "ok", "1.00", 1, 1, 0),
    ("48895801", "ok", "1.00", 1, 1, 1),
    ("488b583c", "misaligned", "", 0, 0, 0),
    ("4883c001488b18", "misaligned", "", 1, 1, 0),
    ("64488b04253c000000", "misaligned", "", 0, 0, 0),
    ("488b4c8839", "misaligned", "", 0, 0, 0),
]
assert len(rows) == len(want), (len(rows), rows)
for r, (hx, st, cyc, faults, pages, written) in zip(rows, want):
    d = dict(kv.split("=", 1) for kv in r[3].split(";"))
    assert r[0] == hx and r[2] == st and r[1] == cyc, (r, st, cyc)
    if faults is None:
        assert "faults" not in d, r
        continue
    if faults == -1:     # one new written page a fault, until the frames run out
        assert 1 <= int(d["written"]) <= 8 and int(d["faults"]) == int(d["pages"]) == \
            int(d["written"]) and d["vector"] == "14", r
        continue
    assert (int(d["faults"]), int(d["pages"]), int(d["written"])) == (faults, pages, written), r
    assert d["accel"] == "tcg-icount", r
    if st == "ok":
        assert d["kept"] == "16+16/16" and d["u"] == "100+200", r
d = dict(kv.split("=", 1) for kv in rows[12][3].split(";"))
assert d["vector"] == "13" and d["offset"] == "10", rows[12]
d = dict(kv.split("=", 1) for kv in rows[17][3].split(";"))
assert d["vector"] == "14" and d["addr"] == "0x5000" and d["offset"] == "7", rows[17]
for k, off, addr in ((26, "0", "0x1234563c"), (27, "4", "0x12345639"), (28, "0", "0x1234563c"),
                     (29, "0", "0x5b05ae39")):
    d = dict(kv.split("=", 1) for kv in rows[k][3].split(";"))
    assert (d["vector"], d["offset"], d["addr"], d["size"], d["reason"]) == \
        ("17", off, addr, "8", "line-split"), rows[k]
PY

# a malformed line: one line on stderr naming it, exit 2, the output file untouched
printf '4801d8\n48zz\n' >"$T/bad.csv"
echo keep >"$T/keep.csv"
"$BMPROF" bhive --accel tcg -o "$T/keep.csv" "$T/bad.csv" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "malformed line: exit $rc, want 2"
[ "$(wc -l <"$T/err")" -eq 1 ] || { cat "$T/err"; fail "malformed line: not one line"; }
grep -qF "bad.csv:2: the first column is not hexadecimal" "$T/err" || { cat "$T/err"; fail "malformed line: not named"; }
[ "$(cat "$T/keep.csv")" = keep ] || fail "malformed line: the output file was replaced"

# --retries: blocks the first QEMU run judges unstable (forced by the hidden
# --unstable-first) are run again in a second one and measured there; with --retries 0
# they stay unstable; a block that faults is judged once
printf '4801d8\n4801d84801d9\n488b18\n0f0b\n' >"$T/retry.csv"
"$BMPROF" bhive --accel tcg --icount --unstable-first "$T/retry.csv" >"$T/retry.out" 2>"$T/retry.err" ||
	{ cat "$T/retry.err"; fail "--unstable-first exited $?"; }
grep -q '^bmprof: bhive: 3 of 4 blocks measured (TCG, 2 QEMU runs)$' "$T/retry.err" ||
	{ cat "$T/retry.err"; fail "retries: not two QEMU runs"; }
grep -q '^bmprof: bhive: 3 unstable blocks run again: 3 measured then$' "$T/retry.err" ||
	{ cat "$T/retry.err"; fail "retries: no summary"; }
for row in '4801d8,1.00,ok,' '4801d84801d9,2.00,ok,' '488b18,1.00,ok,.*;faults=1;'; do
	grep -q "^$row.*;retry=1;" "$T/retry.out" || { cat "$T/retry.out"; fail "retries: no row $row"; }
done
grep -q '^0f0b,,invalid-opcode,' "$T/retry.out" && ! grep -q '^0f0b.*retry' "$T/retry.out" ||
	{ cat "$T/retry.out"; fail "retries: the faulting block"; }
"$BMPROF" bhive --accel tcg --icount --unstable-first --retries 0 "$T/retry.csv" >"$T/retry0.out" 2>"$T/retry0.err" ||
	{ cat "$T/retry0.err"; fail "--retries 0 exited $?"; }
[ "$(grep -c ',,unstable,' "$T/retry0.out")" = 3 ] || { cat "$T/retry0.out"; fail "--retries 0: not 3 unstable"; }
grep -q "run again" "$T/retry0.err" && fail "--retries 0: ran again"

# --max-faults: the walk stops at the new cap; the two-page load still fits
printf '480500100000488b18\n488b18488b8800100000\n' >"$T/cap.csv"
"$BMPROF" bhive --accel tcg --icount --max-faults 2 "$T/cap.csv" >"$T/cap.out" 2>"$T/err" ||
	{ cat "$T/err"; fail "--max-faults 2 exited $?"; }
grep -q '^480500100000488b18,,too-many-faults,.*;faults=2;' "$T/cap.out" || { cat "$T/cap.out"; fail "--max-faults 2: the walk"; }
grep -q '^488b18488b8800100000,2.00,ok,.*;faults=2;' "$T/cap.out" || { cat "$T/cap.out"; fail "--max-faults 2: two pages"; }
echo "PASS"
