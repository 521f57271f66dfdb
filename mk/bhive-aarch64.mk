# SPDX-License-Identifier: BSD-2-Clause
# bmprof bhive's AArch64 harness image (boot/bhive/aarch64: a program over the AArch64
# runtime that reaches the runtime's internals), beside the x86-64 one (mk/bhive.mk):
#   $(BUILD)/lib/bmprof/bhive-aarch64.elf        for $(BUILD)/bin/bmprof
#   $(HOST_BUILD)/lib/bmprof/bhive-aarch64.elf   for $(HOST_BUILD)/bin/bmprof

BHIVE_A64_SRCS := $(wildcard boot/bhive/aarch64/*.c boot/bhive/aarch64/*.S boot/bhive/common/*.c)
BHIVE_A64 := $(BUILD)/lib/bmprof/bhive-aarch64.elf
BHIVE_A64_HOST := $(HOST_BUILD)/lib/bmprof/bhive-aarch64.elf
$(call a64_image,$(BHIVE_A64),$(A64_OBJ)/bhive,$(BHIVE_A64_SRCS),-Werror -mgeneral-regs-only \
	-Iboot/aarch64 -Iboot/bhive/aarch64 -Iboot/bhive/common)

ifneq ($(BHIVE_A64_HOST),$(BHIVE_A64))
$(BHIVE_A64_HOST): $(BHIVE_A64)
	@mkdir -p $(dir $@)
	cp $< $@
endif

bhive-image: $(BHIVE_A64) $(BHIVE_A64_HOST)
