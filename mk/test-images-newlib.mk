# SPDX-License-Identifier: BSD-2-Clause
# make test-images-newlib: tests/e2e/progs-newlib/NAME.c linked with newlib (mk/newlib.mk),
# as $(BUILD)/test-images-newlib/x86_64/NAME.elf and .../aarch64/NAME.elf, whatever LIBC
# says, and .../cortex-m4/NAME.elf (an FPU board, Debian's arm-none-eabi newlib) where that
# newlib is installed, and .../riscv64/NAME.elf with picolibc where that is installed
# (mk/image-riscv64.mk). Builds newlib first if it is not built yet.
NEWLIB_TEST_DIR := $(BUILD)/test-images-newlib
NEWLIB_TEST_PROGS := $(wildcard tests/e2e/progs-newlib/*.c)
NEWLIB_TEST_IMAGES := $(foreach p,$(NEWLIB_TEST_PROGS),$(foreach a,x86_64 aarch64,\
	$(NEWLIB_TEST_DIR)/$(a)/$(basename $(notdir $(p))).elf))

$(foreach p,$(NEWLIB_TEST_PROGS),$(call x86_image,\
	$(NEWLIB_TEST_DIR)/x86_64/$(basename $(notdir $(p))).elf,\
	$(NEWLIB_TEST_DIR)/x86_64/obj/$(basename $(notdir $(p))),$(p),\
	-Werror $(NEWLIB_X86_PROG_CFLAGS),\
	$(call newlib_link,$(X86_OBJ)/newlib/syscalls.o,$(NEWLIB_X86)),\
	$(NEWLIB_X86_LIBC) $(X86_OBJ)/newlib/syscalls.o))
$(foreach p,$(NEWLIB_TEST_PROGS),$(call a64_image,\
	$(NEWLIB_TEST_DIR)/aarch64/$(basename $(notdir $(p))).elf,\
	$(NEWLIB_TEST_DIR)/aarch64/obj/$(basename $(notdir $(p))),$(p),\
	-Werror $(NEWLIB_A64_PROG_CFLAGS),\
	$(call newlib_link,$(A64_OBJ)/newlib/syscalls.o,$(NEWLIB_A64)),\
	$(NEWLIB_A64_LIBC) $(A64_OBJ)/newlib/syscalls.o))

ifneq ($(filter /%,$(call cm_newlib_libc,cortex-m4)),)
NEWLIB_TEST_IMAGES += $(foreach p,$(NEWLIB_TEST_PROGS),\
	$(NEWLIB_TEST_DIR)/cortex-m4/$(basename $(notdir $(p))).elf)
$(foreach p,$(NEWLIB_TEST_PROGS),$(call cm_image,cortex-m4,\
	$(NEWLIB_TEST_DIR)/cortex-m4/$(basename $(notdir $(p))).elf,\
	$(NEWLIB_TEST_DIR)/cortex-m4/obj/$(basename $(notdir $(p))),$(p),\
	-Werror $(NEWLIB_CM_PROG_CFLAGS),$(call cm_newlib_link,cortex-m4),\
	$(call cm_newlib_deps,cortex-m4)))
endif

test-images-newlib: $(NEWLIB_TEST_IMAGES)

.PHONY: test-images-newlib
