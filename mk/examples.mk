# SPDX-License-Identifier: BSD-2-Clause
# The CPI-analysis workloads of examples/dcpi/ (examples/README.md), as images
#   make examples-dcpi           x86-64: $(X86_OUT)/dcpi-NAME.elf
#   make examples-dcpi-aarch64   AArch64: $(A64_OUT)/dcpi-NAME.elf

DCPI_EXAMPLES := $(basename $(notdir $(wildcard examples/dcpi/*.c)))
DCPI_IMAGES := $(foreach n,$(DCPI_EXAMPLES),$(X86_OUT)/dcpi-$(n).elf)
DCPI_A64_IMAGES := $(foreach n,$(DCPI_EXAMPLES),$(A64_OUT)/dcpi-$(n).elf)
$(foreach n,$(DCPI_EXAMPLES),$(call x86_image,$(X86_OUT)/dcpi-$(n).elf,\
	$(X86_OBJ)/dcpi/$(n),examples/dcpi/$(n).c,-Werror))
$(foreach n,$(DCPI_EXAMPLES),$(call a64_image,$(A64_OUT)/dcpi-$(n).elf,\
	$(A64_OBJ)/dcpi/$(n),examples/dcpi/$(n).c,-Werror))

examples-dcpi: $(DCPI_IMAGES)
examples-dcpi-aarch64: $(DCPI_A64_IMAGES)

.PHONY: examples-dcpi examples-dcpi-aarch64
