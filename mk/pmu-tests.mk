# SPDX-License-Identifier: BSD-2-Clause
# x86-64-only end-to-end test programs: each tests/e2e/progs-x86_64/NAME.c becomes
# $(TEST_IMAGE_DIR)/NAME.elf, built by `make test-images` like tests/e2e/progs/ (after
# mk/image.mk, whose x86_image rules it uses).

X86_ONLY_PROG_FILES := $(wildcard tests/e2e/progs-x86_64/*.c)
X86_ONLY_IMAGES := $(foreach p,$(X86_ONLY_PROG_FILES),\
	$(TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf)
$(foreach p,$(X86_ONLY_PROG_FILES),$(call x86_image,$(TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf,\
	$(TEST_IMAGE_DIR)/obj/$(basename $(notdir $(p))),$(p),-Werror))

test-images: $(X86_ONLY_IMAGES)
