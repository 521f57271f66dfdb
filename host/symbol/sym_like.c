/* SPDX-License-Identifier: BSD-2-Clause */
/* A function found by the name a reader knows it by (symbolize.h): its symbol, a compiler
 * clone of it, or its demangled name. */
#include <string.h>

#include "symbol/sym_internal.h"
#include "symbol/symname.h"

/* Several symbols fit: the one that is not a fragment (.cold, .part.N) if only one is not. */
static const struct sym_func *whole(const struct sym_func **c, size_t n)
{
	const struct sym_func *f = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *suffix = c[i]->name + symname_base_len(c[i]->name);
		if (strstr(suffix, ".cold") || strstr(suffix, ".part"))
			continue;
		if (f && f->addr != c[i]->addr)
			return NULL;
		f = c[i];
	}
	return f;
}

int symbolizer_find_function_like(struct symbolizer *s, const char *name, const char **sym,
				  uint64_t *start, uint64_t *size)
{
	const struct sym_func *f = sym_func_named(s, name), *c[8];
	size_t n = 0;

	for (size_t i = 0; !f && i < s->nbyname; i++) {
		const struct sym_func *g = &s->byname[i].f;
		if (!symname_names(g->name, name))
			continue;
		if (n == sizeof c / sizeof c[0])
			return -1;
		c[n++] = g;
	}
	if (!f)
		f = n == 1 ? c[0] : whole(c, n);
	if (!f)
		return -1;
	*sym = f->name;
	*start = f->addr;
	*size = f->size;
	return 0;
}
