# SPDX-License-Identifier: BSD-2-Clause
# The man pages, and the installed kit:
#
#   make man                                   $(BUILD)/man/man1/*.1 from docs/bmprof*.md
#   make install [PREFIX=/usr/local] [DESTDIR=] the host tool and the target libraries
#   make uninstall [PREFIX=...] [DESTDIR=]     removes exactly what install put there
#
# Under PREFIX:
#   bin/bmprof, lib/bmprof/insn_count.so       (bmprof finds its plugin at ../lib/bmprof/)
#   lib/bmprof/bhive-x86_64.elf                bmprof bhive's harness image (found the same way)
#   lib/bmprof/bhive-aarch64.elf               and its AArch64 harness (bhive --arch aarch64)
#   lib/bmprof/ARCH/libbmprof.a                the in-image library: x86_64, aarch64,
#                                              cortex-m3, cortex-m4, cortex-m33, cortex-m55
#                                              (one per CPU: each its FP ABI), riscv64
#   include/bmprof/*.h                         its headers (bmprof.h includes wire.h)
#   lib/pkgconfig/bmprof-ARCH.pc               pkg-config, one per architecture
#   lib/cmake/bmprof/bmprofConfig*.cmake       CMake: find_package(bmprof), bmprof::ARCH
#   share/man/man1/bmprof*.1, share/doc/bmprof/LICENSE

PREFIX ?= /usr/local
DESTDIR ?=
BMPROF_VERSION := $(shell sed -n 's/^\#define BMPROF_VERSION "\(.*\)"/\1/p' host/bmprof.c)
BMPROF_VERSION_MAJOR := $(word 1,$(subst ., ,$(BMPROF_VERSION)))
BMPROF_VERSION_MINOR := $(word 2,$(subst ., ,$(BMPROF_VERSION)))

# Man pages: tools/md2man.py, one per page of docs/bmprof.md and docs/bmprof-*.md. A
# command's page (docs/bmprof-VERB.md) gets its OPTIONS section from the command's option
# table, the one its --help is printed from (bmprof VERB --man-options), in the place of
# the page's own.
MAN_DIR := $(BUILD)/man/man1
MAN_PAGES := $(patsubst docs/%.md,$(MAN_DIR)/%.1,docs/bmprof.md $(wildcard docs/bmprof-*.md))

$(MAN_DIR)/%.1: docs/%.md tools/md2man.py
	@mkdir -p $(dir $@)
	$(Q)$(call say,MAN,$@)python3 tools/md2man.py --version $(BMPROF_VERSION) $< >$@.tmp && mv $@.tmp $@

$(MAN_DIR)/bmprof-%.1: docs/bmprof-%.md tools/md2man.py $(BMPROF)
	@mkdir -p $(dir $@)
	$(Q)$(call say,MAN,$@)$(BMPROF) $* --man-options >$@.options
	$(Q)python3 tools/md2man.py --version $(BMPROF_VERSION) --options $@.options $< >$@.tmp && \
		mv $@.tmp $@ && rm -f $@.options

man: $(MAN_PAGES)

# What code that calls the library from an interrupt handler is compiled with (the .pc
# files' Cflags, the CMake targets' compile options): docs/integration-*.md say why.
KIT_X86_CFLAGS := -ffreestanding -mno-red-zone -mgeneral-regs-only
KIT_A64_CFLAGS := -ffreestanding -mgeneral-regs-only -mno-outline-atomics -mstrict-align
# Cortex-M: the CPU's code generation and float ABI (a hard-float library links only with
# hard-float code); RISC-V: RV64GC, lp64d, medany (docs/integration-cortex-m.md,
# docs/riscv64.md).
kit_cm_cflags = -ffreestanding -mthumb $(CM_CPU_$(1))
KIT_RV_CFLAGS := -ffreestanding -march=rv64gc -mabi=lp64d -mcmodel=medany
KIT_HEADERS := target/include/bmprof.h target/include/bmprof_pmu.h \
	target/include/bmprof_ring.h target/include/bmprof_desc.h \
	target/include/bmprof_x86_64.h target/include/bmprof_aarch64.h \
	target/include/bmprof_cortexm.h target/include/bmprof_itm.h \
	target/include/bmprof_riscv64.h transport/wire.h
# the libraries beside x86_64's and aarch64's
KIT_MORE_ARCHS := $(CM_ARCHS) riscv64

# Installed files, relative to $(DESTDIR)$(PREFIX)/ (uninstall removes these)
KIT_FILES := bin/bmprof lib/bmprof/insn_count.so lib/bmprof/bhive-x86_64.elf \
	lib/bmprof/bhive-aarch64.elf \
	lib/bmprof/x86_64/libbmprof.a lib/bmprof/aarch64/libbmprof.a \
	$(foreach a,$(KIT_MORE_ARCHS),lib/bmprof/$(a)/libbmprof.a lib/pkgconfig/bmprof-$(a).pc) \
	$(addprefix include/bmprof/,$(notdir $(KIT_HEADERS))) \
	lib/pkgconfig/bmprof-x86_64.pc lib/pkgconfig/bmprof-aarch64.pc \
	lib/cmake/bmprof/bmprofConfig.cmake lib/cmake/bmprof/bmprofConfigVersion.cmake \
	$(addprefix share/man/man1/,$(notdir $(MAN_PAGES))) share/doc/bmprof/LICENSE
KIT_DIRS := lib/bmprof/x86_64 lib/bmprof/aarch64 $(addprefix lib/bmprof/,$(KIT_MORE_ARCHS)) \
	lib/bmprof include/bmprof \
	lib/cmake/bmprof share/doc/bmprof
KIT_ROOT = $(DESTDIR)$(PREFIX)

kit_subst = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(BMPROF_VERSION)|g' \
	-e 's|@VERSION_MAJOR@|$(BMPROF_VERSION_MAJOR)|g' \
	-e 's|@VERSION_MINOR@|$(BMPROF_VERSION_MINOR)|g'

install: $(BMPROF) $(PLUGIN) $(BHIVE_X86) $(BHIVE_A64) $(X86_LIB) $(A64_LIB) \
		$(foreach a,$(CM_ARCHS),$(call cm_lib,$(a))) $(RV_LIB) $(MAN_PAGES)
	@case "$(PREFIX)" in /*) ;; *) echo "make install: PREFIX must be an absolute path" \
		"(it is written into the pkg-config files), not '$(PREFIX)'" >&2; exit 1;; esac
	install -d $(KIT_ROOT)/bin $(KIT_ROOT)/lib/bmprof/x86_64 $(KIT_ROOT)/lib/bmprof/aarch64 \
		$(KIT_ROOT)/include/bmprof $(KIT_ROOT)/lib/pkgconfig $(KIT_ROOT)/lib/cmake/bmprof \
		$(KIT_ROOT)/share/man/man1 $(KIT_ROOT)/share/doc/bmprof
	install -m 755 $(BMPROF) $(KIT_ROOT)/bin/bmprof
	install -m 755 $(PLUGIN) $(KIT_ROOT)/lib/bmprof/insn_count.so
	install -m 644 $(BHIVE_X86) $(KIT_ROOT)/lib/bmprof/bhive-x86_64.elf
	install -m 644 $(BHIVE_A64) $(KIT_ROOT)/lib/bmprof/bhive-aarch64.elf
	install -m 644 $(X86_LIB) $(KIT_ROOT)/lib/bmprof/x86_64/libbmprof.a
	install -m 644 $(A64_LIB) $(KIT_ROOT)/lib/bmprof/aarch64/libbmprof.a
	$(foreach a,$(CM_ARCHS),install -d $(KIT_ROOT)/lib/bmprof/$(a) && \
		install -m 644 $(call cm_lib,$(a)) $(KIT_ROOT)/lib/bmprof/$(a)/libbmprof.a && \
		$(kit_subst) -e 's|@ARCH@|$(a)|g' -e 's|@CFLAGS@|$(call kit_cm_cflags,$(a))|g' -e 's|@LIBS@| -lgcc|' \
		kit/bmprof.pc.in >$(KIT_ROOT)/lib/pkgconfig/bmprof-$(a).pc &&) true
	install -d $(KIT_ROOT)/lib/bmprof/riscv64
	install -m 644 $(RV_LIB) $(KIT_ROOT)/lib/bmprof/riscv64/libbmprof.a
	$(kit_subst) -e 's|@ARCH@|riscv64|g' -e 's|@CFLAGS@|$(KIT_RV_CFLAGS)|g' -e 's|@LIBS@| -lgcc|' \
		kit/bmprof.pc.in >$(KIT_ROOT)/lib/pkgconfig/bmprof-riscv64.pc
	install -m 644 $(KIT_HEADERS) $(KIT_ROOT)/include/bmprof/
	$(kit_subst) -e 's|@ARCH@|x86_64|g' -e 's|@CFLAGS@|$(KIT_X86_CFLAGS)|g' -e 's|@LIBS@||' \
		kit/bmprof.pc.in >$(KIT_ROOT)/lib/pkgconfig/bmprof-x86_64.pc
	$(kit_subst) -e 's|@ARCH@|aarch64|g' -e 's|@CFLAGS@|$(KIT_A64_CFLAGS)|g' -e 's|@LIBS@||' \
		kit/bmprof.pc.in >$(KIT_ROOT)/lib/pkgconfig/bmprof-aarch64.pc
	$(kit_subst) -e 's|@X86_OPTIONS@|$(KIT_X86_CFLAGS)|g' -e 's|@A64_OPTIONS@|$(KIT_A64_CFLAGS)|g' \
		$(foreach a,$(CM_ARCHS),-e 's|@$(a)_OPTIONS@|$(call kit_cm_cflags,$(a))|g') \
		-e 's|@RV_OPTIONS@|$(KIT_RV_CFLAGS)|g' kit/bmprofConfig.cmake.in >$(KIT_ROOT)/lib/cmake/bmprof/bmprofConfig.cmake
	$(kit_subst) kit/bmprofConfigVersion.cmake.in \
		>$(KIT_ROOT)/lib/cmake/bmprof/bmprofConfigVersion.cmake
	install -m 644 $(MAN_PAGES) $(KIT_ROOT)/share/man/man1/
	install -m 644 LICENSE $(KIT_ROOT)/share/doc/bmprof/LICENSE

uninstall:
	rm -f $(addprefix $(KIT_ROOT)/,$(KIT_FILES))
	-rmdir $(addprefix $(KIT_ROOT)/,$(KIT_DIRS)) 2>/dev/null

.PHONY: man install uninstall
