/* SPDX-License-Identifier: BSD-2-Clause */
/* Straight-line pieces of a procedure's basic blocks (blocks.h). */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"

/* An instruction that never belongs to a piece: it ends the one before it. */
static int cuts(const struct insn *in)
{
	return in->flow == INSN_FLOW_CALL || in->cls == IC_SYSTEM || in->size == 0 ||
	       !strncmp(in->text, ".byte", 5);
}

static int push(struct block_piece **v, size_t *n, size_t *cap, const struct insn *insns,
		uint32_t first, uint32_t count)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct block_piece *b = realloc(*v, c * sizeof *b);
		if (!b)
			return -1;
		*v = b;
		*cap = c;
	}
	const struct insn *last = &insns[first + count - 1];
	(*v)[(*n)++] = (struct block_piece){ first, count, insns[first].addr,
					     (uint32_t)(last->addr + last->size - insns[first].addr) };
	return 0;
}

int blocks_pieces(const struct cfg *g, unsigned min_insns, struct block_piece **out, size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!min_insns)
		min_insns = 1;
	for (size_t b = 2; b < g->nblocks; b++) {
		const struct cfg_block *blk = &g->blocks[b];
		uint32_t end = blk->first + blk->n, from = blk->first;

		if (blk->n && g->insns[end - 1].flow != INSN_FLOW_NEXT &&
		    g->insns[end - 1].flow != INSN_FLOW_CALL)
			end--;   /* the transfer that ends the block */
		for (uint32_t i = blk->first; i <= end; i++) {
			if (i < end && !cuts(&g->insns[i]))
				continue;
			if (i - from >= min_insns && push(out, n, &cap, g->insns, from, i - from)) {
				free(*out);
				*out = NULL;
				*n = 0;
				return -1;
			}
			from = i + 1;
		}
	}
	return 0;
}

/* ---- measured cycles ---- */

static uint64_t hash_bytes(const uint8_t *b, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h | 1;
}

static struct block_time *find_slot(const struct block_times *t, const uint8_t *b,
				    uint32_t len, uint64_t h)
{
	size_t j = h & (t->cap - 1);

	for (; t->slot[j].h; j = (j + 1) & (t->cap - 1))
		if (t->slot[j].h == h && t->slot[j].len == len && !memcmp(t->slot[j].bytes, b, len))
			break;
	return &t->slot[j];
}

int block_times_add(struct block_times *t, const uint8_t *bytes, uint32_t len, double cycles)
{
	uint64_t h = hash_bytes(bytes, len);
	struct block_time *e;

	if (2 * (t->n + 1) > t->cap) {
		struct block_times g = { calloc(t->cap ? 2 * t->cap : 256, sizeof *g.slot),
					 t->cap ? 2 * t->cap : 256, t->n };
		if (!g.slot)
			return -1;
		for (size_t i = 0; i < t->cap; i++)
			if (t->slot[i].h)
				*find_slot(&g, t->slot[i].bytes, t->slot[i].len, t->slot[i].h) =
					t->slot[i];
		free(t->slot);
		*t = g;
	}
	e = find_slot(t, bytes, len, h);
	if (!e->h) {
		if (!(e->bytes = malloc(len ? len : 1)))
			return -1;
		memcpy(e->bytes, bytes, len);
		e->h = h;
		e->len = len;
		t->n++;
	}
	e->cycles = cycles;
	return 0;
}

double block_times_find(const struct block_times *t, const uint8_t *bytes, uint32_t len)
{
	const struct block_time *e;

	if (!t || !t->n)
		return -1;
	e = find_slot(t, bytes, len, hash_bytes(bytes, len));
	return e->h ? e->cycles : -1;
}

void block_times_free(struct block_times *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slot[i].bytes);
	free(t->slot);
	memset(t, 0, sizeof *t);
}

/* Scale s[0 .. n)'s M to add up to total (largest remainders get the rounding). */
static void scale_piece(struct sched_insn *s, uint32_t n, uint32_t total)
{
	uint64_t sum = 0, given = 0;
	double rem[n];

	for (uint32_t i = 0; i < n; i++)
		sum += s[i].M;
	if (!sum) {
		s[0].M = total;
		s[0].stall = total ? total - 1 : 0;
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		double want = (double)s[i].M * total / (double)sum;
		uint32_t m = (uint32_t)want;
		rem[i] = s[i].M ? want - m : -1;
		s[i].M = m;
		given += m;
	}
	while (given < total) {
		uint32_t best = 0;
		for (uint32_t i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		s[best].M++;
		rem[best] = -1;
		given++;
	}
	for (uint32_t i = 0; i < n; i++)
		if (s[i].stall >= s[i].M)
			s[i].stall = s[i].M ? s[i].M - 1 : 0;
}

int blocks_apply_times(const struct cfg *g, const uint8_t *code, uint64_t start,
		       const struct block_times *t, struct sched_insn *s, size_t *measured,
		       size_t *pieces)
{
	struct block_piece *pc;
	size_t n;

	*measured = *pieces = 0;
	if (blocks_pieces(g, 1, &pc, &n))
		return -1;
	*pieces = n;
	for (size_t i = 0; i < n && code; i++) {
		double c = block_times_find(t, code + (pc[i].addr - start), pc[i].len);
		if (c < 0)
			continue;
		scale_piece(&s[pc[i].first], pc[i].n, (uint32_t)(c + 0.5) ? (uint32_t)(c + 0.5) : 1);
		(*measured)++;
	}
	free(pc);
	return 0;
}
