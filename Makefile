# SPDX-License-Identifier: BSD-2-Clause
# bmprof: a sampling profiler for code with no OS under it.
#
#   make            the host tool (build/bin/bmprof) and the x86-64 target library
#   make demo       set up what is missing, boot the demo image in QEMU, print its profile
#   make check      set up what is missing, run every test, end with a summary line
#   make check-loaded  the end-to-end tests with LOAD (default 2) CPU burners running
#   make image SRC="a.c b.c" [NAME=prog]   a bootable x86-64 image build/x86_64/prog.elf
#   make image SRC=... BOOT=uefi            a UEFI application build/uefi-x86_64/prog.efi (docs/uefi.md)
#   make image SRC=... ARCH=cortex-m4       a Cortex-M image for QEMU's MPS boards (docs/integration-cortex-m.md)
#   make image SRC=... LIBC=newlib          the program linked with newlib (docs/image.md)
#   make bench      benchmarks, printed as ratios against baselines measured in the same run
#   make install PREFIX=... [DESTDIR=...]   bmprof, its man pages, and the target libraries
#                   with headers, pkg-config and CMake files (mk/install.mk); make uninstall
#
# SAN=1 builds the host side with AddressSanitizer and UndefinedBehaviorSanitizer
# (into build/san; make check does this).

.DEFAULT_GOAL := all
BUILD ?= build
SAN ?= 0

include mk/quiet.mk
include mk/common.mk
include mk/core.mk
include mk/host.mk
include mk/plugin.mk
include mk/export.mk
include mk/newlib.mk
include mk/image.mk
include mk/bhive.mk
include mk/pmu-tests.mk
include mk/image-aarch64.mk
include mk/bhive-aarch64.mk
include mk/image-cortexm.mk
include mk/test-images-newlib.mk
include mk/image-riscv64.mk
include mk/image-uefi.mk
include mk/image-uefi-aarch64.mk
include mk/examples.mk
include mk/tests.mk
include mk/bench.mk
include mk/e2e.mk
include mk/fixtures.mk
include mk/bench-symbolize.mk
include mk/bench-report.mk
include mk/fuzz.mk
include mk/install.mk

all: $(BMPROF) $(X86_LIB) $(A64_LIB) cm-libs plugin bhive-image man

deps:
	@bash scripts/deps.sh

DEMO_FREQ ?= 4000
demo: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory image SRC=examples/demo.c NAME=demo
	$(BMPROF) qemu --freq $(DEMO_FREQ) -o $(BUILD)/demo.data $(X86_OUT)/demo.elf
	$(BMPROF) report -i $(BUILD)/demo.data --sort line --limit 12
	@bash scripts/demo-next.sh $(BMPROF) $(BUILD)/demo.data $(X86_OUT)/demo.elf $(DEMO_FREQ)

clean:
	rm -rf $(BUILD)

.PHONY: all deps demo clean
