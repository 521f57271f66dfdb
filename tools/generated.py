# SPDX-License-Identifier: BSD-2-Clause
"""Writing a generated C table, or (--check) saying whether the checked-in one is current."""
import os
import sys


SPDX = "/* SPDX-License-Identifier: BSD-2-Clause */\n"


def write_or_check(out, text, check, script):
    if not text.startswith(SPDX):
        text = SPDX + text
    if check:
        old = open(out).read() if os.path.exists(out) else ""
        if old != text:
            sys.exit(f"{out} is out of date: run {script}")
        return
    with open(out, "w") as f:
        f.write(text)
