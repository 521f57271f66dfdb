/* SPDX-License-Identifier: BSD-2-Clause */
/* memcpy and memset, which gcc may emit calls to, eight bytes at a time where the
 * alignment allows, and memmove's backward copy. The empty asm in each loop keeps gcc from
 * turning the loop back into a call to the function being defined. memcpy and memset are
 * weak, so a program may bring its own. */
#include "bmrt.h"
#include "rt.h"

typedef uint64_t __attribute__((may_alias)) word;

#define BARRIER() __asm__ volatile("" : : : "memory")

__attribute__((weak)) void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d ^ (uintptr_t)s) & 7) == 0) {
		for (; n && ((uintptr_t)d & 7); n--) {
			*d++ = *s++;
			BARRIER();
		}
		for (; n >= 8; n -= 8, d += 8, s += 8) {
			*(word *)d = *(const word *)s;
			BARRIER();
		}
	}
	for (; n; n--) {
		*d++ = *s++;
		BARRIER();
	}
	return dst;
}

void bmrt_copy_down(unsigned char *d, const unsigned char *s, size_t n)
{
	while (n--) {
		d[n] = s[n];
		BARRIER();
	}
}

__attribute__((weak)) void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t w = (unsigned char)c * 0x0101010101010101ull;

	for (; n && ((uintptr_t)d & 7); n--) {
		*d++ = (unsigned char)c;
		BARRIER();
	}
	for (; n >= 8; n -= 8, d += 8) {
		*(word *)d = w;
		BARRIER();
	}
	for (; n; n--) {
		*d++ = (unsigned char)c;
		BARRIER();
	}
	return dst;
}
