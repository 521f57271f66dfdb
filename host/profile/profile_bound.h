/* SPDX-License-Identifier: BSD-2-Clause */
/* The bound on the distinct (pc, event, cpu) entries a loaded or captured profile may hold
 * (profile.max_entries): it bounds bmprof's memory on a profile with very many sampled
 * addresses (a target sampling outside its image, a broken or hostile stream). */
#ifndef BMPROF_PROFILE_BOUND_H
#define BMPROF_PROFILE_BOUND_H

#include <stddef.h>

#include "util/options.h"

#define PROFILE_BOUND_ENV "BMPROF_MAX_ENTRIES"
/* Bytes of memory per entry the default allows for (report needs far fewer). */
#define PROFILE_BOUND_BYTES 512

/* The bound: the one set with profile_bound_set (a --max-entries option), else
 * $BMPROF_MAX_ENTRIES, else one entry per PROFILE_BOUND_BYTES of the machine's memory (or
 * of its cgroup's limit). 0 with *out set, or -1 with the reason in err (a malformed
 * $BMPROF_MAX_ENTRIES). */
int profile_bound(size_t *out, char *err, size_t errlen);
void profile_bound_set(size_t n);
/* A --max-entries argument: a positive count, with an optional k, M or G suffix (powers of
 * 1000). 0, or -1 if s is not one. */
int profile_bound_parse(const char *s, size_t *out);
/* A verb's --max-entries option: 0 with the bound set, or 2 (usage) with the reason
 * printed. */
int profile_bound_option(const char *verb, const char *arg);
/* The option's entry in a verb's option table. */
opt_cb profile_bound_cb;
#define PROFILE_BOUND_OPT OPT_CALLBACK(0, "max-entries", NULL, "N", "keep at most N " \
	"distinct (pc, event, cpu) sample entries, the bound on memory (default $" \
	PROFILE_BOUND_ENV ", else one per 512 bytes of the machine's memory; k, M, G " \
	"suffixes)", profile_bound_cb)
/* The one-line message for a profile (name) with more entries than the bound. */
void profile_bound_exceeded(char *err, size_t errlen, const char *name, size_t bound);

#endif
