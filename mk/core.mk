# SPDX-License-Identifier: BSD-2-Clause
# The arch-neutral target core and the target side of the transport, also compiled for the
# host so unit tests and benchmarks drive them natively.

CORE_SRCS := $(wildcard target/core/*.c) transport/crc32.c $(wildcard transport/target/*.c)
# The runtimes' printf engine (boot/common), for its unit test.
RT_FORMAT_SRCS := boot/common/format.c boot/common/fmt_double.c
# The one runtime source built with floating point allowed (bm_printf takes doubles out of
# its va_list); every other runtime and library object is -mgeneral-regs-only.
RT_FP_SRCS := boot/common/printf.c
# Word-at-a-time memcpy/memset for the runtimes without a faster string instruction
# (AArch64, RISC-V, Cortex-M): not in boot/common/*.c, which x86-64 builds too.
RT_WORD_SRCS := boot/common/optin/string.c
# The UART's ticket lock, for the runtimes with more than one CPU and no lock of their own
# (AArch64, RISC-V).
RT_TICKET_SRCS := boot/common/optin/uartlock.c
# event= checked against a PMU table where it is read (AArch64, RISC-V).
RT_EVCHECK_SRCS := boot/common/optin/eventcheck.c
# The end of a run on more than one CPU (AArch64, RISC-V), over the architecture's
# bmrt_end_* steps.
RT_FINISH_SRCS := boot/common/optin/finish.c
CORE_HOST_LIB := $(HOST_BUILD)/libcore-host.a

$(CORE_HOST_LIB): $(call host_objs,$(CORE_SRCS) $(RT_FORMAT_SRCS))
	@mkdir -p $(dir $@)
	$(Q)$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
