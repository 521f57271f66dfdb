# SPDX-License-Identifier: BSD-2-Clause
"""Checks of callstack.c's profile for test_callstack.sh.

folded FILE [DEPTH]: the chains match callstack.c's call tree (main;a;b, main;a;c;d,
main;edge_caller;edges*), d has three quarters of the b + d samples, edges was sampled at
its first instruction, at mov and at ret with edge_caller as its caller, and with DEPTH
no chain has more than DEPTH callers.
children FILE FOLDED: bmprof report --children's columns agree with the folded rows.
pprof FILE FOLDED: the pprof export's samples, each a Location list leaf first, give the
same chains and counts as the folded rows.
"""
import gzip
import sys


def rows(path):
    out = []
    for line in open(path):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        out.append((stack.split(";"), int(count)))
    return out


def check_folded(path, depth):
    r = rows(path)
    assert r, "no folded rows"
    leaf = {}
    for names, count in r:
        f = names[-1]
        leaf[f] = leaf.get(f, 0) + count
        if depth:
            assert len(names) <= depth + 1, f"chain longer than {depth} callers: {names}"
            continue
        assert "main" in names, f"no main on the chain: {names}"
        tail = names[names.index("main"):]
        if f == "d":
            assert tail == ["main", "a", "c", "d"], f"d's chain: {names}"
        elif f == "b":
            assert tail == ["main", "a", "b"], f"b's chain: {names}"
        elif f.startswith("edges"):
            assert tail == ["main", "edge_caller", f], f"{f}'s chain: {names}"
    if depth:
        assert max(len(n) for n, _ in r) == depth + 1, "no chain reached the depth bound"
        return
    share = leaf["d"] / (leaf["b"] + leaf["d"])
    assert 0.70 <= share <= 0.80, f"d has {share:.3f} of b + d, want 0.75"
    for f in ("edges", "edges_mov", "edges_ret"):
        assert leaf.get(f, 0) > 0, f"no sample at {f}"
    print("folded ok:", {k: leaf[k] for k in sorted(leaf)})


def check_children(path, folded):
    r = rows(folded)
    total = sum(c for _, c in r)
    want = {}
    for names, count in r:
        for f in set(names):
            want.setdefault(f, [0, 0])[0] += count
        want[names[-1]][1] += count
    seen = 0
    for line in open(path):
        p = line.split()
        if len(p) != 3 or not p[0].endswith("%") or line.startswith("#"):
            continue
        if p[0] == "Children":
            continue
        children, self_, f = float(p[0][:-1]), float(p[1][:-1]), p[2]
        wc, ws = want[f]
        assert abs(children - 100.0 * wc / total) < 0.01, f"{f}: children {children}"
        assert abs(self_ - 100.0 * ws / total) < 0.01, f"{f}: self {self_}"
        seen += 1
    assert seen >= 5, f"only {seen} rows in the children table"
    # a calls b and c: its children are theirs; main's are everything under it
    assert want["a"][0] == want["b"][0] + want["c"][0] + want["a"][1]
    assert want["c"][0] == want["d"][0] + want["c"][1]
    print("children ok:", seen, "rows")


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return v, i


def msg(b):
    """field number -> list of values: varints as ints, length-delimited as bytes"""
    d, i = {}, 0
    while i < len(b):
        key, i = varint(b, i)
        if key & 7 == 0:
            v, i = varint(b, i)
        elif key & 7 == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError("wire type %d" % (key & 7))
        d.setdefault(key >> 3, []).append(v)
    return d


def ints(d, n):
    out = []
    for v in d.get(n, []):
        if isinstance(v, int):
            out.append(v)
            continue
        i = 0
        while i < len(v):
            x, i = varint(v, i)
            out.append(x)
    return out


def check_pprof(path, folded):
    p = msg(gzip.decompress(open(path, "rb").read()))
    strings = [v.decode() for v in p[6]]
    funcs = {ints(f, 1)[0]: strings[ints(f, 2)[0]] for f in map(msg, p[5])}
    locs = {}
    for v in p[4]:
        loc = msg(v)
        # a Location's lines are innermost first: outermost last
        names = [funcs[ints(msg(x), 1)[0]] for x in loc.get(4, [])]
        locs[ints(loc, 1)[0]] = list(reversed(names))
    got = {}
    for v in p[2]:
        smp = msg(v)
        ids, vals = ints(smp, 1), ints(smp, 2)
        names = [n for i in reversed(ids) for n in locs[i]]
        key = ";".join(names)
        got[key] = got.get(key, 0) + vals[0]
    want = {";".join(n): c for n, c in rows(folded)}
    assert got == want, (got, want)
    print("pprof ok:", len(got), "chains")


if __name__ == "__main__":
    if sys.argv[1] == "folded":
        check_folded(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif sys.argv[1] == "pprof":
        check_pprof(sys.argv[2], sys.argv[3])
    else:
        check_children(sys.argv[2], sys.argv[3])
