# SPDX-License-Identifier: BSD-2-Clause
# Quiet builds, as the kernel and perf build: one short line per step ("  CC      host/x.o",
# "  LD      build/x86_64/demo.elf"); V=1 prints the full commands instead, and make -s
# prints neither. A recipe line is written $(Q)$(call say,CC,$@)COMMAND.
V ?= 0
ifeq ($(V),1)
Q :=
say =
else
Q := @
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say =
else
say = printf '  %-7s %s\n' '$(1)' '$(2)';
endif
endif
