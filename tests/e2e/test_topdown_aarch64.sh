#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof topdown on AArch64 (QEMU virt -cpu max, TCG): the collection runs in counting mode
# with the Arm PMUv3 Top-Down events in two groups for QEMU's 6 + 1 counters; QEMU
# 7.2 implements CPU_CYCLES, STALL_FRONTEND and STALL_BACKEND (PMCEID) but not OP_SPEC,
# OP_RETIRED or the STALL_SLOT events, and its -cpu max gives no issue width: the tree has
# Frontend and Backend Bound from the cycle-based stall events, and Bad Speculation and
# Retiring missing (null, never 0), each naming the event that was not there. The run's
# profile (--save) analysed again with -i gives the same tree. --per-function samples the
# level-1 events and splits them by function (shares.c's three loops).
. "$(dirname "$0")/lib.sh"
command -v qemu-system-aarch64 >/dev/null ||
	skip "qemu-system-aarch64 not installed (make deps)"
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$A64/topdown_core.elf" ] || skip "no AArch64 test images in $A64: run make test-images-aarch64"

# QEMU through a wrapper that keeps the runtime's configuration (the event lines)
cat >"$T/qemu" <<EOF
#!/bin/sh
for a in "\$@"; do
	case "\$a" in name=opt/bmprof/config,file=*) cp "\${a#name=opt/bmprof/config,file=}" "$T/config" ;; esac
done
exec qemu-system-aarch64 "\$@"
EOF
chmod +x "$T/qemu"
"$BMPROF" topdown --qemu "$T/qemu" --json -o "$T/core.json" --save "$T/core.data" \
	"$A64/topdown_core.elf" >"$T/core.out" 2>"$T/core.err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$T/core.err"; fail "topdown exit $rc"; }
grep -q "^topdown_core: 20000000 dependent divisions" "$T/core.out" ||
	fail "the image's console: $(cat "$T/core.out")"
# counting mode, the multiplexing tick, each event in its group (the cycles word twice, one
# per group, on the cycle counter)
python3 - "$T/config" <<'PY' || exit 1
import sys
lines = open(sys.argv[1]).read().split()
assert lines[0] == "mode=count" and lines[1] == "freq=1000", lines
ev = [l[len("event="):].split(":") for l in lines if l.startswith("event=")]
assert all(len(e) == 5 and e[2] == "0" for e in ev), ev
groups = {}
for e in ev:
    groups.setdefault(e[4], []).append((e[1], e[3]))
assert sorted(groups) == ["0", "1"], groups
for g in groups.values():
    assert ("cycles", "CPU_CYCLES") in g, g
assert ("arm.3b", "OP_SPEC") in groups["0"] + groups["1"], groups
print("config:", groups)
PY
python3 - "$T/core.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
assert r["topdown_family"] == "arm-pmuv3", r["topdown_family"]
assert r["cpu"]["arch"] == "aarch64" and r["width"] is None, r["cpu"]
assert r["plan"]["runs"] == 1 and r["plan"]["groups"] >= 1, r["plan"]
ev = {}
for e in r["events"]:
    ev.setdefault(e["event"], []).append(e)
cyc = ev["CPU_CYCLES"]
assert all(e["state"] == "counted" and e["value"] > 1e6 for e in cyc), cyc
for name in ("STALL_FRONTEND", "STALL_BACKEND"):
    assert all(e["state"] == "counted" for e in ev[name]), ev[name]
for name in ("OP_SPEC", "OP_RETIRED", "STALL_SLOT", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND"):
    for e in ev[name]:
        assert e["state"] == "not supported" and e["value"] is None, e
        assert "does not implement" in e["why"], e
# 7 GP events for 6 counters: two groups, each with its own cycles (QEMU then places what
# it implements of both at once, so nothing needs to rotate)
assert r["plan"]["groups"] == 2 and len(cyc) == 2 and {e["group"] for e in cyc} == {0, 1}, cyc
nodes = {n["name"]: n for n in r["tree"]}
assert list(nodes) == ["Frontend_Bound", "Bad_Speculation", "Retiring", "Backend_Bound"], list(nodes)
for name in ("Frontend_Bound", "Backend_Bound"):
    n = nodes[name]
    assert n["state"] == "ok" and 0 <= n["value"] <= 1, n
for name in ("Bad_Speculation", "Retiring"):
    n = nodes[name]
    assert n["state"] == "missing" and n["value"] is None and n["display_value"] is None, n
    assert not n["flagged"], n
    assert n["why"] == "OP_RETIRED: this CPU does not implement the event", n["why"]
print("tree:", [(k, v["value"]) for k, v in nodes.items()])
PY

# the text: the missing nodes say why, the events that were not there are listed
"$BMPROF" topdown -i "$T/core.data" >"$T/core.txt" 2>"$T/core.ierr" ||
	{ cat "$T/core.ierr"; fail "topdown -i on the saved profile failed"; }
grep -q "^Top-Down of $T/core.data: arm-pmuv3 formulas (aarch64, software" "$T/core.txt" ||
	fail "text head: $(head -2 "$T/core.txt")"
grep -Eq "^  Retiring +missing  OP_RETIRED: this CPU does not implement the event$" "$T/core.txt" ||
	fail "text Retiring: $(cat "$T/core.txt")"
grep -Eq "^  Frontend_Bound +[0-9.]+%" "$T/core.txt" || fail "text Frontend: $(cat "$T/core.txt")"
grep -q "^Not counted: .*OP_SPEC (this CPU does not implement the event)" "$T/core.txt" ||
	fail "text: no list of missing events: $(cat "$T/core.txt")"
# the saved profile gives the same tree as the run
"$BMPROF" topdown --json -i "$T/core.data" -o "$T/again.json" 2>"$T/again.err" ||
	{ cat "$T/again.err"; fail "topdown -i --json failed"; }
python3 - "$T/core.json" "$T/again.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["tree"] == b["tree"], (a["tree"], b["tree"])
assert a["events"] == b["events"]
print("saved profile: same tree")
PY

# --level 1 and --show-all on the memory workload's run are not needed here: the
# pointer chase takes seconds under TCG; shares.elf at level 2 adds no Arm level-2 nodes
"$BMPROF" topdown --level 2 --json -o "$T/shares.json" "$A64/shares.elf" >/dev/null 2>"$T/shares.err" ||
	{ cat "$T/shares.err"; fail "topdown on shares.elf failed"; }
pyassert "$T/shares.json" 'r["level"] == 2 and len(r["tree"]) == 4 and all(n["children"] == [] for n in r["tree"])'
# --per-function: the level-1 events sampled (without -icount, where QEMU's event counters
# interrupt); shares.c's work_a, work_b, work_c are the functions with the most cycle
# samples, each with its Frontend Bound; Bad Speculation and Retiring stay missing per
# function too; the saved profile gives the table again. How the cycles split between
# them follows host time here, and so the host's load (make bench: bench/a64_cycles.sh)
"$BMPROF" topdown --per-function --json -o "$T/pf.json" --save "$T/pf.data" "$A64/shares.elf" \
	>/dev/null 2>"$T/pf.err" || { cat "$T/pf.err"; fail "topdown --per-function failed"; }
python3 - "$T/pf.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
assert r["cycle_samples"] > 0, r["cycle_samples"]
f = {x["function"]: x for x in r["functions"]}
for name in ("work_a", "work_b", "work_c"):
    assert f[name]["Bad_Speculation"] is None and f[name]["Retiring"] is None, f[name]
    assert f[name]["Frontend_Bound"] is not None, f[name]
top = sorted(f, key=lambda n: f[n]["cycles_share"], reverse=True)[:3]
assert sorted(top) == ["work_a", "work_b", "work_c"], [(n, f[n]["cycles_share"]) for n in top]
print("per function:", [(x["function"], round(x["cycles_share"], 3)) for x in r["functions"][:3]])
PY
"$BMPROF" topdown --per-function -i "$T/pf.data" >"$T/pf.txt" 2>&1 || { cat "$T/pf.txt"; fail "-i --per-function"; }
grep -Eq "^  work_a +[0-9.]+% +[0-9.]+% +- +- +[0-9.]+%$" "$T/pf.txt" || fail "per-function text: $(cat "$T/pf.txt")"
"$BMPROF" topdown --per-function -i "$T/core.data" >"$T/nos.out" 2>"$T/nos.err"
[ $? -eq 125 ] && grep -q "no samples: record it with bmprof topdown --per-function" "$T/nos.err" ||
	fail "a counting profile with --per-function: $(cat "$T/nos.err")"
echo "ok"
