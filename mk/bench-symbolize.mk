# SPDX-License-Identifier: BSD-2-Clause
# make bench-symbolize: bmprof's symbolizer against addr2line (and llvm-symbolizer when
# installed) on a large generated ELF, timed in one run under the same conditions (output
# path, one core, distinct addresses: bench/symbolize_bench.py), with agreement checked on
# every frame. The ELF (bench/symbolize/gen.py, several minutes to build) and its address sets
# (mkaddrs.py) are made once in $(BUILD)/bench/symbolize and kept.
SYMB_OUT := $(BENCH_OUT)/symbolize
SYMB_ELF := $(SYMB_OUT)/bigelf
SYMB_ADDRS := $(SYMB_OUT)/addrs/agree.txt
SYMB_DRIVER := $(SYMB_OUT)/symbolize_bench
SYMB_LIB := $(BUILD)/host/libbmprof-host.a
SYMB_RUNS ?= 3

$(SYMB_ELF): | bench/symbolize/gen.py bench/symbolize/Makefile
	@mkdir -p $(SYMB_OUT)
	python3 bench/symbolize/gen.py --out $(SYMB_OUT)/src
	$(MAKE) --no-print-directory -C $(SYMB_OUT) -f $(CURDIR)/bench/symbolize/Makefile -j2 bigelf

$(SYMB_ADDRS): | $(SYMB_ELF)
	cd $(SYMB_OUT) && python3 $(CURDIR)/bench/symbolize/mkaddrs.py bigelf --out addrs

$(SYMB_DRIVER): bench/symbolize_bench.c host/symbol/symbolize.h $(SYMB_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) $(BENCH_CFLAGS) -Ihost -o $@ bench/symbolize_bench.c $(SYMB_LIB) $(HOST_LDLIBS)

# The driver links the plain (not sanitized) host library: mk/bench.mk runs this with SAN=0.
bench-symbolize-run: $(SYMB_DRIVER) $(SYMB_ADDRS)
	python3 bench/symbolize_bench.py --elf $(SYMB_ELF) --addrs $(SYMB_OUT)/addrs \
		--driver $(SYMB_DRIVER) --out $(SYMB_OUT)/out --runs $(SYMB_RUNS)
