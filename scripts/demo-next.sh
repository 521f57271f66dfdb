#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The end of make demo: the next three commands worth trying on its profile, with the
# hottest function of the profile filled in, each as it can be pasted.
#   scripts/demo-next.sh BMPROF PROFILE ELF FREQ
set -eu
bmprof=$1 data=$2 elf=$3 freq=$4
# the hottest function by its base name (a clone's "f [clone .constprop.0]" is f)
top=$("$bmprof" report -i "$data" --elf "$elf" --format json --limit 1 2>/dev/null | python3 -c '
import json, sys
rows = json.load(sys.stdin)["rows"]
print(rows[0]["name"].split(" [")[0] if rows and not rows[0]["unknown"] else "main")' 2>/dev/null) ||
	top=main
html=${data%.data}.html
second=${data%.data}-2.data
cat <<EOT

Next, on this profile:
  $bmprof annotate -i $data $top
      where in $top, the hottest function, the time goes, line by line
  $bmprof report -i $data --format html -o $html
      one page to open in a browser: the table, the flame graph, the annotated source
  $bmprof qemu --freq $freq -o $second $elf && $bmprof diff $data $second
      a second run, compared with this one: what changed, and whether it is noise
EOT
