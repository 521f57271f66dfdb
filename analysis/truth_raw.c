/* SPDX-License-Identifier: BSD-2-Clause */
/* The counts file of the insn_count plugin (truth.h, host/qemu-plugin/insn_count.c):
 *
 *   bmprof-insn-count 1
 *   target x86
 *   i PC SIZE STARTS [EXECS]
 *   e FROM TO COUNT
 *   n ID PARENT KIND ADDR                    (stacks=1: nodes, in increasing ID from 1)
 *   x NODE START N COUNT                     (stacks=1: runs)
 *   stacks NNODES NRUNS CALLS RETS UNMATCHED_RETS ERETS UNMATCHED_ERETS IRQS OVERFLOW
 *   end NINSNS NEDGES
 *
 * numbers in hex for addresses, decimal for the rest; instructions in increasing pc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "truth.h"

void truth_raw_free(struct truth_raw *r)
{
	free(r->insns);
	free(r->edges);
	free(r->nodes);
	free(r->runs);
	memset(r, 0, sizeof *r);
}

/* One number in base at *s (after blanks), up to end; 0, or -1 if there is none. */
static int num(const char **s, const char *end, int base, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int any = 0;

	while (p < end && *p == ' ')
		p++;
	for (; p < end; p++, any = 1) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / (uint64_t)base)
			return -1;
		x = x * (uint64_t)base + d;
	}
	if (!any || (p < end && *p != ' '))
		return -1;
	*s = p;
	*v = x;
	return 0;
}

static int rest_empty(const char *s, const char *end)
{
	while (s < end && *s == ' ')
		s++;
	return s == end;
}

static int push_insn(struct truth_raw *r, size_t *cap, const struct truth_insn *in)
{
	if (r->ninsns == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		void *p = realloc(r->insns, c * sizeof *r->insns);
		if (!p)
			return -1;
		r->insns = p;
		*cap = c;
	}
	r->insns[r->ninsns++] = *in;
	return 0;
}

static int push_edge(struct truth_raw *r, size_t *cap, const struct truth_edge *e)
{
	if (r->nedges == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		void *p = realloc(r->edges, c * sizeof *r->edges);
		if (!p)
			return -1;
		r->edges = p;
		*cap = c;
	}
	r->edges[r->nedges++] = *e;
	return 0;
}

/* One "i" or "e" line's fields after the letter: 0, 1 (malformed) or -1 (out of memory). */
static int insn_line(struct truth_raw *r, size_t *cap, const char *s, const char *end)
{
	struct truth_insn in = { 0 };
	uint64_t size;

	if (num(&s, end, 16, &in.pc) || num(&s, end, 10, &size) || num(&s, end, 10, &in.starts) ||
	    size == 0 || size > 64)
		return 1;
	in.size = (uint32_t)size;
	if (!rest_empty(s, end)) {
		if (num(&s, end, 10, &in.execs) || !rest_empty(s, end) || in.execs > in.starts)
			return 1;
		in.rep = 1;
	}
	if (r->ninsns && r->insns[r->ninsns - 1].pc >= in.pc)
		return 1;
	return push_insn(r, cap, &in) ? -1 : 0;
}

static int edge_line(struct truth_raw *r, size_t *cap, const char *s, const char *end)
{
	struct truth_edge e;

	if (num(&s, end, 16, &e.from) || num(&s, end, 16, &e.to) || num(&s, end, 10, &e.count) ||
	    !rest_empty(s, end))
		return 1;
	return push_edge(r, cap, &e) ? -1 : 0;
}

static int grow(void **v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 1024;
	void *p = realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

static int node_line(struct truth_raw *r, size_t *cap, const char *s, const char *end)
{
	uint64_t id, parent, addr;
	char kind;

	if (!r->nnodes) {
		if (grow((void **)&r->nodes, 0, cap, sizeof *r->nodes))
			return -1;
		r->nodes[r->nnodes++] = (struct truth_node){ 0, 0, 0 };
	}
	if (num(&s, end, 10, &id) || num(&s, end, 10, &parent) || end - s < 3 || s[0] != ' ' ||
	    (s[1] != 'c' && s[1] != 'q'))
		return 1;
	kind = s[1];
	s += 2;
	if (num(&s, end, 16, &addr) || !rest_empty(s, end) || id != r->nnodes || parent >= id)
		return 1;
	if (grow((void **)&r->nodes, r->nnodes, cap, sizeof *r->nodes))
		return -1;
	r->nodes[r->nnodes++] = (struct truth_node){ addr, (uint32_t)parent, (uint8_t)kind };
	return 0;
}

static int run_line(struct truth_raw *r, size_t *cap, const char *s, const char *end)
{
	uint64_t node, start, n, count;

	if (num(&s, end, 10, &node) || num(&s, end, 16, &start) || num(&s, end, 10, &n) ||
	    num(&s, end, 10, &count) || !rest_empty(s, end) || node > UINT32_MAX || !n ||
	    n > UINT32_MAX || !count)
		return 1;
	if (grow((void **)&r->runs, r->nruns, cap, sizeof *r->runs))
		return -1;
	r->runs[r->nruns++] = (struct truth_ctx_run){ start, count, (uint32_t)node, (uint32_t)n };
	return 0;
}

/* "stacks ..." after the nodes and runs: their numbers must agree, every run's node exist */
static int stacks_line(struct truth_raw *r, const char *s, const char *end)
{
	struct truth_stack_stats *x = &r->ss;
	uint64_t nn, nr;

	if (r->have_stacks || num(&s, end, 10, &nn) || num(&s, end, 10, &nr) ||
	    num(&s, end, 10, &x->calls) || num(&s, end, 10, &x->rets) ||
	    num(&s, end, 10, &x->unmatched_rets) || num(&s, end, 10, &x->erets) ||
	    num(&s, end, 10, &x->unmatched_erets) || num(&s, end, 10, &x->irqs) ||
	    num(&s, end, 10, &x->overflow) || !rest_empty(s, end) ||
	    nn != (r->nnodes ? r->nnodes - 1 : 0) || nr != r->nruns)
		return 1;
	if (!r->nnodes) {
		r->nodes = malloc(sizeof *r->nodes);
		if (!r->nodes)
			return -1;
		r->nodes[0] = (struct truth_node){ 0, 0, 0 };
		r->nnodes = 1;
	}
	for (size_t i = 0; i < r->nruns; i++)
		if (r->runs[i].node >= r->nnodes)
			return 1;
	r->have_stacks = 1;
	return 0;
}

int truth_raw_parse(const char *text, size_t n, struct truth_raw *r, char *err, size_t errlen)
{
	static const char magic[] = "bmprof-insn-count 1\n";
	const char *s = text, *end = text + n;
	size_t icap = 0, ecap = 0, ncap = 0, rcap = 0, line = 2;
	int ended = 0;

	memset(r, 0, sizeof *r);
	if (n < sizeof magic - 1 || memcmp(text, magic, sizeof magic - 1)) {
		snprintf(err, errlen, "not a counts file of the insn_count plugin (no "
			 "\"bmprof-insn-count 1\" line)");
		return -1;
	}
	for (s += sizeof magic - 1; s < end; line++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		int bad = 0;
		uint64_t ni, ne;

		if (ended || !nl)
			bad = 1;
		else if (le - s > 2 && s[0] == 'i' && s[1] == ' ')
			bad = insn_line(r, &icap, s + 2, le);
		else if (le - s > 2 && s[0] == 'e' && s[1] == ' ')
			bad = edge_line(r, &ecap, s + 2, le);
		else if (le - s > 2 && s[0] == 'n' && s[1] == ' ' && !r->have_stacks)
			bad = node_line(r, &ncap, s + 2, le);
		else if (le - s > 2 && s[0] == 'x' && s[1] == ' ' && !r->have_stacks)
			bad = run_line(r, &rcap, s + 2, le);
		else if (le - s > 7 && !memcmp(s, "stacks ", 7))
			bad = stacks_line(r, s + 7, le);
		else if (le - s > 7 && !memcmp(s, "target ", 7))
			bad = 0;
		else if (le - s > 4 && !memcmp(s, "end ", 4)) {
			const char *q = s + 4;
			bad = num(&q, le, 10, &ni) || num(&q, le, 10, &ne) || !rest_empty(q, le) ||
			      ni != r->ninsns || ne != r->nedges;
			ended = 1;
		} else
			bad = 1;
		if (bad < 0) {
			snprintf(err, errlen, "out of memory reading the instruction counts");
			truth_raw_free(r);
			return -1;
		}
		if (bad) {
			snprintf(err, errlen, "the instruction counts file is malformed at line %zu",
				 line);
			truth_raw_free(r);
			return -1;
		}
		s = le + 1;
	}
	if (!ended) {
		snprintf(err, errlen, "the instruction counts file is incomplete (no \"end\" line)");
		truth_raw_free(r);
		return -1;
	}
	return 0;
}
