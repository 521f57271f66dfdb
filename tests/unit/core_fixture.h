/* SPDX-License-Identifier: BSD-2-Clause */
/* A target-core CPU state on the host heap, for tests that drive the sample path. */
#ifndef BMPROF_TEST_CORE_FIXTURE_H
#define BMPROF_TEST_CORE_FIXTURE_H

#include <stdint.h>
#include <stdlib.h>
#include "bmprof.h"
#include "../../target/core/core.h"

struct cpu {
	struct bmprof_cpu c;
	void *mem;
};

/* 1024 table entries, two 256-entry overflow buffers. */
static inline struct cpu *cpu_new_seeded(uint16_t id, uint64_t seed)
{
	struct cpu *k = calloc(1, sizeof *k);
	size_t n = bmprof_cpu_mem_size(1024, 256);

	assert_non_null(k);
	k->mem = aligned_alloc(64, (n + 63) & ~(size_t)63);
	assert_non_null(k->mem);
	assert_int_equal(bmprof_cpu_init(&k->c, id, k->mem, n, 1024, 256, seed), 0);
	return k;
}

static inline void cpu_free(struct cpu *k)
{
	free(k->mem);
	free(k);
}

/* Samples recorded for (pc, event) in the CPU's table. */
static inline uint64_t table_count(const struct bmprof_cpu *c, uint64_t pc, uint16_t event)
{
	const struct bmprof_entry *e = bmprof_table_entries(c);
	uint64_t n = 0;

	for (uint64_t i = 0; i < bmprof_table_size(c); i++)
		if (e[i].count && e[i].pc == pc && e[i].event == event)
			n += e[i].count;
	return n;
}

#endif
