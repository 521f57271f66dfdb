# The arch-neutral target core and the target side of the transport, also compiled for the
# host so unit tests and benchmarks drive them natively.

CORE_SRCS := $(wildcard target/core/*.c) transport/crc32.c $(wildcard transport/target/*.c)
CORE_HOST_LIB := $(HOST_BUILD)/libcore-host.a

$(CORE_HOST_LIB): $(call host_objs,$(CORE_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
