/* SPDX-License-Identifier: BSD-2-Clause */
/* Symbolizers shared by file (sym_share.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbol/sym_share.h"

struct shared {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct symbolizer *sym;
	unsigned users;
};

static struct shared *open_syms;
static size_t nopen;

static int same_file(const struct shared *e, const struct stat *st)
{
	return e->dev == st->st_dev && e->ino == st->st_ino && e->size == st->st_size &&
	       e->mtime.tv_sec == st->st_mtim.tv_sec && e->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

struct symbolizer *sym_share_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int known = stat(path, &st) == 0;

	for (size_t i = 0; known && i < nopen; i++)
		if (same_file(&open_syms[i], &st)) {
			open_syms[i].users++;
			return open_syms[i].sym;
		}
	struct symbolizer *s = symbolizer_open(path, err, errlen);
	struct shared *e = s && known ? realloc(open_syms, (nopen + 1) * sizeof *e) : NULL;
	if (!e)
		return s;    /* not shared: closed by its one user */
	open_syms = e;
	open_syms[nopen++] = (struct shared){ st.st_dev, st.st_ino, st.st_size, st.st_mtim, s, 1 };
	return s;
}

void sym_share_close(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < nopen; i++) {
		if (open_syms[i].sym != s)
			continue;
		if (--open_syms[i].users)
			return;
		open_syms[i] = open_syms[--nopen];
		if (!nopen) {
			free(open_syms);
			open_syms = NULL;
		}
		break;
	}
	symbolizer_close(s);
}
