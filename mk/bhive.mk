# SPDX-License-Identifier: BSD-2-Clause
# bmprof bhive's harness image (boot/bhive/x86_64: a program over the x86-64 runtime that
# reaches the runtime's internals), into lib/bmprof/ beside each bmprof's bin/, where
# bmprof finds it (host/bhive/bhive_image.c):
#   $(BUILD)/lib/bmprof/bhive-x86_64.elf        for $(BUILD)/bin/bmprof
#   $(HOST_BUILD)/lib/bmprof/bhive-x86_64.elf   for $(HOST_BUILD)/bin/bmprof

BHIVE_X86_SRCS := $(wildcard boot/bhive/x86_64/*.c boot/bhive/x86_64/*.S boot/bhive/common/*.c)
BHIVE_X86 := $(BUILD)/lib/bmprof/bhive-x86_64.elf
BHIVE_X86_HOST := $(HOST_BUILD)/lib/bmprof/bhive-x86_64.elf
$(call x86_image,$(BHIVE_X86),$(X86_OBJ)/bhive,$(BHIVE_X86_SRCS),-Werror -mgeneral-regs-only \
	-Iboot/x86_64 -Iboot/bhive/x86_64 -Iboot/bhive/common)

ifneq ($(BHIVE_X86_HOST),$(BHIVE_X86))
$(BHIVE_X86_HOST): $(BHIVE_X86)
	@mkdir -p $(dir $@)
	cp $< $@
endif

bhive-image: $(BHIVE_X86) $(BHIVE_X86_HOST)

.PHONY: bhive-image
