# SPDX-License-Identifier: BSD-2-Clause
# RISC-V (RV64GC, machine mode) target library and bootable images for QEMU virt, built
# with Debian's bare-metal cross compiler riscv64-unknown-elf-gcc, into $(RV_OUT).
#
#   $(RV_LIB)    libbmprof.a: target core, transport (target side), target/arch/riscv64
#   make image SRC="a.c b.c" ARCH=riscv64 [NAME=prog] [IMAGE_CFLAGS=...]
#                $(RV_OUT)/prog.elf: the sources + the boot runtime + $(RV_LIB)
#   make test-images-riscv64
#                $(BUILD)/test-images-riscv64/NAME.elf for the programs the RISC-V e2e
#                tests run (RV_TEST_PROGS)
#
# Images are linked at 0x80000000 (the start of virt's RAM, where -bios none starts every
# hart); -mcmodel=medany reaches every symbol from there.

RV_OUT := $(BUILD)/riscv64
RV_LIB := $(RV_OUT)/libbmprof.a
RV_OBJ := $(RV_OUT)/obj
RV_CC ?= riscv64-unknown-elf-gcc
RV_AR ?= riscv64-unknown-elf-ar
RV_OBJCOPY ?= riscv64-unknown-elf-objcopy

RV_CFLAGS := -std=gnu11 -ffreestanding -fno-pie -fno-pic -fno-stack-protector \
	-fno-omit-frame-pointer -march=rv64gc -mabi=lp64d -mcmodel=medany -O2 -g \
	-Itransport -Itarget/include -Iboot/include
# RV_DEFS: -D overrides for the library and the runtime, e.g. -DBMPROF_RV_TABLE_ENTRIES=64
RV_DEFS ?=
RV_TARGET_CFLAGS := $(RV_CFLAGS) -Wall -Wextra -Werror $(RV_DEFS)
RV_PROG_CFLAGS := $(RV_CFLAGS) -Wall -Wextra
RV_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=sha1 -T linker/riscv64.ld \
	-Wl,-z,max-page-size=4096 -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

RV_LIB_SRCS := $(CORE_SRCS) $(wildcard target/arch/riscv64/*.c)
RV_RT_SRCS := $(wildcard boot/riscv64/*.c boot/riscv64/*.S boot/common/*.c) \
	$(RT_WORD_SRCS) $(RT_TICKET_SRCS) $(RT_EVCHECK_SRCS) \
	$(RT_FINISH_SRCS) target/arch/riscv64/atomic16.c
RV_LIB_OBJS := $(addprefix $(RV_OBJ)/lib/,$(addsuffix .o,$(basename $(RV_LIB_SRCS))))
RV_RT_OBJS := $(addprefix $(RV_OBJ)/rt/,$(addsuffix .o,$(basename $(RV_RT_SRCS))))

$(call flags_file,$(RV_OBJ)/lib.flags,$(RV_CC) $(RV_TARGET_CFLAGS))
$(call flags_file,$(RV_OBJ)/rt.flags,$(RV_CC) $(RV_TARGET_CFLAGS))
$(call flags_file,$(RV_OBJ)/link.flags,$(RV_CC) $(RV_LDFLAGS))
$(RV_LIB_OBJS): $(RV_OBJ)/lib.flags
$(RV_RT_OBJS): $(RV_OBJ)/rt.flags

$(RV_OBJ)/lib/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(RV_CC) $(RV_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(RV_OBJ)/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(RV_CC) $(RV_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

$(RV_OBJ)/rt/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(RV_CC) $(RV_TARGET_CFLAGS) -MMD -MP -c -o $@ $<

# One relocatable object in which only bmprof_* symbols stay global.
$(RV_LIB): $(RV_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ $(RV_OBJ)/libbmprof.o
	$(Q)$(call say,LD,$@)$(RV_CC) -r -nostdlib -o $(RV_OBJ)/libbmprof.o $^
	$(Q)$(RV_OBJCOPY) --wildcard --keep-global-symbol='bmprof_*' $(RV_OBJ)/libbmprof.o
	$(Q)$(RV_AR) rcs $@ $(RV_OBJ)/libbmprof.o

rv_obj = $(1)$(basename $(abspath $(2))).o
rv_objs = $(foreach s,$(2),$(call rv_obj,$(1),$(s)))

define rv_obj_rule
$(1): $(2) $(4)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC,$$@)$$(RV_CC) $$(call prog_cflags,$(2),$$(RV_PROG_CFLAGS)) $(3) -MMD -MP -c -o $$@ $$<
endef

define rv_link_rule
$(1): $(2) $(4) $$(RV_RT_OBJS) $$(RV_LIB) linker/riscv64.ld $$(RV_OBJ)/link.flags
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,LD,$$@)$$(RV_CC) $$(RV_LDFLAGS) -o $$@ $$(RV_RT_OBJS) $(2) $$(RV_LIB) $(3) -lgcc
endef

# $(call rv_image,ELF,OBJDIR,SRCS,CFLAGS[,LINK-ARGS,DEPS]): as x86_image (mk/image.mk):
# LINK-ARGS come after the library (a C library, below), DEPS are made before both.
rv_image = $(eval $(call rv_link_rule,$(1),$(call rv_objs,$(2),$(3)),$(5),\
		$(2)/link.flags $(6))) \
	$(call flags_file,$(2)/prog.flags,$(RV_CC) $(RV_PROG_CFLAGS) $(4)) \
	$(call flags_file,$(2)/link.flags,$(5)) \
	$(foreach s,$(3),$(eval $(call rv_obj_rule,$(call rv_obj,$(2),$(s)),$(s),$(4),\
		$(2)/prog.flags $(if $(6),| $(6)))))

# LIBC=newlib (mk/newlib.mk; LIBC=picolibc says the same): Debian's prebuilt picolibc
# (picolibc-riscv64-unknown-elf, newlib's libc and libm with a stdio of its own), its
# "release" build (-O3 -g: profiles show its functions with source lines) of the multilib
# the images' -march/-mabi select (rv64imafdc/lp64d for rv64gc/lp64d), over
# newlib's system calls (boot/common/newlib/syscalls.c) and boot/common/picolibc/stdio.c,
# the streams a picolibc program defines. picolibc's errno is thread-local (local-exec TLS: the
# image's one block, linker/riscv64.ld); its libm does not set errno (math_errhandling is
# MATH_ERREXCEPT). The heap is HEAP_SIZE (8M unless given).
PICOLIBC_RV ?= /usr/lib/picolibc/riscv64-unknown-elf
RV_PICOLIBC_MULTI := $(shell $(RV_CC) $(filter -march=% -mabi=%,$(RV_CFLAGS)) \
	-print-multi-directory 2>/dev/null)
RV_PICOLIBC_LIB := $(PICOLIBC_RV)/lib/release/$(RV_PICOLIBC_MULTI)
RV_PICOLIBC_LIBC := $(if $(RV_PICOLIBC_MULTI),$(RV_PICOLIBC_LIB)/libc.a,no-riscv64-compiler)
# (the compiler searches only its own include and include-fixed after these: picolibc's
# limits.h includes the compiler's)
RV_PICOLIBC_PROG_CFLAGS := -fhosted -isystem $(PICOLIBC_RV)/include/release \
	-ftls-model=local-exec
RV_PICOLIBC_SYSCALLS := $(RV_OBJ)/picolibc/newlib_syscalls.o $(RV_OBJ)/picolibc/stdio.o
RV_PICOLIBC_LINK := $(RV_PICOLIBC_SYSCALLS) -Wl,--defsym=__bmrt_heap_size=$(HEAP_SIZE) \
	-Wl,--start-group $(RV_PICOLIBC_LIB)/libm.a $(RV_PICOLIBC_LIBC) -lgcc -Wl,--end-group

$(RV_OBJ)/picolibc/newlib_syscalls.o: boot/common/newlib/syscalls.c $(RV_OBJ)/rt.flags
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(RV_CC) $(RV_PROG_CFLAGS) $(RV_PICOLIBC_PROG_CFLAGS) -Werror \
		-MMD -MP -c -o $@ $<
$(RV_OBJ)/picolibc/stdio.o: boot/common/picolibc/stdio.c $(RV_OBJ)/rt.flags
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(RV_CC) $(RV_PROG_CFLAGS) $(RV_PICOLIBC_PROG_CFLAGS) -Werror \
		-MMD -MP -c -o $@ $<

ifneq ($(filter newlib picolibc,$(LIBC)),)
RV_LIBC_CFLAGS := $(RV_PICOLIBC_PROG_CFLAGS)
RV_LIBC_LINK := $(RV_PICOLIBC_LINK)
RV_LIBC_DEPS := $(RV_PICOLIBC_SYSCALLS)
ifeq ($(ARCH)/$(BOOT)/$(wildcard $(RV_PICOLIBC_LIBC)),riscv64//)
$(error LIBC=$(LIBC): no picolibc at $(RV_PICOLIBC_LIBC); install picolibc-riscv64-unknown-elf (make deps))
endif
endif

ifeq ($(ARCH)/$(BOOT),riscv64/)
ifneq ($(strip $(SRC)),)
RV_IMAGE_NAME := $(if $(NAME),$(NAME),$(basename $(notdir $(firstword $(SRC)))))
RV_IMAGE_ELF := $(RV_OUT)/$(RV_IMAGE_NAME).elf
$(call rv_image,$(RV_IMAGE_ELF),$(RV_OBJ)/img/$(RV_IMAGE_NAME),$(SRC),\
	$(IMAGE_ALL_CFLAGS) $(RV_LIBC_CFLAGS),$(RV_LIBC_LINK),$(RV_LIBC_DEPS))
$(foreach s,$(SRC),$(if $(wildcard $(s)),,$(error make image: $(s): no such source file)))
image: $(RV_IMAGE_ELF)
else ifneq ($(filter image,$(MAKECMDGOALS)),)
$(error make image: no sources; use: make image SRC="a.c b.c" ARCH=riscv64 [NAME=prog])
endif
endif

# make test-images-riscv64: the programs the RISC-V e2e tests run
RV_TEST_IMAGE_DIR := $(BUILD)/test-images-riscv64
RV_TEST_PROGS := shares exitcode crash smp_work smp_exit callstack hang mcf
RV_TEST_IMAGES := $(foreach p,$(RV_TEST_PROGS),$(RV_TEST_IMAGE_DIR)/$(p).elf) \
	$(RV_TEST_IMAGE_DIR)/cpi_loop.elf
$(foreach p,$(RV_TEST_PROGS),$(call rv_image,$(RV_TEST_IMAGE_DIR)/$(p).elf,\
	$(RV_TEST_IMAGE_DIR)/obj/$(p),tests/e2e/progs/$(p).c,-Werror))
# the CPI loop of test_cpi.sh (portable C), for test_cpi_riscv64.sh
$(call rv_image,$(RV_TEST_IMAGE_DIR)/cpi_loop.elf,$(RV_TEST_IMAGE_DIR)/obj/cpi_loop,\
	tests/e2e/progs-x86_64/cpi_loop.c,-Werror)

# and manypc.c with 16-entry tables and 8-entry overflow buffers, in a configuration of
# its own (tests/e2e/test_riscv64.sh runs the same make, which then has nothing to do)
rv-tiny-image:
	@$(MAKE) --no-print-directory -s image ARCH=riscv64 SRC=tests/e2e/progs/manypc.c \
		NAME=manypc_tiny BUILD=$(BUILD) RV_OUT=$(BUILD)/riscv64-tiny \
		IMAGE_CFLAGS=-DMANYPC_MS=100 \
		RV_DEFS="-DBMPROF_RV_TABLE_ENTRIES=16 -DBMPROF_RV_OVF_ENTRIES=8"

# and hang.c with the same tables (tests/e2e/test_recover_riscv64.sh)
rv-hang-tiny-image:
	@$(MAKE) --no-print-directory -s image ARCH=riscv64 SRC=tests/e2e/progs/hang.c \
		NAME=hang BUILD=$(BUILD) RV_OUT=$(BUILD)/riscv64-hang-tiny \
		RV_DEFS="-DBMPROF_RV_TABLE_ENTRIES=16 -DBMPROF_RV_OVF_ENTRIES=8"

test-images-riscv64: $(RV_TEST_IMAGES) rv-tiny-image rv-hang-tiny-image

# make test-images-newlib (mk/test-images-newlib.mk) also builds the newlib test programs
# for RISC-V with picolibc, where it is installed: $(NEWLIB_TEST_DIR)/riscv64/NAME.elf
ifneq ($(wildcard $(RV_PICOLIBC_LIBC)),)
RV_NEWLIB_TEST_IMAGES := $(foreach p,$(NEWLIB_TEST_PROGS),\
	$(NEWLIB_TEST_DIR)/riscv64/$(basename $(notdir $(p))).elf)
$(foreach p,$(NEWLIB_TEST_PROGS),$(call rv_image,\
	$(NEWLIB_TEST_DIR)/riscv64/$(basename $(notdir $(p))).elf,\
	$(NEWLIB_TEST_DIR)/riscv64/obj/$(basename $(notdir $(p))),$(p),\
	-Werror $(RV_PICOLIBC_PROG_CFLAGS),$(RV_PICOLIBC_LINK),$(RV_PICOLIBC_SYSCALLS)))
test-images-newlib: $(RV_NEWLIB_TEST_IMAGES)
endif

.PHONY: image test-images-riscv64 rv-tiny-image rv-hang-tiny-image
