/* SPDX-License-Identifier: BSD-2-Clause */
/* memcpy and memset, which gcc may emit calls to, and memmove's backward copy. rep
 * movsb/stosb are fast on current CPUs and small under emulation. memcpy and memset are
 * weak, so a program may bring its own. */
#include "bmrt.h"
#include "rt.h"

__attribute__((weak)) void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

/* From the last byte down, then the direction flag restored. */
void bmrt_copy_down(unsigned char *d, const unsigned char *s, size_t n)
{
	d += n - 1;
	s += n - 1;
	__asm__ volatile("std; rep movsb; cld" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

__attribute__((weak)) void *memset(void *dst, int c, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return dst;
}
