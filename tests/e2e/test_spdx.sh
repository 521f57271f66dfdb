#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The licence: LICENSE is BSD-2-Clause, and every source file git tracks says so in an SPDX
# line (tools/spdx.py lists those that do not).
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || skip "not a git checkout: the tracked files are unknown"
grep -q "BSD 2-Clause License\|Redistribution and use in source and binary forms" LICENSE ||
	fail "LICENSE is not the BSD-2-Clause text"
python3 tools/spdx.py --check >"$T/missing" 2>&1 ||
	{ cat "$T/missing"; fail "source files without SPDX-License-Identifier (python3 tools/spdx.py adds it)"; }
echo "every tracked source file carries its SPDX line"
