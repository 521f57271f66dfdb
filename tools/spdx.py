#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Every source file git tracks carries "SPDX-License-Identifier: BSD-2-Clause" in its first
# three lines (proto/profile.proto keeps its own Apache-2.0 notice; test data and fuzz
# inputs are not source). --check lists the files without it and fails; without --check
# the line is added (after a #! line) in the file's comment style.
import subprocess, sys, os, re
TAG = "SPDX-License-Identifier: BSD-2-Clause"
files = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
def style(f):
    b = os.path.basename(f)
    ext = b.rsplit(".", 1)[-1] if "." in b else ""
    if f.startswith(("tests/fuzz/regress/", "tests/fuzz/corpus/")) or "/fixtures/" in f:
        return None
    if ext in ("c", "h", "cpp", "inc", "ld", "proto"):
        return "c"
    if ext == "S":
        return "c"
    if ext in ("sh", "py", "mk", "cmake", "txt") or b in ("Makefile", "run", ".gitignore") or b.endswith(".pc.in") or b.endswith(".cmake.in"):
        return "hash"
    return None
changed = 0
for f in files:
    st = style(f)
    if not st or f.endswith("profile.proto"):
        continue
    try:
        s = open(f, encoding="utf-8").read()
    except Exception:
        continue
    if TAG in "\n".join(s.split("\n")[:3]):
        continue
    line = "/* %s */\n" % TAG if st == "c" else "# %s\n" % TAG
    if s.startswith("#!"):
        i = s.index("\n") + 1
        s = s[:i] + line + s[i:]
    else:
        s = line + s
    if "--check" in sys.argv:
        print(f); changed += 1; continue
    open(f, "w", encoding="utf-8").write(s)
    changed += 1
print(changed, "files", file=sys.stderr)
sys.exit(1 if "--check" in sys.argv and changed else 0)
