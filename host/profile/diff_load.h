/* SPDX-License-Identifier: BSD-2-Clause */
/* Profiles as buckets for bmprof diff, stats and export: load a profile file, symbolize it
 * against its ELF, group its samples (flat.h) and name each group by a key that survives a
 * rebuild of the image: the function's symbol, file:line, or symbol+offset. By function, a
 * compiler clone (foo.constprop.0, foo.isra.0, foo.cold; symname.h) is its function's bucket,
 * so a build that clones foo and one that does not compare foo with foo.
 */
#ifndef BMPROF_DIFF_LOAD_H
#define BMPROF_DIFF_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include "flat.h"
#include "profile.h"
#include "report/resolve.h"
#include "stats.h"
#include "util/options.h"

struct loaded_run {
	char *path;
	struct profile prof;
	struct resolved r;
	int event;                   /* id or FLAT_ALL_EVENTS */
	struct flat_result flat;
	char **keys;                 /* one per flat row: the bucket's key */
	uint64_t *counts;
	unsigned char *clones;       /* one per key: a compiler clone's samples are in it */
	size_t n;
	char warning[512];           /* the file is damaged but usable; "" if not */
};

/* Load path and bucket it by sort (FLAT_BY_FUNCTION, _LINE or _ADDRESS); elf and event may
 * be NULL (the profile's own ELF, the default event). 0, or -1 with a one-line reason in
 * err (lr is then freed). */
int run_load(struct loaded_run *lr, const char *path, const char *elf, const char *event,
	     enum flat_sort sort, char *err, size_t errlen);
void run_free(struct loaded_run *lr);
/* lr's buckets, for stats.h. */
struct bucket_run run_buckets(const struct loaded_run *lr);
/* Whether lr's bucket key holds a compiler clone (foo.constprop.0 under foo). */
int run_has_clones(const struct loaded_run *lr, const char *key);
/* The key of a flat row ("[unknown]" for a pc no symbol names). */
char *run_key(const struct flat_row *r, enum flat_sort sort);

/* The option table entries diff and stats share: --by into an int (enum flat_sort), --db. */
extern const char *const run_by_names[];
opt_cb run_db_dir_cb;
#define RUN_BY_OPT(v, help) OPT_CHOICE(0, "by", (v), "KEY", help, run_by_names)
#define RUN_DB_OPT OPT_CALLBACK(0, "db", NULL, "DIR", "the database db: queries read " \
	"(default $BMPROF_DB)", run_db_dir_cb)

#endif
