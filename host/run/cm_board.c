/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M board note (cm_board.h): note "bmprof", type 1, description { u32 config
 * area address, u32 its size, machine NUL, cpu NUL }, little-endian. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/cm_board.h"

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One string of the description at *off into out: 0, or -1 when it is not NUL-ended
 * within the description or does not fit. */
static int take(const char *d, size_t len, size_t *off, char *out, size_t cap)
{
	size_t n = *off < len ? strnlen(d + *off, len - *off) : len;

	if (*off >= len || *off + n >= len || n == 0 || n >= cap)
		return -1;
	memcpy(out, d + *off, n + 1);
	*off += n + 1;
	return 0;
}

static int parse(const char *d, size_t len, struct cm_board *b)
{
	size_t off = 8;

	if (len < 8)
		return -1;
	b->config_addr = le32((const unsigned char *)d);
	b->config_size = le32((const unsigned char *)d + 4);
	if (take(d, len, &off, b->machine, sizeof b->machine) ||
	    take(d, len, &off, b->cpu, sizeof b->cpu) || b->config_size < 2)
		return -1;
	return 0;
}

static int scan(Elf *e, struct cm_board *b)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
			if (nh.n_type == CM_BOARD_NOTE_TYPE && nh.n_namesz == sizeof CM_BOARD_NOTE_NAME &&
			    !memcmp((const char *)d->d_buf + name_off, CM_BOARD_NOTE_NAME,
				    sizeof CM_BOARD_NOTE_NAME))
				return parse((const char *)d->d_buf + desc_off, nh.n_descsz, b) ? -1 : 1;
	}
	return 0;
}

int cm_board_read(const char *path, struct cm_board *b, char *err, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	Elf *e;

	memset(b, 0, sizeof *b);
	if (fd < 0) {
		snprintf(err, n, "cannot open %s", path);
		return -1;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	rc = e && elf_kind(e) == ELF_K_ELF ? scan(e, b) : 0;
	if (rc < 0)
		snprintf(err, n, "%s: its bmprof board note is malformed: rebuild it with make image "
			 "ARCH=cortex-m... (docs/integration-cortex-m.md)", path);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}
