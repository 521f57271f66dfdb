# SPDX-License-Identifier: BSD-2-Clause
"""Call-stack profiles against exact inclusive counts, for test_children_exact.sh.

exact COUNT_JSON: bmprof count --children --root main --json is consistent: main is on
every instruction counted, no function's inclusive count is below its self count or
above the total, the self counts add up to the total, the sampler's interrupt handler
was seen and left out.

compare COUNT_JSON CHILDREN FOLDED MAXPP [mainless]: every function's share in bmprof
report --children (the samples with it on the chain), as a share of main's, is within
MAXPP percentage points of its exact inclusive share (instructions retired with it on the
stack, of those with main on it). Samples the profiler took of its own handler (a nested
interrupt in its interrupt-exit drain) are taken out, as the exact counts leave out what
runs in handlers: the folded rows give how many such samples each function's children
share holds. On x86-64 such a chain runs through the timer's interrupt entry; on AArch64
the unwind stops at the exception, so there (mainless) a chain without main is one.
Prints the largest deviation.

pprof TOP CHILDREN FOLDED [MAXPP]: go tool pprof -top -cum's cum% of each function agrees
with bmprof report --children within MAXPP points on the same profile.
"""
import json
import sys

HANDLER = {"bmprof_x86_timer_entry", "bmprof_x86_pmi_entry", "bmprof_x86_nmi_entry",
           "bmrt_irq", "bmprof_a64_irq_entry", "bmprof_a64_irq_frame"}


def exact_shares(path):
    c = json.load(open(path))["children"]
    total = c["total"]
    assert total > 0, "no instructions counted under main"
    return c, {f["name"]: 100.0 * f["inclusive"] / total for f in c["functions"]}


def check_exact(path):
    c, shares = exact_shares(path)
    fns = {f["name"]: f for f in c["functions"]}
    assert fns["main"]["inclusive"] == c["total"], "main is not on every instruction counted"
    for f in c["functions"]:
        assert f["self"] <= f["inclusive"] <= c["total"], f"{f['name']}: inclusive {f}"
    assert sum(f["self"] for f in c["functions"]) == c["total"], "self counts do not add up"
    assert c["exceptions"] > 0 and c["in_handlers"] > 0, "the sampler's handler was not seen"
    assert c["overflow"] == 0
    print("exact ok: %d instructions under main, %d in handlers, %d functions" %
          (c["total"], c["in_handlers"], len(fns)))


def children_table(path):
    """(total samples, {function: children percent}) from bmprof report --children."""
    total, out = None, {}
    for line in open(path):
        p = line.split()
        if line.startswith("#") and "samples with call stacks" in line:
            total = int(p[1])
        elif len(p) == 3 and p[0].endswith("%") and p[1].endswith("%"):
            out[p[2]] = float(p[0][:-1])
    assert total, "no sample count in the children table"
    return total, out


def handler_rows(folded, mainless):
    """Samples per function in rows of the profiler's own handler."""
    per, n = {}, 0
    for line in open(folded):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        names = stack.split(";")
        if not HANDLER & set(names) and (not mainless or "main" in names):
            continue
        n += int(count)
        for f in set(names):
            per[f] = per.get(f, 0) + int(count)
    return n, per


def sampled_shares(children, folded, mainless):
    total, pct = children_table(children)
    _, hand = handler_rows(folded, mainless)
    main = pct.get("main", 0.0) * total / 100.0 - hand.get("main", 0)
    assert main > 0, "no samples under main"
    out = {}
    for f, p in pct.items():
        n = p * total / 100.0 - hand.get(f, 0)
        out[f] = max(0.0, 100.0 * n / main)
    return total, out


def compare(count, children, folded, maxpp, mainless):
    _, exact = exact_shares(count)
    total, sampled = sampled_shares(children, folded, mainless)
    worst, rows = (0.0, "-"), []
    for f in sorted(set(exact) | set(sampled)):
        e, s = exact.get(f, 0.0), sampled.get(f, 0.0)
        d = abs(e - s)
        rows.append((d, f, e, s))
        if d > worst[0]:
            worst = (d, f)
    rows.sort(reverse=True)
    for d, f, e, s in rows[:8]:
        print("  %-28s exact %7.3f%%  sampled %7.3f%%  %+.3f pp" % (f, e, s, s - e))
    print("max deviation %.3f pp (%s), %d samples, %d functions" %
          (worst[0], worst[1], total, len(rows)))
    assert worst[0] <= maxpp, f"{worst[1]} is {worst[0]:.3f} pp off its exact share"


def pprof_cum(path):
    out, on = {}, False
    for line in open(path):
        f = line.split(None, 5)
        if f[:2] == ["flat", "flat%"]:
            on = True
        elif on and len(f) == 6:
            name = f[5].strip()
            if name.endswith(" (inline)"):      # pprof marks a function inlined there
                name = name[:-len(" (inline)")]
            out[name] = out.get(name, 0.0) + float(f[4].rstrip("%"))
    assert out, "no rows in pprof -top -cum"
    return out


def compare_pprof(top, children, maxpp):
    _, pct = children_table(children)
    cum = pprof_cum(top)
    worst = (0.0, "-")
    for f in sorted(set(pct) | set(cum)):
        d = abs(pct.get(f, 0.0) - cum.get(f, 0.0))
        if d > worst[0]:
            worst = (d, f)
    print("pprof -top -cum against report --children: max %.3f pp (%s), %d functions" %
          (worst[0], worst[1], len(cum)))
    assert worst[0] <= maxpp, f"pprof's cum% of {worst[1]} is {worst[0]:.3f} pp off"


def main(argv):
    if argv[1] == "exact":
        check_exact(argv[2])
    elif argv[1] == "compare":
        compare(argv[2], argv[3], argv[4], float(argv[5]), argv[6:] == ["mainless"])
    elif argv[1] == "pprof":
        compare_pprof(argv[2], argv[3], float(argv[4]) if len(argv) > 4 else 1.0)
    else:
        raise SystemExit("usage: children_check.py exact|compare|pprof ...")


if __name__ == "__main__":
    try:
        main(sys.argv)
    except AssertionError as e:
        print("FAIL:", e)
        sys.exit(1)
