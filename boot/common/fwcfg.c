/* SPDX-License-Identifier: BSD-2-Clause */
/* QEMU fw_cfg files, through the architecture's registers (fwcfg_select, fwcfg_byte): item
 * 0 holds the signature "QEMU"; item 0x19 is the file directory, a big-endian count
 * followed by 64-byte entries { be32 size, be16 select, u16, char name[56] }. Weak: a
 * runtime whose board passes the config another way brings its own fwcfg_read_file. */
#include "rt_common.h"

#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR 0x0019
#define NAME_MAX_LEN 56

static uint32_t read_be(unsigned n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | fwcfg_byte();
	return v;
}

static int present(void)
{
	fwcfg_select(FW_CFG_SIGNATURE);
	return read_be(4) == 0x51454D55u;   /* "QEMU" */
}

static int name_is(const char *want)
{
	int same = 1;

	for (unsigned i = 0; i < NAME_MAX_LEN; i++) {
		char c = (char)fwcfg_byte();
		if (same && c != *want)
			same = 0;
		if (*want)
			want++;
	}
	return same;
}

__attribute__((weak)) int fwcfg_read_file(const char *name, char *buf, size_t cap)
{
	uint32_t count, size;
	uint16_t key;

	if (!present())
		return -1;
	fwcfg_select(FW_CFG_FILE_DIR);
	count = read_be(4);
	for (uint32_t i = 0; i < count && i < 4096; i++) {
		size = read_be(4);
		key = (uint16_t)read_be(2);
		read_be(2);
		if (!name_is(name))
			continue;
		fwcfg_select(key);
		for (uint32_t j = 0; j < size && j < cap; j++)
			buf[j] = (char)fwcfg_byte();
		return size > 0x7FFFFFFF ? 0x7FFFFFFF : (int)size;
	}
	return -1;
}
