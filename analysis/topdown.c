/* SPDX-License-Identifier: BSD-2-Clause */
/* Top-Down: the family for a CPU, the events each node needs, and the tree from counter
 * totals (topdown.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topdown.h"

/* ---- choosing the family ---- */

/* model is in list ("3a,3e", "10-1f", "*"). */
static int model_in(const char *list, uint32_t model)
{
	const char *p = list;

	if (!strcmp(list, "*"))
		return 1;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 16), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 16);
		if (model >= lo && model <= hi)
			return 1;
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			break;
	}
	return 0;
}

static int name_is(const char *name, const char *s, unsigned len)
{
	return strlen(name) == len && !strncmp(name, s, len);
}

int topdown_event_index(const struct td_model *m, const char *name, unsigned len)
{
	for (unsigned i = 0; i < m->nevents; i++)
		if (name_is(m->event[i]->name, name, len))
			return (int)i;
	return -1;
}

int topdown_metric_index(const struct td_model *m, const char *name, unsigned len)
{
	for (unsigned i = 0; i < m->nmetrics; i++)
		if (name_is(m->metric[i]->node, name, len))
			return (int)i;
	return -1;
}

void topdown_family_names(char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < topdown_cpus_len; i++) {
		const char *f = topdown_cpus[i].family;
		int seen = 0;

		for (unsigned j = 0; j < i; j++)
			seen |= !strcmp(topdown_cpus[j].family, f);
		if (seen)
			continue;
		int k = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", f);
		if (k < 0 || (size_t)k >= n - len)
			return;
		len += (size_t)k;
	}
}

static int load_family(struct td_model *m, const struct td_cpu_def *cpu, char *err, size_t n)
{
	memset(m, 0, sizeof *m);
	m->cpu = cpu;
	m->family = cpu->family;
	m->width = cpu->width;
	m->gp = cpu->gp;
	for (unsigned i = 0; i < topdown_events_len; i++) {
		if (strcmp(topdown_events[i].family, m->family))
			continue;
		if (m->nevents >= TD_MAX_EVENTS) {
			snprintf(err, n, "family %s has more than %d events", m->family,
				 TD_MAX_EVENTS);
			return -1;
		}
		m->event[m->nevents++] = &topdown_events[i];
	}
	for (unsigned i = 0; i < topdown_metrics_len; i++) {
		if (strcmp(topdown_metrics[i].family, m->family))
			continue;
		if (m->nmetrics >= TD_MAX_NODES) {
			snprintf(err, n, "family %s has more than %d nodes", m->family, TD_MAX_NODES);
			return -1;
		}
		m->metric[m->nmetrics] = &topdown_metrics[i];
		if (td_expr_parse(&m->expr[m->nmetrics], topdown_metrics[i].expr, err, n))
			return -1;
		m->nmetrics++;
	}
	return 0;
}

int topdown_select(struct td_model *m, const char *arch, const char *vendor,
		   uint32_t cpu_family, uint32_t model, const char *family_name, char *err,
		   size_t n)
{
	char names[256];

	const struct td_cpu_def *named = NULL;

	/* the row matching the CPU; with family_name, that family's row for the CPU (its
	 * width), else the family's first row */
	for (unsigned i = 0; i < topdown_cpus_len; i++) {
		const struct td_cpu_def *c = &topdown_cpus[i];
		int family_ok = !family_name || !strcmp(c->family, family_name);

		if (family_ok && family_name && !named)
			named = c;
		if (!family_ok)
			continue;
		if (strcmp(c->arch, arch ? arch : ""))
			continue;
		if (strcmp(c->vendor, "*") && strcasecmp(c->vendor, vendor ? vendor : ""))
			continue;
		if (c->cpu_family != TD_ANY && c->cpu_family != cpu_family)
			continue;
		if (model_in(c->models, model))
			return load_family(m, c, err, n);
	}
	if (named)
		return load_family(m, named, err, n);
	topdown_family_names(names, sizeof names);
	if (family_name)
		snprintf(err, n, "no Top-Down family '%s' (known: %s)", family_name, names);
	else
		snprintf(err, n, "no Top-Down formulas for this CPU (%s %s family 0x%x model 0x%x): "
			 "bmprof knows %s", arch ? arch : "?", vendor && *vendor ? vendor : "?",
			 cpu_family, model, names);
	return -1;
}

/* ---- the events a node needs from one group ---- */

struct need {
	const struct td_model *m;
	uint64_t events;
	uint64_t visiting;
	int force_sub;
};

static void need_metric(struct need *nd, unsigned i, int force_sub);

static void need_name(void *ctx, const char *name, unsigned len, int in_sub)
{
	struct need *nd = ctx;
	int k = topdown_event_index(nd->m, name, len);

	if (k >= 0) {
		nd->events |= 1ull << k;
		return;
	}
	k = topdown_metric_index(nd->m, name, len);
	if (k < 0)
		return;
	in_sub |= nd->force_sub;
	if (nd->m->metric[k]->node[0] == '#' || in_sub)
		need_metric(nd, (unsigned)k, in_sub);
}

static void need_metric(struct need *nd, unsigned i, int force_sub)
{
	int saved = nd->force_sub;

	if (nd->visiting >> i & 1)
		return;
	nd->visiting |= 1ull << i;
	nd->force_sub = force_sub;
	td_expr_names(&nd->m->expr[i], need_name, nd);
	nd->force_sub = saved;
	nd->visiting &= ~(1ull << i);
}

uint64_t topdown_metric_events(const struct td_model *m, unsigned i)
{
	struct need nd = { m, 0, 0, 0 };

	if (i < m->nmetrics)
		need_metric(&nd, i, 0);
	return nd.events;
}

/* ---- evaluation ---- */

struct eval {
	const struct td_model *m;
	const struct td_counts *c;
	int state[TD_MAX_NODES];          /* 0 not done, 1 in progress, 2 done */
	struct td_value val[TD_MAX_NODES];
	int group[TD_MAX_NODES], mixed[TD_MAX_NODES];
	int cur_group, cur_mixed, force_sub, depth;
	int all_scaled;                   /* every event scaled to the whole run */
};

static double scaled(const struct td_count *c)
{
	return c->running > 0 && c->enabled > 0 ? c->value * c->enabled / c->running : c->value;
}

static void lookup_event(struct eval *ev, const char *name, struct td_value *out)
{
	const struct td_count *any = NULL, *why = NULL;

	for (unsigned i = 0; i < ev->c->n; i++) {
		const struct td_count *c = &ev->c->c[i];

		if (strcmp(c->event, name))
			continue;
		if (c->state != TD_COUNTED) {
			why = why ? why : c;
			continue;
		}
		if (ev->all_scaled) {
			out->v = scaled(c);
			return;
		}
		if (c->group == ev->cur_group) {
			out->v = c->group < 0 ? scaled(c) : c->value;
			return;
		}
		any = any ? any : c;
	}
	if (any) {
		out->v = scaled(any);
		ev->cur_mixed = 1;
		return;
	}
	out->missing = 1;
	if (why && why->why[0])
		snprintf(out->why, sizeof out->why, "%.60s: %.90s", name, why->why);
	else
		snprintf(out->why, sizeof out->why, "%s %s", name,
			 why && why->state == TD_UNSUPPORTED ? "is not supported by this CPU" :
			 "was not counted");
}

static void compute_metric(struct eval *ev, unsigned i);

static void eval_inline(struct eval *ev, unsigned k, int force_sub, struct td_value *out);

static void resolve(void *ctx, const char *name, unsigned len, int in_sub, struct td_value *out)
{
	struct eval *ev = ctx;
	char buf[TD_NAME_MAX];
	int k;

	if (len == 2 && !strncmp(name, "#W", 2)) {
		if (ev->m->width > 0) {
			out->v = ev->m->width;
		} else {
			out->missing = 1;
			snprintf(out->why, sizeof out->why, "the CPU's issue width (#W) is not known");
		}
		return;
	}
	k = topdown_metric_index(ev->m, name, len);
	if (k >= 0) {
		in_sub |= ev->force_sub;
		if (ev->m->metric[k]->node[0] == '#' || in_sub) {
			eval_inline(ev, (unsigned)k, in_sub, out);
			return;
		}
		compute_metric(ev, (unsigned)k);
		*out = ev->val[k];   /* a fraction of its own group: combining it is exact */
		return;
	}
	snprintf(buf, sizeof buf, "%.*s", (int)len, name);
	lookup_event(ev, buf, out);
}

static void eval_inline(struct eval *ev, unsigned k, int force_sub, struct td_value *out)
{
	int saved = ev->force_sub;

	if (ev->depth > TD_MAX_NODES) {
		out->missing = 1;
		snprintf(out->why, sizeof out->why, "%s refers to itself", ev->m->metric[k]->node);
		return;
	}
	ev->depth++;
	ev->force_sub = force_sub;
	*out = td_expr_eval(&ev->m->expr[k], resolve, ev);
	ev->force_sub = saved;
	ev->depth--;
}

/* The group most of the metric's events were counted in together (-1: ungrouped). */
static int best_group(const struct eval *ev, unsigned i)
{
	uint64_t need = topdown_metric_events(ev->m, i);
	int best = -1;
	unsigned best_n = 0;

	for (unsigned a = 0; a < ev->c->n; a++) {
		int g = ev->c->c[a].group;
		unsigned n = 0;

		if (ev->c->c[a].state != TD_COUNTED)
			continue;
		for (unsigned e = 0; e < ev->m->nevents; e++) {
			if (!(need >> e & 1))
				continue;
			for (unsigned b = 0; b < ev->c->n; b++) {
				const struct td_count *c = &ev->c->c[b];
				if (c->group == g && c->state == TD_COUNTED &&
				    !strcmp(c->event, ev->m->event[e]->name)) {
					n++;
					break;
				}
			}
		}
		if (n > best_n) {
			best_n = n;
			best = g;
		}
	}
	return best;
}

static void compute_metric(struct eval *ev, unsigned i)
{
	int saved_group = ev->cur_group, saved_mixed = ev->cur_mixed, saved_sub = ev->force_sub;

	if (ev->state[i] == 2)
		return;
	if (ev->state[i] == 1) {
		ev->val[i].missing = 1;
		snprintf(ev->val[i].why, sizeof ev->val[i].why, "%s refers to itself",
			 ev->m->metric[i]->node);
		return;
	}
	ev->state[i] = 1;
	ev->cur_group = best_group(ev, i);
	ev->cur_mixed = 0;
	ev->force_sub = 0;
	ev->val[i] = td_expr_eval(&ev->m->expr[i], resolve, ev);
	if (ev->cur_mixed) {
		/* not all in one group: raw counts of different slices do not mix, so take
		 * every operand scaled to the whole run (an estimate, marked as such) */
		int saved_scaled = ev->all_scaled;

		ev->all_scaled = 1;
		ev->val[i] = td_expr_eval(&ev->m->expr[i], resolve, ev);
		ev->all_scaled = saved_scaled;
		ev->cur_group = -1;
	}
	ev->group[i] = ev->cur_group;
	ev->mixed[i] = ev->cur_mixed;
	ev->state[i] = 2;
	ev->cur_group = saved_group;
	ev->cur_mixed = saved_mixed;
	ev->force_sub = saved_sub;
}

static void add_subtree(struct eval *ev, struct td_tree *t, unsigned i, int parent,
			unsigned max_level)
{
	const struct td_metric_def *d = ev->m->metric[i];
	struct td_node *nd;
	int me;

	if (d->level > max_level || t->n >= TD_MAX_NODES)
		return;
	compute_metric(ev, i);
	me = (int)t->n++;
	nd = &t->node[me];
	memset(nd, 0, sizeof *nd);
	nd->def = d;
	nd->metric = (int)i;
	nd->parent = parent;
	nd->state = ev->val[i].missing ? TD_NODE_MISSING : TD_NODE_OK;
	nd->value = ev->val[i].missing ? 0 : ev->val[i].v;
	nd->group = ev->group[i];
	nd->mixed = ev->mixed[i];
	memcpy(nd->why, ev->val[i].why, sizeof nd->why);
	nd->flagged = nd->state == TD_NODE_OK && d->threshold >= 0 && nd->value > d->threshold;
	nd->shown = parent < 0 || (t->node[parent].shown && t->node[parent].flagged);
	if (nd->state == TD_NODE_OK) {
		t->negative |= nd->value < 0;
		t->above_one |= nd->value > 1;
		t->mixed |= nd->mixed;
	}
	if (parent < 0 && !strcmp(d->node, "Bad_Speculation"))
		t->bad_spec_flagged = nd->flagged;
	for (unsigned k = 0; k < ev->m->nmetrics; k++)
		if (ev->m->metric[k]->parent && !strcmp(ev->m->metric[k]->parent, d->node))
			add_subtree(ev, t, k, me, max_level);
}

int topdown_compute(const struct td_model *m, const struct td_counts *c, unsigned max_level,
		    struct td_tree *t, char *err, size_t n)
{
	struct eval *ev;

	for (unsigned a = 0; a < c->n; a++)
		for (unsigned b = a + 1; b < c->n; b++)
			if (c->c[a].group == c->c[b].group && !strcmp(c->c[a].event, c->c[b].event)) {
				snprintf(err, n, "event %s given twice in group %d", c->c[a].event,
					 c->c[a].group);
				return -1;
			}
	ev = calloc(1, sizeof *ev);
	if (!ev) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	ev->m = m;
	ev->c = c;
	memset(t, 0, sizeof *t);
	for (unsigned i = 0; i < m->nmetrics; i++)
		if (m->metric[i]->level == 1)
			add_subtree(ev, t, i, -1, max_level);
	free(ev);
	return 0;
}

double topdown_display_value(double v, int *clamped)
{
	double d = v < 0 ? 0 : v > 1 ? 1 : v;

	*clamped = d != v;
	return d;
}
