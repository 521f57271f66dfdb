# SPDX-License-Identifier: BSD-2-Clause
# Tests: tests/unit/test_*.c are cmocka programs linked against the host library and the
# host-compiled target core; tests/e2e/*.sh boot images in QEMU. tests/run.sh runs them
# all and prints the summary line.

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(HOST_BUILD)/tests/%,$(UNIT_SRCS))
TEST_FIXTURES := $(BUILD)/fixtures

$(HOST_BUILD)/tests/%: $(call host_objs,tests/unit/%.c) $(HOST_LIB) $(CORE_HOST_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) $(HOST_LDFLAGS) -o $@ $^ -lcmocka $(HOST_LDLIBS)

unit: $(UNIT_BINS)

# make check: the whole suite, host side under ASan + UBSan, built and run CHECK_JOBS at a
# time (default: the number of CPUs).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# the images the end-to-end tests boot (each architecture's mk file may add its own)
CHECK_IMAGES += test-images test-images-aarch64 test-images-uefi test-images-cortexm \
	test-images-newlib test-images-riscv64
check: deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) SAN=1 check-build
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all $(CHECK_IMAGES)
	@BUILD=$(BUILD) BMPROF=$(BUILD)/san/bin/bmprof UNIT_DIR=$(BUILD)/san/tests JOBS=$(CHECK_JOBS) \
		FUZZ_CHECK="$(MAKE) --no-print-directory -s fuzz-check" bash tests/run.sh

check-build: $(BMPROF_BIN) $(UNIT_BINS) plugin bhive-image

# make check-loaded: the end-to-end tests while LOAD busy processes (default 2: one per core
# of a 2-core machine) compete with them for the CPUs, as on a shared CI runner. Every e2e
# assertion must hold there too.
LOAD ?= 2
LOAD_SECONDS ?= 7200
check-loaded: deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) SAN=1 check-build
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all $(CHECK_IMAGES)
	@BUILD=$(BUILD) BMPROF=$(BUILD)/san/bin/bmprof UNIT_DIR= JOBS=1 \
		bash tests/e2e/burn.sh $(LOAD) $(LOAD_SECONDS) bash tests/run.sh

.PHONY: unit check check-build check-loaded
