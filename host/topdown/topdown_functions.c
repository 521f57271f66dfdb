/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown --per-function (topdown_functions.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "report/resolve.h"
#include "topdown/topdown_functions.h"
#include "topdown/topdown_input.h"
#include "util/util.h"

#define MAX_FUNCS 4096

struct func {
	const char *name;
	uint64_t lo;
	uint64_t cycles;          /* samples of the cycles events */
	int idx;
};

/* The events the run sampled, from the meta map. */
static int events_of(const struct profile *p, struct td_func_event *ev, char names[][TD_NAME_MAX],
		     unsigned *n)
{
	const char *s = profile_meta(p, TD_META_KEY);

	*n = 0;
	if (!s)
		return -1;
	while (*s && *n < TD_MAX_COUNTS) {
		unsigned id;
		int group, used = 0;

		if (sscanf(s, "%u:%d:%63s%n", &id, &group, names[*n], &used) != 3)
			return -1;
		ev[*n] = (struct td_func_event){ (uint16_t)id, group, names[*n] };
		(*n)++;
		s += used;
		while (*s == ' ')
			s++;
	}
	return 0;
}

static int by_cycles(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cell(char *buf, size_t n, const struct td_tree *t, const char *node)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->node[i].def->node, node)) {
			if (t->node[i].state != TD_NODE_OK)
				return snprintf(buf, n, "%s", "-");
			return snprintf(buf, n, "%.1f%%", 100 * t->node[i].value);
		}
	return snprintf(buf, n, "%s", "-");
}

static const char *const level1[] = { "Frontend_Bound", "Bad_Speculation", "Retiring",
				      "Backend_Bound" };

int topdown_functions_print(FILE *f, const struct td_model *m, const struct profile *p,
			    const char *profile_path, const char *elf, unsigned limit, int json)
{
	static struct td_func_event ev[TD_MAX_COUNTS];
	static char names[TD_MAX_COUNTS][TD_NAME_MAX];
	static struct td_counts counts;
	static struct td_tree t;
	struct resolved r;
	struct func *funcs = NULL;
	int *func_of = NULL, rc = -1;
	unsigned nev, nfuncs = 0;
	uint64_t total = 0;
	char err[512];
	struct json j;

	if (events_of(p, ev, names, &nev) || !nev) {
		bm_err("topdown --per-function: the profile does not say which Top-Down events it "
		       "sampled (no %s meta key): record it with bmprof topdown --per-function",
		       TD_META_KEY);
		return -1;
	}
	if (resolve_open(&r, p, profile_path, elf, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (resolve_pcs(&r, p))
		goto out;
	funcs = calloc(MAX_FUNCS, sizeof *funcs);
	func_of = calloc(p->nsamples ? p->nsamples : 1, sizeof *func_of);
	if (!funcs || !func_of) {
		bm_err("out of memory");
		goto out;
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct flat_pcinfo *in = flat_info_find(r.info, r.ninfo, p->samples[i].pc);
		const char *name = in && in->symbol ? in->symbol : "[unknown]";
		uint64_t lo = in && in->symbol ? in->sym_lo : 0;
		unsigned k;

		for (k = 0; k < nfuncs; k++)
			if (funcs[k].lo == lo && !strcmp(funcs[k].name, name))
				break;
		if (k == nfuncs) {
			if (nfuncs == MAX_FUNCS) {
				func_of[i] = -1;
				continue;
			}
			funcs[nfuncs] = (struct func){ name, lo, 0, (int)nfuncs };
			nfuncs++;
		}
		func_of[i] = funcs[k].idx;
		for (unsigned e = 0; e < nev; e++) {
			int mi = topdown_event_index(m, ev[e].event, (unsigned)strlen(ev[e].event));

			if (ev[e].id == p->samples[i].event && mi >= 0 && m->event[mi]->word &&
			    !strcmp(m->event[mi]->word, "cycles")) {
				funcs[k].cycles += p->samples[i].count;
				total += p->samples[i].count;
			}
		}
	}
	qsort(funcs, nfuncs, sizeof *funcs, by_cycles);
	if (json) {
		json_init(&j, f, 1);
		json_begin_object(&j);
		json_kv_string(&j, "topdown_family", m->family);
		json_kv_u64(&j, "cycle_samples", total);
		json_key(&j, "functions");
		json_begin_array(&j);
	} else {
		fprintf(f, "Per function (level 1, from sampled events; %llu cycle samples):\n\n"
			"  %-32s %7s %9s %9s %9s %9s\n", (unsigned long long)total, "function",
			"cycles", "Frontend", "BadSpec", "Retiring", "Backend");
	}
	for (unsigned k = 0; k < nfuncs && k < limit; k++) {
		double share = total ? (double)funcs[k].cycles / (double)total : 0;
		char v[4][32];

		if (topdown_func_counts(p, ev, nev, func_of, funcs[k].idx, &counts) ||
		    topdown_compute(m, &counts, 1, &t, err, sizeof err))
			continue;
		if (!json) {
			for (unsigned c = 0; c < 4; c++)
				cell(v[c], sizeof v[c], &t, level1[c]);
			fprintf(f, "  %-32.32s %6.1f%% %9s %9s %9s %9s\n", funcs[k].name,
				100 * share, v[0], v[1], v[2], v[3]);
			continue;
		}
		json_begin_object(&j);
		json_kv_string(&j, "function", funcs[k].name);
		json_kv_double(&j, "cycles_share", share);
		for (unsigned c = 0; c < 4; c++) {
			const struct td_node *nd = NULL;

			for (unsigned i = 0; i < t.n; i++)
				if (!strcmp(t.node[i].def->node, level1[c]))
					nd = &t.node[i];
			json_key(&j, level1[c]);
			nd && nd->state == TD_NODE_OK ? json_double(&j, nd->value) : json_null(&j);
		}
		json_end_object(&j);
	}
	if (json) {
		json_end_array(&j);
		json_end_object(&j);
		if (json_finish(&j))
			goto out;
	}
	rc = 0;
out:
	free(funcs);
	free(func_of);
	resolve_close(&r);
	return rc;
}
