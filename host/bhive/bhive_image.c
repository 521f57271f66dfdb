/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the harness image is (bhive_run.h): make builds it into lib/bmprof/ beside bin/
 * (mk/bhive.mk), so bmprof looks relative to its own executable. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bhive/bhive_run.h"

#define IMAGE_REL "lib/bmprof/bhive-x86_64.elf"

int bhive_image_path(char *out, size_t n, char *err, size_t errlen)
{
	const char *env = getenv("BMPROF_BHIVE_IMAGE");
	char exe[PATH_MAX], up[PATH_MAX + 4];
	ssize_t len;

	if (env && *env) {
		if (access(env, R_OK)) {
			snprintf(err, errlen, "BMPROF_BHIVE_IMAGE=%s: %s (it names the harness "
				 "image, which make builds into build/%s)", env, strerror(errno),
				 IMAGE_REL);
			return -1;
		}
		snprintf(out, n, "%s", env);
		return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0) {
		snprintf(err, errlen, "cannot find the running bmprof (/proc/self/exe): %s; set "
			 "BMPROF_BHIVE_IMAGE to the harness image", strerror(errno));
		return -1;
	}
	exe[len] = 0;
	char *slash = strrchr(exe, '/');
	snprintf(up, sizeof up, "%.*s/..", slash ? (int)(slash - exe) : 0, exe);
	char *top = realpath(up, NULL);
	int w = snprintf(out, n, "%s/%s", top ? top : up, IMAGE_REL);
	free(top);
	if (w < 0 || (size_t)w >= n) {
		snprintf(err, errlen, "the path of the harness image is too long");
		return -1;
	}
	if (access(out, R_OK)) {
		snprintf(err, errlen, "the harness image %s is missing: run make in bmprof's "
			 "source tree (or set BMPROF_BHIVE_IMAGE)", out);
		return -1;
	}
	return 0;
}
