/* SPDX-License-Identifier: BSD-2-Clause */
/* The shadow call stack and its calling context tree (shadow_stack.h). */
#include <stdlib.h>
#include <string.h>

#include "shadow_stack.h"

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static uint64_t node_hash(uint32_t parent, uint8_t kind, uint64_t addr)
{
	return mix(addr ^ mix(((uint64_t)parent << 8) | kind));
}

static uint64_t rec_hash(uint32_t node, uint64_t start, uint32_t n)
{
	return mix(start ^ mix(((uint64_t)node << 32) | n));
}

int ss_init(struct shadow_stack *s)
{
	memset(s, 0, sizeof *s);
	s->capn = 1024;
	s->nmask = 4095;
	s->rmask = 4095;
	s->capf = 256;
	s->nodes = malloc(s->capn * sizeof *s->nodes);
	s->nmap = calloc(s->nmask + 1, sizeof *s->nmap);
	s->recs = calloc(s->rmask + 1, sizeof *s->recs);
	s->frames = malloc(s->capf * sizeof *s->frames);
	if (!s->nodes || !s->nmap || !s->recs || !s->frames) {
		ss_free(s);
		return -1;
	}
	s->nodes[0] = (struct ss_node){ 0, 0, 0 };
	s->nnodes = 1;
	return 0;
}

void ss_free(struct shadow_stack *s)
{
	free(s->nodes);
	free(s->nmap);
	free(s->recs);
	free(s->frames);
	memset(s, 0, sizeof *s);
}

static int nmap_grow(struct shadow_stack *s)
{
	size_t mask = 2 * s->nmask + 1;
	uint32_t *m = calloc(mask + 1, sizeof *m);

	if (!m)
		return -1;
	for (size_t i = 0; i <= s->nmask; i++) {
		if (!s->nmap[i])
			continue;
		const struct ss_node *nd = &s->nodes[s->nmap[i] - 1];
		size_t j = (size_t)node_hash(nd->parent, nd->kind, nd->addr) & mask;
		while (m[j])
			j = (j + 1) & mask;
		m[j] = s->nmap[i];
	}
	free(s->nmap);
	s->nmap = m;
	s->nmask = mask;
	return 0;
}

/* The child of parent entered by kind at addr, made when new; SS_ROOT when it cannot be. */
static uint32_t child(struct shadow_stack *s, uint32_t parent, uint8_t kind, uint64_t addr)
{
	size_t j;

	if (2 * (s->nnodes + 1) > s->nmask + 1 && nmap_grow(s)) {
		s->failed = 1;
		return SS_ROOT;
	}
	for (j = (size_t)node_hash(parent, kind, addr) & s->nmask; s->nmap[j];
	     j = (j + 1) & s->nmask) {
		const struct ss_node *nd = &s->nodes[s->nmap[j] - 1];
		if (nd->parent == parent && nd->kind == kind && nd->addr == addr)
			return s->nmap[j] - 1;
	}
	if (s->nnodes >= SS_NODES_MAX) {
		s->failed = 1;
		return SS_ROOT;
	}
	if (s->nnodes == s->capn) {
		void *p = realloc(s->nodes, 2 * s->capn * sizeof *s->nodes);
		if (!p) {
			s->failed = 1;
			return SS_ROOT;
		}
		s->nodes = p;
		s->capn *= 2;
	}
	s->nodes[s->nnodes] = (struct ss_node){ addr, parent, kind };
	s->nmap[j] = (uint32_t)++s->nnodes;
	return (uint32_t)(s->nnodes - 1);
}

static void push(struct shadow_stack *s, uint8_t kind, uint64_t addr, int pending)
{
	if (s->depth == SS_DEPTH_MAX) {
		s->st.overflow++;
		return;
	}
	if (s->depth == s->capf) {
		void *p = realloc(s->frames, 2 * s->capf * sizeof *s->frames);
		if (!p) {
			s->failed = 1;
			return;
		}
		s->frames = p;
		s->capf *= 2;
	}
	uint32_t node = child(s, ss_node_now(s), kind, addr);
	s->frames[s->depth] = (struct ss_frame){
		.ra = kind == SS_NODE_CALL ? addr : 0,
		.node = node,
		.irq = kind == SS_NODE_IRQ,
		.pending = (uint8_t)pending,
	};
	s->depth++;
}

/* A return to next: down to the innermost call frame returning there, not past an
 * exception frame. */
static void ret_to(struct shadow_stack *s, uint64_t next)
{
	s->st.rets++;
	for (size_t i = s->depth; i-- > 0;) {
		if (s->frames[i].irq)
			break;
		if (s->frames[i].ra == next) {
			s->depth = i;
			return;
		}
	}
	s->st.unmatched_rets++;
}

static void eret_to(struct shadow_stack *s, uint64_t next)
{
	s->st.erets++;
	for (size_t i = s->depth; i-- > 0;) {
		if (!s->frames[i].irq)
			continue;
		int pending = s->frames[i].pending;
		s->depth = i;
		if (pending == SS_RET)
			ret_to(s, next);
		else if (pending == SS_ERET)
			eret_to(s, next);
		return;
	}
	s->st.unmatched_erets++;
}

void ss_step(struct shadow_stack *s, int kind, uint64_t pc, unsigned size, int done,
	     uint64_t next, int entry)
{
	int pending = SS_OTHER;

	if (done) {
		switch (kind) {
		case SS_CALL:
			s->st.calls++;
			push(s, SS_NODE_CALL, pc + size, 0);
			break;
		case SS_RET:
			if (entry)
				pending = SS_RET;
			else
				ret_to(s, next);
			break;
		case SS_ERET:
			if (entry)
				pending = SS_ERET;
			else
				eret_to(s, next);
			break;
		}
	}
	if (entry) {
		s->st.irqs++;
		push(s, SS_NODE_IRQ, next, pending);
	}
}

static int recs_grow(struct shadow_stack *s)
{
	size_t mask = 2 * s->rmask + 1;
	struct ss_rec *m = calloc(mask + 1, sizeof *m);

	if (!m)
		return -1;
	for (size_t i = 0; i <= s->rmask; i++) {
		const struct ss_rec *r = &s->recs[i];
		if (!r->count)
			continue;
		size_t j = (size_t)rec_hash(r->node, r->start, r->n) & mask;
		while (m[j].count)
			j = (j + 1) & mask;
		m[j] = *r;
	}
	free(s->recs);
	s->recs = m;
	s->rmask = mask;
	return 0;
}

size_t ss_credit(struct shadow_stack *s, uint32_t node, uint64_t start, uint32_t n,
		 uint64_t count)
{
	size_t j;

	if (!count)
		return (size_t)-1;
	if (2 * (s->nrecs + 1) > s->rmask + 1 && recs_grow(s)) {
		s->failed = 1;
		return (size_t)-1;
	}
	for (j = (size_t)rec_hash(node, start, n) & s->rmask; s->recs[j].count;
	     j = (j + 1) & s->rmask) {
		struct ss_rec *r = &s->recs[j];
		if (r->node == node && r->start == start && r->n == n) {
			r->count += count;
			return j;
		}
	}
	s->recs[j] = (struct ss_rec){ start, count, node, n };
	s->nrecs++;
	return j;
}
