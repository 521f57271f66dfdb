/* SPDX-License-Identifier: BSD-2-Clause */
/* Files make builds beside bmprof (libfile.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/libfile.h"

int bm_lib_file(const char *env, const char *name, const char *what, char *out, size_t n,
		char *err, size_t errlen)
{
	const char *set = getenv(env);
	char exe[PATH_MAX], up[PATH_MAX + 4], *slash, *top;
	ssize_t len;
	int w;

	if (set && *set) {
		if (access(set, R_OK)) {
			snprintf(err, errlen, "%s=%s: %s (it names %s, which make builds into "
				 "build/lib/bmprof/%s)", env, set, strerror(errno), what, name);
			return -1;
		}
		snprintf(out, n, "%s", set);
		return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0) {
		snprintf(err, errlen, "cannot find the running bmprof (/proc/self/exe): %s; set "
			 "%s to %s", strerror(errno), env, what);
		return -1;
	}
	exe[len] = 0;
	slash = strrchr(exe, '/');
	snprintf(up, sizeof up, "%.*s/..", slash ? (int)(slash - exe) : 0, exe);
	top = realpath(up, NULL);            /* the folder holding bin/ */
	w = snprintf(out, n, "%s/lib/bmprof/%s", top ? top : up, name);
	free(top);
	if (w < 0 || (size_t)w >= n) {
		snprintf(err, errlen, "the path of %s is too long", what);
		return -1;
	}
	if (access(out, R_OK)) {
		snprintf(err, errlen, "%s %s is missing: run make in bmprof's source tree (or set "
			 "%s)", what, out, env);
		return -1;
	}
	return 0;
}
