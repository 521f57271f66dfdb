/* SPDX-License-Identifier: BSD-2-Clause */
/* Which CUs a lookup tries at an address: the CU ranges cut into elementary intervals once,
 * each with its list of CUs, so a lookup is one binary search however the ranges overlap
 * (one CU's range can span the others', and scanning back over them cost every lookup
 * hundreds of steps). */
#include <stdlib.h>

#include "symbol/sym_internal.h"

size_t sym_interval(const uint64_t *lo, size_t n, uint64_t addr)
{
	size_t a = 0, b = n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (lo[mid] <= addr)
			a = mid + 1;
		else
			b = mid;
	}
	return a ? a - 1 : SIZE_MAX;
}

/* The CUs whose ranges hold addr, the way addr2line's order comes out of them: the ranges
 * below addr walked from the nearest start down, the first max distinct CUs kept, then
 * put in unit order. */
static size_t scan_candidates(const struct symbolizer *s, uint64_t addr, uint32_t *out,
			      size_t max)
{
	size_t lo = 0, hi = s->ncu_ranges, n = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->cu_ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j-- > 0 && s->cu_range_maxhi[j] > addr;) {
		const struct sym_cu_range *r = &s->cu_ranges[j];
		if (addr >= r->hi || n == max)
			continue;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= out[k] == r->cu;
		if (!dup)
			out[n++] = r->cu;
	}
	/* insertion sort by unit order; n is tiny */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && out[k - 1] > out[k]; k--) {
			uint32_t t = out[k];
			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	return n;
}

int sym_cu_intervals(struct symbolizer *s)
{
	size_t nb = 0, total = 0;
	uint64_t *b = malloc((2 * s->ncu_ranges + 1) * sizeof(*b));
	if (!b)
		return -1;
	for (size_t i = 0; i < s->ncu_ranges; i++) {
		b[nb++] = s->cu_ranges[i].lo;
		b[nb++] = s->cu_ranges[i].hi;
	}
	sym_sort_u64(b, nb);
	size_t m = 0;
	for (size_t i = 0; i < nb; i++)
		if (!m || b[m - 1] != b[i])
			b[m++] = b[i];
	uint32_t *first = malloc((m + 1) * sizeof(*first));
	struct vec cus = { .elem = sizeof(uint32_t) };
	uint32_t cand[SYM_MAX_CANDIDATES];
	if (!first) {
		free(b);
		return -1;
	}
	for (size_t i = 0; i < m; i++) {
		size_t n = scan_candidates(s, b[i], cand, SYM_MAX_CANDIDATES);
		first[i] = (uint32_t)total;
		for (size_t k = 0; k < n; k++) {
			uint32_t *p = vec_push(&cus);
			if (!p) {
				free(b);
				free(first);
				vec_free(&cus);
				return -1;
			}
			*p = cand[k];
		}
		total += n;
	}
	first[m] = (uint32_t)total;
	s->cu_iv_lo = b;
	s->cu_iv_first = first;
	s->cu_iv_cus = cus.data;
	s->ncu_iv = m;
	return 0;
}

size_t sym_candidate_cus(const struct symbolizer *s, uint64_t addr, uint32_t *out, size_t max)
{
	size_t i = sym_interval(s->cu_iv_lo, s->ncu_iv, addr), n = 0;

	if (i != SIZE_MAX)
		for (uint32_t k = s->cu_iv_first[i]; k < s->cu_iv_first[i + 1] && n < max; k++)
			out[n++] = s->cu_iv_cus[k];
	for (size_t k = 0; k < s->ncu_norange && n < max; k++)
		out[n++] = s->cu_norange[k];
	return n;
}

uint64_t sym_cu_span_end(const struct symbolizer *s, uint64_t addr)
{
	size_t i = sym_interval(s->cu_iv_lo, s->ncu_iv, addr);

	if (i == SIZE_MAX)
		return s->ncu_iv ? s->cu_iv_lo[0] : UINT64_MAX;
	return i + 1 < s->ncu_iv ? s->cu_iv_lo[i + 1] : UINT64_MAX;
}
