/* SPDX-License-Identifier: BSD-2-Clause */
/* The tables and the scratch page (pool.h). */
#include "harness.h"
#include "pool.h"

uint64_t bhive_scratch[512] __attribute__((aligned(4096)));
static uint64_t pool[BHIVE_TABLES][512] __attribute__((aligned(4096)));
static unsigned used;

void pool_reset(void)
{
	used = 0;
}

uint64_t *pool_table(void)
{
	uint64_t *t;

	if (used == BHIVE_TABLES)
		return 0;
	t = pool[used++];
	arch_fill64(t, 0, 512);
	return t;
}
