/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the insn_count QEMU plugin is (truth_qemu.h): the make build puts it in
 * lib/bmprof/ beside bin/ (build/lib/bmprof/insn_count.so for build/bin/bmprof,
 * build/san/lib/bmprof/ for build/san/bin/bmprof), so bmprof looks relative to its own
 * executable; BMPROF_INSN_COUNT names another. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/truth_qemu.h"

#define PLUGIN_REL "lib/bmprof/insn_count.so"

int truth_plugin_path(char *out, size_t n, char *err, size_t errlen)
{
	const char *env = getenv("BMPROF_INSN_COUNT");
	char exe[PATH_MAX];
	ssize_t len;

	if (env && *env) {
		if (access(env, R_OK)) {
			snprintf(err, errlen, "BMPROF_INSN_COUNT=%s: %s (it names the insn_count "
				 "QEMU plugin, which make builds into build/lib/bmprof/)", env,
				 strerror(errno));
			return -1;
		}
		snprintf(out, n, "%s", env);
		return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0) {
		snprintf(err, errlen, "cannot find the running bmprof (/proc/self/exe): %s; set "
			 "BMPROF_INSN_COUNT to the insn_count QEMU plugin", strerror(errno));
		return -1;
	}
	exe[len] = 0;
	char *slash = strrchr(exe, '/'), up[PATH_MAX + 4];
	snprintf(up, sizeof up, "%.*s/..", slash ? (int)(slash - exe) : 0, exe);
	char *top = realpath(up, NULL);        /* the folder holding bin/ */
	int w = snprintf(out, n, "%s/%s", top ? top : up, PLUGIN_REL);
	free(top);
	if (w < 0 || (size_t)w >= n) {
		snprintf(err, errlen, "the path of the insn_count QEMU plugin is too long");
		return -1;
	}
	if (access(out, R_OK)) {
		snprintf(err, errlen, "the QEMU plugin %s is missing: run make in bmprof's source "
			 "tree (or set BMPROF_INSN_COUNT to insn_count.so)", out);
		return -1;
	}
	return 0;
}
