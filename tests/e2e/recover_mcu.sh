# SPDX-License-Identifier: BSD-2-Clause
# Recovery from a hung guest's memory on one small board (sourced by test_recover_cortexm.sh
# and test_recover_riscv64.sh after lib.sh): tests/e2e/progs/hang.c under --icount, where
# the default tables send nothing before the end, so the samples come from memory:
#   - mode=1: hot work, then a hang with interrupts masked; Ctrl-C once the console says
#     the work is done: exit 130, the work on top, the vCPU found in hang_masked, every
#     sample the target took received (taken = delivered + lost, exactly);
#   - mode=0 work=0: spinning from the start, --timeout: exit 124, spin_forever on top,
#     in phase "spin", every sample received from memory;
#   - 16-entry tables (8 entries on the Cortex-M) at 20 kHz with a 1 ms flush: frames are
#     sent all through the run and in flight when QEMU stops; the table evicts, and the
#     accounting is still exact with no SAMPLES frame missing;
#   - with call stacks where the board has them (RISC-V, -g): every recovered sample keeps
#     its chain, spin_forever under main in the folded stacks; with raw samples
#     (--data-space) too, the ones the ring held are read from memory, the raw accounting
#     exact, and the data-space view counts every delivered one.
# Each run waits for the console line it needs or for a fixed timeout; no count depends
# on the host's speed.

mcu_start() {   # NAME ARGS...: bmprof qemu in the background (pid in $pid)
	local name=$1
	shift
	"$BMPROF" qemu --icount -o "$T/$name.data" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
}

mcu_finish() {   # NAME STATUS
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq "$2" ] || { tail -30 "$T/$1.err"; fail "$1: bmprof qemu exited $rc, want $2"; }
	"$BMPROF" report -i "$T/$1.data" --format json >"$T/$1.json" || fail "$1: report failed"
	"$BMPROF" report -i "$T/$1.data" >"$T/$1.txt" || fail "$1: text report failed"
}

mcu_wait_line() {   # NAME TEXT: until the image's console shows TEXT
	for _ in $(seq 1 6000); do
		grep -q "$2" "$T/$1.out" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || { tail -20 "$T/$1.err"; fail "$1: ended before '$2'"; }
		sleep 0.1
	done
	kill -TERM "$pid"
	fail "$1: no '$2' on the console"
}

# Recovered (why), exact, every sample received; ALL=1: every one of them from memory.
mcu_recovered() {   # NAME WHY ALL TOP
	check_accounting "$T/$1.json"
	python3 - "$T/$1.json" "$2" "$3" "$4" <<'PY' || { head -20 "$T/$1.txt"; fail "$1: recovery"; }
import json, sys
r, why, everything, top = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3] == "1", sys.argv[4]
h, s = r["meta"]["host"], r["meta"]["samples"]
assert h.get("recovered") == why, h
assert "recovered_inexact" not in h, h["recovered_inexact"]
n = int(h["recovered_samples"])
assert s["have_totals"] and s["taken"] == s["received"] + s["lost"], s
if everything:
    assert n == s["received"] == s["taken"] > 0, (n, s)
for c in r["meta"]["cpus"]:
    assert c["seq_gaps"] == 0, c
assert r["rows"][0]["symbol"] == top, r["rows"][:3]
print(f"{sys.argv[1].split('/')[-1]}: recovered {n}, received {s['received']} of {s['taken']} "
      f"taken ({why}), {top} on top")
PY
	grep -q "^# recovered the run did not end" "$T/$1.txt" || fail "$1: no '# recovered' line"
	grep -q "bmprof: recovered .* samples from the memory of" "$T/$1.err" ||
		fail "$1: no 'recovered' line on stderr"
}

mcu_recover_runs() {   # PREFIX IMAGE TINY-IMAGE [stacks]
	local a=$1 img=$2 tiny=$3 stacks=${4:-}

	mcu_start "$a-masked" --timeout 900 --freq 10000 --param mode=1 --param work=4 "$img"
	mcu_wait_line "$a-masked" "work done"
	kill -INT "$pid"
	mcu_finish "$a-masked" 130
	mcu_recovered "$a-masked" interrupted 1 hot_work
	grep -q "^# stopped   vCPU 0 at 0x[0-9a-f]* (hang_masked+0x" "$T/$a-masked.txt" ||
		{ grep "^# stopped" "$T/$a-masked.txt"; fail "$a-masked: vCPU 0 was not found in hang_masked"; }

	mcu_start "$a-spin" --timeout 6 --param mode=0 --param work=0 "$img"
	mcu_finish "$a-spin" 124
	mcu_recovered "$a-spin" timeout 1 spin_forever
	"$BMPROF" report -i "$T/$a-spin.data" --phase spin --format json >"$T/$a-spin-ph.json" ||
		fail "$a-spin: report --phase spin"
	pyassert "$T/$a-spin-ph.json" "r['rows'][0]['symbol'] == 'spin_forever' and r['rows'][0]['percent'] > 99" ||
		fail "$a-spin: phase spin is not spin_forever's"

	mcu_start "$a-tiny" --timeout 6 --freq 20000 --flush-interval 1 --param mode=0 \
		--param work=1 "$tiny"
	mcu_finish "$a-tiny" 124
	mcu_recovered "$a-tiny" timeout 0 spin_forever
	pyassert "$T/$a-tiny.json" "r['meta']['cpus'][0]['evictions'] > 0" ||
		fail "$a-tiny: the table did not evict"

	[ "$stacks" = stacks ] || return 0
	mcu_start "$a-g" -g --data-space --timeout 6 --param mode=0 --param work=1 "$img"
	mcu_finish "$a-g" 124
	mcu_recovered "$a-g" timeout 1 spin_forever
	grep -q "; raw samples: [1-9][0-9]* read from memory" "$T/$a-g.err" ||
		{ cat "$T/$a-g.err"; fail "$a-g: no raw samples recovered"; }
	"$BMPROF" report -i "$T/$a-g.data" --sort type --format json >"$T/$a-g.type.json" ||
		fail "$a-g: report --sort type"
	python3 - "$T/$a-g.json" "$T/$a-g.type.json" <<'PY' || fail "$a-g: raw samples"
import json, sys
r, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
delivered = 0
for c in r["meta"]["cpus"]:
    assert c["raw_taken"] == c["raw_delivered"] + c["raw_lost_full"] + c["raw_lost_transport"], c
    assert c["raw_received"] == c["raw_delivered"], c
    delivered += c["raw_delivered"]
assert delivered > 0 and t["backtracking"]["raw_samples"] == delivered, (t["backtracking"], delivered)
PY
	pyassert "$T/$a-g.json" "r['meta']['host']['recovered_stacks'].endswith(' 0 samples without their chain')" ||
		fail "$a-g: recovered_stacks: $(grep -o 'recovered_stacks[^,]*' "$T/$a-g.json")"
	"$BMPROF" export -i "$T/$a-g.data" --format folded -o "$T/$a-g.folded" || fail "$a-g: folded"
	python3 - "$T/$a-g.folded" "$T/$a-g.json" <<'PY' || { head "$T/$a-g.folded"; fail "$a-g: chains"; }
import json, sys
delivered = sum(c["delivered"] for c in json.load(open(sys.argv[2]))["meta"]["cpus"])
total = spin = 0
for line in open(sys.argv[1]):
    st, n = line.rstrip("\n").rsplit(" ", 1)
    names = st.split(";")
    total += int(n)
    if names[-1] == "spin_forever":
        assert names[-2:-1] == ["main"], names
        spin += int(n)
assert total == delivered and spin > delivered // 2, (total, spin, delivered)
print(f"chains: {spin} of {total} samples in main;spin_forever")
PY
}
