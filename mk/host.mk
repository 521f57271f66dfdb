# SPDX-License-Identifier: BSD-2-Clause
# The bmprof host tool: host/ (CLI glue), analysis/ (no I/O), transport/host (stream reader).

# host/*/: the host library, in folders named for what they hold; host/builtin-*.c: the
# verbs over it (kept in the library archive too, for the tests and fuzzers that drive a
# verb in-process); host/bmprof.c: the command table.
HOST_LIB_SRCS := $(wildcard host/*/*.c) $(wildcard host/builtin-*.c) $(wildcard analysis/*.c) \
	$(wildcard transport/host/*.c) transport/crc32.c
HOST_LIB := $(HOST_BUILD)/libbmprof-host.a
BMPROF_BIN := $(HOST_BUILD)/bin/bmprof
# The tool users run: build/bin/bmprof is always the plain build.
BMPROF := $(BUILD)/bin/bmprof

$(HOST_LIB): $(call host_objs,$(HOST_LIB_SRCS))
	@mkdir -p $(dir $@)
	$(Q)$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BMPROF_BIN): $(call host_objs,host/bmprof.c) $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) $(HOST_LDFLAGS) -o $@ $^ $(HOST_LDLIBS)

ifneq ($(SAN),1)
$(BMPROF): $(BMPROF_BIN)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CP,$@)cp $< $@
endif
