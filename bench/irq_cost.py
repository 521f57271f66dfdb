# SPDX-License-Identifier: BSD-2-Clause
"""Turn bench/progs/irqcost.c's phase lines into costs per interrupt (bench/irq_cost.sh).

  irq_cost.py --mode wall|icount [--arch x86_64|aarch64] --label TEXT CONSOLE

CONSOLE is one guest run's console text: rounds of three phases of the same work (off:
no timer; empty: the timer at the run's rate with bmprof's handler recording nothing;
sample: the timer sampling), run back to back in rotating order. For each timer phase
kind, with T its time, T_off the work alone and r its interrupts per unit of time:

  cost per interrupt = (T - T_off) / (T * r)     the time each interrupt took from the work
  bmprof's part      = cost(sample) - cost(empty) the sampling body, per sample

--mode icount (-icount shift=0): guest time is instructions executed (x86-64's TSC counts
one per instruction, AArch64's CNTVCT one per 1e9/CNTFRQ), so every phase is
deterministic: the figures come from the totals over all rounds, in guest instructions.
--mode wall (plain TCG: the guest's counter follows the host clock): T is the median
phase of each kind, r its total interrupts over total time, in microseconds; the range
after each figure is the same figure from each third of the rounds on its own (how much
the host's load moved it during the run).
"""
import argparse
import re
import statistics
import sys

PHASE = re.compile(r"irqcost: phase=(\w+) round=(\d+) ticks=(\d+) irqs=(\d+) samples=(\d+)")
HEAD = re.compile(r"irqcost: hz=(\d+) iters=(\d+) rounds=(\d+)")
KINDS = ("off", "empty", "sample")


def parse(path):
    text = open(path, errors="replace").read()
    head = HEAD.search(text)
    if not head:
        sys.exit(f"irq bench: {path}: no 'irqcost: hz=' line: the image did not run")
    rounds = {}
    for m in PHASE.finditer(text):
        rounds.setdefault(int(m.group(2)), {})[m.group(1)] = tuple(
            int(x) for x in m.group(3, 4, 5))
    full = [v for _, v in sorted(rounds.items()) if len(v) == len(KINDS)]
    if not full:
        sys.exit(f"irq bench: {path}: no complete round of phases")
    return int(head.group(1)), int(head.group(2)), full


def figures(rounds, pick):
    """T per kind (pick: sum or median of the phases), rate per kind, costs, ratios."""
    t = {k: pick([r[k][0] for r in rounds]) for k in KINDS}
    rate = {k: sum(r[k][1] for r in rounds) / sum(r[k][0] for r in rounds) for k in KINDS}
    if not rate["empty"] or not rate["sample"]:
        return None
    cost = {k: (t[k] - t["off"]) / (t[k] * rate[k]) for k in ("empty", "sample")}
    return {"empty": cost["empty"], "sample": cost["sample"],
            "added": cost["sample"] - cost["empty"], "e/off": t["empty"] / t["off"],
            "s/off": t["sample"] / t["off"], "s/e": t["sample"] / t["empty"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=("wall", "icount"), required=True)
    ap.add_argument("--arch", choices=("x86_64", "aarch64"), default="x86_64")
    ap.add_argument("--label", required=True)
    ap.add_argument("console")
    a = ap.parse_args()
    hz, iters, rounds = parse(a.console)
    n = {k: sum(r[k][1] for r in rounds) for k in KINDS}
    taken = sum(r["sample"][2] for r in rounds)
    if a.mode == "icount":
        per_tick = 1.0 if a.arch == "x86_64" else 1e9 / hz
        f = figures(rounds, sum)
        unit, scale, digits = "guest instructions", per_tick, 1
        spans = None
    else:
        f = figures(rounds, statistics.median)
        unit, scale, digits = "us", 1e6 / hz, 2
        third = len(rounds) // 3
        spans = [figures(rounds[i * third:(i + 1) * third], statistics.median)
                 for i in range(3)] if third else None
        spans = [s for s in spans or [] if s] or None
    if not f:
        sys.exit("irq bench: no timer interrupt in a timer phase: is the rate too low for "
                 "the phase length?")

    def show(key, fmt):
        text = fmt(f[key])
        if spans:
            vals = [s[key] for s in spans]
            text += f"  [{fmt(min(vals))} .. {fmt(max(vals))}]"
        return text

    num = lambda v: f"{v * scale:.{digits}f}"
    ratio = lambda v: f"{v:.3f}x"
    print(f"  {a.label}: {len(rounds)} rounds x 3 phases of {iters:,} loop turns; "
          f"{n['empty']:,} interrupts in empty phases, {n['sample']:,} in sample phases "
          f"({taken:,} samples)")
    if a.mode == "icount":
        turn = sum(r["off"][0] for r in rounds) * per_tick / (len(rounds) * iters)
        print(f"    work alone: {turn:.3f} instructions per loop turn (a whole number: the "
              f"counter counts instructions)")
        if per_tick > 1:
            # each phase's time is within a tick, so each difference within two
            err = 2 * len(rounds) * per_tick / min(n["empty"], n["sample"])
            print(f"    (the counter ticks every {per_tick:g} instructions: per-interrupt "
                  f"figures within +-{err:.2f})")
    elif spans:
        print("    [range]: the same figure from each third of the rounds")
    print(f"    empty handler, per interrupt      {show('empty', num)} {unit}")
    print(f"    sampling handler, per interrupt   {show('sample', num)} {unit}")
    print(f"    bmprof's sampling, per sample     {show('added', num)} {unit}"
          f"  (sampling minus empty)")
    print(f"    run time, empty handler / off     {show('e/off', ratio)}")
    print(f"    run time, sampling / off          {show('s/off', ratio)}")
    print(f"    run time, sampling / empty        {show('s/e', ratio)}"
          f"  (bmprof's share at this rate)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
