#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write analysis/topdown_table.c from analysis/topdown/{cpus,events,metrics}.tsv.

    tools/gen_topdown.py [--perfmon DIR] [--armdata DIR] [--check]

Every row is checked first: each family of events.tsv and metrics.tsv is in cpus.tsv, each
name a formula uses is an event of the family, a node of the family, #W or a function, each
parent is a node of the family. With --perfmon (Intel's perfmon tree) each Intel event's
encoding and counters are checked against the model's event file; with --armdata each Arm
event against pmu/common_armv8.json. --check compares the C file with what would be written
and exits 1 when they differ, instead of writing it.
"""
import argparse
import glob
import json
import os
import re
import sys
from generated import write_or_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "analysis/topdown")
OUT = os.path.join(ROOT, "analysis/topdown_table.c")
PERFMON = {"intel-ivb": "IVB", "intel-skl": "SKL", "intel-icl": "ICL", "intel-spr": "SPR"}
TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|(#?[A-Za-z_][A-Za-z0-9_.:]*)|(\?\?|[-+*/(),]))")


def read(name, cols):
    path = os.path.join(DIR, name)
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != len(cols):
                sys.exit(f"{path}:{n}: {len(cells)} columns, want {len(cols)}")
            row = dict(zip(cols, cells))
            row["_where"] = f"{path}:{n}"
            rows.append(row)
    return rows


def expand(rows):
    """One row per family for rows whose first column lists several."""
    out = []
    for r in rows:
        for fam in r["families"].split(","):
            out.append(dict(r, family=fam))
    return out


def names_in(expr, where):
    pos, names = 0, []
    while pos < len(expr):
        if expr[pos:].strip() == "":
            break
        m = TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            sys.exit(f"{where}: cannot read the formula at '{expr[pos:]}'")
        if m.group(2):
            names.append(m.group(2))
        pos = m.end()
    return names


def counters_mask(s, where):
    if s == "-":
        return 0
    mask = 0
    for part in s.split(","):
        lo, _, hi = part.partition("-")
        for i in range(int(lo), int(hi or lo) + 1):
            mask |= 1 << i
    if not mask:
        sys.exit(f"{where}: no counters in '{s}'")
    return mask


def check(cpus, events, metrics):
    fams = {c["family"] for c in cpus}
    evs, nodes = {}, {}
    for e in events:
        if e["family"] not in fams:
            sys.exit(f"{e['_where']}: family {e['family']} not in cpus.tsv")
        key = (e["family"], e["name"])
        if key in evs:
            sys.exit(f"{e['_where']}: {e['name']} twice for {e['family']}")
        evs[key] = e
        counters_mask(e["counters"], e["_where"])
        int(e["code"], 16)
    for m in metrics:
        if m["family"] not in fams:
            sys.exit(f"{m['_where']}: family {m['family']} not in cpus.tsv")
        key = (m["family"], m["node"])
        if key in nodes:
            sys.exit(f"{m['_where']}: node {m['node']} twice for {m['family']}")
        nodes[key] = m
    for m in metrics:
        f = m["family"]
        aux = m["node"].startswith("#")
        if aux != (m["parent"] == "-" and m["level"] == "0"):
            sys.exit(f"{m['_where']}: an auxiliary has parent - and level 0, a node neither")
        if m["parent"] != "-" and (f, m["parent"]) not in nodes:
            sys.exit(f"{m['_where']}: parent {m['parent']} is no node of {f}")
        if not aux and m["parent"] == "-" and m["level"] != "1":
            sys.exit(f"{m['_where']}: a node without a parent is level 1")
        if m["parent"] != "-" and int(nodes[(f, m["parent"])]["level"]) + 1 != int(m["level"]):
            sys.exit(f"{m['_where']}: level {m['level']} under a level "
                     f"{nodes[(f, m['parent'])]['level']} parent")
        if m["threshold"] != "-":
            float(m["threshold"])
        for n in names_in(m["expr"], m["_where"]):
            if n in ("min", "max", "#W") or (f, n) in evs or (f, n) in nodes:
                continue
            sys.exit(f"{m['_where']}: '{n}' is no event, node or function of {f}")
    return evs


def perfsel(e, cmask):
    ev = int(e["EventCode"].split(",")[0], 16)
    v = (ev & 0xff) | int(e["UMask"], 16) << 8 | (ev >> 8) << 32
    v |= int(e.get("EdgeDetect", "0")) << 18
    v |= int(e.get("AnyThread", "0")) << 21
    v |= int(e.get("Invert", "0")) << 23
    v |= (int(e.get("CounterMask", "0")) if cmask is None else cmask) << 24
    return v


def check_intel(events, top):
    for fam, model in PERFMON.items():
        files = glob.glob(os.path.join(top, model, "events", "*_core.json"))
        if len(files) != 1:
            sys.exit(f"{top}/{model}: want one *_core.json, found {files}")
        vendor = {e["EventName"]: e for e in json.load(open(files[0]))["Events"]}
        for r in (r for r in events if r["family"] == fam):
            if r["counters"] == "-":
                continue   # PERF_METRICS fields: an MSR, not an event of the perfmon files
            name, _, c = r["vendor_event"].partition(":")
            e = vendor.get(name)
            if e is None:
                sys.exit(f"{r['_where']}: {name} not in {files[0]}")
            want = perfsel(e, int(c[1:]) if c else None)
            if want != int(r["code"], 16):
                sys.exit(f"{r['_where']}: {model} {name} is {want:#x}, table {r['code']}")
            ctr = sum(1 << int(i) for i in e["Counter"].split(","))
            if ctr != counters_mask(r["counters"], r["_where"]):
                sys.exit(f"{r['_where']}: {model} {name} counters {e['Counter']}, table "
                         f"{r['counters']}")


def check_arm(events, top):
    vendor = {e["name"]: e for e in
              json.load(open(os.path.join(top, "pmu", "common_armv8.json")))["events"]}
    for r in (r for r in events if r["family"].startswith("arm")):
        e = vendor.get(r["vendor_event"])
        if e is None or e["code"] != int(r["code"], 16):
            sys.exit(f"{r['_where']}: {r['vendor_event']} is not {r['code']} in common_armv8.json")


def c_str(s):
    return "NULL" if s in ("", "-") else '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(cpus, events, metrics):
    out = ["/* Generated by tools/gen_topdown.py from the TSVs in analysis/topdown/: edit them",
           " * and run the script, not this file. */",
           '#include "topdown.h"',
           "",
           "const struct td_cpu_def topdown_cpus[] = {"]
    for c in cpus:
        width = "0" if c["width"] == "-" else c["width"]
        fam = "TD_ANY" if c["cpu_family"] == "*" else f"0x{int(c['cpu_family'], 16):x}"
        out.append(f"\t{{ {c_str(c['family'])}, {c_str(c['arch'])}, {c_str(c['vendor'])}, "
                   f"{fam}, {c_str(c['models'])}, {width}, {int(c['gp'])},")
        out.append(f"\t  {c_str(c['source'])} }},")
    out.append("};")
    out.append("const unsigned topdown_cpus_len = sizeof topdown_cpus / sizeof topdown_cpus[0];")
    out.append("")
    out.append("const struct td_event_def topdown_events[] = {")
    for e in events:
        out.append(f"\t{{ {c_str(e['family'])}, {c_str(e['name'])}, {c_str(e['word'])}, "
                   f"0x{int(e['code'], 16):x}, 0x{counters_mask(e['counters'], '') :x},")
        out.append(f"\t  {c_str(e['vendor_event'])}, {c_str(e['source'])} }},")
    out.append("};")
    out.append("const unsigned topdown_events_len = "
               "sizeof topdown_events / sizeof topdown_events[0];")
    out.append("")
    out.append("const struct td_metric_def topdown_metrics[] = {")
    for m in metrics:
        thr = "-1" if m["threshold"] == "-" else m["threshold"]
        out.append(f"\t{{ {c_str(m['family'])}, {c_str(m['node'])}, {c_str(m['parent'])}, "
                   f"{int(m['level'])}, {thr},")
        out.append(f"\t  {c_str(m['expr'])},")
        out.append(f"\t  {c_str(m['source'])} }},")
    out.append("};")
    out.append("const unsigned topdown_metrics_len = "
               "sizeof topdown_metrics / sizeof topdown_metrics[0];")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perfmon")
    ap.add_argument("--armdata")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    cpus = read("cpus.tsv", ["family", "arch", "vendor", "cpu_family", "models", "width", "gp",
                             "source"])
    events = expand(read("events.tsv", ["families", "name", "word", "code", "counters",
                                        "vendor_event", "source"]))
    metrics = expand(read("metrics.tsv", ["families", "node", "parent", "level", "threshold",
                                          "expr", "source"]))
    check(cpus, events, metrics)
    if a.perfmon:
        check_intel(events, a.perfmon)
    if a.armdata:
        check_arm(events, a.armdata)
    text = render(cpus, events, metrics)
    write_or_check(OUT, text, a.check, "tools/gen_topdown.py")


if __name__ == "__main__":
    main()
