/* SPDX-License-Identifier: BSD-2-Clause */
/* Where a function's code went when the compiler inlined it everywhere (inlined.h). */
#include <stdio.h>
#include <string.h>

#include "report/inlined.h"

static int listed(const char *const *seen, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(seen[i], s))
			return 1;
	return 0;
}

size_t inlined_into(const struct resolved *r, const char *name, char *buf, size_t n,
		    const char **first)
{
	const char *seen[INLINED_MAX];
	size_t k = 0, used = 0;

	*first = NULL;
	if (n)
		buf[0] = 0;
	for (size_t i = 0; i < r->ninfo && k < INLINED_MAX; i++) {
		const struct flat_pcinfo *in = &r->info[i];
		if (in->outside || !in->symbol || !in->function || strcmp(in->function, name) ||
		    !strcmp(in->symbol, name) || listed(seen, k, in->symbol))
			continue;
		seen[k++] = in->symbol;
		if (used < n)
			used += (size_t)snprintf(buf + used, n - used, "%s%s", k > 1 ? ", " : "",
						 in->symbol);
	}
	*first = k ? seen[0] : NULL;
	return k;
}
