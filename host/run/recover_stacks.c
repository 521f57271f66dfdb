/* SPDX-License-Identifier: BSD-2-Clause */
/* The call chains of recovered entries (recover.h): the definitions of the chains a CPU's
 * held and in-flight entries name, read from its stack table in the target's memory, and
 * the STACKS frames that define those the host did not receive. */
#include <stdio.h>
#include <stdlib.h>

#include "run/recover.h"
#include "run/recover_internal.h"
#include "wire.h"

#define FRAME_PAYLOAD 4096u      /* STACKS payload the host builds */

/* The distinct ids 1 .. stk_n the entries name, in order. */
static int collect_chains(struct recover_cpu *c, const struct recover_entry *a, size_t na,
			  const struct recover_entry *b, size_t nb)
{
	const struct recover_entry *l[2] = { a, b };
	size_t nl[2] = { na, nb };
	uint8_t *seen = calloc((size_t)c->stk_n + 1, 1);
	size_t n = 0;

	if (!seen)
		return -1;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < nl[k]; i++) {
			uint16_t id = l[k][i].stack;
			if (id && id <= c->stk_n && !seen[id]) {
				seen[id] = 1;
				n++;
			}
		}
	c->chains = calloc(n ? n : 1, sizeof *c->chains);
	if (!c->chains) {
		free(seen);
		return -1;
	}
	for (uint32_t id = 1; id <= c->stk_n; id++)
		if (seen[id])
			c->chains[c->nchains++].id = (uint16_t)id;
	free(seen);
	return 0;
}

/* The definitions of the chains, def[id - 1], a chunk of the array at a time from each
 * chain not covered yet: only the chunks they are in are read. A definition that points
 * outside the frames the table used, or deeper than a chain can be, is not ok. */
static int read_defs(struct recover *r, const struct recover_mem *m, struct recover_cpu *c,
		     char *err, size_t errlen)
{
	size_t per = RECOVER_CHUNK / r->def_size;
	uint8_t *buf = malloc(per * r->def_size);
	int rc = -1;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (c->nchains && !c->stk_def) {
		snprintf(err, errlen, "a stack table with its definitions at address 0");
		goto out;
	}
	for (size_t j = 0; j < c->nchains;) {
		uint64_t from = c->chains[j].id - 1u, k = c->stk_n - from < per ? c->stk_n - from : per;

		if (recover_rd(r, m, c->stk_def + from * r->def_size, buf, (size_t)(k * r->def_size),
		       "the stack table's definitions", err, errlen))
			goto out;
		for (; j < c->nchains && c->chains[j].id - 1u < from + k; j++) {
			struct recover_chain *ch = &c->chains[j];
			const uint8_t *d = buf + (ch->id - 1u - from) * r->def_size;
			uint64_t off = recover_get(r, d, BMPROF_DF_SDEF_OFF);
			uint64_t depth = recover_get(r, d, BMPROF_DF_SDEF_DEPTH);

			ch->flags = (uint8_t)recover_get(r, d, BMPROF_DF_SDEF_FLAGS);
			ch->ok = depth <= BMPROF_STACK_DEPTH_WIRE_MAX && off <= c->stk_frames_used &&
				 depth <= c->stk_frames_used - off;
			ch->depth = ch->ok ? (uint8_t)depth : 0;
			ch->off = ch->ok ? (uint32_t)off : 0;
		}
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

/* The frames of the chains that are ok: from each chain not filled yet, a chunk of the
 * frames it starts, which fills every chain wholly inside it (chains are defined in order,
 * so one chunk fills many). */
static int read_chain_frames(struct recover *r, const struct recover_mem *m,
			     struct recover_cpu *c, char *err, size_t errlen)
{
	size_t per = RECOVER_CHUNK / 8;
	uint8_t *buf = malloc(per * 8), *filled = calloc(c->nchains ? c->nchains : 1, 1);
	int rc = -1;

	if (!buf || !filled) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t j = 0; j < c->nchains; j++) {
		const struct recover_chain *ch = &c->chains[j];
		uint64_t from = ch->off, k;

		if (!ch->ok || !ch->depth || filled[j])
			continue;
		if (!c->stk_frames) {
			snprintf(err, errlen, "a stack table with its frames at address 0");
			goto out;
		}
		k = c->stk_frames_used - from < per ? c->stk_frames_used - from : per;
		if (recover_rd(r, m, c->stk_frames + 8 * from, buf, (size_t)(8 * k),
		       "the stack table's frames", err, errlen))
			goto out;
		for (size_t i = j; i < c->nchains; i++) {
			struct recover_chain *x = &c->chains[i];

			if (!x->ok || filled[i] || x->off < from || x->off + x->depth > from + k)
				continue;
			for (unsigned f = 0; f < x->depth; f++)
				x->frame[f] = recover_le(buf + 8 * (x->off - from + f), 8);
			filled[i] = 1;
		}
	}
	rc = 0;
out:
	free(buf);
	free(filled);
	return rc;
}

int recover_read_chains(struct recover *r, const struct recover_mem *m, struct recover_cpu *c,
			const struct recover_entry *held, size_t nheld,
			const struct recover_entry *flying, size_t nflying, char *err, size_t errlen)
{
	if (!c->stk_depth)
		return 0;
	if (collect_chains(c, held, nheld, flying, nflying)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return read_defs(r, m, c, err, errlen) || read_chain_frames(r, m, c, err, errlen) ? -1 : 0;
}

/* p holds CPU cpu's chain id (a STACKS frame defined it). */
static int chain_known(const struct profile *p, unsigned cpu, uint32_t id)
{
	return cpu < PROFILE_MAX_CPUS && id >= 1 && id <= p->stack_ids_n[cpu] &&
	       p->stack_ids[cpu][id - 1] != 0;
}

static const struct recover_chain *find_chain(const struct recover_cpu *c, uint16_t id)
{
	size_t lo = 0, hi = c->nchains;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->chains[mid].id == id)
			return &c->chains[mid];
		if (c->chains[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Samples of the entries whose chain the host will not know: neither arrived nor read. */
uint64_t recover_unchained(const struct recover_cpu *c, unsigned cpu, const struct profile *p,
			   const struct recover_entry *e, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		const struct recover_chain *ch;
		if (!e[i].stack || e[i].stack == BMPROF_STACK_LOST || chain_known(p, cpu, e[i].stack))
			continue;
		ch = find_chain(c, e[i].stack);
		if (!ch || !ch->ok)
			sum += e[i].count;
	}
	return sum;
}

static int stacks_frame(unsigned cpu, uint8_t *buf, unsigned len, uint16_t first, unsigned n,
			recover_emit_fn emit, void *ctx)
{
	bmprof_put16(buf, (uint16_t)cpu);
	bmprof_put16(buf + 2, (uint16_t)n);
	bmprof_put16(buf + 4, first);
	bmprof_put16(buf + 6, 0);
	return emit(ctx, BMPROF_FRAME_STACKS, buf, (uint16_t)len);
}

/* STACKS frames defining the chains read that p lacks (runs of consecutive ids). */
int recover_send_chains(const struct recover_cpu *c, unsigned cpu, const struct profile *p,
			recover_emit_fn emit, void *ctx, struct recover_result *res)
{
	uint8_t buf[FRAME_PAYLOAD];
	unsigned len = BMPROF_STACKS_FIXED, count = 0, max = 2 + BMPROF_STACK_DEPTH_WIRE_MAX *
							    BMPROF_VARINT_MAX;
	uint16_t first = 0;
	int rc;

	for (size_t j = 0; j < c->nchains; j++) {
		const struct recover_chain *ch = &c->chains[j];
		uint64_t prev = 0;

		if (chain_known(p, cpu, ch->id)) {
			res->chains_known++;
			continue;
		}
		if (!ch->ok)
			continue;
		if (count && (ch->id != first + count || len + max > sizeof buf)) {
			if ((rc = stacks_frame(cpu, buf, len, first, count, emit, ctx)))
				return rc;
			len = BMPROF_STACKS_FIXED;
			count = 0;
		}
		if (!count)
			first = ch->id;
		buf[len++] = ch->flags;
		buf[len++] = ch->depth;
		for (unsigned f = 0; f < ch->depth; f++) {
			len += bmprof_put_varint(buf + len, bmprof_zigzag((int64_t)(ch->frame[f] - prev)));
			prev = ch->frame[f];
		}
		count++;
		res->chains_read++;
	}
	return count ? stacks_frame(cpu, buf, len, first, count, emit, ctx) : 0;
}
