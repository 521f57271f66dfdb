#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bmprof bhive (docs/bmprof-bhive.md), three figures:
#   1. the share of a corpus of real blocks that profiles (status ok), and the statuses of
#      the rest: BHIVE_N distinct blocks (default 1000) of the host's own x86-64 programs
#      (bench/bhive_corpus.py over /usr/bin), against the BHive paper's 16.65% (naive),
#      91.28% (page mapping), 94.24% (better unrolling);
#   2. microblocks whose cycles per iteration are published for the host's CPU (uops.info,
#      Intel's optimization manual), measured BHIVE_RUNS times (default 5): the median over
#      the runs, its error against the published figure, the runs' spread
#      ((max - min) / median);
#   3. blocks per second, and what bounds it: the harness's boot (a run of one block), a
#      block with no page fault (a run of 200 such blocks less the boot), each page fault
#      (200 blocks of one fault each against those), the timed runs themselves (their
#      ticks, from the results).
# Under KVM (ring 3 native: the timings are the CPU's). Without a usable /dev/kvm, 2 and 3
# are skipped, saying so, and 1 runs under TCG --icount: the statuses (the share that
# profiles) hold, the cycles are instructions, and a block is misaligned only by the
# harness's own check of the accesses the host describes (TCG raises no #AC). BHIVE_KEEP=DIR keeps the corpus and its results there.
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
N=${BHIVE_N:-1000}
RUNS=${BHIVE_RUNS:-5}
DIR=${BHIVE_DIR:-/usr/bin}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

accel=kvm
if [ "$(uname -m)" != x86_64 ] || [ ! -w /dev/kvm ]; then
	accel=tcg
	echo "bhive: no writable /dev/kvm on this $(uname -m) host: the microblocks and the rate" \
		"are skipped; the corpus runs under TCG (success share only, not timings)"
fi
echo "bhive (load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs;" \
	"$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //'), family $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: //')" \
	"model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | sed 's/.*: //'))"

# secs CMD...: runs CMD, its wall time in seconds in $secs
secs=0
timed() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@"
	t1=$(date +%s.%N)
	secs=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
}

# 1. the corpus
python3 "$HERE/bhive_corpus.py" "$BMPROF" "$N" "$T/corpus.csv" "$DIR" | sed 's/^/  corpus: /'
icount=$([ $accel = tcg ] && echo --icount || true)   # TCG: timings agree only under -icount
timed "$BMPROF" bhive --accel $accel $icount -t 0 -o "$T/corpus.out" "$T/corpus.csv" 2>"$T/corpus.err" ||
	{ cat "$T/corpus.err" >&2; exit 1; }
corpus_secs=$secs
if [ -n "${BHIVE_KEEP:-}" ]; then   # a directory to keep the corpus and its results in
	mkdir -p "$BHIVE_KEEP" && cp "$T/corpus.csv" "$T/corpus.out" "$BHIVE_KEEP/"
fi
label=$([ $accel = kvm ] && echo "KVM" || echo "TCG --icount: statuses only, cycles are instructions")
python3 - "$T/corpus.out" "$label" <<'PY'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n = len(rows)
st = collections.Counter(r["status"] for r in rows)
print(f"  corpus under {sys.argv[2]}: {st['ok']} of {n} blocks profile: {100 * st['ok'] / n:.2f}%"
      " (BHive: 16.65% naive, 91.28% with page mapping, 94.24% with better unrolling)")
for s, c in st.most_common():
    if s != "ok":
        print(f"    {s:20s} {c:5d}  {100 * c / n:5.2f}%")
ok = [float(r["cycles"]) for r in rows if r["status"] == "ok"]
if ok:
    ok.sort()
    print(f"    cycles per iteration of the ok blocks: median {ok[len(ok) // 2]:.2f},"
          f" 90th percentile {ok[int(len(ok) * 0.9)]:.2f}")
PY
[ $accel = kvm ] || exit 0

# 2. microblocks with published figures (Golden Cove: Alder Lake-P, Sapphire and Emerald
#    Rapids; uops.info's ADL-P measurements and Intel's optimization manual)
python3 - "$T/micro.csv" <<'PY'
import sys
blocks = [
    ("add chain x8: add %rbx,%rax", "4801d8" * 8, 8.0, "latency 1"),
    ("imul chain x4: imul %rbx,%rax", "480fafc3" * 4, 12.0, "latency 3"),
    ("10 independent adds", "4801d8" "4801d9" "4801da" "4801de" "4801df"
     "4901d8" "4901d9" "4901da" "4901db" "4901dc", 2.0, "5 ALU ports: 0.2 each"),
    ("load chain x4: mov (%rax),%rax", "488b00" * 4, 20.0, "L1 load-to-use 5"),
    ("div chain x2: xor %edx,%edx; div %rbx", "31d248f7f3" * 2, 28.0, "div r64 rax->rax 14"),
    ("12 nops (0f1f4000)", "0f1f4000" * 12, 2.0, "rename width 6"),
]
with open(sys.argv[1], "w") as f:
    for name, hexs, pub, why in blocks:
        f.write(f"{hexs}\t{pub}\t{why}\t{name}\n")
PY
cut -f1 "$T/micro.csv" >"$T/micro.in"
for r in $(seq 1 "$RUNS"); do
	"$BMPROF" bhive --accel kvm -o "$T/micro.$r" "$T/micro.in" 2>"$T/micro.err" ||
		{ cat "$T/micro.err" >&2; exit 1; }
done
python3 - "$T/micro.csv" "$RUNS" "$T"/micro.[0-9]* <<'PY'
import csv, statistics, sys
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
runs = [list(csv.DictReader(open(p))) for p in sys.argv[3:]]
print(f"  microblocks, cycles per iteration: median of {sys.argv[2]} runs, error against the"
      " published figure, spread of the runs (max-min)/median")
print(f"    {'block':40s} {'published':>10s} {'measured':>9s} {'error':>7s} {'spread':>7s}  runs")
for i, (hexs, pub, why, name) in enumerate(want):
    got = [r[i] for r in runs]
    v = [float(g["cycles"]) for g in got if g["status"] == "ok"]
    if not v:
        print(f"    {name:40s} {float(pub):10.2f} {'-':>9s}  ({got[0]['status']})")
        continue
    med = statistics.median(v)
    err = 100 * (med - float(pub)) / float(pub)
    spread = 100 * (max(v) - min(v)) / med
    print(f"    {name:40s} {float(pub):10.2f} {med:9.2f} {err:+6.1f}% {spread:6.1f}%"
          f"  {' '.join(f'{x:.2f}' for x in v)}  ({why})")
PY

# 3. the rate, and what bounds it
printf '4801d8\n' >"$T/one.csv"
for i in $(seq 200); do echo 4801d84801d8; done >"$T/nofault.csv"
for i in $(seq 200); do echo 488b004801d8; done >"$T/fault.csv"
timed "$BMPROF" bhive --accel kvm -o "$T/one.out" "$T/one.csv" 2>/dev/null; boot=$secs
timed "$BMPROF" bhive --accel kvm -o "$T/nofault.out" "$T/nofault.csv" 2>/dev/null; nofault=$secs
timed "$BMPROF" bhive --accel kvm -o "$T/fault.out" "$T/fault.csv" 2>/dev/null; fault=$secs
python3 - "$T/corpus.out" "$corpus_secs" "$boot" "$nofault" "$fault" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
total, boot, nofault, fault = (float(x) for x in sys.argv[2:6])
n = len(rows)
faults = sum(int(dict(kv.split("=", 1) for kv in r["detail"].split(";")).get("faults", 0))
             for r in rows)
ran = sum(1 for r in rows if "faults=" in r["detail"])
# the timed runs in ring 3: each kept timing is one of 16 a round, per factor; the
# calibration doubles it; the TSC ticks at about the nominal clock /proc/cpuinfo gives
mhz = next(float(l.split(":")[1]) for l in open("/proc/cpuinfo") if l.startswith("cpu MHz"))
ring3 = 0.0
for r in rows:
    d = dict(kv.split("=", 1) for kv in r["detail"].split(";"))
    if "ticks" in d:
        lo, hi = (int(x) for x in d["ticks"].split("+"))
        ring3 += int(d["rounds"]) * 16 * (lo + hi) * 2 / (mhz * 1e6)
per_block = (nofault - boot) / 200
per_fault = (fault - nofault) / 200
print(f"  rate: {n / total:.1f} blocks/s over the corpus ({n} blocks in {total:.0f} s,"
      f" {ran} run in the harness, {faults} page faults mapped)")
print(f"    boot (a run of one block)             {boot:7.1f} s")
print(f"    a block with no fault                 {1000 * per_block:7.1f} ms"
      f"  (200 in {nofault:.1f} s, less the boot)")
print(f"    each page fault (map and restart)     {1000 * per_fault:7.1f} ms"
      f"  (200 one-fault blocks in {fault:.1f} s, against the above)")
print(f"    the timed runs in ring 3 (native)     {1000 * ring3 / max(ran, 1):7.3f} ms a block"
      f" (from the kept ticks; {ring3:.2f} s of the corpus's {total:.0f} s)")
print(f"    corpus: boot {boot:.0f} s + {ran} x {1000 * per_block:.0f} ms + {faults} faults x"
      f" {1000 * per_fault:.0f} ms = {boot + ran * per_block + faults * per_fault:.0f} s"
      f" predicted, {total:.0f} s measured")
PY
