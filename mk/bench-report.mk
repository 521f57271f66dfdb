# SPDX-License-Identifier: BSD-2-Clause
# make bench-report: how report and export scale with the number of distinct sampled pcs.
# bench/profile_gen.c writes valid profiles of 200k (the baseline), 2M and 20M distinct
# (pc, event, cpu) entries, most outside the demo image (a target sampling firmware, or a
# broken one); bench/report_scale.py times report -n 3 and export on each (wall, CPU, peak
# RSS) against the baseline. The profiles are made once in $(BUILD)/bench/report and kept.
REPORT_OUT := $(BENCH_OUT)/report
PROFILE_GEN := $(REPORT_OUT)/profile_gen
REPORT_ELF := $(REPORT_OUT)/img/demo.elf
REPORT_PCS ?= 200000,2000000,20000000
REPORT_RUNS ?= 3

$(PROFILE_GEN): bench/profile_gen.c transport/wire.h transport/crc32.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) $(BENCH_CFLAGS) -o $@ bench/profile_gen.c transport/crc32.c

# bmprof itself is the plain build (build/bin/bmprof), whatever SAN says.
bench-report:
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) SAN=0 $(BMPROF) \
		$(PROFILE_GEN)
	@$(MAKE) --no-print-directory image SRC=examples/demo.c NAME=demo X86_OUT=$(REPORT_OUT)/img
	python3 bench/report_scale.py --bmprof $(BMPROF) --elf $(REPORT_ELF) --gen $(PROFILE_GEN) \
		--out $(REPORT_OUT) --pcs $(REPORT_PCS) --runs $(REPORT_RUNS)

.PHONY: bench-report
bench: bench-report
