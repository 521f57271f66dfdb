# SPDX-License-Identifier: BSD-2-Clause
# Cortex-M target libraries and bootable images for QEMU's MPS2/MPS3 boards, built with
# Debian's arm-none-eabi-gcc for a freestanding target, one configuration per CPU:
#
#   ARCH          board (QEMU -M)   code        RAM          CPU clock   FPU
#   cortex-m3     mps2-an385        0x00000000  0x20000000   25 MHz      none
#   cortex-m4     mps2-an386        0x00000000  0x20000000   25 MHz      FPv4-SP
#   cortex-m33    mps2-an505        0x10000000  0x38000000   20 MHz      FPv5-SP (secure state)
#   cortex-m55    mps3-an547        0x00000000  0x20000000   32 MHz      FPv5 + MVE (secure state)
#
#   $(BUILD)/ARCH/libbmprof.a   target core, transport (target side), target/arch/cortexm
#   make image SRC="a.c b.c" ARCH=cortex-m4 [NAME=prog] [IMAGE_CFLAGS=...]
#                $(BUILD)/ARCH/prog.elf: the sources + the boot runtime (boot/cortexm)
#                + the library; the link prints the image's RAM footprint
#   make test-images-cortexm
#                $(BUILD)/test-images-ARCH/NAME.elf for every ARCH, for CM_TEST_PROGS and
#                each tests/e2e/progs-cortexm/NAME.c, test-images-cortex-m3-tiny/shares.elf
#                and hang.elf, and test-images-cortex-m4-g/callstack.elf
#
# RAM: the sampler's table (CM_DEFS: -DBMPROF_CM_TABLE_ENTRIES=256, 16 bytes an entry), its
# two overflow buffers (-DBMPROF_CM_OVF_ENTRIES=64 each), the config area
# (-DBMRT_CM_CONFIG_BYTES=512) and the main stack (CM_STACK_BYTES=3072) are the bulk of
# it; the defaults stay under 16 KiB. The library and the runtime are built with
# -mgeneral-regs-only, so the sampler never touches the FP registers.
#
# Call stacks (-g): the runtime and the programs are built with CM_FRAME_CFLAGS, which the
# unwind (target/arch/cortexm/unwind.c) reads: r7 kept as the frame pointer, .ARM.exidx
# naming every function's start, the whole prologue before the first branch. Their stack
# memory is the library's, 0 by default (the RAM budget): build with
# CM_DEFS="-DBMPROF_CM_STACK_ENTRIES=64 -DBMPROF_CM_STACK_FRAMES=512" (5 KiB), as the
# test configuration cortex-m4-g does.

CM_ARCHS := cortex-m3 cortex-m4 cortex-m33 cortex-m55
CM_CC ?= arm-none-eabi-gcc
CM_AR ?= arm-none-eabi-ar
CM_OBJCOPY ?= arm-none-eabi-objcopy
CM_NM ?= arm-none-eabi-nm
CM_STACK_BYTES ?= 3072
CM_DEFS ?=

CM_CPU_cortex-m3 := -mcpu=cortex-m3 -mfloat-abi=soft
CM_CPU_cortex-m4 := -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16
CM_CPU_cortex-m33 := -mcpu=cortex-m33 -mfloat-abi=hard -mfpu=fpv5-sp-d16
CM_CPU_cortex-m55 := -mcpu=cortex-m55 -mfloat-abi=hard
# QEMU machine, UART0 (the secure alias on the TrustZone boards), its APB clock, the CPU
# clock SysTick counts, the code and RAM bases (hw/arm/mps2.c, hw/arm/mps2-tz.c), QEMU's CPU
# and the sizes of the code and RAM memories
CM_BOARD_cortex-m3 := mps2-an385 0x40004000 25000000 25000000 0x00000000 0x20000000 cortex-m3 \
	0x400000 0x400000
CM_BOARD_cortex-m4 := mps2-an386 0x40004000 25000000 25000000 0x00000000 0x20000000 cortex-m4 \
	0x400000 0x400000
CM_BOARD_cortex-m33 := mps2-an505 0x50200000 20000000 20000000 0x10000000 0x38000000 cortex-m33 \
	0x400000 0x400000
CM_BOARD_cortex-m55 := mps3-an547 0x59303000 25000000 32000000 0x00000000 0x20000000 cortex-m55 \
	0x80000 0x80000
# A test configuration (make test-images-cortexm): the Cortex-M3 with an 8-entry table and
# 4-entry overflow buffers, so the table evicts and the buffers fill all through a run.
CM_CPU_cortex-m3-tiny := $(CM_CPU_cortex-m3)
CM_BOARD_cortex-m3-tiny := $(CM_BOARD_cortex-m3)
CM_XDEFS_cortex-m3-tiny := -DBMPROF_CM_TABLE_ENTRIES=8 -DBMPROF_CM_OVF_ENTRIES=4
# A test configuration with call-stack memory (64 chains, 512 frames).
CM_CPU_cortex-m4-g := $(CM_CPU_cortex-m4)
CM_BOARD_cortex-m4-g := $(CM_BOARD_cortex-m4)
CM_XDEFS_cortex-m4-g := -DBMPROF_CM_STACK_ENTRIES=64 -DBMPROF_CM_STACK_FRAMES=512
CM_CONFIGS := $(CM_ARCHS) cortex-m3-tiny cortex-m4-g
cm_board = $(word $(2),$(CM_BOARD_$(1)))

cm_out = $(BUILD)/$(1)
cm_lib = $(BUILD)/$(1)/libbmprof.a
cm_obj = $(BUILD)/$(1)/obj

CM_BASE_CFLAGS := -std=gnu11 -mthumb -ffreestanding -fno-pie -fno-pic -fno-stack-protector \
	-O2 -g -Itransport -Itarget/include -Iboot/include
cm_cflags = $(CM_BASE_CFLAGS) $(CM_CPU_$(1))
cm_target_cflags = $(call cm_cflags,$(1)) -Wall -Wextra -Werror -mgeneral-regs-only $(CM_DEFS) \
	$(CM_XDEFS_$(1))
CM_FRAME_CFLAGS := -fno-omit-frame-pointer -funwind-tables -fno-shrink-wrap
cm_rt_cflags = $(call cm_target_cflags,$(1)) $(CM_FRAME_CFLAGS) -DBMRT_CM_MACHINE='"$(call cm_board,$(1),1)"' \
	-DBMRT_CM_CPU='"$(call cm_board,$(1),7)"' -DBMRT_CM_UART=$(call cm_board,$(1),2) \
	-DBMRT_CM_UART_PCLK=$(call cm_board,$(1),3) -DBMRT_CM_SYSCLK=$(call cm_board,$(1),4) \
	-DBMRT_CM_CONFIG_BYTES=512
cm_fp_cflags = $(filter-out -mgeneral-regs-only,$(call cm_rt_cflags,$(1)))
cm_prog_cflags = $(call cm_cflags,$(1)) $(CM_FRAME_CFLAGS) -Wall -Wextra
cm_ldflags = $(CM_CPU_$(1)) -mthumb -nostdlib -static -Wl,--build-id=sha1 -T linker/cortexm.ld \
	-Wl,--defsym=__cm_code_base=$(call cm_board,$(1),5) \
	-Wl,--defsym=__cm_ram_base=$(call cm_board,$(1),6) \
	-Wl,--defsym=__cm_code_size=$(call cm_board,$(1),8) \
	-Wl,--defsym=__cm_ram_size=$(call cm_board,$(1),9) \
	-Wl,--defsym=__cm_stack_bytes=$(CM_STACK_BYTES) -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

CM_LIB_SRCS := $(CORE_SRCS) $(wildcard target/arch/cortexm/*.c target/arch/cortexm/*.S)
CM_RT_SRCS := $(wildcard boot/cortexm/*.c boot/cortexm/*.S) $(RT_WORD_SRCS) \
	$(filter-out boot/common/fwcfg.c boot/common/pci.c boot/common/stream.c,\
	$(wildcard boot/common/*.c))

# $(call cm_rules,ARCH): the library and the runtime objects of one CPU
define cm_rules
CM_LIB_OBJS_$(1) := $$(addprefix $$(call cm_obj,$(1))/lib/,$$(addsuffix .o,$$(basename $$(CM_LIB_SRCS))))
CM_RT_OBJS_$(1) := $$(addprefix $$(call cm_obj,$(1))/rt/,$$(addsuffix .o,$$(basename $$(CM_RT_SRCS))))
CM_RT_FP_OBJS_$(1) := $$(addprefix $$(call cm_obj,$(1))/rt/,$$(addsuffix .o,$$(basename $$(RT_FP_SRCS))))
$$(call flags_file,$$(call cm_obj,$(1))/lib.flags,$$(CM_CC) $$(call cm_target_cflags,$(1)))
$$(call flags_file,$$(call cm_obj,$(1))/rt.flags,$$(CM_CC) $$(call cm_rt_cflags,$(1)) / $$(call cm_fp_cflags,$(1)))
$$(call flags_file,$$(call cm_obj,$(1))/link.flags,$$(CM_CC) $$(call cm_ldflags,$(1)))
$$(CM_LIB_OBJS_$(1)): $$(call cm_obj,$(1))/lib.flags
$$(CM_RT_OBJS_$(1)): $$(call cm_obj,$(1))/rt.flags

$$(call cm_obj,$(1))/lib/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(CM_CC) $$(call cm_target_cflags,$(1)) -MMD -MP -c -o $$@ $$<
$$(call cm_obj,$(1))/lib/%.o: %.S
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(CM_CC) $$(call cm_target_cflags,$(1)) -MMD -MP -c -o $$@ $$<
$$(call cm_obj,$(1))/rt/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(CM_CC) $$(call cm_rt_cflags,$(1)) -MMD -MP -c -o $$@ $$<
$$(call cm_obj,$(1))/rt/%.o: %.S
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(CM_CC) $$(call cm_rt_cflags,$(1)) -MMD -MP -c -o $$@ $$<
$$(CM_RT_FP_OBJS_$(1)): $$(call cm_obj,$(1))/rt/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(CM_CC) $$(call cm_fp_cflags,$(1)) -MMD -MP -c -o $$@ $$*.c

# only bmprof_* (and the atomics gcc calls) stay global
$$(call cm_lib,$(1)): $$(CM_LIB_OBJS_$(1))
	@mkdir -p $$(dir $$@)
	$$(Q)rm -f $$@ $$(call cm_obj,$(1))/libbmprof.o
	$$(Q)$$(call say,LD,$$@)$$(CM_CC) -r -nostdlib -Wl,-z,noexecstack -o $$(call cm_obj,$(1))/libbmprof.o $$^
	$$(Q)$$(CM_OBJCOPY) --wildcard --keep-global-symbol='bmprof_*' \
		--keep-global-symbol='__atomic_*' $$(call cm_obj,$(1))/libbmprof.o
	$$(Q)$$(CM_AR) rcs $$@ $$(call cm_obj,$(1))/libbmprof.o
endef
$(foreach a,$(CM_CONFIGS),$(eval $(call cm_rules,$(a))))

cm_src_obj = $(1)$(basename $(abspath $(2))).o

# $(call cm_obj_rule,ARCH,OBJ,SRC,CFLAGS,FLAGS-FILE)
define cm_obj_rule
$(2): $(3) $(5)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(CM_CC) $$(call prog_cflags,$(3),$$(call cm_prog_cflags,$(1))) $(4) -MMD -MP -c -o $$@ $$<
endef

# $(call cm_link_rule,ARCH,ELF,OBJS[,LINK-ARGS,DEPS]): link (LINK-ARGS after the library:
# a C library, mk/newlib.mk), then print the RAM footprint
define cm_link_rule
$(2): $(3) $(5) $$(CM_RT_OBJS_$(1)) $$(call cm_lib,$(1)) linker/cortexm.ld $$(call cm_obj,$(1))/link.flags
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,LD,$$@)$$(CM_CC) $$(call cm_ldflags,$(1)) -o $$@ $$(CM_RT_OBJS_$(1)) $(3) $$(call cm_lib,$(1)) $(4) -lgcc
	@set -- $$$$($$(CM_NM) $$@ | awk '/ __ram_start$$$$/ { s = $$$$1 } / __ram_end$$$$/ { e = $$$$1 } \
		END { print s, e }'); printf '  RAM     %s: %d bytes\n' $$@ $$$$((0x$$$$2 - 0x$$$$1))
endef

# $(call cm_image,ARCH,ELF,OBJDIR,SRCS,CFLAGS[,LINK-ARGS,DEPS])
cm_image = $(eval $(call cm_link_rule,$(1),$(2),$(foreach s,$(4),$(call cm_src_obj,$(3),$(s))),$(6),\
		$(7) $(3)/link.flags)) \
	$(call flags_file,$(3)/prog.flags,$(CM_CC) $(call cm_prog_cflags,$(1)) $(5)) \
	$(call flags_file,$(3)/link.flags,$(6)) \
	$(foreach s,$(4),$(eval $(call cm_obj_rule,$(1),$(call cm_src_obj,$(3),$(s)),$(s),$(5),\
		$(3)/prog.flags)))

# make image ARCH=cortex-m*
ifneq ($(filter $(CM_ARCHS),$(ARCH)),)
ifneq ($(BOOT),)
$(error make image: BOOT=$(BOOT) is not for ARCH=$(ARCH): Cortex-M images boot directly)
endif
ifneq ($(strip $(SRC)),)
CM_IMAGE_NAME := $(if $(NAME),$(NAME),$(basename $(notdir $(firstword $(SRC)))))
CM_IMAGE_ELF := $(call cm_out,$(ARCH))/$(CM_IMAGE_NAME).elf
$(call cm_image,$(ARCH),$(CM_IMAGE_ELF),$(call cm_obj,$(ARCH))/img/$(CM_IMAGE_NAME),$(SRC),\
	$(IMAGE_ALL_CFLAGS) $(CM_LIBC_CFLAGS),$(call CM_LIBC_LINK,$(ARCH)),$(call CM_LIBC_DEPS,$(ARCH)))
$(foreach s,$(SRC),$(if $(wildcard $(s)),,$(error make image: $(s): no such source file)))
image: $(CM_IMAGE_ELF)
else ifneq ($(filter image,$(MAKECMDGOALS)),)
$(error make image: no sources; use: make image SRC="a.c b.c" ARCH=$(ARCH) [NAME=prog])
endif
else ifneq ($(filter cortex-m%,$(ARCH)),)
$(error make image: ARCH=$(ARCH): the Cortex-M CPUs are $(CM_ARCHS))
endif

# make test-images-cortexm: the programs that fit a small part (shares.c with a shorter
# run: -DUNIT) and the Cortex-M ones
CM_TEST_PROGS := tests/e2e/progs/shares.c tests/e2e/progs/exitcode.c tests/e2e/progs/hang.c \
	$(wildcard tests/e2e/progs-cortexm/*.c)
CM_TEST_CFLAGS := -Werror -DUNIT=120000ull
CM_TEST_IMAGES := $(foreach a,$(CM_ARCHS),$(foreach p,$(CM_TEST_PROGS),\
	$(BUILD)/test-images-$(a)/$(basename $(notdir $(p))).elf)) \
	$(BUILD)/test-images-cortex-m3-tiny/shares.elf $(BUILD)/test-images-cortex-m3-tiny/hang.elf \
	$(BUILD)/test-images-cortex-m4-g/callstack.elf
$(foreach a,$(CM_ARCHS),$(foreach p,$(CM_TEST_PROGS),$(call cm_image,$(a),\
	$(BUILD)/test-images-$(a)/$(basename $(notdir $(p))).elf,\
	$(BUILD)/test-images-$(a)/obj/$(basename $(notdir $(p))),$(p),$(CM_TEST_CFLAGS))))
$(call cm_image,cortex-m3-tiny,$(BUILD)/test-images-cortex-m3-tiny/shares.elf,\
	$(BUILD)/test-images-cortex-m3-tiny/obj/shares,tests/e2e/progs/shares.c,$(CM_TEST_CFLAGS))
$(call cm_image,cortex-m3-tiny,$(BUILD)/test-images-cortex-m3-tiny/hang.elf,\
	$(BUILD)/test-images-cortex-m3-tiny/obj/hang,tests/e2e/progs/hang.c,$(CM_TEST_CFLAGS))

# callstack.c's call tree (tests/e2e/test_callstack_cortexm.sh)
$(call cm_image,cortex-m4-g,$(BUILD)/test-images-cortex-m4-g/callstack.elf,\
	$(BUILD)/test-images-cortex-m4-g/obj/callstack,tests/e2e/progs/callstack.c,\
	-Werror)

cm-libs: $(foreach a,$(CM_ARCHS),$(call cm_lib,$(a)))
test-images-cortexm: $(CM_TEST_IMAGES)

.PHONY: image test-images-cortexm cm-libs
