# SPDX-License-Identifier: BSD-2-Clause
# AArch64 target library and bootable images for QEMU virt, built with the cross compiler
# aarch64-linux-gnu-gcc for a freestanding target, into $(A64_OUT).
#
#   $(A64_LIB)   libbmprof.a: target core, transport (crc32, target side), target/arch/aarch64
#   make image SRC="a.c b.c" ARCH=aarch64 [NAME=prog] [IMAGE_CFLAGS=...]
#                $(A64_OUT)/prog.elf: the sources + the boot runtime + $(A64_LIB);
#                NAME defaults to the first source's name without .c; EXTRA_CFLAGS is
#                an alias of IMAGE_CFLAGS
#   make test-images-aarch64
#                $(BUILD)/test-images-aarch64/NAME.elf for each tests/e2e/progs/NAME.c and
#                each directory tests/e2e/progs/NAME/, and the same for
#                tests/e2e/progs-aarch64/ (AArch64-only programs)
#
# Images are linked at 0x40200000 and run identity-mapped below 4 GiB, so the default
# small code model with -fno-pie reaches every symbol.

A64_OUT := $(BUILD)/aarch64
A64_LIB := $(A64_OUT)/libbmprof.a
A64_OBJ := $(A64_OUT)/obj
A64_CC ?= aarch64-linux-gnu-gcc
A64_AR ?= aarch64-linux-gnu-ar
A64_OBJCOPY ?= aarch64-linux-gnu-objcopy

A64_CFLAGS := -std=gnu11 -ffreestanding -fno-pie -fno-pic -fno-stack-protector \
	-fno-omit-frame-pointer -mno-outline-atomics -O2 -g \
	-Itransport -Itarget/include -Iboot/include
# The library and the runtime: warnings are errors, and no FP/SIMD so the interrupt path
# never touches the program's FP/SIMD state; no unaligned access, because the runtime runs
# before the MMU is on, and a kernel may run the library with its MMU off, where every
# access is to Device memory and must be aligned.
# A64_DEFS: -D overrides for the library and the runtime, e.g.
# -DBMPROF_A64_TABLE_ENTRIES=4096 or -DBMPROF_A64_MAX_CPUS=4 (use another
# A64_OUT for a second configuration).
A64_DEFS ?=
A64_TARGET_CFLAGS := $(A64_CFLAGS) -Wall -Wextra -Werror -mgeneral-regs-only -mstrict-align \
	$(A64_DEFS)
A64_RT_CFLAGS := $(A64_TARGET_CFLAGS)
# boot/common/printf.c (RT_FP_SRCS) only: FP/SIMD allowed, for bm_printf's double
# arguments (its variadic prologue saves q0-q7: CPACR_EL1.FPEN is set in entry.S, before C).
A64_FP_CFLAGS := $(filter-out -mgeneral-regs-only,$(A64_RT_CFLAGS))
# The program: may use FP/SIMD.
A64_PROG_CFLAGS := $(A64_CFLAGS) -Wall -Wextra
A64_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=sha1 -T linker/aarch64.ld \
	-Wl,-z,max-page-size=4096 -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

A64_LIB_SRCS := $(CORE_SRCS) $(wildcard target/arch/aarch64/*.c target/arch/aarch64/*.S)
A64_RT_SRCS := $(wildcard boot/aarch64/*.c boot/aarch64/*.S boot/common/*.c) $(RT_WORD_SRCS) \
	$(RT_TICKET_SRCS) $(RT_EVCHECK_SRCS) $(RT_FINISH_SRCS)
A64_LIB_OBJS := $(addprefix $(A64_OBJ)/lib/,$(addsuffix .o,$(basename $(A64_LIB_SRCS))))
A64_RT_OBJS := $(addprefix $(A64_OBJ)/rt/,$(addsuffix .o,$(basename $(A64_RT_SRCS))))
A64_RT_FP_OBJS := $(addprefix $(A64_OBJ)/rt/,$(addsuffix .o,$(basename $(RT_FP_SRCS))))

# Every object depends on its build's flags file (mk/common.mk): changed flags rebuild it.
$(call flags_file,$(A64_OBJ)/lib.flags,$(A64_CC) $(A64_TARGET_CFLAGS))
$(call flags_file,$(A64_OBJ)/rt.flags,$(A64_CC) $(A64_RT_CFLAGS) / $(A64_FP_CFLAGS))
$(call flags_file,$(A64_OBJ)/link.flags,$(A64_CC) $(A64_LDFLAGS))
$(A64_LIB_OBJS): $(A64_OBJ)/lib.flags
$(A64_RT_OBJS): $(A64_OBJ)/rt.flags

$(A64_OBJ)/lib/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(A64_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(A64_OBJ)/lib/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(A64_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(A64_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(A64_RT_CFLAGS) -MMD -MP -c -o $@ $<

$(A64_OBJ)/rt/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(A64_RT_CFLAGS) -MMD -MP -c -o $@ $<

$(A64_RT_FP_OBJS): $(A64_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(A64_FP_CFLAGS) -MMD -MP -c -o $@ $*.c

# One relocatable object in which only bmprof_* symbols stay global, so the library's
# internal functions (gic_ack, timer_now, ...) never clash with an integrator's own.
$(A64_LIB): $(A64_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ $(A64_OBJ)/libbmprof.o
	$(Q)$(call say,LD,$@)$(A64_CC) -r -nostdlib -o $(A64_OBJ)/libbmprof.o $^
	$(Q)$(A64_OBJCOPY) --wildcard --keep-global-symbol='bmprof_*' $(A64_OBJ)/libbmprof.o
	$(Q)$(A64_AR) rcs $@ $(A64_OBJ)/libbmprof.o

# $(call a64_obj,OBJDIR,SRC): a program object, keyed by the source's absolute path so
# sources from anywhere (and two images sharing one) never collide.
a64_obj = $(1)$(basename $(abspath $(2))).o
a64_objs = $(foreach s,$(2),$(call a64_obj,$(1),$(s)))

# $(call a64_obj_rule,OBJ,SRC,CFLAGS,FLAGS-FILE)
define a64_obj_rule
$(1): $(2) $(4)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(A64_CC) $$(call prog_cflags,$(2),$$(A64_PROG_CFLAGS)) $(3) -MMD -MP -c -o $$@ $$<
endef

define a64_link_rule
$(1): $(2) $(4) $$(A64_RT_OBJS) $$(A64_LIB) linker/aarch64.ld $$(A64_OBJ)/link.flags
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,LD,$$@)$$(A64_CC) $$(A64_LDFLAGS) -o $$@ $$(A64_RT_OBJS) $(2) $$(A64_LIB) $(3) -lgcc
endef

# $(call a64_image,ELF,OBJDIR,SRCS,CFLAGS[,LINK-ARGS,DEPS]): rules for one image; the
# program's objects depend on OBJDIR/prog.flags, the link on OBJDIR/link.flags (LINK-ARGS,
# which come after the library: a C library, mk/newlib.mk); DEPS are made before both.
a64_image = $(eval $(call a64_link_rule,$(1),$(call a64_objs,$(2),$(3)),$(5),\
		$(2)/link.flags $(6))) \
	$(call flags_file,$(2)/prog.flags,$(A64_CC) $(A64_PROG_CFLAGS) $(4)) \
	$(call flags_file,$(2)/link.flags,$(5)) \
	$(foreach s,$(3),$(eval $(call a64_obj_rule,$(call a64_obj,$(2),$(s)),$(s),$(4),\
		$(2)/prog.flags $(if $(6),| $(6)))))

# make image ARCH=aarch64 (mk/image.mk defines `image` for every other ARCH;
# mk/image-uefi-aarch64.mk for BOOT=uefi)
ifeq ($(ARCH)/$(BOOT),aarch64/)
ifneq ($(strip $(SRC)),)
A64_IMAGE_NAME := $(if $(NAME),$(NAME),$(basename $(notdir $(firstword $(SRC)))))
A64_IMAGE_ELF := $(A64_OUT)/$(A64_IMAGE_NAME).elf
$(call a64_image,$(A64_IMAGE_ELF),$(A64_OBJ)/img/$(A64_IMAGE_NAME),$(SRC),\
	$(IMAGE_ALL_CFLAGS) $(A64_LIBC_CFLAGS),$(A64_LIBC_LINK),$(A64_LIBC_DEPS))
$(foreach s,$(SRC),$(if $(wildcard $(s)),,$(error make image: $(s): no such source file)))
image: $(A64_IMAGE_ELF)
else ifneq ($(filter image,$(MAKECMDGOALS)),)
$(error make image: no sources; use: make image SRC="a.c b.c" ARCH=aarch64 [NAME=prog])
endif
endif

# make test-images-aarch64
A64_TEST_IMAGE_DIR := $(BUILD)/test-images-aarch64
A64_TEST_PROG_FILES := $(wildcard tests/e2e/progs/*.c tests/e2e/progs-aarch64/*.c)
A64_TEST_PROG_DIRS := $(patsubst %/,%,$(sort $(dir $(wildcard tests/e2e/progs/*/*.c \
	tests/e2e/progs-aarch64/*/*.c))))
A64_TEST_IMAGES := $(foreach p,$(A64_TEST_PROG_FILES) $(A64_TEST_PROG_DIRS),\
	$(A64_TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf)
$(foreach p,$(A64_TEST_PROG_FILES),$(call a64_image,\
	$(A64_TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf,\
	$(A64_TEST_IMAGE_DIR)/obj/$(basename $(notdir $(p))),$(p),-Werror))
$(foreach d,$(A64_TEST_PROG_DIRS),$(call a64_image,$(A64_TEST_IMAGE_DIR)/$(notdir $(d)).elf,\
	$(A64_TEST_IMAGE_DIR)/obj/$(notdir $(d)),$(wildcard $(d)/*.c),-Werror))

test-images-aarch64: $(A64_TEST_IMAGES)

.PHONY: image test-images-aarch64
