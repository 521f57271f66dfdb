/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-CPU state: sizing, set-up and counter snapshots. */
#include "bmprof_desc.h"
#include "core.h"

static uint64_t buckets_for(uint32_t table_entries)
{
	uint64_t want = ((uint64_t)table_entries + BMPROF_WAYS - 1) / BMPROF_WAYS;
	uint64_t n = 1;
	while (n < want)
		n <<= 1;
	return n;
}

static int sizes_ok(uint32_t table_entries, uint32_t ovf_entries)
{
	return table_entries >= 1 && table_entries <= BMPROF_TABLE_ENTRIES_MAX &&
	       ovf_entries >= 1 && ovf_entries <= BMPROF_OVF_ENTRIES_MAX;
}

/* 0 if the sizes are invalid or the total does not fit a size_t. */
size_t bmprof_cpu_mem_size(uint32_t table_entries, uint32_t ovf_entries)
{
	if (!sizes_ok(table_entries, ovf_entries))
		return 0;
	uint64_t n = buckets_for(table_entries) * sizeof(struct bmprof_bucket) +
		     2 * (uint64_t)ovf_entries * sizeof(struct bmprof_entry);
	return n > SIZE_MAX ? 0 : (size_t)n;
}

/* splitmix64's finalizer: nearby seeds (0, 1, 2 or one per CPU) give unrelated streams. */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void clear_entries(struct bmprof_entry *e, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		e[i] = (struct bmprof_entry){ 0 };
}

int bmprof_cpu_init(struct bmprof_cpu *c, uint16_t cpu_id, void *mem, size_t len,
		    uint32_t table_entries, uint32_t ovf_entries, uint64_t seed)
{
	size_t need = bmprof_cpu_mem_size(table_entries, ovf_entries);
	if (!c || !mem || need == 0 || len < need ||
	    ((uintptr_t)mem & (BMPROF_CACHE_LINE - 1)) != 0)
		return -1;

	uint64_t nb = buckets_for(table_entries);
	uint8_t *after_table = (uint8_t *)mem + nb * sizeof(struct bmprof_bucket);
	struct bmprof_entry *ovf = (struct bmprof_entry *)after_table;

	*c = (struct bmprof_cpu){ 0 };
	c->table = mem;
	c->mask = (uint32_t)(nb - 1);
	c->cpu_id = cpu_id;
	clear_entries(bmprof_table_entries(c), nb * BMPROF_WAYS);
	for (int i = 0; i < 2; i++) {
		c->ovf[i].slot = ovf + (uint64_t)i * ovf_entries;
		c->ovf[i].cap = ovf_entries;
	}
	c->ovf[0].state = BMPROF_OVF_FILLING;
	c->rng = mix64(seed ^ ((uint64_t)cpu_id << 48));
	if (c->rng == 0)
		c->rng = 0x9e3779b97f4a7c15ull; /* xorshift state must be non-zero */
	bmprof_desc_register(c);
	return 0;
}

int bmprof_drain_pending(const struct bmprof_cpu *c)
{
	return c->ovf[0].state == BMPROF_OVF_FULL || c->ovf[1].state == BMPROF_OVF_FULL ||
	       bmprof_raw_due(c);
}

void bmprof_get_counters(const struct bmprof_cpu *c, struct bmprof_counters *k)
{
	k->taken = c->taken;
	k->hits = c->hits;
	k->misses = c->misses;
	k->evictions = c->evictions;
	k->delivered = c->delivered;
	k->lost_full = c->lost_full;
	k->lost_transport = c->lost_transport;
	k->frames = c->frames;
	k->raw_taken = c->raw.taken;
	k->raw_delivered = c->raw.delivered;
	k->raw_lost_full = c->raw.lost_full;
	k->raw_lost_transport = c->raw.lost_transport;
	k->raw_frames = c->raw.frames;
}
