#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Natively timed samples in ring 3 under KVM (bmprof qemu --user, where KVM runs ring 3
# natively: kvm_pvm here): tests/e2e/progs-x86_64/usermode.c's chains of 10^9 dependent
# imul (3 cycles each) and 10^9 dependent add (1 cycle). Baseline, in the same run: the
# same chains under TCG --icount, where every instruction costs the same (imul:add 1).
# Prints the samples' imul:add ratio under KVM (3 if the samples are natively timed) and
# against the baseline's, the core clock the target measured, the cycles per sample
# against the timer's period, and cycles per sample times the chains' samples against
# their true cycles (4 x 10^9). These follow the host's speed and load (the load average
# is printed). Skipped, saying why, where KVM cannot run the image.
set -eu
BMPROF=${BMPROF:-build/bin/bmprof}
IMG=${IMG:-build/test-images/usermode.elf}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

if [ "$(uname -m)" != x86_64 ] || [ ! -w /dev/kvm ]; then
	echo "usermode under KVM: skipped (no writable /dev/kvm on this $(uname -m) host)"
	exit 0
fi
"$BMPROF" qemu --accel tcg --icount --freq 10000 --user --param mode=3 --param units=100 \
	-o "$T/tcg.data" "$IMG" >/dev/null 2>"$T/tcg.err" || { cat "$T/tcg.err" >&2; exit 1; }
rc=0
"$BMPROF" qemu --accel kvm --user --param mode=3 --param units=1000 -o "$T/kvm.data" "$IMG" \
	>/dev/null 2>"$T/kvm.err" || rc=$?
if [ $rc = 125 ] && ! [ -s "$T/kvm.data" ]; then
	echo "usermode under KVM: skipped ($(tail -n 1 "$T/kvm.err"))"
	exit 0
fi
[ $rc = 0 ] || { cat "$T/kvm.err" >&2; exit 1; }
"$BMPROF" report -i "$T/tcg.data" --format json >"$T/tcg.json"
"$BMPROF" report -i "$T/kvm.data" --format json >"$T/kvm.json"
echo "ring 3 under KVM, natively timed (load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)"
grep "^bmprof: target: user mode:" "$T/kvm.err" | sed 's/^bmprof: target: /  /'
python3 - "$T/tcg.json" "$T/kvm.json" <<'PY'
import json, sys
tcg, kvm = (json.load(open(p)) for p in sys.argv[1:])
def chains(r):
    s = {x["symbol"]: x["samples"] for x in r["rows"]}
    return s.get("chain_imul", 0), s.get("chain_add", 0)
ti, ta = chains(tcg)
ki, ka = chains(kvm)
base, ratio = ti / max(ta, 1), ki / max(ka, 1)
m = kvm["meta"]
ev = next(e for e in m["events"] if e["name"] == "timer")
core, cps = m["core_hz"], ev["cycles_per_sample"]
period = ev["period"] * core / m["timebase_hz"]
est, true = (ki + ka) * (cps or 0), 1e9 * 1 + 1e9 * 3
print(f"  imul:add samples    {ratio:6.2f} (want 3; TCG --icount {base:.2f}: {ratio / base:.2f}x)")
print(f"  core clock          {core / 1e9:6.3f} GHz")
print(f"  cycles per sample   {cps or 0:8.0f} (timer period {period:.0f} cycles: {(cps or 0) / period:.3f}x)")
print(f"  chains' cycles      {est:.4g} estimated, {true:.4g} true: {est / true:.3f}x")
PY
