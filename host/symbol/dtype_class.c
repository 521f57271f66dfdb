/* SPDX-License-Identifier: BSD-2-Clause */
/* The categories of data-space answers, as Sun's data-object tables name them, and an
 * answer in Sun's form. */
#include <inttypes.h>
#include <stdio.h>

#include "symbol/dtype.h"

static const char *const names[DTYPE__NCLASS] = {
	[DTYPE_OBJECT] = "",
	[DTYPE_SCALARS] = "<Scalars>",
	[DTYPE_UNSPECIFIED] = "(Unspecified)",
	[DTYPE_UNRESOLVABLE] = "(Unresolvable)",
	[DTYPE_UNASCERTAINABLE] = "(Unascertainable)",
	[DTYPE_UNIDENTIFIED] = "(Unidentified)",
	[DTYPE_UNVERIFIABLE] = "(Unverifiable)",
};

const char *dtype_class_name(enum dtype_class c)
{
	return (unsigned)c < DTYPE__NCLASS ? names[c] : "(Unknown)";
}

int dtype_class_unknown(enum dtype_class c)
{
	return c >= DTYPE_UNSPECIFIED && c < DTYPE__NCLASS;
}

char *dtype_format(const struct dtype_answer *a, char *buf, size_t len)
{
	if (!len)
		return buf;
	if (a->cls == DTYPE_OBJECT)
		snprintf(buf, len, "{%s}.+%" PRIu64 "%s%s", a->type, a->offset,
			 a->member[0] ? " " : "", a->member);
	else
		snprintf(buf, len, "%s", dtype_class_name(a->cls));
	return buf;
}
