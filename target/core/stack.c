/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-CPU stack table: one id per distinct call chain, as DCPI keys its samples by pc.
 * The handler looks a chain up by its hash in an open-addressing index of ids (linear
 * probing, at most PROBES slots, at most half full) and appends a new chain's frames to
 * the frame pool. Nothing is ever removed, so a definition the drain side reads (ids below
 * n, loaded with acquire) never changes under it. A chain that finds no slot, no id or no
 * room for its frames gets BMPROF_STACK_LOST and is counted in full. */
#include "core.h"

#define PROBES 16u

static uint32_t index_slots(uint32_t entries)
{
	uint32_t n = 2;

	while (n < 2 * entries)
		n <<= 1;
	return n;
}

size_t bmprof_stacks_mem_size(uint32_t entries, uint32_t frames)
{
	if (entries < 1 || entries > BMPROF_STACK_IDS_MAX || frames < 1 || frames > (1u << 26))
		return 0;
	return (size_t)frames * sizeof(uint64_t) + (size_t)entries * sizeof(struct bmprof_stack_def) +
	       (size_t)index_slots(entries) * sizeof(uint16_t);
}

int bmprof_stacks_init(struct bmprof_cpu *c, void *mem, size_t len, uint32_t entries,
		       uint32_t frames, uint32_t depth)
{
	size_t need = bmprof_stacks_mem_size(entries, frames);
	struct bmprof_stacks *s = &c->stacks;
	uint8_t *m = mem;
	uint32_t slots = index_slots(entries);

	if (!need || !mem || len < need || ((uintptr_t)mem & 7) || depth < 1 ||
	    depth > BMPROF_STACK_DEPTH_MAX)
		return -1;
	*s = (struct bmprof_stacks){ 0 };
	s->frames = (uint64_t *)m;
	s->def = (struct bmprof_stack_def *)(m + (size_t)frames * sizeof(uint64_t));
	s->index = (uint16_t *)(s->def + entries);
	for (uint32_t i = 0; i < slots; i++)
		s->index[i] = 0;
	s->mask = slots - 1;
	s->max_ids = entries;
	s->frames_cap = frames;
	s->depth = depth;
	return 0;
}

static uint32_t chain_hash(const uint64_t *f, unsigned n, uint8_t flags)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)n << 8 | flags);

	for (unsigned i = 0; i < n; i++) {
		h ^= f[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (uint32_t)h;
}

static int same_chain(const struct bmprof_stacks *s, const struct bmprof_stack_def *d,
		      uint32_t hash, const uint64_t *f, unsigned n, uint8_t flags)
{
	const uint64_t *g = s->frames + d->off;

	if (d->hash != hash || d->depth != n || d->flags != flags)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (g[i] != f[i])
			return 0;
	return 1;
}

static uint16_t add_chain(struct bmprof_stacks *s, uint32_t slot, uint32_t hash,
			  const uint64_t *f, unsigned n, uint8_t flags)
{
	uint32_t id = s->n + 1;

	if (id > s->max_ids || s->frames_cap - s->frames_used < n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		s->frames[s->frames_used + i] = f[i];
	s->def[id - 1] = (struct bmprof_stack_def){ .off = s->frames_used, .hash = hash,
						    .depth = (uint8_t)n, .flags = flags };
	s->frames_used += n;
	s->index[slot] = (uint16_t)id;
	__atomic_store_n(&s->n, id, __ATOMIC_RELEASE);
	return (uint16_t)id;
}

uint16_t bmprof_stack_id(struct bmprof_cpu *c, const uint64_t *frames, unsigned n,
			 uint8_t flags)
{
	struct bmprof_stacks *s = &c->stacks;
	uint32_t hash, slot;

	if (!n && !flags)
		return 0;
	if (n > BMPROF_STACK_DEPTH_MAX)
		n = BMPROF_STACK_DEPTH_MAX;
	hash = chain_hash(frames, n, flags);
	slot = hash & s->mask;
	for (unsigned k = 0; k < PROBES; k++, slot = (slot + 1) & s->mask) {
		uint16_t id = s->index[slot];
		if (!id) {
			id = add_chain(s, slot, hash, frames, n, flags);
			if (id)
				return id;
			break;
		}
		if (same_chain(s, &s->def[id - 1], hash, frames, n, flags))
			return id;
	}
	s->full++;
	return BMPROF_STACK_LOST;
}
