#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs every test and prints the summary line "N passed, N failed, N skipped".
#   UNIT_DIR  directory of the cmocka unit test binaries (test_*); empty: no unit tests
#   BMPROF    the bmprof binary the end-to-end tests use
#   BUILD     the build directory (images in $BUILD/test-images)
# An e2e script passes with exit 0, skips with 77 (saying why), fails otherwise.
set -u
cd "$(dirname "$0")/.."
: "${BUILD:=build}" "${UNIT_DIR=$BUILD/host/tests}" "${BMPROF:=$BUILD/bin/bmprof}"
export BUILD BMPROF BMPROF_FIXTURES="${BMPROF_FIXTURES:-$BUILD/fixtures}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0 failed=0 skipped=0
failures=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

for t in ${UNIT_DIR:+"$UNIT_DIR"/test_*}; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	"$t" >"$log/$name" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log/$name" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log/$name" | awk '{s+=$1} END {print s+0}')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or sanitizer abort
	passed=$((passed + p)) failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		failures+=("$name")
		echo "FAIL unit $name"; sed 's/^/    /' "$log/$name" | tail -n 40
	else
		echo "ok   unit $name ($p)"
	fi
done

for t in tests/e2e/test_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	start=$(date +%s)
	bash "$t" >"$log/$name" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) passed=$((passed + 1)); echo "ok   e2e  $name (${secs}s)" ;;
	77) skipped=$((skipped + 1)); echo "skip e2e  $name: $(tail -n 1 "$log/$name")" ;;
	*) failed=$((failed + 1)); failures+=("$name")
	   echo "FAIL e2e  $name (exit $rc, ${secs}s)"; sed 's/^/    /' "$log/$name" | tail -n 40 ;;
	esac
done

# Fuzzing: every committed seed and reproducer, then a short fixed-seed run per harness.
if [ -n "${FUZZ_CHECK:-}" ]; then
	$FUZZ_CHECK >"$log/fuzz" 2>&1
	rc=$?
	while read -r line; do
		case $line in
		fuzz_*": "*" 0 crashes"*) passed=$((passed + 1)); echo "ok   fuzz $line" ;;
		fuzz_*": "*" crash"*) failed=$((failed + 1)); failures+=("${line%%:*}"); echo "FAIL fuzz $line" ;;
		*skipped*) skipped=$((skipped + 1)); echo "skip fuzz $line" ;;
		esac
	done <"$log/fuzz"
	if [ $rc -ne 0 ] && ! grep -q ' crash' "$log/fuzz"; then
		failed=$((failed + 1)); failures+=("fuzz-check"); sed 's/^/    /' "$log/fuzz" | tail -n 20
	fi
fi

echo
[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
