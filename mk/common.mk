# Toolchains and flags shared by every fragment.

HOST_CC ?= gcc
PKG_CONFIG ?= pkg-config

HOST_WARN := -Wall -Wextra -Werror -Wno-unused-parameter
HOST_CFLAGS := -std=gnu11 -O2 -g -fno-omit-frame-pointer $(HOST_WARN) \
	-Itransport -Itarget/include -Ihost -iquote analysis -D_GNU_SOURCE
HOST_LDLIBS := $(shell $(PKG_CONFIG) --libs libdw libelf capstone 2>/dev/null || echo -ldw -lelf -lcapstone) -lz -lm -ljansson

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
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
