#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs every test and prints the summary line "N passed, N failed, N skipped".
#   UNIT_DIR  directory of the cmocka unit test binaries (test_*); empty: no unit tests
#   BMPROF    the bmprof binary the end-to-end tests use
#   BUILD     the build directory (images in $BUILD/test-images)
#   JOBS      tests run at once (default: the number of CPUs). The e2e tests are mostly one
#             QEMU each, so a 2-core machine runs two; each test must hold on a loaded host.
#   FUZZ_CHECK  command that runs the fuzzers' regression check (one job beside the tests)
# An e2e script passes with exit 0, skips with 77 (saying why), fails otherwise. Each line
# is printed when its test ends.
set -u
cd "$(dirname "$0")/.."
: "${BUILD:=build}" "${UNIT_DIR=$BUILD/host/tests}" "${BMPROF:=$BUILD/bin/bmprof}"
: "${JOBS:=$(nproc 2>/dev/null || echo 1)}"
export BUILD BMPROF BMPROF_FIXTURES="${BMPROF_FIXTURES:-$BUILD/fixtures}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0 failed=0 skipped=0
failures=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# One unit test binary: its cmocka counts into $log/NAME.res as "P F".
run_unit() {
	local t=$1 name=$2 rc p f
	"$t" >"$log/$name" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log/$name" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log/$name" | awk '{s+=$1} END {print s+0}')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or sanitizer abort
	echo "$p $f" >"$log/$name.res"
}

# One e2e script: "RC SECONDS" into $log/NAME.res.
run_e2e() {
	local t=$1 name=$2 start rc
	start=$(date +%s)
	bash "$t" >"$log/$name" 2>&1
	rc=$?
	echo "$rc $(( $(date +%s) - start ))" >"$log/$name.res"
}

run_fuzz() {
	$FUZZ_CHECK >"$log/fuzz" 2>&1
	echo $? >"$log/fuzz.res"
}

# Prints and counts the result of job KIND:NAME once it has ended.
report() {
	local kind=${1%%:*} name=${1#*:} p f rc secs line
	case $kind in
	unit)
		read -r p f <"$log/$name.res"
		passed=$((passed + p)) failed=$((failed + f))
		if [ "$f" -ne 0 ]; then
			failures+=("$name")
			echo "FAIL unit $name"; sed 's/^/    /' "$log/$name" | tail -n 40
		else
			echo "ok   unit $name ($p)"
		fi ;;
	e2e)
		read -r rc secs <"$log/$name.res"
		case $rc in
		0) passed=$((passed + 1)); echo "ok   e2e  $name (${secs}s)" ;;
		77) skipped=$((skipped + 1)); echo "skip e2e  $name: $(tail -n 1 "$log/$name")" ;;
		*) failed=$((failed + 1)); failures+=("$name")
		   echo "FAIL e2e  $name (exit $rc, ${secs}s)"; sed 's/^/    /' "$log/$name" | tail -n 40 ;;
		esac ;;
	fuzz)
		# fuzzing: every committed seed and reproducer, then a short fixed-seed run per harness
		rc=$(cat "$log/fuzz.res")
		while read -r line; do
			case $line in
			fuzz_*": "*" 0 crashes"*) passed=$((passed + 1)); echo "ok   fuzz $line" ;;
			fuzz_*": "*" crash"*) failed=$((failed + 1)); failures+=("${line%%:*}"); echo "FAIL fuzz $line" ;;
			*skipped*) skipped=$((skipped + 1)); echo "skip fuzz $line" ;;
			esac
		done <"$log/fuzz"
		if [ "$rc" -ne 0 ] && ! grep -q ' crash' "$log/fuzz"; then
			failed=$((failed + 1)); failures+=("fuzz-check"); sed 's/^/    /' "$log/fuzz" | tail -n 20
		fi ;;
	esac
}

# The job list: the longest tests first so the last to start are short ones.
jobs_list=()
[ -n "${FUZZ_CHECK:-}" ] && jobs_list+=("fuzz:fuzz")
for n in test_uefi_x86_64 test_recover test_validate test_uefi_aarch64; do
	[ -f "tests/e2e/$n.sh" ] && jobs_list+=("e2e:$n")
done
for t in tests/e2e/test_*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	case " ${jobs_list[*]} " in *" e2e:$n "*) continue ;; esac
	jobs_list+=("e2e:$n")
done
for t in ${UNIT_DIR:+"$UNIT_DIR"/test_*}; do
	[ -x "$t" ] && jobs_list+=("unit:$(basename "$t")")
done

declare -A running=()   # pid -> job
start_job() {
	local kind=${1%%:*} name=${1#*:}
	case $kind in
	unit) run_unit "$UNIT_DIR/$name" "$name" & ;;
	e2e) run_e2e "tests/e2e/$name.sh" "$name" & ;;
	fuzz) run_fuzz & ;;
	esac
	running[$!]=$1
}

# Waits for any job to end, then reports every job that has ended.
reap() {
	local pid
	wait -n 2>/dev/null || true
	for pid in "${!running[@]}"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" 2>/dev/null
			report "${running[$pid]}"
			unset "running[$pid]"
		fi
	done
}

for j in "${jobs_list[@]}"; do
	while [ ${#running[@]} -ge "$JOBS" ]; do reap; done
	start_job "$j"
done
while [ ${#running[@]} -gt 0 ]; do reap; done

echo
[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
