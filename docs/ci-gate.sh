#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Profile an image built from two commits and fail when a function regressed: the worked
# example of docs/ci-gating.md. Run from the top of a bmprof checkout (build/bin/bmprof
# built), in a git repository holding the program.
#
#   docs/ci-gate.sh BASE_REF NEW_REF SRC [RUNS] [PCT]
#
# SRC: the program's sources, relative to the repository (as for make image SRC=...).
# RUNS: profiles per commit (default 5). PCT: the --fail-above threshold (default 10).
# BMPROF_QEMU_OPTS: more bmprof qemu options, e.g. "--icount" (deterministic runs) or
# "--freq 4000".
# Exit status: 0 no significant regression; 3 a regression (named on stderr); else an error.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BASE_REF NEW_REF SRC [RUNS] [PCT]" >&2; exit 2; }
base_ref=$1 new_ref=$2 src=$3 runs=${4:-5} pct=${5:-10}
bmprof=${BMPROF:-$PWD/build/bin/bmprof}
export BMPROF_DB=${BMPROF_DB:-$PWD/profdb}
work=$(mktemp -d)
cleanup() {
	git worktree remove --force "$work/base" 2>/dev/null || true
	git worktree remove --force "$work/new" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

"$bmprof" db init >/dev/null
for side in base new; do
	ref=base_ref; [ $side = new ] && ref=new_ref
	commit=$(git rev-parse "${!ref}^{commit}")
	git worktree add --detach "$work/$side" "$commit" >/dev/null 2>&1
	make -C "$work/$side" -s image SRC="$src" NAME=gate >/dev/null
	for i in $(seq 1 "$runs"); do
		# shellcheck disable=SC2086
		"$bmprof" qemu ${BMPROF_QEMU_OPTS:-} -o "$work/$side-$i.data" "$work/$side/build/x86_64/gate.elf" \
			>/dev/null 2>"$work/qemu.log" || { cat "$work/qemu.log" >&2; exit 1; }
		"$bmprof" db add --commit "$commit" --tag gate=ci "$work/$side-$i.data" >/dev/null
	done
	eval "${side}_commit=$commit"
done
# the newest RUNS profiles of each commit (the database may hold older runs too)
"$bmprof" diff --fail-above "$pct" \
	"db:commit=$base_commit,gate=ci,last=$runs" "db:commit=$new_commit,gate=ci,last=$runs"
