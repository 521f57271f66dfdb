/* SPDX-License-Identifier: BSD-2-Clause */
/* In-place heap sort of entries by (pc, event, stack): O(n log n), no recursion, no extra memory,
 * bounded stack. Runs on the drain side only. */
#include "core.h"

static int before(const struct bmprof_entry *a, const struct bmprof_entry *b)
{
	return a->pc < b->pc || (a->pc == b->pc && (a->event < b->event ||
	       (a->event == b->event && a->stack < b->stack)));
}

static void swap(struct bmprof_entry *a, struct bmprof_entry *b)
{
	struct bmprof_entry t = *a;
	*a = *b;
	*b = t;
}

static void sift_down(struct bmprof_entry *e, uint32_t root, uint32_t n)
{
	for (;;) {
		uint64_t child = 2 * (uint64_t)root + 1;
		if (child >= n)
			return;
		if (child + 1 < n && before(&e[child], &e[child + 1]))
			child++;
		if (!before(&e[root], &e[child]))
			return;
		swap(&e[root], &e[child]);
		root = (uint32_t)child;
	}
}

void bmprof_sort_entries(struct bmprof_entry *e, uint32_t n)
{
	if (n < 2)
		return;
	for (uint32_t i = n / 2; i-- > 0;)
		sift_down(e, i, n);
	for (uint32_t end = n - 1; end > 0; end--) {
		swap(&e[0], &e[end]);
		sift_down(e, 0, end);
	}
}
