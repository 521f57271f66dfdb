#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof cpi and bmprof stalls on RISC-V: cpi_loop.elf (mix(): a 6-instruction loop run a
# known number of times) profiled on QEMU virt under --icount with Sscofpmf overflow of the
# cycles event (the instruction count there; the 10 MHz machine timer ticks every 100
# instructions, which aliases with a 6-instruction loop). The CFG of mix is complete, the
# loop body is found as one 6-instruction block that branches back to itself, and its
# estimated executions come within 5% of the iterations the program made (measured:
# +0.8%); on the U74 model the same block's best case is dual issue (CPI below 1). A
# synthetic profile with a SiFive U74's HELLO (mvendorid 0x489, marchid 7-series) gets
# the sifive-u74 model without --uarch.
. "$(dirname "$0")/lib.sh"
command -v qemu-system-riscv64 >/dev/null || skip "qemu-system-riscv64 not installed (make deps)"
command -v readelf >/dev/null || skip "readelf not installed"
img=$ROOT/$BUILD/test-images-riscv64/cpi_loop.elf
[ -f "$img" ] || skip "no $img: run make test-images-riscv64"
iters=20000000

"$BMPROF" qemu --accel tcg --icount --event cycles:period=100003 --param iters=$iters \
	-o "$T/q.data" "$img" >"$T/q.out" 2>"$T/q.err" || { cat "$T/q.err"; fail "bmprof qemu cpi_loop"; }
grep -q "^iterations $iters$" "$T/q.out" || { cat "$T/q.out"; fail "the program did not say its iterations"; }
"$BMPROF" cpi -i "$T/q.data" mix >"$T/q.txt" 2>"$T/e" || { cat "$T/e"; fail "cpi mix"; }
cat "$T/q.txt"
grep -q "^model:    tcg (recorded under QEMU TCG): " "$T/q.txt" || fail "TCG profile: model not tcg"
grep -q "^period:   .* cycles per sample (the event's sampling period)$" "$T/q.txt" ||
	fail "period not the event's"
"$BMPROF" cpi -i "$T/q.data" --json mix >"$T/q.json" 2>"$T/e" || { cat "$T/e"; fail "cpi mix --json"; }
"$BMPROF" cpi -i "$T/q.data" --uarch sifive-u74 --json mix >"$T/u.json" 2>"$T/e" ||
	{ cat "$T/e"; fail "cpi --uarch sifive-u74"; }
python3 - "$T/q.json" "$T/u.json" "$iters" <<'PY' || fail "loop estimate"
import json, sys
r, u = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
iters = int(sys.argv[3])
assert r["cfg_incomplete"] is False
loops = [b for b in r["blocks"] if b["in_loop"] and b["samples"] > 0]
assert len(loops) == 1, [(b["start"], b["samples"]) for b in r["blocks"]]
b = loops[0]
assert b["ninsns"] == 6, b["ninsns"]
assert any(s["kind"] == "taken" and s["to"] == b["start"] for s in b["successors"]), b["successors"]
assert all(i["samples"] > 0 for i in b["insns"]), [i["samples"] for i in b["insns"]]
err = b["execs"] / iters - 1
print("loop body %s: estimated %.0f executions, ran %d (%+.1f%%), confidence %s"
      % (b["start"], b["execs"], iters, 100 * err, b["confidence"]))
assert abs(err) <= 0.05, err
assert b["confidence"] == "high", b["confidence"]
# the function's exit: a block ending in ret
assert any(i["text"] == "ret" for x in r["blocks"] for i in x["insns"])
assert u["uarch"]["name"] == "sifive-u74" and u["uarch"]["chosen_by"] == "--uarch", u["uarch"]
ub = [x for x in u["blocks"] if x["start"] == b["start"]][0]
print("on sifive-u74: best-case CPI %.2f" % ub["best_cpi"])
assert 0.5 <= ub["best_cpi"] < 1.0, ub["best_cpi"]
PY
"$BMPROF" stalls -i "$T/q.data" >"$T/stalls.txt" 2>"$T/e" || { cat "$T/e"; fail "stalls"; }
grep -q "^samples:  .* in 1 function" "$T/stalls.txt" || { cat "$T/stalls.txt"; fail "stalls: functions"; }
grep -Eq '^\*\*\* Best-case ' "$T/stalls.txt" || { cat "$T/stalls.txt"; fail "stalls: best-case line"; }
echo "QEMU run ok"

# --- a U74's HELLO picks the sifive-u74 model
python3 - "$T/s.bin" "$img" <<'PY' || fail "cannot write the stream"
import re, struct, subprocess, sys
from frames import HELLO, build_id, enc_end_exit0, enc_frame, enc_samples, enc_timer_event, enc_totals
out, elf = sys.argv[1], sys.argv[2]
bid = build_id(elf)
# arch 4 (riscv64), timer source, 1 hart, a 10 MHz timebase, SiFive's ids
hello = enc_frame(HELLO, struct.pack("<HBBHHQQ16sIIIIB3x", 1, 4, 1, 1, 0, 10**7, 0,
                                     b"jedec-0x00000489", 0x489, 7, 0, 7, len(bid)) + bid)
syms = subprocess.run(["nm", elf], capture_output=True, text=True, check=True).stdout
mix = int(re.search(r"^([0-9a-f]+) [tT] mix$", syms, re.M).group(1), 16)
pcs = [(mix, 600)]
s = hello + enc_timer_event() + enc_samples(0, 0, pcs) + enc_totals(0, 600, 600, 0, 0, 1) + \
    enc_end_exit0()
open(out, "wb").write(s)
PY
"$BMPROF" record --from "$T/s.bin" --elf "$img" -o "$T/s.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "record"; }
"$BMPROF" cpi -i "$T/s.data" --period 1000 mix >"$T/s.txt" 2>"$T/e" || { cat "$T/e"; fail "cpi (U74 HELLO)"; }
grep -q "^model:    sifive-u74 (HELLO: jedec-0x00000489 family 1161 model 0x7): " "$T/s.txt" ||
	{ cat "$T/s.txt"; fail "U74 HELLO: model not sifive-u74"; }
echo "U74 model ok"
