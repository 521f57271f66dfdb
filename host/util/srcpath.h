/* SPDX-License-Identifier: BSD-2-Clause */
/* Source files of a profile made elsewhere: a CI machine names its sources under its own
 * paths. --prefix-map OLD=NEW rewrites a path's prefix (as gcc's -fdebug-prefix-map; the
 * last one given that matches wins) and --source-path DIR is searched for a file that is
 * not where the (mapped) path says: DIR/PATH, then DIR/ with the path's leading directories
 * dropped one at a time, down to DIR/NAME. For annotate (source text) and report (the
 * paths it shows). */
#ifndef BMPROF_SRCPATH_H
#define BMPROF_SRCPATH_H

#include <stddef.h>
#include "util/options.h"

opt_cb srcpath_cb_map, srcpath_cb_dir;

#define SRCPATH_OPTS \
	OPT_CALLBACK_F(0, "prefix-map", NULL, "OLD=NEW", "source paths starting with OLD " \
		       "start with NEW instead (repeatable; as gcc's -fdebug-prefix-map)", \
		       srcpath_cb_map, OPT_MULTI), \
	OPT_CALLBACK_F(0, "source-path", NULL, "DIR", "look for source files not found where " \
		       "their path says under DIR (repeatable): DIR/PATH, then with the path's " \
		       "leading directories dropped", srcpath_cb_dir, OPT_MULTI)

/* Add a map ("OLD=NEW") or a directory. 0, or -1 (bad map, out of memory). */
int srcpath_add_map(const char *spec);
int srcpath_add_dir(const char *dir);
/* Whether any map or directory was given. */
int srcpath_given(void);
/* path with the prefix map applied (path itself when none matches). */
const char *srcpath_map(const char *path, char *buf, size_t n);
/* The file path names as it can be opened: mapped, then searched for. NULL when none of
 * the places is a regular file; tried then holds the (mapped) path. */
const char *srcpath_find(const char *path, char *buf, size_t n, char *tried, size_t tn);
/* Forget every map and directory. */
void srcpath_clear(void);

#endif
