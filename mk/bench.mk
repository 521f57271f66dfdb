# SPDX-License-Identifier: BSD-2-Clause
# Benchmarks (make bench): each bench-xxx target installs what is missing (bench-deps),
# then builds and runs one benchmark in a make of its own, printing ratios against
# baselines measured in the same run and medians over repetitions. Benchmarks always
# build without sanitizers, whatever SAN says. On a busy host they print noisier
# figures; they fail only when something is broken (a build, a run, a wrong answer).
BENCH_OUT := $(BUILD)/bench
BENCH_CFLAGS := -std=gnu11 -O2 -g $(HOST_WARN) -Itransport -Itarget/include -D_GNU_SOURCE
BENCHES := bench-core bench-irq bench-transport bench-symbolize bench-a64-cycles bench-usermode \
	bench-bhive

bench: bench-deps
	@for b in $(BENCHES); do $(MAKE) --no-print-directory SAN=0 $$b-run || exit 1; done

$(BENCHES): bench-deps
	@$(MAKE) --no-print-directory SAN=0 $@-run

# llvm-symbolizer, a peer in the symbolization benchmark, is an optional dependency.
bench-deps:
	@BMPROF_DEPS_EXTRA=1 bash scripts/deps.sh
.PHONY: bench bench-deps $(BENCHES) $(BENCHES:=-run)

# The target core's sampling body, compiled for the host (one object per source file, as in
# an image: no cross-file inlining into the benchmark).
CORE_BENCH := $(BENCH_OUT)/core/core_bench
$(CORE_BENCH): bench/core_bench.c $(CORE_SRCS) $(wildcard target/core/*.h) transport/wire.h \
		target/include/bmprof.h
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) $(BENCH_CFLAGS) -o $@ bench/core_bench.c $(CORE_SRCS)

bench-core-run: $(CORE_BENCH)
	$(CORE_BENCH)

# A sampling interrupt's cost under QEMU TCG against an empty handler at the same rate (the
# samplers' probe mode), in one guest run, x86-64 and AArch64.
bench-irq-run: $(BMPROF)
	@$(MAKE) --no-print-directory image SRC=bench/progs/irqcost.c NAME=irqcost
	@$(MAKE) --no-print-directory image ARCH=aarch64 SRC=bench/progs/irqcost.c NAME=irqcost \
		IMAGE_CFLAGS=-Werror
	BMPROF=$(BMPROF) IMG=$(X86_OUT)/irqcost.elf A64_IMG=$(A64_OUT)/irqcost.elf \
		bash bench/irq_cost.sh

# Serial port vs shared-memory rings: raw stream throughput, and the sample path's capacity
# with no interrupt in the way.
TRANSPORT_BENCH := $(BENCH_OUT)/transport
bench-transport-run: $(BMPROF)
	@$(MAKE) --no-print-directory image SRC=bench/progs/stream.c NAME=stream \
		X86_OUT=$(TRANSPORT_BENCH) IMAGE_CFLAGS=-Werror
	@$(MAKE) --no-print-directory image SRC=bench/progs/drainrate.c NAME=drainrate \
		X86_OUT=$(TRANSPORT_BENCH) IMAGE_CFLAGS=-Werror
	BMPROF=$(BMPROF) STREAM_IMG=$(TRANSPORT_BENCH)/stream.elf \
		DRAIN_IMG=$(TRANSPORT_BENCH)/drainrate.elf bash bench/transport.sh

# AArch64 CPU_CYCLES sampling without -icount: how its shares follow the work, against
# --icount in the same run.
bench-a64-cycles-run: $(BMPROF)
	@$(MAKE) --no-print-directory test-images-aarch64
	BMPROF=$(BMPROF) IMG=$(BUILD)/test-images-aarch64/shares.elf bash bench/a64_cycles.sh

# Natively timed ring-3 samples under KVM: their accuracy, against TCG --icount.
bench-usermode-run: $(BMPROF)
	@$(MAKE) --no-print-directory test-images
	BMPROF=$(BMPROF) IMG=$(BUILD)/test-images/usermode.elf bash bench/usermode_kvm.sh

# bmprof bhive: the share of the host's own programs' blocks that profiles, microblocks
# against their published cycles, blocks per second (under KVM; the share alone under TCG).
bench-bhive-run: $(BMPROF) bhive-image
	BMPROF=$(BMPROF) bash bench/bhive.sh
