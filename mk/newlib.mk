# SPDX-License-Identifier: BSD-2-Clause
# The C library a program may be linked with: make image LIBC=newlib [HEAP_SIZE=8M].
#
#   LIBC=none     (default) the runtime's console and mem* only (boot/include/bmrt.h)
#   LIBC=newlib   newlib's libc and libm (full, not nano: printf with floating point and
#                 long long), over the syscall layer boot/common/newlib/syscalls.c (on
#                 RISC-V picolibc, newlib's derivative: mk/image-riscv64.mk), with a
#                 heap of HEAP_SIZE bytes (a number, or with a K or M suffix; 8M, and 256K
#                 on Cortex-M, whose boards have little RAM)
#   NEWLIB_DIR    where newlib is built, once per architecture (default $(BUILD)/newlib;
#                 a directory outside $(BUILD) keeps it across make clean)
#
# For x86-64 and AArch64, newlib is built from Debian's newlib-source by scripts/newlib.sh
# with the images' own compilers and code-generation flags, -O2 -g (so profiles show its
# functions with source lines), configured for a generic ELF target without syscalls of
# its own and without locks. It is rebuilt only when those flags or the script change.
# Included before the image fragments: X86_LIBC_* and A64_LIBC_* are expanded when an
# image's rules are made.
# Cortex-M uses Debian's prebuilt arm-none-eabi newlib (below).

LIBC ?= none
HEAP_SIZE ?= 8M
NEWLIB_DIR ?= $(BUILD)/newlib

ifeq ($(filter none newlib picolibc,$(LIBC)),)
$(error LIBC=$(LIBC): not a C library bmprof knows; use LIBC=newlib or LIBC=none)
endif
# RISC-V links picolibc for LIBC=newlib (mk/image-riscv64.mk); LIBC=picolibc names it
ifeq ($(LIBC)/$(filter riscv64,$(ARCH)),picolibc/)
$(error LIBC=picolibc: only for ARCH=riscv64; use LIBC=newlib)
endif
ifeq ($(shell printf '%s' '$(HEAP_SIZE)' | grep -Ex '[1-9][0-9]*[KM]?'),)
$(error HEAP_SIZE=$(HEAP_SIZE): not a size; use bytes or a K or M suffix, e.g. HEAP_SIZE=16M)
endif

ifeq ($(LIBC)/$(BOOT),newlib/uefi)
$(error LIBC=newlib: not for UEFI applications (BOOT=uefi); only the bare-metal images)
endif

NEWLIB_X86 := $(NEWLIB_DIR)/x86_64/install/x86_64-elf
NEWLIB_A64 := $(NEWLIB_DIR)/aarch64/install/aarch64-none-elf
NEWLIB_X86_LIBC := $(NEWLIB_X86)/lib/libc.a
NEWLIB_A64_LIBC := $(NEWLIB_A64)/lib/libc.a
# As the images' program code is built (mk/image.mk, mk/image-aarch64.mk): no red zone
# (interrupts arrive on the program's stack), frame pointers (call stacks), no PIE.
# _POSIX_MODE: libm's functions set errno (EDOM, ERANGE) as math_errhandling, MATH_ERRNO
# in newlib's math.h, says; newlib's default (IEEE mode) leaves errno alone.
NEWLIB_COMMON_CFLAGS := -O2 -g -fno-pie -fno-pic -fno-stack-protector -fno-omit-frame-pointer \
	-D_POSIX_MODE
NEWLIB_X86_CFLAGS := $(NEWLIB_COMMON_CFLAGS) -mno-red-zone -mno-omit-leaf-frame-pointer \
	-fcf-protection=none
NEWLIB_A64_CFLAGS := $(NEWLIB_COMMON_CFLAGS) -mno-outline-atomics

# A program's compiler flags with newlib: hosted C, newlib's headers and the compiler's
# own (stddef.h, stdarg.h), never the build machine's C library.
newlib_cflags = -fhosted -nostdinc -isystem $(shell $(1) -print-file-name=include) -isystem $(2)/include
NEWLIB_X86_PROG_CFLAGS = $(call newlib_cflags,$(X86_CC),$(NEWLIB_X86))
NEWLIB_A64_PROG_CFLAGS = $(call newlib_cflags,$(A64_CC),$(NEWLIB_A64))
# What links a program with newlib: the syscall layer, the heap's size, libc and libm.
newlib_link = $(1) -Wl,--defsym=__bmrt_heap_size=$(HEAP_SIZE) \
	-Wl,--start-group $(2)/lib/libm.a $(2)/lib/libc.a -lgcc -Wl,--end-group

# For one image: compiler flags, link arguments, and what its objects and link need built
# first; empty with LIBC=none.
ifeq ($(LIBC),newlib)
X86_LIBC_CFLAGS = $(NEWLIB_X86_PROG_CFLAGS)
X86_LIBC_LINK = $(call newlib_link,$(X86_OBJ)/newlib/syscalls.o,$(NEWLIB_X86))
X86_LIBC_DEPS = $(NEWLIB_X86_LIBC) $(X86_OBJ)/newlib/syscalls.o
A64_LIBC_CFLAGS = $(NEWLIB_A64_PROG_CFLAGS)
A64_LIBC_LINK = $(call newlib_link,$(A64_OBJ)/newlib/syscalls.o,$(NEWLIB_A64))
A64_LIBC_DEPS = $(NEWLIB_A64_LIBC) $(A64_OBJ)/newlib/syscalls.o
endif

# The build's flags file (as mk/common.mk's, but written by the recipe, which runs after
# every fragment has set X86_CC / A64_CC).
define newlib_flags_rule
$(NEWLIB_DIR)/$(1).flags: FORCE
	@mkdir -p $$(dir $$@)
	@printf '%s\n' $$(call sq,$$($(2)) $$($(3))) | cmp -s - $$@ || \
		printf '%s\n' $$(call sq,$$($(2)) $$($(3))) >$$@
endef
$(eval $(call newlib_flags_rule,x86_64,X86_CC,NEWLIB_X86_CFLAGS))
$(eval $(call newlib_flags_rule,aarch64,A64_CC,NEWLIB_A64_CFLAGS))

$(NEWLIB_X86_LIBC): $(NEWLIB_DIR)/x86_64.flags scripts/newlib.sh
	$(Q)bash scripts/newlib.sh x86_64 $(NEWLIB_DIR) $(X86_CC) $(call sq,$(NEWLIB_X86_CFLAGS))

$(NEWLIB_A64_LIBC): $(NEWLIB_DIR)/aarch64.flags scripts/newlib.sh
	$(Q)bash scripts/newlib.sh aarch64 $(NEWLIB_DIR) $(A64_CC) $(call sq,$(NEWLIB_A64_CFLAGS))

# The syscall layer: program code (FP allowed), warnings are errors.
NEWLIB_SYSCALLS := boot/common/newlib/syscalls.c
$(BUILD)/x86_64/obj/newlib/syscalls.o: $(NEWLIB_SYSCALLS) $(NEWLIB_X86_LIBC)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(X86_PROG_CFLAGS) $(NEWLIB_X86_PROG_CFLAGS) -Werror \
		-MMD -MP -c -o $@ $<

$(BUILD)/aarch64/obj/newlib/syscalls.o: $(NEWLIB_SYSCALLS) $(NEWLIB_A64_LIBC)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(A64_PROG_CFLAGS) $(NEWLIB_A64_PROG_CFLAGS) -Werror \
		-MMD -MP -c -o $@ $<

# Cortex-M (mk/image-cortexm.mk): Debian's prebuilt newlib for arm-none-eabi
# (libnewlib-arm-none-eabi, full libc.a, not nano), the multilib the CPU's flags select
# (arm-none-eabi-gcc -print-multi-directory: thumb/v7-m/nofp, thumb/v7e-m+fp/hard,
# thumb/v8-m.main+fp/hard, ...), and its headers, which arm-none-eabi-gcc finds itself.
# The boards' RAM is small (4 MiB on the MPS2 boards, 512 KiB on the MPS3 AN547): the heap
# is 256K unless HEAP_SIZE is given, and the main stack 8 KiB (printf's conversions).
CM_HEAP_SIZE := $(if $(filter file,$(origin HEAP_SIZE)),256K,$(HEAP_SIZE))
CM_NEWLIB_STACK_BYTES ?= 8192
cm_newlib_libc = $(shell $(CM_CC) $(CM_CPU_$(1)) -mthumb -print-file-name=libc.a)
cm_newlib_missing = LIBC=newlib: no newlib for $(CM_CC) $(CM_CPU_$(1)); install libnewlib-arm-none-eabi (make deps)
cm_newlib_check = $(if $(filter /%,$(call cm_newlib_libc,$(1))),,$(error $(call cm_newlib_missing,$(1))))
cm_newlib_syscalls = $(BUILD)/$(1)/obj/newlib/syscalls.o
NEWLIB_CM_PROG_CFLAGS := -fhosted
cm_newlib_link = $(call cm_newlib_check,$(1))$(call cm_newlib_syscalls,$(1)) \
	-Wl,--defsym=__bmrt_heap_size=$(CM_HEAP_SIZE) \
	-Wl,--defsym=__cm_stack_bytes=$(CM_NEWLIB_STACK_BYTES) -Wl,--start-group -lm -lc -lgcc -Wl,--end-group
cm_newlib_deps = $(call cm_newlib_syscalls,$(1))

$(BUILD)/cortex-m%/obj/newlib/syscalls.o: $(NEWLIB_SYSCALLS)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(CM_CC) $(call cm_prog_cflags,cortex-m$*) $(NEWLIB_CM_PROG_CFLAGS) -Werror \
		-MMD -MP -c -o $@ $<

ifeq ($(LIBC),newlib)
CM_LIBC_CFLAGS = $(NEWLIB_CM_PROG_CFLAGS)
CM_LIBC_LINK = $(call cm_newlib_link,$(1))
CM_LIBC_DEPS = $(call cm_newlib_deps,$(1))
endif

newlib: $(NEWLIB_X86_LIBC) $(NEWLIB_A64_LIBC)

.PHONY: newlib
