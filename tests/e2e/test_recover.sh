#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs that never end (tests/e2e/progs/hang.c), x86-64 and AArch64: bmprof qemu stops QEMU
# and reads the samples the image still holds from its memory (docs/bmprof-qemu.md,
# "Runs that never end"). With the default tables nothing is sent before the end, so every
# sample of these runs comes from memory:
#   - spinning forever with interrupts enabled, --timeout: exit 124, the spin on top, every
#     sample recovered, taken = delivered + lost exactly and every one received;
#   - hot work then a hang with interrupts disabled, Ctrl-C once the console says the work
#     is done: exit 130, the work on top, exact accounting, where the vCPU stopped;
#   - the same hang with --flush-interval 1 --stall 3: the periodic flush sent the work's
#     samples before the hang (nearly none left to recover), the silence ends the run
#     (exit 124), the vCPU is found in the hang;
#   - two CPUs (one spinning, one hung): each CPU's samples in its own function, exact;
#   - tiny tables at 20 kHz with a 1 ms flush: frames are in flight when QEMU stops, and
#     the accounting is still exact with no SAMPLES frame missing;
#   - the shared-memory transport, Ctrl-C (the signal reaches bmprof, not its ring thread);
#   - with call stacks (-g) and raw samples (--data-space), --timeout: the raw samples the
#     ring still held are recovered (raw taken = delivered + lost, every one received, the
#     spin on top of them); every recovered sample keeps its chain, main calls
#     spin_forever and hot_work in the folded stacks, report --children and the flame
#     graph; with tiny tables, chains that arrived before the stop are named by
#     recovered samples and not defined again, and nothing is counted twice;
#   - x86-64: a UEFI application (relocated: the load bias); an image without the
#     descriptor (a clear line, the profile as before).
# Conditions are forced (console lines, silence), never timed: a run waits for the line it
# needs, however slow the host.
. "$(dirname "$0")/lib.sh"
need_qemu

start() {   # NAME ARGS...: bmprof qemu in the background (pid in $pid)
	local name=$1
	shift
	"$BMPROF" qemu -o "$T/$name.data" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
}

wait_line() {   # NAME TEXT: until the image's console shows TEXT
	for _ in $(seq 1 6000); do
		grep -q "$2" "$T/$1.out" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || { tail -20 "$T/$1.err"; fail "$1: ended before '$2'"; }
		sleep 0.1
	done
	kill -TERM "$pid"
	fail "$1: no '$2' on the console"
}

finish() {   # NAME STATUS: wait for bmprof, check its status, write the reports
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq "$2" ] || { tail -30 "$T/$1.err"; fail "$1: bmprof qemu exited $rc, want $2"; }
	"$BMPROF" report -i "$T/$1.data" --format json >"$T/$1.json" || fail "$1: report failed"
	"$BMPROF" report -i "$T/$1.data" >"$T/$1.txt" || fail "$1: text report failed"
}

run() {   # NAME STATUS ARGS...: bmprof qemu in the foreground
	local name=$1 want=$2
	shift 2
	start "$name" "$@"
	finish "$name" "$want"
}

interrupted() {   # NAME TEXT ARGS...: Ctrl-C once the console shows TEXT
	local name=$1 text=$2
	shift 2
	start "$name" --timeout 900 "$@"
	wait_line "$name" "$text"
	kill -INT "$pid"
	finish "$name" 130
}

# The profile was recovered (why), every sample it holds came from memory (all=1) or some
# did, the accounting is exact, and no CPU was read inexactly.
recovered() {   # NAME WHY ALL
	check_accounting "$T/$1.json"
	python3 - "$T/$1.json" "$2" "$3" <<'PY' || fail "$1: recovery"
import json, sys
r, why, everything = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3] == "1"
h, s = r["meta"]["host"], r["meta"]["samples"]
assert h.get("recovered") == why, h
assert "recovered_inexact" not in h, h["recovered_inexact"]
n = int(h["recovered_samples"])
assert s["have_totals"] and s["taken"] == s["received"] + s["lost"], s
if everything:
    assert n == s["received"] > 0, (n, s)
for c in r["meta"]["cpus"]:
    assert c["seq_gaps"] == 0, c
print(f"recovered {n} of {s['received']} samples ({why})")
PY
	grep -q "^# recovered the run did not end" "$T/$1.txt" || fail "$1: no '# recovered' line"
	grep -q "bmprof: recovered .* samples from the memory of" "$T/$1.err" ||
		fail "$1: no 'recovered' line on stderr"
}

# --data-space: the raw samples the ring held were read from memory, the raw accounting is
# exact, every delivered one arrived, and they are the spin's.
raw_recovered() {   # NAME ELF
	grep -q "; raw samples: [1-9][0-9]* read from memory" "$T/$1.err" ||
		{ cat "$T/$1.err"; fail "$1: no raw samples recovered"; }
	"$BMPROF" report -i "$T/$1.data" --elf "$2" --sort type --format json >"$T/$1.type.json" ||
		fail "$1: report --sort type"
	python3 - "$T/$1.json" "$T/$1.type.json" <<'PY' || fail "$1: raw samples"
import json, sys
r, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
h = r["meta"]["host"]
n = int(h["recovered_raw"].split()[0])
taken = delivered = 0
for c in r["meta"]["cpus"]:
    lost = c["raw_lost_full"] + c["raw_lost_transport"]
    assert c["raw_taken"] == c["raw_delivered"] + lost, c
    assert c["raw_received"] == c["raw_delivered"], c
    taken += c["raw_taken"]
    delivered += c["raw_delivered"]
assert n > 0 and delivered >= n, (n, delivered)
assert t["backtracking"]["raw_samples"] == delivered, (t["backtracking"], delivered)
fns = {f["function"]: f["raw_samples"] for f in t["functions"]}
assert max(fns, key=fns.get) == "spin_forever", fns
print(f"raw: {n} recovered, {delivered} delivered of {taken} taken, by function {fns}")
PY
}

top_is() {   # NAME FUNCTION
	pyassert "$T/$1.json" "r['rows'][0]['symbol'] == '$2'" || {
		head -20 "$T/$1.txt"
		fail "$1: $2 is not the hottest function"
	}
}

stopped_in() {   # NAME FUNCTION: the report says vCPU 0 was stopped in FUNCTION
	grep -q "^# stopped   vCPU 0 at 0x[0-9a-f]* ($2+0x" "$T/$1.txt" ||
		{ grep "^# stopped" "$T/$1.txt"; fail "$1: vCPU 0 was not found in $2"; }
}

arch_runs() {   # ARCH IMAGE-DIR TINY-IMAGE
	local a=$1 dir=$2 tiny=$3

	run "$a-spin" 124 --timeout 8 --param mode=0 --param work=1 "$dir/hang.elf"
	recovered "$a-spin" timeout 1
	top_is "$a-spin" spin_forever
	# the recovered entries keep their phase: spin_forever's samples are the phase's
	"$BMPROF" report -i "$T/$a-spin.data" --phase spin --format json >"$T/$a-spin-ph.json" ||
		fail "$a-spin: report --phase spin"
	pyassert "$T/$a-spin-ph.json" "r['rows'][0]['symbol'] == 'spin_forever' and r['rows'][0]['percent'] > 99" ||
		fail "$a-spin: phase spin is not spin_forever's"
	grep -q "bmprof: timeout after 8 s" "$T/$a-spin.err" || fail "$a-spin: no timeout line"

	interrupted "$a-cli" "work done" --param mode=1 "$dir/hang.elf"
	recovered "$a-cli" interrupted 1
	top_is "$a-cli" hot_work
	grep -q "^# stopped   vCPU 0 at 0x" "$T/$a-cli.txt" || fail "$a-cli: no '# stopped' line"

	# (--icount: how many samples the work gets, and which flush sent them, follow the
	# instructions, not the host's load)
	run "$a-flush" 124 --icount --timeout 300 --flush-interval 1 --stall 3 --param mode=1 \
		"$dir/hang.elf"
	recovered "$a-flush" stalled 0
	top_is "$a-flush" hot_work
	stopped_in "$a-flush" hang_masked
	grep -q "bmprof: no frame for 3 s" "$T/$a-flush.err" || fail "$a-flush: no stall line"
	python3 - "$T/$a-flush.json" <<'PY' || fail "$a-flush: the flush did not deliver before the hang"
import json, sys
r = json.load(open(sys.argv[1]))
h, s = r["meta"]["host"], r["meta"]["samples"]
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
streamed = s["received"] - int(h["recovered_samples"])
assert rows["hot_work"] >= 100, rows
assert streamed >= 0.95 * s["received"], (streamed, s)
print(f"delivered before the hang: {streamed} of {s['received']}")
PY

	interrupted "$a-smp" "work done" --smp 2 --cpu-wait 600000 --param mode=2 "$dir/hang.elf"
	recovered "$a-smp" interrupted 1
	python3 -m frames per-function "$T/$a-smp.data" "$dir/hang.elf" >"$T/$a-smp.per" ||
		fail "$a-smp: per-function"
	python3 - "$T/$a-smp.per" <<'PY' || fail "$a-smp: samples on the wrong CPU"
import json, sys
per = json.load(open(sys.argv[1]))
c0, c1 = per["0"], per["1"]
assert max(c0, key=c0.get) == "hot_work", c0
assert c1.get("spin_other", 0) >= 0.9 * sum(c1.values()) > 0, c1
assert "spin_other" not in c0 and "hot_work" not in c1, (c0, c1)
print("cpu 0:", c0["hot_work"], "hot_work; cpu 1:", c1["spin_other"], "spin_other")
PY

	run "$a-tiny" 124 --icount --timeout 10 --freq 20000 --flush-interval 1 --param mode=0 "$tiny"
	recovered "$a-tiny" timeout 0
	pyassert "$T/$a-tiny.json" "r['meta']['cpus'][0]['evictions'] > 0"

	# the shared-memory transport: frames through the rings until Ctrl-C
	interrupted "$a-shm" "work done" --transport shm --flush-interval 2 --param mode=1 \
		"$dir/hang.elf"
	recovered "$a-shm" interrupted 0
	top_is "$a-shm" hot_work
	pyassert "$T/$a-shm.json" "r['meta']['host']['transport'] == 'shm'"
	! grep -q "shm transport: \(the image did not\|.*missing by sequence number, but\)" \
		"$T/$a-shm.err" || fail "$a-shm: the rings were reported misread"

	# call stacks: nothing is sent before the timeout, every chain is read from memory; with
	# the raw samples (--data-space) the ring still held
	run "$a-g" 124 -g --data-space --timeout 8 --param mode=0 --param work=1 "$dir/hang.elf"
	recovered "$a-g" timeout 1
	top_is "$a-g" spin_forever
	raw_recovered "$a-g" "$dir/hang.elf"
	chains "$a-g" 1
	"$BMPROF" report -i "$T/$a-g.data" --children --all >"$T/$a-g.children" ||
		fail "$a-g: report --children"
	python3 - "$T/$a-g.children" <<'PY' || { cat "$T/$a-g.children"; fail "$a-g: --children"; }
import sys
rows = {}
for line in open(sys.argv[1]):
    assert "never arrived" not in line, line
    p = line.split()
    if len(p) == 3 and p[0].endswith("%") and p[1].endswith("%"):
        rows[p[2]] = (float(p[0][:-1]), float(p[1][:-1]))
main, spin = rows["main"], rows["spin_forever"]
assert spin[0] == spin[1] > 50, spin           # a leaf: its children are itself
assert main[0] >= spin[0] + rows.get("hot_work", (0, 0))[0] - 0.01 and main[1] < 1, main
print("children: main", main, "spin_forever", spin)
PY
	"$BMPROF" flamegraph -i "$T/$a-g.data" -o "$T/$a-g.svg" 2>"$T/$a-g.fe" ||
		{ cat "$T/$a-g.fe"; fail "$a-g: flamegraph"; }
	python3 - "$T/$a-g.svg" "$T/$a-g.json" <<'PY' || fail "$a-g: the flame graph"
import json, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
delivered = sum(c["delivered"] for c in json.load(open(sys.argv[2]))["meta"]["cpus"])
assert int(root.get("data-total")) == delivered, (root.get("data-total"), delivered)
frames = [(int(g.get("data-d")), int(g.get("data-s")), int(g.get("data-n")), g.get("data-name"))
          for g in root.findall(".//%sg[@class='f']" % NS)]
def parent(d, s, n):
    return next(f[3] for f in frames if f[0] == d - 1 and f[1] <= s and s + n <= f[1] + f[2])
spin = [f for f in frames if f[3] == "spin_forever"]
assert spin and all(parent(*f[:3]) == "main" for f in spin), spin
assert sum(f[2] for f in spin) > delivered // 2, spin
print("flame graph: spin_forever under main,", sum(f[2] for f in spin), "of", delivered)
PY

	# tiny tables: the drains send each chain as soon as a buffer fills, and the table still
	# holds entries when QEMU stops (only a flush empties it): they name chains that arrived
	run "$a-gtiny" 124 -g --icount --timeout 10 --freq 20000 --param mode=0 --param work=1 \
		"$tiny"
	recovered "$a-gtiny" timeout 0
	chains "$a-gtiny" 0
}

# The recovered profile's chains: recovered_stacks says every sample kept its chain (and
# with ALL=0 that some recovered samples name chains that arrived on the wire); the folded
# stacks hold every delivered sample, spin_forever and hot_work under main.
chains() {   # NAME ALL
	pyassert "$T/$1.json" "r['meta']['host']['recovered_stacks'].endswith(' 0 samples without their chain')" ||
		fail "$1: recovered_stacks: $(grep -o 'recovered_stacks[^,]*' "$T/$1.json")"
	if [ "$2" = 0 ]; then
		pyassert "$T/$1.json" "int(r['meta']['host']['recovered_stacks'].split(', ')[1].split()[0]) > 0" ||
			fail "$1: no recovered sample named a chain that had arrived"
	fi
	grep -q "call chains: [0-9]* read from memory" "$T/$1.err" || fail "$1: no chains on stderr"
	"$BMPROF" export -i "$T/$1.data" --format folded -o "$T/$1.folded" || fail "$1: folded"
	python3 - "$T/$1.folded" "$T/$1.json" <<'PY' || { head -20 "$T/$1.folded"; fail "$1: chains"; }
import json, sys
r = json.load(open(sys.argv[2]))
delivered = sum(c["delivered"] for c in r["meta"]["cpus"])
leaf, total = {}, 0
for line in open(sys.argv[1]):
    st, n = line.rstrip("\n").rsplit(" ", 1)
    names, n = st.split(";"), int(n)
    total += n
    if names[-1] in ("spin_forever", "hot_work"):
        assert names[-2:-1] == ["main"], names
        leaf[names[-1]] = leaf.get(names[-1], 0) + n
assert total == delivered, (total, delivered)
assert leaf.get("spin_forever", 0) > 0, leaf
print("chains:", leaf, "of", total, "|", r["meta"]["host"]["recovered_stacks"])
PY
}

cd "$ROOT"
tiny_x86=$BUILD/x86_64-hang-tiny
make --no-print-directory -s image SRC=tests/e2e/progs/hang.c NAME=hang BUILD="$BUILD" \
	X86_OUT="$tiny_x86" X86_DEFS="-DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=8" \
	>"$T/make" 2>&1 || { cat "$T/make"; fail "make image (tiny tables) failed"; }
arch_runs x86 "$IMAGES" "$ROOT/$tiny_x86/hang.elf"

# an image built before the descriptor existed: one clear line, the profile as it was
objcopy --strip-symbol=bmprof_descriptor "$IMAGES/hang.elf" "$T/old.elf"
run x86-old 124 --timeout 4 --param mode=0 "$T/old.elf"
grep -q "cannot read the samples the image still held: .*has no symbol bmprof_descriptor" \
	"$T/x86-old.err" || { cat "$T/x86-old.err"; fail "x86-old: no line saying why"; }
pyassert "$T/x86-old.json" "'recovered' not in r['meta']['host'] and not r['meta']['samples']['have_totals']"

# a UEFI application, loaded where the firmware chose
uefi=$ROOT/$BUILD/test-images-uefi/hang.efi
if [ -f "$uefi" ] && [ -f /usr/share/OVMF/OVMF_CODE_4M.fd ]; then
	interrupted uefi "spinning" --param mode=0 --param work=1 "$uefi"
	recovered uefi interrupted 1
	pyassert "$T/uefi.json" "int(r['meta']['load_bias'], 16) != 0"
	pyassert "$T/uefi.json" "{x['symbol'] for x in r['rows']} >= {'spin_forever', 'hot_work'}"
else
	echo "note: no UEFI hang image or no OVMF: the UEFI case is not run"
fi

if command -v qemu-system-aarch64 >/dev/null && [ -f "$ROOT/$BUILD/test-images-aarch64/hang.elf" ]; then
	tiny_a64=$BUILD/aarch64-hang-tiny
	make --no-print-directory -s image ARCH=aarch64 SRC=tests/e2e/progs/hang.c NAME=hang \
		BUILD="$BUILD" A64_OUT="$tiny_a64" \
		A64_DEFS="-DBMPROF_A64_TABLE_ENTRIES=16 -DBMPROF_A64_OVF_ENTRIES=8" \
		>"$T/make" 2>&1 || { cat "$T/make"; fail "make image ARCH=aarch64 (tiny) failed"; }
	arch_runs a64 "$ROOT/$BUILD/test-images-aarch64" "$ROOT/$tiny_a64/hang.elf"
else
	echo "note: no qemu-system-aarch64 or no AArch64 test images: the AArch64 half is not run"
fi
exit 0
