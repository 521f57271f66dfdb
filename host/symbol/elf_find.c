/* SPDX-License-Identifier: BSD-2-Clause */
/* Finding an ELF by build-id (elf_find.h). */
#include "symbol/elf_find.h"

#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#define MAX_DIRS 16
#define ID_MAX 64

static const char *dirs[MAX_DIRS];
static unsigned ndirs;

void elf_find_add_dir(const char *dir)
{
	if (ndirs < MAX_DIRS && dir && *dir)
		dirs[ndirs++] = dir;
}

void elf_find_clear_dirs(void)
{
	ndirs = 0;
}

/* The first GNU build-id note of data into id. */
static size_t note_id(Elf_Data *data, uint8_t *id, size_t max)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(name, "GNU", 4) &&
		    nh.n_descsz && nh.n_descsz <= max) {
			memcpy(id, (const char *)data->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
	}
	return 0;
}

size_t elf_build_id(const char *path, uint8_t *id, size_t max)
{
	char err[64];
	int fd = bm_open_regular(path, "an ELF file", err, sizeof err);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t len = 0;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (e && elf_kind(e) == ELF_K_ELF && !len && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE && (d = elf_getdata(scn, NULL)))
			len = note_id(d, id, max);
	}
	elf_end(e);
	close(fd);
	return len;
}

/* path is an ELF with this build-id: 0 with it in out. */
static int try(const char *path, const uint8_t *id, size_t len, char *out, size_t n)
{
	uint8_t have[ID_MAX];

	if (access(path, R_OK) || elf_build_id(path, have, sizeof have) != len ||
	    memcmp(have, id, len))
		return -1;
	snprintf(out, n, "%s", path);
	return 0;
}

/* The .build-id layouts under root: XX/REST.debug, XX/REST, XX/REST/elf. */
static int try_tree(const char *root, const char *hex, const uint8_t *id, size_t len,
		    char *out, size_t n)
{
	static const char *const forms[] = { "%s/.build-id/%.2s/%s.debug", "%s/.build-id/%.2s/%s",
					     "%s/.build-id/%.2s/%s/elf" };
	char path[4096];

	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(path, sizeof path, forms[i], root, hex, hex + 2);
		if (!try(path, id, len, out, n))
			return 0;
	}
	return -1;
}

int elf_find_by_build_id(const uint8_t *id, size_t len, const char *name, char *out, size_t n)
{
	char hex[2 * ID_MAX + 1], path[4096], *env;
	const char *base = name ? strrchr(name, '/') : NULL, *db = getenv("BMPROF_DB");
	const char *home = getenv("HOME");

	if (!len || len > ID_MAX)
		return -1;
	base = base ? base + 1 : name;
	bm_hex(hex, sizeof hex, id, len);
	for (unsigned i = 0; i < ndirs; i++) {
		snprintf(path, sizeof path, "%s/%s", dirs[i], base ? base : "");
		if (!try_tree(dirs[i], hex, id, len, out, n) || (base && !try(path, id, len, out, n)))
			return 0;
	}
	if ((env = getenv(ELF_FIND_ENV)) && (env = strdup(env))) {
		int found = -1;

		for (char *save = NULL, *d = strtok_r(env, ":", &save); d && found;
		     d = strtok_r(NULL, ":", &save)) {
			snprintf(path, sizeof path, "%s/%s", d, base ? base : "");
			found = !try_tree(d, hex, id, len, out, n) ||
				(base && !try(path, id, len, out, n)) ? 0 : -1;
		}
		free(env);
		if (!found)
			return 0;
	}
	if (db && *db) {
		snprintf(path, sizeof path, "%s/images/%s.elf", db, hex);
		if (!try(path, id, len, out, n))
			return 0;
	}
	if (home && *home) {
		snprintf(path, sizeof path, "%s/.debug", home);
		if (!try_tree(path, hex, id, len, out, n))
			return 0;
	}
	return try_tree("/usr/lib/debug", hex, id, len, out, n);
}
