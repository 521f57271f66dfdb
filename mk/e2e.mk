# SPDX-License-Identifier: BSD-2-Clause
# Images for end-to-end tests that are not built with the bmprof runtime.
RAW_IMAGES := $(patsubst tests/e2e/raw/%.S,$(BUILD)/test-images/%.elf,$(wildcard tests/e2e/raw/*.S))

$(BUILD)/test-images/%.elf: tests/e2e/raw/%.S
	@mkdir -p $(dir $@)
	$(Q)$(call say,LD,$@)$(HOST_CC) -m32 -nostdlib -static -no-pie -Wl,-m,elf_i386 -Wl,-Ttext=0x100000 -Wl,-e,entry \
		-Wl,--build-id=none -o $@ $<

test-images: $(RAW_IMAGES)
