/* SPDX-License-Identifier: BSD-2-Clause */
/* Atomic output files: see outfile.h. */
#include "util/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static void clear(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof *o);
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t n)
{
	const char *slash;
	char safe[1024];
	size_t dl;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	bm_safe(safe, sizeof safe, path);
	slash = strrchr(path, '/');
	dl = slash ? (size_t)(slash - path) + 1 : 0;
	o->path = strdup(path);
	o->tmp = malloc(strlen(path) + 16);
	if (!o->path || !o->tmp) {
		snprintf(err, n, "out of memory");
		clear(o);
		return -1;
	}
	/* DIR/.NAME.XXXXXX: in the same directory, so the rename is atomic */
	sprintf(o->tmp, "%.*s.%s.XXXXXX", (int)dl, path, path + dl);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		snprintf(err, n, "cannot write %s: %s", safe, strerror(errno));
		clear(o);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "wb"))) {
		snprintf(err, n, "cannot write %s: %s", safe, strerror(errno));
		close(fd);
		unlink(o->tmp);
		clear(o);
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, char *err, size_t n)
{
	char safe[1024];
	int e = 0;

	if (!o->path) {
		if (o->f && fflush(o->f)) {
			snprintf(err, n, "cannot write to standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	bm_safe(safe, sizeof safe, o->path);
	if (ferror(o->f) || fflush(o->f) || fsync(fileno(o->f)))
		e = errno ? errno : EIO;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (!e && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		snprintf(err, n, "cannot write %s: %s (it is left as it was)", safe, strerror(e));
		unlink(o->tmp);
		clear(o);
		return -1;
	}
	clear(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->path) {
		if (o->f)
			fclose(o->f);
		unlink(o->tmp);
	}
	clear(o);
}
