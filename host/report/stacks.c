/* SPDX-License-Identifier: BSD-2-Clause */
/* Samples as stacks of named frames (stacks.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/callchain.h"
#include "report/markup.h"
#include "report/stacks.h"
#include "symbol/symname.h"
#include "util/util.h"

#define NAME_MAX_LEN 1024
#define MAX_INLINE 64            /* inlined frames kept above a function */

/* Each distinct name once: an open-addressing hash set of copies. */
struct stack_names {
	char **slot;
	size_t n, nslots;            /* nslots a power of two, kept above 2n */
};

static uint64_t hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

static void names_grow(struct stack_names *t)
{
	size_t nslots = t->nslots ? 2 * t->nslots : 256;
	char **slot = bm_calloc(nslots, sizeof *slot);

	for (size_t i = 0; i < t->nslots; i++) {
		if (!t->slot[i])
			continue;
		size_t k = hash_name(t->slot[i]) & (nslots - 1);
		while (slot[k])
			k = (k + 1) & (nslots - 1);
		slot[k] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->nslots = nslots;
}

static const char *intern(struct stack_names *t, const char *s)
{
	if (2 * (t->n + 1) >= t->nslots)
		names_grow(t);
	size_t k = hash_name(s) & (t->nslots - 1);
	for (; t->slot[k]; k = (k + 1) & (t->nslots - 1))
		if (!strcmp(t->slot[k], s))
			return t->slot[k];
	t->n++;
	return t->slot[k] = bm_strdup(s);
}

void stacks_init(struct stack_list *sl)
{
	memset(sl, 0, sizeof *sl);
	sl->names = bm_calloc(1, sizeof *sl->names);
}

void stacks_free(struct stack_list *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		free(sl->v[i].frames);
	free(sl->v);
	if (sl->names) {
		for (size_t i = 0; i < sl->names->nslots; i++)
			free(sl->names->slot[i]);
		free(sl->names->slot);
		free(sl->names);
	}
	memset(sl, 0, sizeof *sl);
}

void stacks_add(struct stack_list *sl, const char *const *frames, unsigned n, uint64_t count)
{
	struct stack *s;

	if (!n || !count)
		return;
	if (sl->n == sl->cap) {
		sl->cap = sl->cap ? 2 * sl->cap : 64;
		sl->v = bm_realloc(sl->v, sl->cap * sizeof *sl->v);
	}
	s = &sl->v[sl->n++];
	s->frames = bm_malloc(n * sizeof *s->frames);
	for (unsigned i = 0; i < n; i++)
		s->frames[i] = intern(sl->names, frames[i]);
	s->nframes = n;
	s->count = count;
	sl->total += count;
	sl->max_depth = n > sl->max_depth ? n : sl->max_depth;
}

static int cmp_stack(const void *x, const void *y)
{
	const struct stack *a = x, *b = y;

	for (unsigned i = 0; i < a->nframes && i < b->nframes; i++) {
		if (a->frames[i] == b->frames[i])
			continue;
		return strcmp(a->frames[i], b->frames[i]);
	}
	return (a->nframes > b->nframes) - (a->nframes < b->nframes);
}

void stacks_merge(struct stack_list *sl)
{
	size_t o = 0;

	if (sl->n > 1)
		qsort(sl->v, sl->n, sizeof *sl->v, cmp_stack);
	for (size_t i = 0; i < sl->n; i++) {
		if (o && !cmp_stack(&sl->v[o - 1], &sl->v[i])) {
			sl->v[o - 1].count += sl->v[i].count;
			free(sl->v[i].frames);
		} else {
			sl->v[o++] = sl->v[i];
		}
	}
	sl->n = o;
}

/* The frames of the samples at pc, which in stands for (NULL: none), root first, into
 * names[0..] (each NAME_MAX_LEN bytes). Returns how many. */
static unsigned frames_of(const struct report *rp, const struct flat_pcinfo *in, uint64_t pc,
			  char (*names)[NAME_MAX_LEN])
{
	char base[NAME_MAX_LEN];
	struct sym_result res;
	unsigned n = 1;

	if (!in || (!in->symbol && !in->outside)) {
		snprintf(names[0], NAME_MAX_LEN, "[unknown]");
		return 1;
	}
	if (in->outside) {
		uint64_t page = pc & ~(uint64_t)(FLAT_REGION_SIZE - 1);
		if (in->symbol)
			snprintf(names[0], NAME_MAX_LEN, "%s!%s", in->module ? in->module : "firmware",
				 symname_display(base, sizeof base, in->symbol));
		else
			snprintf(names[0], NAME_MAX_LEN, "[%s 0x%" PRIx64 "-0x%" PRIx64 "]",
				 in->module ? in->module : "firmware", page, page + FLAT_REGION_SIZE - 1);
		return 1;
	}
	symname_display(names[0], NAME_MAX_LEN, in->symbol);
	/* inlined functions: only where DWARF names another innermost function */
	if (!in->function || !strcmp(in->function, in->symbol) || !rp->r.sym ||
	    symbolizer_lookup(rp->r.sym, flat_info_addr(in, pc), &res) || res.nframes < 2)
		return 1;
	for (unsigned i = res.nframes - 1; i-- > 0 && n < MAX_INLINE;)
		symname_display(names[n++], NAME_MAX_LEN, strcmp(res.frames[i].function, "??") ?
				res.frames[i].function : "[unknown]");
	return n;
}

/* The samples at pc and the previous pcs since the last flush have the same frames when
 * they have the same info entry and, outside the image without a symbol, the same page. */
struct run {
	const struct flat_pcinfo *in;
	uint64_t pc, page, count;
};

static void flush(struct stack_list *sl, const struct report *rp, struct run *r,
		  char (*names)[NAME_MAX_LEN], const char **ptrs)
{
	unsigned n;

	if (!r->count)
		return;
	char safe[NAME_MAX_LEN];

	n = frames_of(rp, r->in, r->pc, names);
	for (unsigned i = 0; i < n; i++) {
		/* names from the ELF: control bytes and bytes that are not UTF-8 as \xNN */
		markup_plain(safe, sizeof safe, names[i]);
		memcpy(names[i], safe, strlen(safe) + 1);
		ptrs[i] = names[i];
	}
	stacks_add(sl, ptrs, n, r->count);
	r->count = 0;
}

/* The recorded call chains (bmprof qemu -g), each frame's name shown as a reader knows it:
 * demangled, a clone's suffix noted, control bytes and bytes that are not UTF-8 as \xNN. */
static int from_chains(struct stack_list *sl, const struct report *rp, int cpu)
{
	struct stack_folded f;
	char (*names)[NAME_MAX_LEN];
	const char **ptrs;
	char shown[NAME_MAX_LEN];

	if (stacks_fold(rp->p, (struct resolved *)&rp->r, rp->event, cpu, &f))
		return -1;
	names = bm_malloc((BMPROF_STACK_DEPTH_WIRE_MAX + 1) * MAX_INLINE * sizeof *names);
	ptrs = bm_malloc((BMPROF_STACK_DEPTH_WIRE_MAX + 1) * MAX_INLINE * sizeof *ptrs);
	for (size_t i = 0; i < f.n; i++) {
		unsigned n = f.rows[i].n < (BMPROF_STACK_DEPTH_WIRE_MAX + 1) * MAX_INLINE ?
			     f.rows[i].n : (BMPROF_STACK_DEPTH_WIRE_MAX + 1) * MAX_INLINE;

		for (unsigned k = 0; k < n; k++) {
			symname_display(shown, sizeof shown, f.rows[i].names[k]);
			markup_plain(names[k], NAME_MAX_LEN, shown);
			ptrs[k] = names[k];
		}
		stacks_add(sl, ptrs, n, f.rows[i].count);
	}
	free(names);
	free(ptrs);
	stacks_folded_free(&f);
	stacks_merge(sl);
	return 0;
}

int stacks_from_report(struct stack_list *sl, const struct report *rp, int cpu)
{
	if (profile_has_stacks(rp->p))
		return from_chains(sl, rp, cpu);

	const struct profile *p = rp->p;
	struct profile_sample *copy;
	size_t n, j = 0;
	const struct profile_sample *s = profile_ordered(p, &n, &copy);
	char (*names)[NAME_MAX_LEN] = bm_malloc(MAX_INLINE * sizeof *names);
	const char *ptrs[MAX_INLINE];
	struct run r = { 0 };

	if (!s) {
		free(names);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if ((rp->event != FLAT_ALL_EVENTS && s[i].event != rp->event) ||
		    (cpu >= 0 && s[i].cpu != cpu) || !s[i].count)
			continue;
		const struct flat_pcinfo *in = NULL;
		const struct flat_pcinfo *info = rp->r.info;
		while (j < rp->r.ninfo && (info[j].pc_last > info[j].pc ? info[j].pc_last :
					   info[j].pc) < s[i].pc)
			j++;
		if (j < rp->r.ninfo && info[j].pc <= s[i].pc)
			in = &info[j];
		uint64_t page = in && in->outside && !in->symbol ? s[i].pc / FLAT_REGION_SIZE : 0;
		if (r.count && (r.in != in || r.page != page))
			flush(sl, rp, &r, names, ptrs);
		if (!r.count)
			r = (struct run){ in, s[i].pc, page, 0 };
		r.count += s[i].count;
	}
	flush(sl, rp, &r, names, ptrs);
	free(names);
	free(copy);
	stacks_merge(sl);
	return 0;
}

int stacks_write_folded(FILE *f, const struct stack_list *sl)
{
	for (size_t i = 0; i < sl->n; i++) {
		for (unsigned k = 0; k < sl->v[i].nframes; k++) {
			/* the folded form's separators cannot be in a name */
			for (const char *c = sl->v[i].frames[k]; *c; c++)
				fputc(*c == ';' ? ':' : *c == '\n' ? ' ' : *c, f);
			fputc(k + 1 < sl->v[i].nframes ? ';' : ' ', f);
		}
		fprintf(f, "%" PRIu64 "\n", sl->v[i].count);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
