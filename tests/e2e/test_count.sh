#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Exact counts from the insn_count QEMU plugin (bmprof count), against counts the
# programs' sources fix (tests/e2e/progs-x86_64/count_x86.c, progs-aarch64/count_a64.c):
#   (a) x86-64 under TCG: rep movsb with RCX = 0, rep stosq over 64 K qwords, rep movsb
#       of 4 KiB, repe cmpsb: each counted once per execution (reps = 20), the folded
#       iterations reported; an MMIO load (the LAPIC's) in the middle of its block 1000
#       times, and its neighbours as often;
#   (b) the same under -icount with the timer at 20 kHz, the profile of that very run
#       saved: the samples show the timer interrupting rep stosq, and every count is the
#       same as in (a) (the MMIO load replayed in a block of its own is counted once);
#   (c) main in ring 3 (--user): the runtime's ud2 gate faults every time it runs and is
#       never counted, the ret after it runs once per call that comes back; hlt in ring 3
#       (#GP) is not counted either, and the run ends with status 126 with the counts;
#   (d) AArch64: a loop and an MMIO load (the PL011's) with and without -icount, and an
#       undefined instruction (udf) that is never counted;
#   (e) errors: a missing plugin (one line naming the file and make), an unknown function.
. "$(dirname "$0")/lib.sh"
need_qemu
X=$IMAGES/count_x86.elf
[ -f "$X" ] || skip "no $X: run make test-images"

# count IMAGE OUT.json ARGS...: bmprof count --json, stderr kept in OUT.err
count() {
	local img=$1 out=$2
	shift 2
	"$BMPROF" count --json "$@" "$img" >"$out" 2>"${out%.json}.err"
}

# check IMAGE JSON 'label=count ...': each label's instruction (nm) counted so often
check() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, subprocess, sys
img, path, want = sys.argv[1], sys.argv[2], sys.argv[3].split()
syms = {}
for l in subprocess.run(["nm", img], capture_output=True, text=True).stdout.splitlines():
    f = l.split()
    if len(f) == 3:
        syms[f[2]] = int(f[0], 16)
r = json.load(open(path))
counts = {int(i["addr"], 16): i["count"] for f in r["functions"] for i in f["insns"]}
bad = []
for w in want:
    name, n = w.split("=")
    got = counts.get(syms[name], 0)
    if got != int(n):
        bad.append(f"{name}: {got}, want {n}")
assert not bad, "; ".join(bad)
print("ok:", " ".join(want))
PY
}

REPS=20
FUNCS="--function rep_zero --function rep_big --function rep_copy --function repe_cmp --function mmio"
WANT="cnt_rep_zero=$REPS cnt_rep_zero_next=$REPS cnt_rep_big=$REPS cnt_rep_big_next=$REPS"
WANT="$WANT cnt_rep_copy=$REPS cnt_rep_copy_next=$REPS cnt_repe_cmp=$REPS cnt_repe_cmp_next=$REPS"
WANT="$WANT cnt_mmio_before=1000 cnt_mmio=1000 cnt_mmio_after=1000"

# (a)
count "$X" "$T/a.json" $FUNCS --param reps=$REPS || { cat "$T/a.err"; fail "(a) bmprof count failed"; }
check "$X" "$T/a.json" "$WANT" || fail "(a) x86 counts"
pyassert "$T/a.json" "r['corrections']['rep_iterations'] >= $REPS * (65536 + 4096 + 256 - 3)" ||
	fail "(a) the rep iterations folded are not reported"

# (b)
count "$X" "$T/b.json" $FUNCS --param reps=$REPS --icount --freq 20000 -o "$T/b.data" ||
	{ cat "$T/b.err"; fail "(b) bmprof count --icount failed"; }
check "$X" "$T/b.json" "$WANT" || fail "(b) x86 counts under -icount with the timer"
python3 - "$T/a.json" "$T/b.json" <<'PY' || fail "(b) counts differ from (a)"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ca = {(f["name"], i["addr"]): i["count"] for f in a["functions"] for i in f["insns"]}
cb = {(f["name"], i["addr"]): i["count"] for f in b["functions"] for i in f["insns"]}
diff = [k for k in ca if ca[k] != cb.get(k)]
assert ca and not diff, diff
PY
"$BMPROF" report -i "$T/b.data" --sort address --format json >"$T/b.rep" 2>"$T/b.rerr" ||
	{ cat "$T/b.rerr"; fail "(b) no profile of the counted run"; }
big=$(nm "$X" | awk '$3 == "cnt_rep_big" { print $1 }')
python3 - "$T/b.rep" "$big" <<'PY' || fail "(b) the timer did not interrupt rep stosq"
import json, sys
r = json.load(open(sys.argv[1])); pc = int(sys.argv[2], 16)
n = sum(x["samples"] for x in r["rows"] if int(x["addr"], 16) == pc)
print("samples at rep stosq:", n)
assert n >= 5, n
PY

# (c) ring 3: the ud2 gate, and hlt
count "$X" "$T/c.json" --user --param mmio=0 --function bmrt_user_call || { cat "$T/c.err"; fail "(c) --user failed"; }
python3 - "$X" "$T/c.json" <<'PY' || fail "(c) the ud2 gate"
import json, subprocess, sys
syms = {l.split()[2]: int(l.split()[0], 16) for l in
        subprocess.run(["nm", sys.argv[1]], capture_output=True, text=True).stdout.splitlines()
        if len(l.split()) == 3}
r = json.load(open(sys.argv[2]))
f = r["functions"][0]
c = {int(i["addr"], 16): i["count"] for i in f["insns"]}
ud2 = syms["bmrt_user_ud2"]
calls, after = c[int(f["start"], 16)], c[ud2 + 2]
print(f"bmrt_user_call entered {calls} times, ud2 {c[ud2]}, ret {after}; faults {r['corrections']['faulted']}")
assert calls >= 3 and c[ud2] == 0 and after == calls - 1, c   # FINISH does not return
assert r["corrections"]["faulted"] == calls
PY
U=$IMAGES/usermode.elf
count "$U" "$T/h.json" --user --param mode=1 --function fault_hlt --function bmrt_user_call
rc=$?
[ $rc = 126 ] || { cat "$T/h.err"; fail "(c) hlt in ring 3: status $rc, want 126"; }
grep -q "did not end normally" "$T/h.err" || fail "(c) the crash is not said"
python3 - "$U" "$T/h.json" <<'PY' || fail "(c) hlt in ring 3"
import json, subprocess, sys
syms = {l.split()[2]: int(l.split()[0], 16) for l in
        subprocess.run(["nm", sys.argv[1]], capture_output=True, text=True).stdout.splitlines()
        if len(l.split()) == 3}
r = json.load(open(sys.argv[2]))
c = {int(i["addr"], 16): i["count"] for f in r["functions"] for i in f["insns"]}
calls = c[syms["bmrt_user_call"]]
assert c[syms["usermode_hlt"]] == 0, c
assert r["corrections"]["faulted"] == calls + 1, (r["corrections"], calls)
print("hlt: 0; faults:", r["corrections"]["faulted"], "=", calls, "gates + 1")
PY

# (d) AArch64
A=$ROOT/$BUILD/test-images-aarch64/count_a64.elf
if command -v qemu-system-aarch64 >/dev/null && [ -f "$A" ]; then
	AW="cnt_loop=1000 cnt_mmio_before=1000 cnt_mmio=1000 cnt_mmio_after=1000"
	count "$A" "$T/d.json" --function loop --function mmio || { cat "$T/d.err"; fail "(d) failed"; }
	check "$A" "$T/d.json" "$AW" || fail "(d) AArch64 counts"
	count "$A" "$T/di.json" --icount --function loop --function mmio ||
		{ cat "$T/di.err"; fail "(d) --icount failed"; }
	check "$A" "$T/di.json" "$AW" || fail "(d) AArch64 counts under -icount"
	count "$A" "$T/du.json" --param mode=1 --function undefined
	rc=$?
	[ $rc = 126 ] || { cat "$T/du.err"; fail "(d) udf: status $rc, want 126"; }
	check "$A" "$T/du.json" "cnt_before_udf=1 cnt_udf=0" || fail "(d) udf counted"
	pyassert "$T/du.json" "r['corrections']['faulted'] == 1" || fail "(d) the fault is not reported"
else
	echo "skipped part (d): no qemu-system-aarch64 or no $A (make test-images-aarch64)"
fi

# (e) errors
BMPROF_INSN_COUNT=$T/none.so "$BMPROF" count "$X" >/dev/null 2>"$T/e1.err"
rc=$?
[ $rc = 125 ] && [ "$(wc -l <"$T/e1.err")" = 1 ] && grep -q "$T/none.so" "$T/e1.err" ||
	{ cat "$T/e1.err"; fail "(e) BMPROF_INSN_COUNT to a missing file: status $rc"; }
mkdir -p "$T/inst/bin"
cp "$BMPROF" "$T/inst/bin/bmprof"
"$T/inst/bin/bmprof" count "$X" >/dev/null 2>"$T/e2.err"
rc=$?
[ $rc = 125 ] && [ "$(wc -l <"$T/e2.err")" = 1 ] &&
	grep -q "$T/inst/lib/bmprof/insn_count.so is missing: run make" "$T/e2.err" ||
	{ cat "$T/e2.err"; fail "(e) no plugin beside bmprof: status $rc"; }
"$BMPROF" count --function no_such_function "$X" >/dev/null 2>"$T/e3.err"
[ $? = 125 ] && grep -q "no function no_such_function" "$T/e3.err" ||
	{ cat "$T/e3.err"; fail "(e) an unknown function"; }
echo "ok"
