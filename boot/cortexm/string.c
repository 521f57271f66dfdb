/* SPDX-License-Identifier: BSD-2-Clause */
/* memcpy and memset, which gcc may emit calls to, a word at a time where the alignment
 * allows, and memmove's backward copy. The empty asm in each loop keeps gcc from turning
 * the loop back into a call to the function being defined. memcpy and memset are weak,
 * so a program (or a C library) may bring its own. */
#include "bmrt.h"
#include "rt.h"

typedef uint32_t __attribute__((may_alias)) word;

#define BARRIER() __asm__ volatile("" : : : "memory")

__attribute__((weak)) void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d ^ (uintptr_t)s) & 3) == 0) {
		for (; n && ((uintptr_t)d & 3); n--) {
			*d++ = *s++;
			BARRIER();
		}
		for (; n >= 4; n -= 4, d += 4, s += 4) {
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

__attribute__((weak)) void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	word w = (uint8_t)c * 0x01010101u;

	for (; n && ((uintptr_t)d & 3); n--) {
		*d++ = (unsigned char)c;
		BARRIER();
	}
	for (; n >= 4; n -= 4, d += 4) {
		*(word *)d = w;
		BARRIER();
	}
	for (; n; n--) {
		*d++ = (unsigned char)c;
		BARRIER();
	}
	return dst;
}

void bmrt_copy_down(unsigned char *dst, const unsigned char *src, size_t n)
{
	while (n--) {
		dst[n] = src[n];
		BARRIER();
	}
}
