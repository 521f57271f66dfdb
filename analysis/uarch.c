/* SPDX-License-Identifier: BSD-2-Clause */
/* Looking up pipeline models: by name, or by the CPU identity a profile's HELLO carries.
 * The models themselves are data (uarch_table.c, generated from analysis/uarch/NAME.tsv). */
#include "uarch.h"

#include <stddef.h>
#include <string.h>

const struct uarch *uarch_find(const char *name)
{
	if (!name)
		return NULL;
	for (const struct uarch *const *m = uarch_models; *m; m++)
		if (strcmp((*m)->name, name) == 0)
			return *m;
	return NULL;
}

/* HELLO's vendor is NUL padded to 16 bytes, not necessarily terminated. A NULL vendor
 * matches any (the family and model still have to). */
static int vendor_is(const char *vendor, const char *want)
{
	return !vendor || strncmp(vendor, want, 16) == 0;
}

const struct uarch *uarch_listing_cpu(unsigned arch, const char *vendor, uint32_t family,
				      uint32_t model)
{
	for (const struct uarch_cpu *c = uarch_cpus; c->u; c++)
		if (c->arch == arch && c->family == family &&
		    (c->model == UARCH_ANY_MODEL || c->model == model) && vendor_is(vendor, c->vendor))
			return c->u;
	return NULL;
}

const struct uarch *uarch_for_cpu(unsigned arch, const char *vendor, uint32_t family,
				  uint32_t model)
{
	const struct uarch *u = uarch_listing_cpu(arch, vendor, family, model);

	if (u)
		return u;
	for (const struct uarch *const *m = uarch_models; *m; m++)
		if ((*m)->generic && (*m)->arch == arch)
			return *m;
	return NULL;
}
