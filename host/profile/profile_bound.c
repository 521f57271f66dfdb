/* SPDX-License-Identifier: BSD-2-Clause */
/* The bound on a profile's distinct entries (profile_bound.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile/profile_bound.h"
#include "util/util.h"

static size_t set_bound;

void profile_bound_set(size_t n)
{
	set_bound = n;
}

int profile_bound_option(const char *verb, const char *arg)
{
	size_t n;
	char safe[64];

	if (profile_bound_parse(arg, &n)) {
		bm_err("%s: --max-entries takes a positive number of entries (k, M or G suffix "
		       "allowed), not '%s'", verb, bm_safe(safe, sizeof safe, arg));
		return 2;
	}
	profile_bound_set(n);
	return 0;
}

int profile_bound_cb(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	return profile_bound_option(c->name, arg) ? -1 : 0;
}

int profile_bound_parse(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	unsigned long long mul = *end == 'k' ? 1000ull : *end == 'M' ? 1000000ull :
				 *end == 'G' ? 1000000000ull : 1;
	if (mul > 1)
		end++;
	if (errno || *end || !v || v > SIZE_MAX / mul)
		return -1;
	*out = (size_t)(v * mul);
	return 0;
}

/* The memory this process may use: the machine's, or its cgroup's limit when lower. */
static uint64_t usable_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : (uint64_t)1 << 32;
	FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
	unsigned long long lim;

	if (f) {
		if (fscanf(f, "%llu", &lim) == 1 && lim && lim < mem)
			mem = lim;
		fclose(f);
	}
	return mem;
}

int profile_bound(size_t *out, char *err, size_t errlen)
{
	const char *env = getenv(PROFILE_BOUND_ENV);

	if (set_bound) {
		*out = set_bound;
		return 0;
	}
	if (env && *env) {
		if (profile_bound_parse(env, out)) {
			char safe[64];
			snprintf(err, errlen, "%s takes a positive number of entries (k, M or G "
				 "suffix allowed), not '%s'", PROFILE_BOUND_ENV,
				 bm_safe(safe, sizeof safe, env));
			return -1;
		}
		return 0;
	}
	uint64_t n = usable_memory() / PROFILE_BOUND_BYTES;
	*out = n > SIZE_MAX ? SIZE_MAX : (size_t)n;
	return 0;
}

void profile_bound_exceeded(char *err, size_t errlen, const char *name, size_t bound)
{
	char safe[512];

	snprintf(err, errlen, "%s has more than %zu distinct sample entries (pc, event, cpu), "
		 "the bound that keeps bmprof's memory in check: raise it with %s=N in the "
		 "environment (report, export, diff and stats also take --max-entries N)",
		 bm_safe(safe, sizeof safe, name), bound, PROFILE_BOUND_ENV);
}
