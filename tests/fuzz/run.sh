#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs the libFuzzer harnesses (built by mk/fuzz.mk).
#
#   run.sh fuzz  FUZZ_DIR SECONDS HARNESS...   fuzz each harness for SECONDS from its seeds
#                                              (tests/fuzz/corpus/<h>, read only); new inputs go
#                                              to FUZZ_DIR/corpus/<h>, crashes to
#                                              FUZZ_DIR/artifacts/<h>
#   run.sh check FUZZ_DIR SECONDS HARNESS...   run every seed and every reproducer in
#                                              tests/fuzz/regress/<h> once, then fuzz SECONDS
#                                              from them (fixed seed, scratch corpus); exits
#                                              non-zero on any crash
#
# Prints one line per harness: "<h>: N execs, K crashes". FUZZ_FLAGS adds libFuzzer options
# (e.g. FUZZ_FLAGS=-use_value_profile=1, or -jobs=2 -workers=2).
set -u
cd "$(dirname "$0")/../.."
mode=$1 dir=$2 secs=$3
shift 3

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Per-harness options: -max_len fits the largest input worth trying (a whole frame for the
# reader, a few frames for a profile, a small ELF, a database of a few profiles, a few runs).
opts() {
	case $1 in
	fuzz_reader | fuzz_bhive | fuzz_itm) echo "-max_len=70000 -rss_limit_mb=1024" ;;
	fuzz_profile) echo "-max_len=200000 -rss_limit_mb=1024" ;;
	fuzz_elf | fuzz_dtype) echo "-max_len=131072 -rss_limit_mb=2048" ;;
	fuzz_recover) echo "-max_len=512 -rss_limit_mb=1024" ;;
	fuzz_cpi | fuzz_cli) echo "-max_len=32768 -rss_limit_mb=2048" ;;
	fuzz_backtrack) echo "-max_len=4096 -rss_limit_mb=1024" ;;
	fuzz_db | fuzz_topdown | fuzz_diff) echo "-max_len=65536 -rss_limit_mb=2048" ;;
	esac
	echo "-timeout=10 ${FUZZ_FLAGS:-}"
}

# Executions libFuzzer reports in log $1 (0 if it reported none).
execs() {
	sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$1" | tail -n 1 | grep . ||
		echo 0
}

failed=0
for h in "$@"; do
	bin=$dir/bin/$h
	seeds=tests/fuzz/corpus/$h
	regress=tests/fuzz/regress/$h
	art=$dir/artifacts/$h
	log=$dir/logs/$h.$mode.log
	mkdir -p "$art" "$dir/logs" "$seeds"
	crashes=0 n=0
	if [ "$mode" = check ]; then
		# each committed input exactly as stored (a corpus directory would cut inputs
		# longer than -max_len)
		mapfile -t files < <(find "$seeds" "$regress" -type f 2>/dev/null | sort)
		if [ ${#files[@]} -gt 0 ]; then
			if ! "$bin" $(opts "$h") "${files[@]}" >"$log" 2>&1; then
				crashes=1
				echo "$h: crashed on a committed input:"
				grep -E '^(Running|==[0-9]+==ERROR|SUMMARY)|invariant failed' "$log" |
					tail -n 6 | sed 's/^/    /'
			fi
			n=${#files[@]}
		fi
		work=$dir/check/$h
		rm -rf "$work"
		mkdir -p "$work"
		dirs=("$work" "$seeds")
		[ -d "$regress" ] && dirs+=("$regress")
		if [ $crashes -eq 0 ]; then
			"$bin" $(opts "$h") -seed=1 -max_total_time="$secs" -print_final_stats=1 \
				-artifact_prefix="$art/" "${dirs[@]}" >"$log" 2>&1 || crashes=1
			n=$((n + $(execs "$log")))
		fi
	else
		work=$dir/corpus/$h
		mkdir -p "$work"
		before=$(find "$work" -type f | wc -l)
		"$bin" $(opts "$h") -max_total_time="$secs" -print_final_stats=1 \
			-artifact_prefix="$art/" "$work" "$seeds" >"$log" 2>&1 || crashes=1
		n=$(execs "$log")
		after=$(find "$work" -type f | wc -l)
	fi
	if [ $crashes -ne 0 ]; then
		failed=1
		echo "$h: $n execs, $crashes crash (log: $log)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY)|invariant failed|Test unit written to' "$log" |
			tail -n 6 | sed 's/^/    /'
	elif [ "$mode" = check ]; then
		echo "$h: $n execs, 0 crashes"
	else
		echo "$h: $n execs in ${secs}s, 0 crashes; corpus $work: $after inputs (+$((after - before)))"
	fi
done
exit $failed
