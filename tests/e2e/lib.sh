# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for the end-to-end tests (sourced). Each test runs in its own temp dir.
set -u
: "${BUILD:=build}" "${BMPROF:=$BUILD/bin/bmprof}"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BMPROF=$(cd "$ROOT" && readlink -f "$BMPROF")
IMAGES=$ROOT/$BUILD/test-images
# the tests' Python snippets import frames (tests/e2e/frames.py) to decode wire frames
export PYTHONPATH=$ROOT/tests/e2e${PYTHONPATH:+:$PYTHONPATH}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# tests/run.sh runs several tests at once, and some build images into the shared build
# folder: one make at a time, so two never write the same objects.
case $BUILD in /*) E2E_MAKE_LOCK=$BUILD/.e2e-make.lock ;; *) E2E_MAKE_LOCK=$ROOT/$BUILD/.e2e-make.lock ;; esac
mkdir -p "$(dirname "$E2E_MAKE_LOCK")"
make() { flock "$E2E_MAKE_LOCK" make "$@"; }

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
need_qemu() { command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"; }

# jq-like assertions in Python over a JSON report: pyassert FILE 'python expression using r'
pyassert() {
	python3 - "$1" "$2" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2], {"r": r})
if not ok:
    print("assertion failed:", sys.argv[2])
    sys.exit(1)
PY
}

# The accounting invariant on every CPU of a JSON report: taken = delivered + lost,
# and every delivered sample was received.
check_accounting() {
	python3 - "$1" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
cpus = r["meta"]["cpus"]
assert cpus, "no per-CPU totals"
for c in cpus:
    lost = c["lost_full"] + c["lost_transport"]
    assert c["taken"] == c["delivered"] + lost, f"cpu {c['cpu']}: taken {c['taken']} != delivered {c['delivered']} + lost {lost}"
    assert c["received"] == c["delivered"], f"cpu {c['cpu']}: received {c['received']} != delivered {c['delivered']}"
    assert c["taken"] > 0, f"cpu {c['cpu']}: no samples"
print("accounting ok:", [(c["cpu"], c["taken"]) for c in cpus])
PY
}

# The SMP work program with a 16-entry table and 8-entry overflow buffers, so the hash evicts
# and the buffers drain (and overflow) all through a run. Sets $tiny (its build folder,
# relative to $ROOT); the image is $tiny/smp_tiny.elf.
make_smp_tiny() {
	tiny=$BUILD/x86_64-smp-tiny
	(cd "$ROOT" && make --no-print-directory -s -j2 image SRC=tests/e2e/progs/smp_work.c \
		NAME=smp_tiny BUILD="$BUILD" X86_OUT="$tiny" \
		X86_DEFS="-DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=8") >"$T/make" 2>&1 ||
		{ cat "$T/make"; fail "make image (tiny buffers) failed"; }
}

# stacks_run NAME IMAGE ARGS...: profile IMAGE with call stacks under --icount at 20 kHz
# into $T/NAME.data, check the accounting and that no chain found the stack table full,
# and fold it into $T/NAME.folded, whose rows must hold every delivered sample
stacks_run() {
	local name=$1 img=$2 total
	shift 2
	"$BMPROF" qemu --icount --freq 20000 "$@" -o "$T/$name.data" "$img" >"$T/$name.out" \
		2>"$T/$name.err" || { tail -20 "$T/$name.err"; fail "$name: bmprof qemu exited $?"; }
	"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report"
	check_accounting "$T/$name.json"
	pyassert "$T/$name.json" "sum(c['stack_full'] for c in r['meta']['cpus']) == 0"
	"$BMPROF" export -i "$T/$name.data" --format folded -o "$T/$name.folded" ||
		fail "$name: export folded"
	total=$(awk '{ n += $NF } END { print n }' "$T/$name.folded")
	pyassert "$T/$name.json" "sum(c['delivered'] for c in r['meta']['cpus']) == $total"
}
