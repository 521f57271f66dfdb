/* SPDX-License-Identifier: BSD-2-Clause */
/* The tables, the scratch page and the shared frame (pool.h). */
#include "harness.h"
#include "pool.h"

uint64_t bhive_scratch[512] __attribute__((aligned(4096)));
uint64_t bhive_frame[512] __attribute__((aligned(4096)));
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
	for (unsigned i = 0; i < 512; i++)
		t[i] = 0;
	return t;
}

void space_fill_frame(void)
{
	for (unsigned i = 0; i < 512; i++)
		bhive_frame[i] = BHIVE_INIT;
}
