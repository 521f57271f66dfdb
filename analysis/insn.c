/* SPDX-License-Identifier: BSD-2-Clause */
/* Lookups over decoded instructions. */
#include "insn.h"

long insn_find(const struct insn *insns, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && insns[lo].addr == addr ? (long)lo : -1;
}
