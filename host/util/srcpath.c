/* SPDX-License-Identifier: BSD-2-Clause */
/* Source paths of a profile made elsewhere (srcpath.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/srcpath.h"
#include "util/util.h"

struct map {
	char *old, *new_;
};

static struct map *maps;
static size_t nmaps;
static char **dirs;
static size_t ndirs;

int srcpath_add_map(const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct map *m;

	if (!eq || eq == spec)
		return -1;
	m = realloc(maps, (nmaps + 1) * sizeof *m);
	if (!m)
		return -1;
	maps = m;
	m = &maps[nmaps];
	m->old = strndup(spec, (size_t)(eq - spec));
	m->new_ = strdup(eq + 1);
	if (!m->old || !m->new_) {
		free(m->old);
		free(m->new_);
		return -1;
	}
	nmaps++;
	return 0;
}

int srcpath_add_dir(const char *dir)
{
	char **d = realloc(dirs, (ndirs + 1) * sizeof *d);

	if (!d)
		return -1;
	dirs = d;
	if (!(dirs[ndirs] = strdup(dir)))
		return -1;
	ndirs++;
	return 0;
}

int srcpath_cb_map(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	char safe[256];

	(void)o;
	if (srcpath_add_map(arg)) {
		bm_err("%s: --prefix-map takes OLD=NEW with OLD not empty (/ci/src=/home/me/src), "
		       "not '%s'", c->name, bm_safe(safe, sizeof safe, arg));
		return -1;
	}
	return 0;
}

int srcpath_cb_dir(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	(void)o;
	if (!*arg || srcpath_add_dir(arg)) {
		bm_err("%s: --source-path takes a directory", c->name);
		return -1;
	}
	return 0;
}

int srcpath_given(void) { return nmaps || ndirs; }

/* OLD matches at the start of path, ending there or at a '/'. */
static int prefix_of(const char *old, const char *path)
{
	size_t n = strlen(old);

	return !strncmp(path, old, n) && (!path[n] || path[n] == '/' || old[n - 1] == '/');
}

const char *srcpath_map(const char *path, char *buf, size_t n)
{
	if (!path)
		return NULL;
	for (size_t i = nmaps; i-- > 0; )
		if (prefix_of(maps[i].old, path)) {
			snprintf(buf, n, "%s%s", maps[i].new_, path + strlen(maps[i].old));
			return buf;
		}
	return path;
}

static int regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

const char *srcpath_find(const char *path, char *buf, size_t n, char *tried, size_t tn)
{
	char mapped[4096];
	const char *m = srcpath_map(path, mapped, sizeof mapped);

	snprintf(tried, tn, "%s", m);
	if (regular(m)) {
		snprintf(buf, n, "%s", m);
		return buf;
	}
	for (size_t d = 0; d < ndirs; d++)
		for (const char *s = m; s; ) {
			while (*s == '/')
				s++;
			if (!*s)
				break;
			snprintf(buf, n, "%s/%s", dirs[d], s);
			if (regular(buf))
				return buf;
			s = strchr(s, '/');
		}
	return NULL;
}

void srcpath_clear(void)
{
	for (size_t i = 0; i < nmaps; i++) {
		free(maps[i].old);
		free(maps[i].new_);
	}
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(maps);
	free(dirs);
	maps = NULL;
	dirs = NULL;
	nmaps = ndirs = 0;
}
