/* SPDX-License-Identifier: BSD-2-Clause */
/* Call stacks in the profile model: STACKS frames define each CPU's chains (ids in order
 * from first_id), STACK_SAMPLES frames are SAMPLES with a chain id per entry. A target id
 * maps to an index into p->stacks; an id no STACKS frame defined is counted in
 * stack_unknown and its samples keep no chain. */
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "profile_stacks.h"

static int grow(void **a, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *b;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(b = realloc(*a, n * size)))
		return -1;
	*a = b;
	*cap = n;
	return 0;
}

static int ensure_empty_chain(struct profile *p)
{
	if (p->nstacks)
		return 0;
	if (grow((void **)&p->stacks, &p->stacks_cap, 1, sizeof *p->stacks))
		return -1;
	p->stacks[0] = (struct profile_stack){ 0, 0, 0 };
	p->nstacks = 1;
	return 0;
}

static int map_id(struct profile *p, uint16_t cpu, uint32_t id, uint32_t index)
{
	uint32_t n = p->stack_ids_n[cpu];

	if (id > n) {
		uint32_t m = n ? n : 64;
		uint32_t *a;
		while (m < id)
			m *= 2;
		if (!(a = realloc(p->stack_ids[cpu], m * sizeof *a)))
			return -1;
		memset(a + n, 0, (m - n) * sizeof *a);
		p->stack_ids[cpu] = a;
		p->stack_ids_n[cpu] = m;
	}
	p->stack_ids[cpu][id - 1] = index;
	return 0;
}

/* One chain at q: 0 with the bytes used, or -1 if malformed. */
static int one_chain(struct profile *p, uint16_t cpu, uint32_t id, const uint8_t *q,
		     const uint8_t *end, size_t *used)
{
	const uint8_t *start = q;
	uint8_t flags, depth;
	uint64_t prev = 0;

	if (end - q < 2)
		return -1;
	flags = q[0];
	depth = q[1];
	q += 2;
	if (depth > BMPROF_STACK_DEPTH_WIRE_MAX ||
	    grow((void **)&p->stack_frames, &p->stack_frames_cap, p->nstack_frames + depth,
		 sizeof *p->stack_frames) ||
	    grow((void **)&p->stacks, &p->stacks_cap, p->nstacks + 1, sizeof *p->stacks))
		return -1;
	for (unsigned i = 0; i < depth; i++) {
		uint64_t z;
		unsigned k = bmprof_get_varint(q, end, &z);
		if (!k)
			return -1;
		q += k;
		prev += (uint64_t)bmprof_unzigzag(z);
		p->stack_frames[p->nstack_frames + i] = prev;
	}
	if (map_id(p, cpu, id, (uint32_t)p->nstacks))
		return -1;
	p->stacks[p->nstacks++] = (struct profile_stack){ (uint32_t)p->nstack_frames, depth,
							  flags };
	p->nstack_frames += depth;
	*used = (size_t)(q - start);
	return 0;
}

int profile_apply_stacks(struct profile *p, const uint8_t *b, uint16_t len)
{
	const uint8_t *q = b + BMPROF_STACKS_FIXED, *end = b + len;
	uint16_t cpu, n, first;

	if (len < BMPROF_STACKS_FIXED)
		return -1;
	cpu = bmprof_get16(b);
	n = bmprof_get16(b + 2);
	first = bmprof_get16(b + 4);
	if (cpu >= PROFILE_MAX_CPUS || !first || (uint32_t)first + n > BMPROF_STACK_LOST_ID ||
	    ensure_empty_chain(p))
		return -1;
	for (uint16_t i = 0; i < n; i++) {
		size_t used;
		if (one_chain(p, cpu, (uint32_t)first + i, q, end, &used))
			return -1;
		q += used;
	}
	return 0;
}

uint32_t profile_stack_index(struct profile *p, uint16_t cpu, uint64_t id)
{
	if (id == 0)
		return PROFILE_STACK_EMPTY;
	if (id == BMPROF_STACK_LOST_ID) {
		return PROFILE_STACK_NONE;
	}
	if (id <= p->stack_ids_n[cpu] && p->stack_ids[cpu][id - 1])
		return p->stack_ids[cpu][id - 1];
	return PROFILE_STACK_NONE;
}

int profile_add_stack_sample(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc,
			     uint64_t count, uint64_t id, uint16_t phase)
{
	uint32_t s;

	if (ensure_empty_chain(p) ||
	    grow((void **)&p->stack_samples, &p->stack_samples_cap, p->nstack_samples + 1,
		 sizeof *p->stack_samples))
		return -1;
	s = profile_stack_index(p, cpu, id);
	if (s == PROFILE_STACK_NONE) {
		if (id == BMPROF_STACK_LOST_ID)
			p->stack_lost += count;
		else
			p->stack_unknown += count;
	}
	p->stack_samples[p->nstack_samples++] = (struct profile_stack_sample){
		.pc = pc, .count = count, .stack = s, .event = event, .cpu = cpu,
		.phase = phase };
	return 0;
}

void profile_stacks_free(struct profile *p)
{
	free(p->stacks);
	free(p->stack_frames);
	free(p->stack_samples);
	for (unsigned i = 0; i < PROFILE_MAX_CPUS; i++)
		free(p->stack_ids[i]);
}
