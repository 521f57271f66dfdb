/* SPDX-License-Identifier: BSD-2-Clause */
/* memmove and memcmp, for gcc's emitted calls and for programs. memmove copies forwards
 * with the architecture's memcpy, or backwards (bmrt_copy_down) where dst overlaps src
 * from above. Weak, so a program may bring its own. */
#include "bmrt.h"
#include "rt_common.h"

__attribute__((weak)) void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	bmrt_copy_down(d, s, n);
	return dst;
}

__attribute__((weak)) int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (size_t i = 0; i < n; i++)
		if (p[i] != q[i])
			return p[i] - q[i];
	return 0;
}
