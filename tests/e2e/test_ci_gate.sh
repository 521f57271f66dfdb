#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The CI example of docs/ci-gating.md, run for real: docs/ci-gate.sh on a throwaway git
# repository (a copy of this tree) with two commits, the second making one function do
# three times the work. The gate must exit 3 naming it, with the profiles in the database.
# The runs are under --icount: guest time follows the instructions executed, so the shares
# hardly vary with the load on the machine (test_diff.sh covers noisy runs).
. "$(dirname "$0")/lib.sh"
need_qemu
command -v git >/dev/null || skip "git not installed"

repo=$T/repo
mkdir "$repo"
(cd "$ROOT" && tar --exclude=./build --exclude=./.git -cf - .) | tar -C "$repo" -xf - ||
	fail "cannot copy the tree"
cat >"$repo/gate_prog.c" <<'EOF2'
#include <bmrt.h>
volatile unsigned sink;
__attribute__((noinline)) void work_a(unsigned n) { for (unsigned i = 0; i < n; i++) sink += i * 3; }
__attribute__((noinline)) void work_b(unsigned n) { for (unsigned i = 0; i < n; i++) sink ^= i * 5; }
#define B_SCALE 1
int main(void)
{
	for (int r = 0; r < 40; r++) {
		work_a(1000000);
		work_b(1000000 * B_SCALE);
	}
	return 0;
}
EOF2
g() { git -C "$repo" -c user.email=ci@example.com -c user.name=ci "$@"; }
g init -q . && g add -A && g commit -qm base || fail "git init"
sed -i 's/#define B_SCALE 1/#define B_SCALE 3/' "$repo/gate_prog.c"
g commit -qam "work_b does 3x the work" || fail "git commit"

(cd "$repo" && BMPROF="$BMPROF" BMPROF_DB="$T/db" BMPROF_QEMU_OPTS=--icount bash "$ROOT/docs/ci-gate.sh" HEAD~1 HEAD gate_prog.c 3 10) \
	>"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 3 ] || fail "the gate exited $rc, want 3"
grep -q "regression: work_b " "$T/err" || fail "the gate does not name work_b"
! grep -q "regression: work_a " "$T/err" || fail "the gate names work_a, which did not change"
grep -v '^#' "$T/out" | head -n 1 | grep -Eq ' \* +work_b$' || fail "work_b is not first"
[ "$("$BMPROF" db --db "$T/db" ls gate=ci | grep -c 'commit=')" = 6 ] || fail "want 6 profiles in the database"
[ -z "$(g worktree list | sed 1d)" ] || fail "the script left worktrees behind"
echo "ci gate ok"
