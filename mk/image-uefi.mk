# SPDX-License-Identifier: BSD-2-Clause
# UEFI applications with bmprof inside (gnu-efi), into $(UEFI_X86_OUT):
#
#   make image SRC="a.c b.c" BOOT=uefi [ARCH=x86_64] [NAME=prog] [IMAGE_CFLAGS=...]
#                (EXTRA_CFLAGS is an alias of IMAGE_CFLAGS)
#                $(UEFI_X86_OUT)/prog.efi, the PE/COFF application the firmware loads, and
#                $(UEFI_X86_OUT)/prog.elf beside it, the ELF it was made from (bmprof
#                symbolizes against it; `bmprof qemu` takes either)
#   make test-images-uefi
#                $(BUILD)/test-images-uefi/NAME.{efi,elf} for the programs in
#                UEFI_TEST_PROGS (tests/e2e/progs-uefi/*.c and three of tests/e2e/progs)
#
# gnu-efi's recipe: everything compiled position-independent, linked as a shared object at
# 0 with its crt0 (which relocates the image and calls efi_main) and linker/uefi-x86_64.ld,
# then objcopy --target efi-app-x86_64. The library is built again with -fpic, for one
# CPU (the runtime runs on the boot processor only).

UEFI_X86_OUT := $(BUILD)/uefi-x86_64
UEFI_X86_OBJ := $(UEFI_X86_OUT)/obj
UEFI_X86_LIB := $(UEFI_X86_OUT)/libbmprof.a
GNU_EFI_INC ?= /usr/include/efi
GNU_EFI_LIB ?= /usr/lib
UEFI_X86_DEFS ?= -DBMPROF_X86_MAX_CPUS=1

UEFI_X86_CFLAGS := -std=gnu11 -ffreestanding -fpic -fshort-wchar -mno-red-zone \
	-fno-stack-protector -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fcf-protection=none -O2 -g \
	-DGNU_EFI_USE_MS_ABI -I$(GNU_EFI_INC) -I$(GNU_EFI_INC)/x86_64 \
	-Itransport -Itarget/include -Iboot/include -Iboot/uefi/common
UEFI_X86_TARGET_CFLAGS := $(UEFI_X86_CFLAGS) -Wall -Wextra -Werror -mgeneral-regs-only \
	$(UEFI_X86_DEFS)
UEFI_X86_FP_CFLAGS := $(filter-out -mgeneral-regs-only,$(UEFI_X86_TARGET_CFLAGS))
UEFI_X86_PROG_CFLAGS := $(UEFI_X86_CFLAGS) -Wall -Wextra
UEFI_X86_LDFLAGS := -nostdlib -shared -Wl,-Bsymbolic -Wl,-znocombreloc -Wl,--build-id=sha1 \
	-Wl,-T,linker/uefi-x86_64.ld -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments
UEFI_X86_SECTIONS := -j .text -j .sdata -j .data -j .dynamic -j .rodata -j .rel -j .rela \
	-j .rel.* -j .rela.* -j .reloc -j .note.gnu.build-id

UEFI_X86_LIB_SRCS := $(CORE_SRCS) $(wildcard target/arch/x86_64/*.c target/arch/x86_64/*.S)
# (not boot/common/gapprobe.c: the firmware's timer is not the runtime's to probe)
UEFI_X86_RT_SRCS := $(filter-out boot/common/gapprobe.c,$(wildcard boot/uefi/common/*.c \
	boot/uefi/x86_64/*.c boot/uefi/x86_64/*.S boot/common/*.c)) \
	boot/x86_64/uart.c boot/x86_64/config.c boot/x86_64/fwcfg.c boot/x86_64/string.c
UEFI_X86_LIB_OBJS := $(addprefix $(UEFI_X86_OBJ)/lib/,$(addsuffix .o,$(basename $(UEFI_X86_LIB_SRCS))))
UEFI_X86_RT_OBJS := $(addprefix $(UEFI_X86_OBJ)/rt/,$(addsuffix .o,$(basename $(UEFI_X86_RT_SRCS))))
UEFI_X86_RT_FP_OBJS := $(addprefix $(UEFI_X86_OBJ)/rt/,$(addsuffix .o,$(basename $(RT_FP_SRCS))))

# Every object depends on its build's flags file (mk/common.mk): changed flags rebuild it.
$(call flags_file,$(UEFI_X86_OBJ)/lib.flags,$(X86_CC) $(UEFI_X86_TARGET_CFLAGS))
$(call flags_file,$(UEFI_X86_OBJ)/rt.flags,$(X86_CC) $(UEFI_X86_TARGET_CFLAGS) / $(UEFI_X86_FP_CFLAGS))
$(call flags_file,$(UEFI_X86_OBJ)/link.flags,$(X86_CC) $(UEFI_X86_LDFLAGS) $(GNU_EFI_LIB) / $(UEFI_X86_SECTIONS))
$(UEFI_X86_LIB_OBJS): $(UEFI_X86_OBJ)/lib.flags
$(UEFI_X86_RT_OBJS): $(UEFI_X86_OBJ)/rt.flags

$(UEFI_X86_OBJ)/lib/%.o $(UEFI_X86_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(UEFI_X86_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

# boot/common/printf.c: SSE allowed (the firmware enables it, as UEFI requires on x86-64)
$(UEFI_X86_RT_FP_OBJS): $(UEFI_X86_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(UEFI_X86_FP_CFLAGS) -MMD -MP -c -o $@ $*.c

$(UEFI_X86_OBJ)/lib/%.o $(UEFI_X86_OBJ)/rt/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(X86_CC) $(UEFI_X86_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(UEFI_X86_LIB): $(UEFI_X86_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

define uefi_x86_obj_rule
$(1): $(2) $(4)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(X86_CC) $$(call prog_cflags,$(2),$$(UEFI_X86_PROG_CFLAGS)) $(3) -MMD -MP -c -o $$@ $$<
endef

# The ELF must be linked at 0 (BMRT_UEFI_LINK_BASE) and carry only relocations gnu-efi's
# self-relocation applies (R_X86_64_RELATIVE).
define uefi_x86_link_rule
$(1:.elf=.efi): $(1) $$(UEFI_X86_OBJ)/link.flags
	$$(Q)$$(call say,EFI,$$@)objcopy $$(UEFI_X86_SECTIONS) --target efi-app-x86_64 --subsystem=10 $$< $$@
$(1): $(2) $$(UEFI_X86_RT_OBJS) $$(UEFI_X86_LIB) linker/uefi-x86_64.ld $$(UEFI_X86_OBJ)/link.flags
	@test -f $(GNU_EFI_LIB)/crt0-efi-x86_64.o || \
		{ echo "make: gnu-efi is not installed (apt-get install gnu-efi)" >&2; exit 1; }
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,LD,$$@)$$(X86_CC) $$(UEFI_X86_LDFLAGS) -o $$@ $(GNU_EFI_LIB)/crt0-efi-x86_64.o \
		$$(UEFI_X86_RT_OBJS) $(2) $$(UEFI_X86_LIB) -L$(GNU_EFI_LIB) -lgnuefi -lgcc
	@nm $$@ | grep -q '^0000000000000000 [A-Za-z] ImageBase$$$$' || \
		{ echo "make: $$@: ImageBase is not at 0 (BMRT_UEFI_LINK_BASE)" >&2; rm -f $$@; exit 1; }
	@! readelf -rW $$@ | awk 'NR>3 && $$$$3 ~ /^R_X86_64/ && $$$$3 != "R_X86_64_RELATIVE"' | \
		grep . || { echo "make: $$@: relocations gnu-efi cannot apply" >&2; rm -f $$@; exit 1; }
endef

# $(call uefi_x86_image,ELF,OBJDIR,SRCS,CFLAGS): ELF and the .efi beside it; the
# program's objects depend on OBJDIR/prog.flags.
uefi_x86_image = $(eval $(call uefi_x86_link_rule,$(1),$(call x86_objs,$(2),$(3)))) \
	$(call flags_file,$(2)/prog.flags,$(X86_CC) $(UEFI_X86_PROG_CFLAGS) $(4)) \
	$(foreach s,$(3),$(eval $(call uefi_x86_obj_rule,$(call x86_obj,$(2),$(s)),$(s),$(4),\
		$(2)/prog.flags)))

ifeq ($(BOOT),uefi)
ifneq ($(ARCH),aarch64)
ifneq ($(strip $(SRC)),)
UEFI_IMAGE_NAME := $(if $(NAME),$(NAME),$(basename $(notdir $(firstword $(SRC)))))
UEFI_IMAGE_ELF := $(UEFI_X86_OUT)/$(UEFI_IMAGE_NAME).elf
$(call uefi_x86_image,$(UEFI_IMAGE_ELF),$(UEFI_X86_OBJ)/img/$(UEFI_IMAGE_NAME),$(SRC),$(IMAGE_ALL_CFLAGS))
$(foreach s,$(SRC),$(if $(wildcard $(s)),,$(error make image: $(s): no such source file)))
image: $(UEFI_IMAGE_ELF) $(UEFI_IMAGE_ELF:.elf=.efi)
else ifneq ($(filter image,$(MAKECMDGOALS)),)
$(error make image: no sources; use: make image SRC="a.c b.c" BOOT=uefi [NAME=prog])
endif
endif
endif

# make test-images-uefi: these of tests/e2e/progs, and every tests/e2e/progs-uefi/NAME.c
UEFI_TEST_PROGS := tests/e2e/progs/shares.c tests/e2e/progs/exitcode.c tests/e2e/progs/hang.c \
	$(wildcard tests/e2e/progs-uefi/*.c)
UEFI_TEST_IMAGE_DIR := $(BUILD)/test-images-uefi
UEFI_TEST_IMAGES := $(foreach p,$(UEFI_TEST_PROGS),\
	$(UEFI_TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf \
	$(UEFI_TEST_IMAGE_DIR)/$(basename $(notdir $(p))).efi)
$(foreach p,$(UEFI_TEST_PROGS),$(call uefi_x86_image,\
	$(UEFI_TEST_IMAGE_DIR)/$(basename $(notdir $(p))).elf,\
	$(UEFI_TEST_IMAGE_DIR)/obj/$(basename $(notdir $(p))),$(p),-Werror))

test-images-uefi: $(UEFI_TEST_IMAGES)

.PHONY: image test-images-uefi
