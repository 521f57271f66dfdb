#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Loss accounting stays exact under stress: smp_work with 16-entry tables and 8-entry
# overflow buffers (so the table evicts and the buffers drain and overflow all through the
# run) on every CPU count from 1 to 8, with and without -icount: on every CPU, taken =
# delivered + lost and every delivered sample arrived, and every CPU reported. Each CPU
# works until it took 64 samples in its work (own_samples: so many samples over the 16
# cases' blocks make the 16-entry table evict), however little of the host it gets.
. "$(dirname "$0")/lib.sh"
need_qemu
out=$BUILD/x86_64-acct-tiny
(cd "$ROOT" && make --no-print-directory -s -j2 image SRC=tests/e2e/progs/smp_work.c \
	NAME=acct_tiny BUILD="$BUILD" X86_OUT="$out" IMAGE_CFLAGS=-DSMP_WORK_ITERS=100000 \
	X86_DEFS="-DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=8") >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make image (tiny buffers)"; }
img=$ROOT/$out/acct_tiny.elf
for icount in "" --icount; do
	for n in 1 2 3 4 5 6 7 8; do
		name="n$n${icount:+-icount}"
		"$BMPROF" qemu $icount --timeout 600 --cpu-wait 600000 --freq 20000 --smp "$n" \
			--param own_samples=64 -o "$T/$name.data" "$img" \
			>"$T/$name.out" 2>"$T/$name.err" || { tail -20 "$T/$name.err"; fail "$name: exit $?"; }
		"$BMPROF" report -i "$T/$name.data" --format json >"$T/$name.json" || fail "$name: report"
		check_accounting "$T/$name.json"
		pyassert "$T/$name.json" "sorted(c['cpu'] for c in r['meta']['cpus']) == list(range($n))"
		pyassert "$T/$name.json" "sum(c['lost_full'] for c in r['meta']['cpus']) + sum(c['evictions'] for c in r['meta']['cpus']) > 0"
	done
done
echo "accounting exact on 1-8 CPUs, with and without -icount"
