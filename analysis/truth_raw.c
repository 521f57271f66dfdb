/* SPDX-License-Identifier: BSD-2-Clause */
/* The counts file of the insn_count plugin (truth.h, host/qemu-plugin/insn_count.c):
 *
 *   bmprof-insn-count 1
 *   target x86
 *   i PC SIZE STARTS [EXECS]
 *   e FROM TO COUNT
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

int truth_raw_parse(const char *text, size_t n, struct truth_raw *r, char *err, size_t errlen)
{
	static const char magic[] = "bmprof-insn-count 1\n";
	const char *s = text, *end = text + n;
	size_t icap = 0, ecap = 0, line = 2;
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
