# SPDX-License-Identifier: BSD-2-Clause
# libFuzzer harnesses for the host-side parsers (tests/fuzz/fuzz_*.c), built with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer into $(FUZZ_DIR).
#
#   make fuzz [FUZZ_TIME=SECONDS] [FUZZ_HARNESSES=fuzz_elf] [FUZZ_FLAGS=-use_value_profile=1]
#                                   each harness for FUZZ_TIME seconds (default 60), from its
#                                   seeds in tests/fuzz/corpus/<h>; what it finds goes to
#                                   $(FUZZ_DIR)/corpus/<h>, crashes to $(FUZZ_DIR)/artifacts/<h>
#   make fuzz-check                 every committed seed and reproducer (tests/fuzz/regress/<h>)
#                                   plus FUZZ_CHECK_TIME seconds of fuzzing per harness; exits
#                                   non-zero on any crash
#   make fuzz-build                 the harness binaries only
#
# tests/fuzz/run.sh runs them and holds the per-harness libFuzzer options.

FUZZ_CC ?= clang
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_TIME ?= 60
FUZZ_CHECK_TIME ?= 3
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -O2 -g -fno-omit-frame-pointer $(HOST_WARN) \
	-Itransport -Itarget/include -Ihost -iquote analysis -I$(PROTO_GEN) -D_GNU_SOURCE \
	-fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_LDFLAGS := -fsanitize=fuzzer $(FUZZ_SAN)

FUZZ_ALL := fuzz_reader fuzz_profile fuzz_elf fuzz_recover fuzz_db fuzz_topdown fuzz_cpi fuzz_diff fuzz_cli \
	fuzz_backtrack fuzz_dtype fuzz_bhive fuzz_itm
FUZZ_HARNESSES ?= $(FUZZ_ALL)
# Every harness links the whole host library, built with the fuzzing flags (the linker
# takes the objects it needs).
FUZZ_LIB := $(FUZZ_DIR)/libbmprof-host.a

fuzz_objs = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
FUZZ_BINS := $(addprefix $(FUZZ_DIR)/bin/,$(FUZZ_HARNESSES))

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(foreach h,$(FUZZ_ALL),$(eval $(FUZZ_DIR)/bin/$(h): $(call fuzz_objs,tests/fuzz/$(h).c) $(FUZZ_LIB)))
# the recovery harness runs the target core (compiled for the host) to make its memory
$(FUZZ_DIR)/bin/fuzz_recover: $(call fuzz_objs,$(CORE_SRCS))

$(FUZZ_LIB): $(call fuzz_objs,$(HOST_LIB_SRCS) $(PPROF_GEN_C))
	@mkdir -p $(dir $@)
	$(Q)$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
$(call fuzz_objs,host/profile/export_pprof.c $(PPROF_GEN_C)): $(PPROF_GEN_H)

$(addprefix $(FUZZ_DIR)/bin/,$(FUZZ_ALL)):
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(HOST_LDLIBS)

# clang with libFuzzer's runtime is optional (scripts/deps.sh installs it with
# BMPROF_DEPS_EXTRA=1): without it fuzz-check says so and passes, fuzz and fuzz-build fail.
ifneq ($(filter fuzz fuzz-check fuzz-build check,$(MAKECMDGOALS)),)
FUZZ_HAVE := $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' | \
	$(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1 && echo yes)
endif

ifeq ($(FUZZ_HAVE),yes)
fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@FUZZ_FLAGS='$(FUZZ_FLAGS)' bash tests/fuzz/run.sh fuzz $(FUZZ_DIR) $(FUZZ_TIME) \
		$(FUZZ_HARNESSES)

fuzz-check: $(FUZZ_BINS)
	@bash tests/fuzz/run.sh check $(FUZZ_DIR) $(FUZZ_CHECK_TIME) $(FUZZ_HARNESSES)
else
fuzz fuzz-build fuzz-check:
	@echo "$@: skipped: $(FUZZ_CC) cannot build libFuzzer harnesses (install clang and" \
		"libclang-rt-14-dev, or make deps BMPROF_DEPS_EXTRA=1)"
	@[ $@ = fuzz-check ]
endif

.PHONY: fuzz fuzz-check fuzz-build
