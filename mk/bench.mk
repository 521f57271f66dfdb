# Benchmarks (make bench): each bench-xxx target builds and runs one benchmark, printing
# ratios against baselines measured in the same run. Benchmarks always build without
# sanitizers, whatever SAN says.
BENCH_OUT := $(BUILD)/bench
BENCH_CFLAGS := -std=gnu11 -O2 -g $(HOST_WARN) -Itransport -Itarget/include -D_GNU_SOURCE

# The target core's sampling body, compiled for the host (one object per source file, as in
# an image: no cross-file inlining into the benchmark).
CORE_BENCH := $(BENCH_OUT)/core/core_bench
$(CORE_BENCH): bench/core_bench.c $(CORE_SRCS) $(wildcard target/core/*.h) transport/wire.h \
		target/include/bmprof.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(BENCH_CFLAGS) -o $@ bench/core_bench.c $(CORE_SRCS)

bench-core: $(CORE_BENCH)
	$(CORE_BENCH)

bench: bench-core
.PHONY: bench bench-core

# The emulator's interrupt round trip (QEMU TCG), for reference.
bench-irq: $(BMPROF)
	@$(MAKE) --no-print-directory image SRC=bench/progs/irqcost.c NAME=irqcost
	BMPROF=$(BMPROF) IMG=$(X86_OUT)/irqcost.elf bash bench/irq_cost.sh

bench: bench-irq
.PHONY: bench-irq

# Serial port vs shared-memory rings: raw stream throughput and loss-free sampling rate.
TRANSPORT_BENCH := $(BENCH_OUT)/transport
bench-transport: $(BMPROF)
	@$(MAKE) --no-print-directory image SRC=bench/progs/stream.c NAME=stream \
		X86_OUT=$(TRANSPORT_BENCH)
	@$(MAKE) --no-print-directory image SRC=tests/e2e/progs/manypc.c NAME=manypc_bench \
		X86_OUT=$(TRANSPORT_BENCH) \
		X86_DEFS="-DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=64"
	BMPROF=$(BMPROF) IMG=$(TRANSPORT_BENCH)/manypc_bench.elf \
		STREAM_IMG=$(TRANSPORT_BENCH)/stream.elf bash bench/transport.sh

bench: bench-transport
.PHONY: bench-transport

# AArch64 CPU_CYCLES sampling without -icount: how its shares follow the work, against
# --icount in the same run.
bench-a64-cycles: $(BMPROF)
	@$(MAKE) --no-print-directory test-images-aarch64
	BMPROF=$(BMPROF) IMG=$(BUILD)/test-images-aarch64/shares.elf bash bench/a64_cycles.sh

bench: bench-a64-cycles
.PHONY: bench-a64-cycles

# Natively timed ring-3 samples under KVM: their accuracy, against TCG --icount.
bench-usermode: $(BMPROF)
	@$(MAKE) --no-print-directory test-images
	BMPROF=$(BMPROF) IMG=$(BUILD)/test-images/usermode.elf bash bench/usermode_kvm.sh

bench: bench-usermode
.PHONY: bench-usermode

# llvm-symbolizer, a peer in the symbolization benchmark, is an optional dependency.
bench-deps:
	@BMPROF_DEPS_EXTRA=1 bash scripts/deps.sh
bench-core bench-irq bench-symbolize bench-transport bench-a64-cycles bench-usermode: | bench-deps
.PHONY: bench-deps
