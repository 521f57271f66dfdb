# SPDX-License-Identifier: BSD-2-Clause
# Toolchains and flags shared by every fragment.

HOST_CC ?= gcc
PKG_CONFIG ?= pkg-config

HOST_WARN := -Wall -Wextra -Werror -Wno-unused-parameter
HOST_CFLAGS := -std=gnu11 -O2 -g -fno-omit-frame-pointer $(HOST_WARN) \
	-Itransport -Itarget/include -Ihost -iquote analysis -D_GNU_SOURCE
HOST_LDLIBS := $(shell $(PKG_CONFIG) --libs libdw libelf capstone 2>/dev/null || echo -ldw -lelf -lcapstone) -lz -lm -ljansson
# C++ names demangled with libiberty's cplus_demangle when it is there (libiberty-dev);
# without it, names are shown as the ELF has them.
ifneq ($(wildcard /usr/include/libiberty/demangle.h),)
HOST_CFLAGS += -DBMPROF_HAVE_LIBIBERTY
HOST_LDLIBS += -liberty
endif

# libpfm4 (Debian libpfm4-dev) for vendor event names: used when its header is found
# (LIBPFM=auto), or LIBPFM=1 (required) / LIBPFM=0 (left out: bmprof's own tables only).
LIBPFM ?= auto
ifeq ($(LIBPFM),auto)
override LIBPFM := $(shell printf '\043include <perfmon/pfmlib.h>\n' | \
	$(HOST_CC) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
endif
ifeq ($(LIBPFM),1)
HOST_CFLAGS += -DHAVE_LIBPFM
HOST_LDLIBS += $(shell $(PKG_CONFIG) --libs libpfm 2>/dev/null || echo -lpfm)
endif

ifeq ($(SAN),1)
HOST_BUILD := $(BUILD)/san
HOST_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined
HOST_LDFLAGS += -fsanitize=address,undefined
else
HOST_BUILD := $(BUILD)/host
endif

# $(call host_objs,SRCS): object paths for host-compiled sources
host_objs = $(patsubst %.c,$(HOST_BUILD)/obj/%.o,$(1))

$(HOST_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Flags files: the objects of a build depend on a file that holds the command they are
# built with (compiler and flags), rewritten only when that text changes, so a changed
# IMAGE_CFLAGS, X86_DEFS, A64_DEFS, compiler... rebuilds what it affects, and the same
# flags rebuild nothing. $(call flags_file,FILE,TEXT): the rule for FILE.
sq = '$(subst ','\'',$(1))'
define flags_rule
$(1): FLAGS_TEXT := $(2)
$(1): FORCE
	@mkdir -p $$(dir $$@)
	@printf '%s\n' $$(call sq,$$(FLAGS_TEXT)) | cmp -s - $$@ || \
		printf '%s\n' $$(call sq,$$(FLAGS_TEXT)) >$$@
endef
flags_file = $(eval $(call flags_rule,$(1),$(2)))
FORCE:
.PHONY: FORCE

# The program's flags for make image: IMAGE_CFLAGS, and EXTRA_CFLAGS as an alias of it
# (appended after it).
IMAGE_CFLAGS ?=
EXTRA_CFLAGS ?=
IMAGE_ALL_CFLAGS = $(strip $(IMAGE_CFLAGS) $(EXTRA_CFLAGS))

# A program source's compiler flags: a C++ source (.cc, .cpp) gets them without the C
# standard, and without exceptions and RTTI, which the runtimes do not support.
prog_cflags = $(if $(filter %.cc %.cpp,$(1)),$(filter-out -std=%,$(2)) -fno-exceptions -fno-rtti,$(2))
