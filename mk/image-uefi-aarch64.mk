# SPDX-License-Identifier: BSD-2-Clause
# AArch64 UEFI applications with bmprof inside, built with the cross compiler and Debian's
# gnu-efi for arm64 (unpacked into $(UA64_GNUEFI) by scripts/gnu-efi-arm64.sh when missing).
#
#   make image SRC="a.c b.c" BOOT=uefi ARCH=aarch64 [NAME=prog] [IMAGE_CFLAGS=...]
#       (EXTRA_CFLAGS is an alias of IMAGE_CFLAGS)
#       $(UA64_OUT)/prog.efi: the PE32+ application (EFI/BOOT/BOOTAA64.EFI on a FAT disk)
#       $(UA64_OUT)/prog.elf: the same code as an ELF linked at 0, with its debug info and
#                             the build-id the image reports: symbolize against this one
#   make test-images-uefi-aarch64
#       $(BUILD)/test-images-uefi-aarch64/NAME.{efi,elf} for the programs in UA64_TEST_PROGS
#
# Everything is position-independent (-fpic, one shared object, -Bsymbolic): gnu-efi's
# crt0 applies the R_AARCH64_RELATIVE relocations at the address the firmware loaded the
# image, and carries the PE/COFF header itself, so the .efi is a flat copy of the
# sections (objcopy -O binary). The library is built for one CPU: the firmware keeps the
# others off.

UA64_OUT := $(BUILD)/uefi-aarch64
UA64_OBJ := $(UA64_OUT)/obj
UA64_GNUEFI := $(BUILD)/gnu-efi-arm64/usr
UA64_CRT0 := $(UA64_GNUEFI)/lib/crt0-efi-aarch64.o
UA64_LIB := $(UA64_OUT)/libbmprof.a
UA64_DEFS ?= -DBMPROF_A64_MAX_CPUS=1
UA64_LDS := boot/uefi/aarch64/image.lds

UA64_CFLAGS := $(filter-out -fno-pie -fno-pic,$(A64_CFLAGS)) -fpic -fvisibility=hidden
UA64_TARGET_CFLAGS := $(UA64_CFLAGS) -Wall -Wextra -Werror -mgeneral-regs-only $(UA64_DEFS)
UA64_EFI_CFLAGS := -fshort-wchar -I$(UA64_GNUEFI)/include/efi -I$(UA64_GNUEFI)/include/efi/aarch64
UA64_RT_CFLAGS := $(UA64_TARGET_CFLAGS) $(UA64_EFI_CFLAGS) -Iboot/common -Iboot/uefi/common
# boot/common/printf.c: FP/SIMD allowed (the firmware enables it, as UEFI requires on AArch64)
UA64_FP_CFLAGS := $(filter-out -mgeneral-regs-only,$(UA64_RT_CFLAGS))
# Programs may include <efi.h> and <bmrt_uefi.h> to call the firmware's services.
UA64_PROG_CFLAGS := $(UA64_CFLAGS) $(UA64_EFI_CFLAGS) -Wall -Wextra
UA64_LDFLAGS := -nostdlib -shared -Wl,-Bsymbolic -Wl,-znocombreloc -Wl,--build-id=sha1 \
	-Wl,--no-undefined -Wl,--no-warn-rwx-segments -Wl,-z,noexecstack \
	-Wl,--defsym=EFI_SUBSYSTEM=0xa -T $(UA64_LDS)
UA64_SECTIONS := -j .text -j .note.gnu.build-id -j .dynamic -j .data -j .rela.dyn -j .rela.plt -j .rela.got \
	-j .rela.data -j .dynsym -j .dynstr

UA64_LIB_OBJS := $(addprefix $(UA64_OBJ)/lib/,$(addsuffix .o,$(basename $(A64_LIB_SRCS))))
# (not boot/common/gapprobe.c: the firmware's timer is not the runtime's to probe)
UA64_RT_SRCS := $(filter-out boot/common/gapprobe.c,$(wildcard boot/uefi/common/*.c \
	boot/uefi/aarch64/*.c boot/uefi/aarch64/*.S boot/common/*.c)) \
	boot/aarch64/config.c boot/aarch64/fwcfg.c boot/aarch64/pl011.c $(RT_WORD_SRCS) \
	$(RT_EVCHECK_SRCS)
UA64_RT_OBJS := $(addprefix $(UA64_OBJ)/rt/,$(addsuffix .o,$(basename $(UA64_RT_SRCS))))
UA64_RT_FP_OBJS := $(addprefix $(UA64_OBJ)/rt/,$(addsuffix .o,$(basename $(RT_FP_SRCS))))

# Every object depends on its build's flags file (mk/common.mk): changed flags rebuild it.
$(call flags_file,$(UA64_OBJ)/lib.flags,$(A64_CC) $(UA64_TARGET_CFLAGS))
$(call flags_file,$(UA64_OBJ)/rt.flags,$(A64_CC) $(UA64_RT_CFLAGS) / $(UA64_FP_CFLAGS))
$(call flags_file,$(UA64_OBJ)/link.flags,$(A64_CC) $(UA64_LDFLAGS) / $(UA64_SECTIONS))
$(UA64_LIB_OBJS): $(UA64_OBJ)/lib.flags
$(UA64_RT_OBJS): $(UA64_OBJ)/rt.flags

$(UA64_CRT0):
	bash scripts/gnu-efi-arm64.sh $(BUILD)/gnu-efi-arm64

$(UA64_OBJ)/lib/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(UA64_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(UA64_OBJ)/lib/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(UA64_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(UA64_OBJ)/rt/%.o: %.c | $(UA64_CRT0)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(UA64_RT_CFLAGS) -MMD -MP -c -o $@ $<

$(UA64_OBJ)/rt/%.o: %.S | $(UA64_CRT0)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(UA64_RT_CFLAGS) -MMD -MP -c -o $@ $<

$(UA64_RT_FP_OBJS): $(UA64_OBJ)/rt/%.o: %.c | $(UA64_CRT0)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(A64_CC) $(UA64_FP_CFLAGS) -MMD -MP -c -o $@ $*.c

$(UA64_LIB): $(UA64_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(call say,AR,$@)rm -f $@ && $(A64_AR) rcs $@ $^

define ua64_obj_rule
$(1): $(2) $(4) | $$(UA64_CRT0)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(A64_CC) $$(call prog_cflags,$(2),$$(UA64_PROG_CFLAGS)) $(3) -MMD -MP -c -o $$@ $$<
endef

# The ELF, then the PE: gnu-efi's crt0 first (its PE header is the image's first bytes).
define ua64_link_rule
$(1).elf: $(2) $$(UA64_RT_OBJS) $$(UA64_LIB) $$(UA64_CRT0) $$(UA64_LDS) $$(UA64_OBJ)/link.flags
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,LD,$$@)$$(A64_CC) $$(UA64_LDFLAGS) -o $$@ $$(UA64_CRT0) $$(UA64_RT_OBJS) $(2) $$(UA64_LIB) \
		$$(UA64_GNUEFI)/lib/libgnuefi.a -lgcc
	@$$(A64_NM) $$@ | grep -q '^0000000000000000 [A-Za-z] ImageBase$$$$' || \
		{ echo "make: $$@: ImageBase is not at 0 (BMRT_UEFI_LINK_BASE)" >&2; rm -f $$@; exit 1; }
	@! $$(A64_READELF) -rW $$@ | awk 'NR>3 && $$$$3 ~ /^R_AARCH64/ && \
		$$$$3 != "R_AARCH64_RELATIVE"' | grep . || \
		{ echo "make: $$@: relocations gnu-efi's _relocate cannot apply" >&2; rm -f $$@; exit 1; }
$(1).efi: $(1).elf $$(UA64_OBJ)/link.flags
	$$(Q)$$(call say,EFI,$$@)$$(A64_OBJCOPY) $$(UA64_SECTIONS) -O binary $$< $$@
endef

# $(call ua64_image,OUT-WITHOUT-SUFFIX,OBJDIR,SRCS,CFLAGS); the program's objects depend
# on OBJDIR/prog.flags
ua64_image = $(eval $(call ua64_link_rule,$(1),$(call a64_objs,$(2),$(3)))) \
	$(call flags_file,$(2)/prog.flags,$(A64_CC) $(UA64_PROG_CFLAGS) $(4)) \
	$(foreach s,$(3),$(eval $(call ua64_obj_rule,$(call a64_obj,$(2),$(s)),$(s),$(4),\
		$(2)/prog.flags)))

A64_OBJCOPY ?= aarch64-linux-gnu-objcopy
A64_NM ?= aarch64-linux-gnu-nm
A64_READELF ?= aarch64-linux-gnu-readelf

ifeq ($(ARCH)/$(BOOT),aarch64/uefi)
ifneq ($(strip $(SRC)),)
UA64_IMAGE_NAME := $(if $(NAME),$(NAME),$(basename $(notdir $(firstword $(SRC)))))
UA64_IMAGE := $(UA64_OUT)/$(UA64_IMAGE_NAME)
$(call ua64_image,$(UA64_IMAGE),$(UA64_OBJ)/img/$(UA64_IMAGE_NAME),$(SRC),$(IMAGE_ALL_CFLAGS))
$(foreach s,$(SRC),$(if $(wildcard $(s)),,$(error make image: $(s): no such source file)))
image: $(UA64_IMAGE).efi
else ifneq ($(filter image,$(MAKECMDGOALS)),)
$(error make image: no sources; use: make image SRC="a.c b.c" BOOT=uefi ARCH=aarch64 [NAME=prog])
endif
endif

.PHONY: image

# make test-images-uefi-aarch64: $(UA64_TEST_DIR)/NAME.{efi,elf} for these programs of
# tests/e2e/progs and every tests/e2e/progs-uefi/NAME.c
UA64_TEST_PROGS := $(addprefix tests/e2e/progs/,shares.c exitcode.c crash.c) \
	$(wildcard tests/e2e/progs-uefi/*.c)
UA64_TEST_DIR := $(BUILD)/test-images-uefi-aarch64
$(foreach p,$(UA64_TEST_PROGS),$(call ua64_image,$(UA64_TEST_DIR)/$(basename $(notdir $(p))),\
	$(UA64_TEST_DIR)/obj/$(basename $(notdir $(p))),$(p),-Werror))
test-images-uefi-aarch64: $(foreach p,$(UA64_TEST_PROGS),$(UA64_TEST_DIR)/$(basename $(notdir $(p))).efi)

.PHONY: test-images-uefi-aarch64
