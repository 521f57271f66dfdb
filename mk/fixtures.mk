# SPDX-License-Identifier: BSD-2-Clause
# Test ELFs for the symbolizer and disassembler unit tests, from tests/fixtures/*.c, built
# into $(BUILD)/fixtures (the tests find them through BMPROF_FIXTURES, which tests/run.sh
# sets, defaulting to build/fixtures).
#
#   sym_dw5.elf       gcc -O2 -g -gdwarf-5, PIE; sym_other.c is compiled from its own
#                     directory, so its file names use DWARF 5 directory entry 0
#   sym_dw4.elf       the same sources with -gdwarf-4, -no-pie
#   sym_stripped.elf  sym_dw5.elf after objcopy --strip-all
#   sym_trunc.elf     the first 4 KiB of sym_dw5.elf
#   not_elf.txt       a text file
#   sym_multi.elf     13 CUs from the benchmark's generator (bench/symbolize/gen.py), enough
#                     for the symbolizer to decode CUs on several threads
#   bt_x86_64.elf     tests/fixtures/bt_walk.c, gcc -O2, no library (the backtracking tests)
#   bt_aarch64.elf    the same with aarch64-linux-gnu-gcc
#   dtype_x86.elf     tests/fixtures/dtype_main.c, gcc -O2 -g -gdwarf-5, static, freestanding
#   dtype_a64.elf     the same for AArch64 (aarch64-linux-gnu-gcc), -gdwarf-4
#   dtype_rv.elf      the same for RISC-V (riscv64-unknown-elf-gcc, RV64GC, compressed)
#   dtype_nodwarf.elf the same for x86-64 without -g (symbols, no DWARF)

FIXTURES := $(BUILD)/fixtures
FIXTURE_SRCS := tests/fixtures/sym_main.c tests/fixtures/sym_other.c tests/fixtures/sym_util.h
FIXTURE_ELFS := $(addprefix $(FIXTURES)/,sym_dw5.elf sym_dw4.elf sym_stripped.elf \
	sym_trunc.elf not_elf.txt sym_multi.elf bt_x86_64.elf bt_aarch64.elf dtype_x86.elf \
	dtype_a64.elf dtype_rv.elf dtype_nodwarf.elf)

# $(call sym_fixture,OUT,FLAGS)
define sym_fixture
	@mkdir -p $(FIXTURES)
	$(Q)$(call say,CC,$@)$(HOST_CC) -O2 -g -fno-omit-frame-pointer $(2) -c -o $(1).main.o tests/fixtures/sym_main.c
	$(Q)cd tests/fixtures && $(HOST_CC) -O2 -g -fno-omit-frame-pointer $(2) -c \
		-o $(abspath $(1)).other.o sym_other.c
	$(Q)$(call say,LD,$@)$(HOST_CC) $(2) -Wl,--build-id -o $(1) $(1).main.o $(1).other.o
	$(Q)rm -f $(1).main.o $(1).other.o
endef

$(FIXTURES)/sym_dw5.elf: $(FIXTURE_SRCS)
	$(call sym_fixture,$@,-gdwarf-5)

$(FIXTURES)/sym_dw4.elf: $(FIXTURE_SRCS)
	$(call sym_fixture,$@,-gdwarf-4 -no-pie)

$(FIXTURES)/sym_stripped.elf: $(FIXTURES)/sym_dw5.elf
	objcopy --strip-all $< $@

$(FIXTURES)/sym_trunc.elf: $(FIXTURES)/sym_dw5.elf
	head -c 4096 $< > $@

$(FIXTURES)/sym_multi.elf: bench/symbolize/gen.py
	rm -rf $(FIXTURES)/multi
	python3 bench/symbolize/gen.py --files 12 --funcs 12 --out $(FIXTURES)/multi
	$(Q)$(call say,LD,$@)$(HOST_CC) -O2 -g -fno-omit-frame-pointer -o $@ $(FIXTURES)/multi/*.c
	rm -rf $(FIXTURES)/multi

$(FIXTURES)/bt_x86_64.elf: tests/fixtures/bt_walk.c
	@mkdir -p $(FIXTURES)
	$(HOST_CC) -O2 -g -fno-pie -no-pie -nostdlib -static -Wl,-e,walk -o $@ $<

$(FIXTURES)/bt_aarch64.elf: tests/fixtures/bt_walk.c
	@mkdir -p $(FIXTURES)
	$(A64_CC) -O2 -g -nostdlib -static -Wl,-e,walk -o $@ $<

DTYPE_FIXTURE_FLAGS := -O2 -fno-omit-frame-pointer -ffreestanding -nostdlib -static \
	-fno-stack-protector -fno-pie -no-pie -Wl,-e,main -Wl,--build-id

$(FIXTURES)/dtype_x86.elf: tests/fixtures/dtype_main.c
	@mkdir -p $(FIXTURES)
	$(HOST_CC) $(DTYPE_FIXTURE_FLAGS) -g -gdwarf-5 -o $@ $<

$(FIXTURES)/dtype_a64.elf: tests/fixtures/dtype_main.c
	@mkdir -p $(FIXTURES)
	$(or $(A64_CC),aarch64-linux-gnu-gcc) $(DTYPE_FIXTURE_FLAGS) -g -gdwarf-4 -o $@ $<

$(FIXTURES)/dtype_rv.elf: tests/fixtures/dtype_main.c
	@mkdir -p $(FIXTURES)
	$(or $(RV_CC),riscv64-unknown-elf-gcc) $(filter-out -fno-pie -no-pie,$(DTYPE_FIXTURE_FLAGS)) \
		-g -o $@ $<

$(FIXTURES)/dtype_nodwarf.elf: tests/fixtures/dtype_main.c
	@mkdir -p $(FIXTURES)
	$(HOST_CC) $(DTYPE_FIXTURE_FLAGS) -g0 -o $@ $<

$(FIXTURES)/not_elf.txt: tests/fixtures/sym_util.h
	@mkdir -p $(FIXTURES)
	cp $< $@

fixtures: $(FIXTURE_ELFS)

$(HOST_BUILD)/tests/test_symbolize $(HOST_BUILD)/tests/test_disasm \
	$(HOST_BUILD)/tests/test_insn_decode $(HOST_BUILD)/tests/test_backtrack \
	$(HOST_BUILD)/tests/test_dtype: | $(FIXTURE_ELFS)

.PHONY: fixtures
