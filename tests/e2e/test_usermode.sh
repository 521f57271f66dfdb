#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# main in ring 3 on the x86-64 runtime (bmprof qemu --user) and run-time parameters
# (--param), with tests/e2e/progs-x86_64/usermode.c:
#   (a) TCG -icount: work_a, work_b and work_c split the timer samples 50:30:20 in ring 3,
#       the program says it runs in ring 3, reads --param answer=0x2a as 42 and returns
#       --param ret=5, which is bmprof's exit status; the profile's meta names the
#       parameters and user_mode;
#   (b) hlt and a read of CR3 in ring 3 fault (#GP): the run ends with the exception, its
#       fault pc the instruction's address, bmprof's status 126;
#   (c) a malformed --param and --user on a UEFI application are one-line usage errors;
#   (d) under TCG -icount a chain of dependent imul and one of dependent add with as many
#       instructions get the same samples (every instruction costs the same);
#   (e) where KVM runs ring 3 natively (/dev/kvm writable and bmprof qemu --accel kvm
#       starts; here kvm_pvm), the same program in ring 3: it says it ran in ring 3, the
#       runtime measured what an interrupt costs ring 3 beyond its handler (console
#       line), both chains got samples and imul (3 cycles) more than add (1 cycle): the
#       samples are natively timed. How accurately (the samples' ratio, the core clock,
#       cycles per sample times samples against the chains' true cycles) depends on the
#       host's speed and load: make bench measures it (bench/usermode_kvm.sh).
#       Skipped, with the reason, elsewhere.
. "$(dirname "$0")/lib.sh"
need_qemu
img=$IMAGES/usermode.elf
[ -f "$img" ] || skip "no $img: run make test-images"

# samples per function of a JSON report: {"function": samples}
per_fn() {
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps({x["symbol"]: x["samples"] for x in r["rows"]}))' "$1"
}

# (a) shares and parameters
"$BMPROF" qemu --accel tcg --icount --freq 20000 --user --param answer=0x2a --param ret=5 \
	-o "$T/a.data" "$img" >"$T/a.out" 2>"$T/a.err"
rc=$?
[ $rc = 5 ] || { cat "$T/a.err"; fail "(a) exit status $rc, want 5 (main's return, --param ret=5)"; }
grep -qx "usermode: mode 0, ring 3, answer 42" "$T/a.out" ||
	{ cat "$T/a.out"; fail "(a) the program did not report ring 3 and answer 42"; }
"$BMPROF" report -i "$T/a.data" --format json >"$T/a.json" || fail "(a) report failed"
check_accounting "$T/a.json"
python3 - "$T/a.json" <<'PY' || fail "(a) shares in ring 3"
import json, sys
r = json.load(open(sys.argv[1]))
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
want = {"work_a": 50.0, "work_b": 30.0, "work_c": 20.0}
tot = sum(rows.get(f, 0) for f in want)
assert tot >= 1000 and tot >= 0.9 * r["meta"]["samples"]["reported"], (tot, rows)
for f, w in want.items():
    got = 100.0 * rows.get(f, 0) / tot
    print(f"{f}: {got:.1f}% (want {w}%)")
    assert abs(got - w) <= 3.0, f"{f}: {got:.1f}%"
end, host = r["meta"]["end"], r["meta"]["host"]
assert end["reason"] == "exit" and end["exit_code"] == 5, end
assert host.get("params") == "answer=0x2a,ret=5", host.get("params")
assert host.get("user_mode") == "1", host.get("user_mode")
PY

# (b) privileged instructions fault in ring 3
for m in 1:hlt 2:cr3; do
	mode=${m%%:*} what=${m#*:}
	want=$(nm "$img" | awk -v s="usermode_$what" '$3 == s { print "0x" $1 }')
	[ -n "$want" ] || fail "(b) no symbol usermode_$what in $img"
	"$BMPROF" qemu --accel tcg --user --param mode=$mode -o "$T/b$mode.data" "$img" \
		>"$T/b$mode.out" 2>"$T/b$mode.err"
	rc=$?
	[ $rc = 126 ] || { cat "$T/b$mode.err"; fail "(b) $what: exit status $rc, want 126"; }
	grep -q "^bmprof: target: error: CPU exception #GP (13)" "$T/b$mode.err" ||
		{ cat "$T/b$mode.err"; fail "(b) $what: no #GP message"; }
	"$BMPROF" report -i "$T/b$mode.data" --format json >"$T/b$mode.json" ||
		fail "(b) report failed"
	pyassert "$T/b$mode.json" "r['meta']['end']['reason'] == 'exception' and r['meta']['end']['vector'] == 13 and int(r['meta']['end']['fault_pc'], 16) == $want" ||
		fail "(b) $what: END does not name #GP at $want: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["meta"]["end"])' "$T/b$mode.json")"
	echo "(b) $what in ring 3: #GP at $want"
done

# (c) usage errors
"$BMPROF" qemu --param 9x=1 "$img" >"$T/c.out" 2>"$T/c.err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$T/c.err")" = 1 ] && grep -q -- "--param 9x=1" "$T/c.err" ||
	{ cat "$T/c.err"; fail "(c) --param 9x=1: status $rc, want 2 and one line"; }
"$BMPROF" stat --param x=1y "$img" >"$T/c.out" 2>"$T/c.err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$T/c.err")" = 1 ] ||
	{ cat "$T/c.err"; fail "(c) stat --param x=1y: status $rc, want 2 and one line"; }
uefi=$(ls "$ROOT/$BUILD"/test-images-uefi/*.efi 2>/dev/null | head -n 1)
if [ -n "$uefi" ]; then
	"$BMPROF" qemu --user "$uefi" >"$T/c.out" 2>"$T/c.err"
	rc=$?
	[ $rc = 125 ] && grep -q -- "--user runs main in ring 3" "$T/c.err" ||
		{ cat "$T/c.err"; fail "(c) --user on a UEFI application: status $rc"; }
fi

# (d) TCG -icount: imul and add chains of equal length split evenly
"$BMPROF" qemu --accel tcg --icount --freq 10000 --user --param mode=3 --param units=100 \
	-o "$T/d.data" "$img" >"$T/d.out" 2>"$T/d.err" || { cat "$T/d.err"; fail "(d) run failed"; }
"$BMPROF" report -i "$T/d.data" --format json >"$T/d.json" || fail "(d) report failed"
pyassert "$T/d.json" "(lambda s: s['chain_imul'] > 200 and abs(s['chain_imul'] - s['chain_add']) <= 0.1 * s['chain_add'])({x['symbol']: x['samples'] for x in r['rows']})" ||
	fail "(d) TCG -icount: imul and add differ: $(per_fn "$T/d.json")"
echo "(d) TCG -icount: $(per_fn "$T/d.json")"

# (e) natively timed ring 3 under KVM
if [ "$(uname -m)" != x86_64 ] || [ ! -w /dev/kvm ]; then
	echo "(e) skipped: no writable /dev/kvm on this $(uname -m) host"
	exit 0
fi
"$BMPROF" qemu --accel kvm --user --param mode=3 --param units=1000 --timeout 600 \
	-o "$T/e.data" "$img" >"$T/e.out" 2>"$T/e.err"
rc=$?
if [ $rc = 125 ] && ! [ -s "$T/e.data" ]; then
	echo "(e) skipped: bmprof qemu --accel kvm cannot run here: $(tail -n 1 "$T/e.err")"
	exit 0
fi
[ $rc = 0 ] || { cat "$T/e.err"; fail "(e) KVM run exited $rc"; }
grep -q "ring 3" "$T/e.out" || fail "(e) not in ring 3: $(cat "$T/e.out")"
grep -Eq "^bmprof: target: user mode: a timer interrupt costs ring 3 [0-9]+ TSC ticks, -?[0-9]+ of them beyond its handler's own time \(median of [0-9]+\)" "$T/e.err" ||
	fail "(e) no interrupt-cost message: $(cat "$T/e.err")"
grep "^bmprof: target: user mode:" "$T/e.err" | sed 's/^/(e) /'
"$BMPROF" report -i "$T/e.data" --format json >"$T/e.json" || fail "(e) report failed"
python3 - "$T/e.json" <<'PY' || fail "(e) natively timed samples"
import json, sys
r = json.load(open(sys.argv[1]))
s = {x["symbol"]: x["samples"] for x in r["rows"]}
imul, add = s.get("chain_imul", 0), s.get("chain_add", 0)
print(f"(e) KVM ring 3: chain_imul {imul}, chain_add {add}, ratio {imul / max(add, 1):.2f}")
assert add > 0 and imul > add, "imul (3 cycles) should take more samples than add (1 cycle)"
PY
