# SPDX-License-Identifier: BSD-2-Clause
# The insn_count QEMU TCG plugin (host/run/plugin/insn_count.c): exact instruction counts
# for bmprof validate and bmprof count. A shared object QEMU loads, built with the host
# compiler and never sanitized (QEMU itself is not), into lib/bmprof/ beside each bmprof's
# bin/, where bmprof finds it (host/run/truth_plugin.c):
#   $(BUILD)/lib/bmprof/insn_count.so       for $(BUILD)/bin/bmprof
#   $(HOST_BUILD)/lib/bmprof/insn_count.so  for $(HOST_BUILD)/bin/bmprof (build/san with SAN=1)

PLUGIN_CFLAGS := -std=gnu11 -O2 -g $(HOST_WARN) -fPIC -shared -fvisibility=hidden \
	-iquote analysis -iquote host/run/plugin
PLUGIN_SRCS := host/run/plugin/insn_count.c analysis/shadow_stack.c
PLUGIN_DEPS := $(PLUGIN_SRCS) host/run/plugin/qemu_plugin_v1.h analysis/rep_count.h \
	analysis/shadow_stack.h analysis/branch_kind.h
PLUGIN := $(BUILD)/lib/bmprof/insn_count.so
PLUGIN_HOST := $(HOST_BUILD)/lib/bmprof/insn_count.so

$(PLUGIN): $(PLUGIN_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) $(PLUGIN_CFLAGS) -o $@ $(PLUGIN_SRCS)

$(PLUGIN_HOST): $(PLUGIN)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CP,$@)cp $< $@

plugin: $(PLUGIN) $(PLUGIN_HOST)

.PHONY: plugin
