#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof topdown -i with counts files (docs/bmprof-topdown.md "Counts files"): a Skylake
# run's totals give the paper's tree (values checked against the arithmetic), hidden nodes
# under unflagged parents and --show-all, a negative node kept signed and clamped only for
# display, Bad Speculation's warning, a family named by the file, the CPU picked from its
# identity, multiplexed groups, and one-line errors for bad files and options. Also: the
# generated table is what tools/gen_topdown.py makes of the TSVs.
. "$(dirname "$0")/lib.sh"

(cd "$ROOT" && python3 tools/gen_topdown.py --check) ||
	fail "analysis/topdown_table.c is not what tools/gen_topdown.py makes of analysis/topdown/"

cat >"$T/skl.json" <<'J'
{ "format": "bmprof-topdown-counts", "version": 1,
  "cpu": { "arch": "x86_64", "vendor": "GenuineIntel", "family": 6, "model": "0x5e" },
  "counts": [
    { "event": "CPU_CLK_UNHALTED.THREAD", "value": 1000000 },
    { "event": "IDQ_UOPS_NOT_DELIVERED.CORE", "value": 400000 },
    { "event": "UOPS_ISSUED.ANY", "value": 1300000 },
    { "event": "UOPS_RETIRED.RETIRE_SLOTS", "value": 1200000 },
    { "event": "INT_MISC.RECOVERY_CYCLES", "value": 25000 },
    { "event": "CYCLE_ACTIVITY.STALLS_MEM_ANY", "value": 300000 },
    { "event": "RESOURCE_STALLS.SB", "value": 20000 },
    { "event": "CYCLE_ACTIVITY.STALLS_TOTAL", "value": 450000 },
    { "event": "RS_EVENTS.EMPTY_CYCLES", "value": 50000 },
    { "event": "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", "value": 600000 },
    { "event": "UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", "value": 500000 },
    { "event": "CYCLE_ACTIVITY.STALLS_L1D_MISS", "value": 180000 },
    { "event": "CYCLE_ACTIVITY.STALLS_L2_MISS", "value": 190000 },
    { "event": "ARITH.DIVIDER_ACTIVE", "value": null, "why": "not in this capture" }
  ] }
J
"$BMPROF" topdown -i "$T/skl.json" >"$T/skl.txt" 2>"$T/skl.err" || { cat "$T/skl.err"; fail "topdown -i"; }
cat "$T/skl.txt"
grep -q "^Top-Down of $T/skl.json: intel-skl formulas (x86_64, GenuineIntel, family 0x6 model 0x5e), 4 slots per cycle$" "$T/skl.txt" ||
	fail "head line"
# Backend = 1 - (0.10 + 0.05 + 0.30) = 0.55; Memory = 0.32; Core = 0.50 - 0.32 = 0.18
grep -Eq "^  Backend_Bound +55\.0%  <== above 20%$" "$T/skl.txt" || fail "Backend_Bound line"
grep -Eq "^    Memory_Bound +32\.0%  <== above 20%$" "$T/skl.txt" || fail "Memory_Bound line"
grep -Eq "^    Core_Bound +18\.0%  <== above 10%$" "$T/skl.txt" || fail "Core_Bound line"
# L2 Bound = (180000 - 190000) / 1e6 = -1%: shown 0.0% with its signed value
grep -Eq "^      L2_Bound +0\.0%  \(signed -1\.0%\)$" "$T/skl.txt" || fail "L2_Bound line"
grep -Eq "^      Divider +missing  ARITH.DIVIDER_ACTIVE: not in this capture$" "$T/skl.txt" ||
	fail "Divider line"
# Frontend (10%) is not flagged: its children are hidden, then shown marked
! grep -q "Fetch_Latency" "$T/skl.txt" || fail "Fetch_Latency shown under an unflagged parent"
grep -q "nodes under parents that are not flagged are hidden (--show-all shows them)" "$T/skl.txt" ||
	fail "no hidden-nodes note"
grep -q "^Values outside 0-100% are shown clamped" "$T/skl.txt" || fail "no clamping note"
"$BMPROF" topdown --show-all -i "$T/skl.json" >"$T/all.txt" || fail "--show-all"
grep -Eq "^    \. Fetch_Latency +missing  IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE was not counted  \(parent not flagged\)$" "$T/all.txt" ||
	fail "--show-all Fetch_Latency: $(grep Fetch_Latency "$T/all.txt")"
# JSON: the whole tree, signed values
"$BMPROF" topdown --json --level 3 -i "$T/skl.json" -o "$T/skl.out.json" || fail "--json"
python3 - "$T/skl.out.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
nodes = {}
def walk(ns, parent):
    for n in ns:
        nodes[n["name"]] = (n, parent)
        walk(n["children"], n["name"])
walk(r["tree"], None)
be, _ = nodes["Backend_Bound"]
assert abs(be["value"] - 0.55) < 1e-9 and be["flagged"] and be["shown"], be
l2, parent = nodes["L2_Bound"]
assert parent == "Memory_Bound" and abs(l2["value"] + 0.01) < 1e-9, l2
assert l2["display_value"] == 0 and l2["clamped"], l2
fl, _ = nodes["Fetch_Latency"]
assert fl["state"] == "missing" and fl["value"] is None and not fl["shown"], fl
assert r["plan"] is None and r["topdown_family"] == "intel-skl" and r["width"] == 4
print("json tree ok:", len(nodes), "nodes")
PY

# Bad Speculation high: the warning comes first; the family named by the file; groups
cat >"$T/icl.json" <<'J'
{ "format": "bmprof-topdown-counts", "version": 1,
  "cpu": { "topdown_family": "intel-icl" },
  "counts": [
    { "event": "TOPDOWN.SLOTS_P", "value": 1000, "group": 0, "enabled": 10, "running": 5 },
    { "event": "IDQ_UOPS_NOT_DELIVERED.CORE", "value": 100, "group": 0, "enabled": 10, "running": 5 },
    { "event": "INT_MISC.UOP_DROPPING", "value": 0, "group": 0, "enabled": 10, "running": 5 },
    { "event": "TOPDOWN.BACKEND_BOUND_SLOTS", "value": 200, "group": 0, "enabled": 10, "running": 5 },
    { "event": "INT_MISC.CLEARS_COUNT", "value": 0, "group": 0, "enabled": 10, "running": 5 },
    { "event": "UOPS_RETIRED.SLOTS", "value": 300, "group": 0, "enabled": 10, "running": 5 },
    { "event": "BR_MISP_RETIRED.ALL_BRANCHES", "value": 90, "group": 1, "enabled": 10, "running": 5 },
    { "event": "MACHINE_CLEARS.COUNT", "value": 10, "group": 1, "enabled": 10, "running": 5 }
  ] }
J
"$BMPROF" topdown --level 2 -i "$T/icl.json" >"$T/icl.txt" 2>&1 || { cat "$T/icl.txt"; fail "icl"; }
cat "$T/icl.txt"
# Bad Speculation = 1 - (0.1 + 0.2 + 0.3) = 0.4; Branch Mispredicts = 0.9 * 0.4
grep -q "^warning: Bad Speculation is high (40.0% > 15%)" "$T/icl.txt" || fail "no Bad Speculation warning"
grep -Eq "^    Branch_Mispredicts +36\.0%  <== above 10%$" "$T/icl.txt" || fail "Branch_Mispredicts"
grep -Eq "^    Machine_Clears +4\.0%$" "$T/icl.txt" || fail "Machine_Clears"

# errors: one line naming the problem, non-zero
bad() {   # bad WANT-STATUS WANT-TEXT ARGS...
	local want=$1 text=$2
	shift 2
	"$BMPROF" topdown "$@" >"$T/bad.out" 2>"$T/bad.err"
	local rc=$?
	[ "$rc" -eq "$want" ] || fail "topdown $*: exit $rc, want $want ($(cat "$T/bad.err"))"
	[ "$(wc -l <"$T/bad.err")" -eq 1 ] || fail "topdown $*: not one line: $(cat "$T/bad.err")"
	grep -q -- "$text" "$T/bad.err" || fail "topdown $*: $(cat "$T/bad.err")"
}
echo '{ "format": "bmprof-topdown-counts", "version": 1, "cpu": {"arch": "x86_64"}, ' >"$T/cut.json"
bad 125 "cut.json: not valid JSON: line 2: string or '}' expected" -i "$T/cut.json"
echo '{ "version": 1 }' >"$T/nofmt.json"
bad 125 'not a counts file: want an object with "format": "bmprof-topdown-counts"' -i "$T/nofmt.json"
echo '{ "format": "bmprof-topdown-counts", "version": 1, "cpu": { "arch": "x86_64", "vendor": "GenuineIntel", "family": 6, "model": 26 }, "counts": [] }' >"$T/nehalem.json"
bad 125 "no Top-Down formulas for this CPU (x86_64 GenuineIntel family 0x6 model 0x1a)" -i "$T/nehalem.json"
echo '{ "format": "bmprof-topdown-counts", "version": 1, "cpu": { "topdown_family": "intel-skl" }, "counts": [ { "event": "X", "value": -3 } ] }' >"$T/neg.json"
bad 125 "counts\[0\].value must be a count" -i "$T/neg.json"
bad 125 "$T/none.json: no such file" -i "$T/none.json"
bad 2 "--level takes 1 to 4, not '7'" --level 7 -i "$T/skl.json"
bad 2 "it picks its own events" --event cycles "$IMAGES/shares.elf"
bad 2 "does not go with -i" --accel tcg -i "$T/skl.json"
echo "ok"
