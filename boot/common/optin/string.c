/* SPDX-License-Identifier: BSD-2-Clause */
/* memcpy and memset, which gcc may emit calls to, a word (unsigned long: eight bytes on
 * AArch64 and RISC-V, four on Cortex-M) at a time where the alignment allows, and
 * memmove's backward copy. The empty asm in each loop keeps gcc from turning the loop back
 * into a call to the function being defined. memcpy and memset are weak, so a program (or
 * a C library) may bring its own. Not for x86-64, whose runtime uses rep movsb/stosb; so
 * not in boot/common itself: each runtime that uses it names it (mk/core.mk). */
#include "bmrt.h"
#include "../rt_common.h"

typedef unsigned long __attribute__((may_alias)) word;

#define WORD_MASK (sizeof(word) - 1)
#define BARRIER() __asm__ volatile("" : : : "memory")

__attribute__((weak)) void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d ^ (uintptr_t)s) & WORD_MASK) == 0) {
		for (; n && ((uintptr_t)d & WORD_MASK); n--) {
			*d++ = *s++;
			BARRIER();
		}
		for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word), s += sizeof(word)) {
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
	word w = (unsigned char)c * (~(word)0 / 0xff);

	for (; n && ((uintptr_t)d & WORD_MASK); n--) {
		*d++ = (unsigned char)c;
		BARRIER();
	}
	for (; n >= sizeof(word); n -= sizeof(word), d += sizeof(word)) {
		*(word *)d = w;
		BARRIER();
	}
	for (; n; n--) {
		*d++ = (unsigned char)c;
		BARRIER();
	}
	return dst;
}
