/* SPDX-License-Identifier: BSD-2-Clause */
/* Sorts for the symbolizer's hot arrays (qsort's indirect calls dominated the decode time):
 * an LSD radix sort over the bytes in which the keys differ (addresses in one image span
 * only a few), and an introsort with the comparison inlined for small arrays or when
 * memory is short. */
#include <stdlib.h>
#include <string.h>

#include "symbol/sym_internal.h"

#define DEFINE_SORT(NAME, T, LESS)                                                        \
	static void NAME##_insertion(T *a, size_t n)                                      \
	{                                                                                 \
		for (size_t i = 1; i < n; i++) {                                          \
			T t = a[i];                                                       \
			size_t j = i;                                                     \
			for (; j > 0 && LESS(&t, &a[j - 1]); j--)                         \
				a[j] = a[j - 1];                                          \
			a[j] = t;                                                         \
		}                                                                         \
	}                                                                                 \
	static void NAME##_sift(T *a, size_t i, size_t n)                                 \
	{                                                                                 \
		for (;;) {                                                                \
			size_t c = 2 * i + 1;                                             \
			if (c >= n)                                                       \
				return;                                                   \
			if (c + 1 < n && LESS(&a[c], &a[c + 1]))                          \
				c++;                                                      \
			if (!LESS(&a[i], &a[c]))                                          \
				return;                                                   \
			T t = a[i];                                                       \
			a[i] = a[c];                                                      \
			a[c] = t;                                                         \
			i = c;                                                            \
		}                                                                         \
	}                                                                                 \
	static void NAME##_heap(T *a, size_t n)                                           \
	{                                                                                 \
		for (size_t i = n / 2; i-- > 0;)                                          \
			NAME##_sift(a, i, n);                                             \
		for (size_t k = n; k-- > 1;) {                                            \
			T t = a[0];                                                       \
			a[0] = a[k];                                                      \
			a[k] = t;                                                         \
			NAME##_sift(a, 0, k);                                             \
		}                                                                         \
	}                                                                                 \
	static void NAME##_intro(T *a, size_t n, int depth)                               \
	{                                                                                 \
		while (n > 16) {                                                          \
			if (!depth--) {                                                   \
				NAME##_heap(a, n);                                        \
				return;                                                   \
			}                                                                 \
			T *x = &a[0], *y = &a[n / 2], *z = &a[n - 1];                     \
			T *m = LESS(x, y) ? (LESS(y, z) ? y : LESS(x, z) ? z : x)         \
					  : (LESS(x, z) ? x : LESS(y, z) ? z : y);        \
			T pivot = *m;                                                     \
			size_t i = 0, j = n - 1;                                          \
			for (;;) {                                                        \
				while (LESS(&a[i], &pivot))                               \
					i++;                                              \
				while (LESS(&pivot, &a[j]))                               \
					j--;                                              \
				if (i >= j)                                               \
					break;                                            \
				T t = a[i];                                               \
				a[i] = a[j];                                              \
				a[j] = t;                                                 \
				i++;                                                      \
				j--;                                                      \
			}                                                                 \
			NAME##_intro(a, j + 1, depth);                                    \
			a += j + 1;                                                       \
			n -= j + 1;                                                       \
		}                                                                         \
		NAME##_insertion(a, n);                                                   \
	}                                                                                 \
	static void NAME(T *a, size_t n)                                                  \
	{                                                                                 \
		int depth = 0;                                                            \
		for (size_t k = n; k; k >>= 1)                                            \
			depth += 2;                                                       \
		NAME##_intro(a, n, depth);                                                \
	}

#define U64_LESS(x, y) (*(x) < *(y))
#define RANGE_LESS(x, y) ((x)->lo < (y)->lo || ((x)->lo == (y)->lo && (x)->fn < (y)->fn))
#define KEY_LESS(x, y) ((x)->key < (y)->key || ((x)->key == (y)->key && (x)->val < (y)->val))

DEFINE_SORT(sort_u64, uint64_t, U64_LESS)
DEFINE_SORT(sort_ranges, struct fn_range, RANGE_LESS)
DEFINE_SORT(sort_keys, struct sym_key, KEY_LESS)

#define RADIX_MIN 512

/* Stable LSD radix sort of n elements of type T by KEY(elem) - min; -1 if out of memory. */
#define DEFINE_RADIX(NAME, T, KEY)                                                        \
	static int NAME(T *a, size_t n)                                                   \
	{                                                                                 \
		uint64_t mn = UINT64_MAX, mx = 0;                                         \
		for (size_t i = 0; i < n; i++) {                                          \
			uint64_t k = KEY(&a[i]);                                          \
			mn = k < mn ? k : mn;                                             \
			mx = k > mx ? k : mx;                                             \
		}                                                                         \
		T *tmp = malloc(n * sizeof(*tmp)), *src = a, *dst = tmp;                  \
		if (!tmp)                                                                 \
			return -1;                                                        \
		uint64_t span = mx - mn;                                                  \
		for (unsigned sh = 0; sh < 64 && (span >> sh); sh += 8) {                 \
			size_t cnt[257] = { 0 };                                          \
			for (size_t i = 0; i < n; i++)                                    \
				cnt[((KEY(&src[i]) - mn) >> sh & 255) + 1]++;             \
			for (unsigned b = 0; b < 256; b++)                                \
				cnt[b + 1] += cnt[b];                                     \
			for (size_t i = 0; i < n; i++)                                    \
				dst[cnt[(KEY(&src[i]) - mn) >> sh & 255]++] = src[i];     \
			T *t = src;                                                       \
			src = dst;                                                        \
			dst = t;                                                          \
		}                                                                         \
		if (src != a)                                                             \
			memcpy(a, src, n * sizeof(*a));                                   \
		free(tmp);                                                                \
		return 0;                                                                 \
	}

#define U64_KEY(x) (*(x))
#define RANGE_KEY(x) ((x)->lo)
#define KEYS_KEY(x) ((x)->key)

DEFINE_RADIX(radix_u64, uint64_t, U64_KEY)
DEFINE_RADIX(radix_ranges, struct fn_range, RANGE_KEY)
DEFINE_RADIX(radix_keys, struct sym_key, KEYS_KEY)

/* Whether a[0..n) is already in order: tables read in DIE or symbol order often are, and
 * one pass over them costs a fraction of a sort. */
#define DEFINE_SORTED(NAME, T, LESS)                                                      \
	static bool NAME(const T *a, size_t n)                                            \
	{                                                                                 \
		for (size_t i = 1; i < n; i++)                                            \
			if (LESS(&a[i], &a[i - 1]))                                       \
				return false;                                             \
		return true;                                                              \
	}

DEFINE_SORTED(sorted_u64, uint64_t, U64_LESS)
DEFINE_SORTED(sorted_ranges, struct fn_range, RANGE_LESS)
DEFINE_SORTED(sorted_keys, struct sym_key, KEY_LESS)

void sym_sort_u64(uint64_t *a, size_t n)
{
	if (sorted_u64(a, n))
		return;
	if (n < RADIX_MIN || radix_u64(a, n) < 0)
		sort_u64(a, n);
}

/* By (lo, fn). The radix pass is stable and ranges arrive in function order, so equal
 * starts keep fn order. */
void sym_sort_ranges(struct fn_range *a, size_t n)
{
	if (sorted_ranges(a, n))
		return;
	if (n < RADIX_MIN || radix_ranges(a, n) < 0)
		sort_ranges(a, n);
}

/* By key; equal keys keep their input order (val order, as callers fill them). */
void sym_sort_keys(struct sym_key *a, size_t n)
{
	if (sorted_keys(a, n))
		return;
	if (n < RADIX_MIN || radix_keys(a, n) < 0)
		sort_keys(a, n);
}
