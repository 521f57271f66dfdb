# SPDX-License-Identifier: BSD-2-Clause
# x86-64 target library and bootable images, built with the host gcc for a freestanding
# target, into $(X86_OUT) (never mixed with host objects).
#
#   $(X86_LIB)   libbmprof.a: target core, transport (crc32, target side), target/arch/x86_64
#   make image SRC="a.c b.c" [NAME=prog] [IMAGE_CFLAGS=...]
#                $(X86_OUT)/prog.elf: the sources + the boot runtime + $(X86_LIB);
#                NAME defaults to the first source's name without .c; EXTRA_CFLAGS is
#                an alias of IMAGE_CFLAGS
#   make test-images
#                $(BUILD)/test-images/NAME.elf for each tests/e2e/progs/NAME.c, and for
#                each directory tests/e2e/progs/NAME/ (all its .c files in one image)
#
# Images are linked at 1 MiB and run identity-mapped, so the default small code model
# with -fno-pie reaches every symbol (no -mcmodel=kernel, no higher half).

X86_OUT := $(BUILD)/x86_64
X86_LIB := $(X86_OUT)/libbmprof.a
X86_OBJ := $(X86_OUT)/obj
X86_CC ?= gcc

X86_CFLAGS := -std=gnu11 -ffreestanding -fno-pie -fno-pic -mno-red-zone -fno-stack-protector \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fcf-protection=none -O2 -g \
	-Itransport -Itarget/include -Iboot/include
# The library and the runtime: warnings are errors, and no SSE so the interrupt path
# never touches the program's floating-point state.
# X86_DEFS: -D overrides for the library, e.g. -DBMPROF_X86_TABLE_ENTRIES=4096 (use another
# X86_OUT for a second configuration).
X86_DEFS ?=
X86_TARGET_CFLAGS := $(X86_CFLAGS) -Wall -Wextra -Werror -mgeneral-regs-only $(X86_DEFS)
# boot/common/printf.c (RT_FP_SRCS) only: SSE allowed, for bm_printf's double arguments.
X86_FP_CFLAGS := $(filter-out -mgeneral-regs-only,$(X86_TARGET_CFLAGS))
# The program: may use SSE.
X86_PROG_CFLAGS := $(X86_CFLAGS) -Wall -Wextra
X86_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=sha1 -T linker/x86_64.ld \
	-Wl,-z,max-page-size=4096 -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

X86_LIB_SRCS := $(CORE_SRCS) $(wildcard target/arch/x86_64/*.c target/arch/x86_64/*.S)
X86_RT_SRCS := $(wildcard boot/x86_64/*.c boot/x86_64/*.S boot/common/*.c)
X86_LIB_OBJS := $(addprefix $(X86_OBJ)/lib/,$(addsuffix .o,$(basename $(X86_LIB_SRCS))))
X86_RT_OBJS := $(addprefix $(X86_OBJ)/rt/,$(addsuffix .o,$(basename $(X86_RT_SRCS))))
X86_RT_FP_OBJS := $(addprefix $(X86_OBJ)/rt/,$(addsuffix .o,$(basename $(RT_FP_SRCS))))

# Every object depends on its build's flags file (mk/common.mk): changed flags rebuild it.
$(call flags_file,$(X86_OBJ)/lib.flags,$(X86_CC) $(X86_TARGET_CFLAGS))
$(call flags_file,$(X86_OBJ)/rt.flags,$(X86_CC) $(X86_TARGET_CFLAGS) / $(X86_FP_CFLAGS))
$(call flags_file,$(X86_OBJ)/link.flags,$(X86_CC) $(X86_LDFLAGS))
$(X86_LIB_OBJS): $(X86_OBJ)/lib.flags
$(X86_RT_OBJS): $(X86_OBJ)/rt.flags

$(X86_OBJ)/lib/%.o $(X86_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(X86_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(X86_RT_FP_OBJS): $(X86_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(X86_FP_CFLAGS) -MMD -MP -c -o $@ $*.c

$(X86_OBJ)/lib/%.o $(X86_OBJ)/rt/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(X86_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

# One relocatable object in which only bmprof_* symbols stay global, so the library's
# internal functions (lapic_eoi, calibrate, ...) never clash with an integrator's own.
$(X86_LIB): $(X86_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ $(X86_OBJ)/libbmprof.o
	$(Q)$(call say,LD,$@)$(X86_CC) -r -nostdlib -o $(X86_OBJ)/libbmprof.o $^
	$(Q)objcopy --wildcard --keep-global-symbol='bmprof_*' $(X86_OBJ)/libbmprof.o
	$(Q)ar rcs $@ $(X86_OBJ)/libbmprof.o

# $(call x86_obj,OBJDIR,SRC): a program object, keyed by the source's absolute path so
# sources from anywhere (and two images sharing one) never collide.
x86_obj = $(1)$(basename $(abspath $(2))).o
x86_objs = $(foreach s,$(2),$(call x86_obj,$(1),$(s)))

# $(call x86_obj_rule,OBJ,SRC,CFLAGS,FLAGS-FILE)
define x86_obj_rule
$(1): $(2) $(4)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(X86_CC) $$(call prog_cflags,$(2),$$(X86_PROG_CFLAGS)) $(3) -MMD -MP -c -o $$@ $$<
endef

define x86_link_rule
$(1): $(2) $(4) $$(X86_RT_OBJS) $$(X86_LIB) linker/x86_64.ld $$(X86_OBJ)/link.flags
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,LD,$$@)$$(X86_CC) $$(X86_LDFLAGS) -o $$@ $$(X86_RT_OBJS) $(2) $$(X86_LIB) $(3) -lgcc
endef

# $(call x86_image,ELF,OBJDIR,SRCS,CFLAGS[,LINK-ARGS,DEPS]): rules for one image; the
# program's objects depend on OBJDIR/prog.flags, the link on OBJDIR/link.flags (LINK-ARGS,
# which come after the library: a C library, mk/newlib.mk); DEPS are made before both.
x86_image = $(eval $(call x86_link_rule,$(1),$(call x86_objs,$(2),$(3)),$(5),\
		$(2)/link.flags $(6))) \
	$(call flags_file,$(2)/prog.flags,$(X86_CC) $(X86_PROG_CFLAGS) $(4)) \
	$(call flags_file,$(2)/link.flags,$(5)) \
	$(foreach s,$(3),$(eval $(call x86_obj_rule,$(call x86_obj,$(2),$(s)),$(s),$(4),\
		$(2)/prog.flags $(if $(6),| $(6)))))

ifeq ($(filter aarch64 riscv64 cortex-m%,$(ARCH))$(filter uefi,$(BOOT)),)
# make image (BOOT=uefi: mk/image-uefi.mk)
ifneq ($(strip $(SRC)),)
IMAGE_NAME := $(if $(NAME),$(NAME),$(basename $(notdir $(firstword $(SRC)))))
IMAGE_ELF := $(X86_OUT)/$(IMAGE_NAME).elf
$(call x86_image,$(IMAGE_ELF),$(X86_OBJ)/img/$(IMAGE_NAME),$(SRC),\
	$(IMAGE_ALL_CFLAGS) $(X86_LIBC_CFLAGS),$(X86_LIBC_LINK),$(X86_LIBC_DEPS))
$(foreach s,$(SRC),$(if $(wildcard $(s)),,$(error make image: $(s): no such source file)))
image: $(IMAGE_ELF)
else ifneq ($(filter image,$(MAKECMDGOALS)),)
$(error make image: no sources; use: make image SRC="a.c b.c" [NAME=prog])
endif
endif

# make test-images
TEST_IMAGE_DIR := $(BUILD)/test-images
TEST_PROG_FILES := $(wildcard tests/e2e/progs/*.c)
TEST_PROG_DIRS := $(patsubst %/,%,$(sort $(dir $(wildcard tests/e2e/progs/*/*.c))))
TEST_IMAGES := $(foreach p,$(TEST_PROG_FILES) $(TEST_PROG_DIRS),\
	$(TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf)
$(foreach p,$(TEST_PROG_FILES),$(call x86_image,$(TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf,\
	$(TEST_IMAGE_DIR)/obj/$(basename $(notdir $(p))),$(p),-Werror))
$(foreach d,$(TEST_PROG_DIRS),$(call x86_image,$(TEST_IMAGE_DIR)/$(notdir $(d)).elf,\
	$(TEST_IMAGE_DIR)/obj/$(notdir $(d)),$(wildcard $(d)/*.c),-Werror))

test-images: $(TEST_IMAGES)

.PHONY: image test-images
