/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown's text and JSON output (topdown_print.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"
#include "topdown/topdown_print.h"

#define TD_JSON_VERSION 1
#define NAME_COL 28

static void cpu_line(FILE *f, const struct td_report *r)
{
	const struct td_input *in = r->in;

	fprintf(f, "Top-Down of %s: %s formulas", r->what, r->m->family);
	if (in->arch[0])
		fprintf(f, " (%s, %s, family 0x%x model 0x%x)", in->arch,
			in->vendor[0] ? in->vendor : "?", in->family, in->model);
	if (r->m->width > 0)
		fprintf(f, ", %g slots per cycle\n", r->m->width);
	else
		fprintf(f, ", issue width unknown (slot-based formulas missing)\n");
}

static void plan_line(FILE *f, const struct td_report *r)
{
	const struct td_plan *p = r->plan;

	if (!p)
		return;
	if (p->ngroups <= 1 && p->npasses <= 1)
		fprintf(f, "Counted in 1 group, 1 run: no multiplexing\n");
	else
		fprintf(f, "Counted in %u groups over %u run%s, up to %u time slice%s per run: "
			"each node's fraction comes from its own group\n", p->ngroups, p->npasses,
			p->npasses == 1 ? "" : "s", p->max_groups_per_pass,
			p->max_groups_per_pass == 1 ? "" : "s");
}

static void node_line(FILE *f, const struct td_report *r, const struct td_node *n)
{
	unsigned indent = 2 * n->def->level;
	char val[32] = "missing";
	int clamped = 0;

	if (n->state == TD_NODE_OK)
		snprintf(val, sizeof val, "%.1f%%", 100 * topdown_display_value(n->value, &clamped));
	fprintf(f, "%*s%s%-*s %8s", (int)indent, "", n->shown ? "" : ". ",
		(int)(NAME_COL - indent - (n->shown ? 0 : 2)), n->def->node, val);
	if (n->state != TD_NODE_OK) {
		fprintf(f, "  %s", n->why);
	} else {
		if (n->flagged)
			fprintf(f, "  <== above %g%%", 100 * n->def->threshold);
		if (clamped)
			fprintf(f, "  (signed %.1f%%)", 100 * n->value);
		if (n->mixed)
			fprintf(f, "  ~ scaled across groups");
	}
	if (!n->shown)
		fprintf(f, "  (parent not flagged)");
	fputc('\n', f);
}

void topdown_print_text(FILE *f, const struct td_report *r)
{
	const struct td_tree *t = r->t;
	unsigned hidden = 0, missing_events = 0;

	cpu_line(f, r);
	plan_line(f, r);
	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->node[i].def->node, "Bad_Speculation") && t->bad_spec_flagged)
			fprintf(f, "warning: Bad Speculation is high (%.1f%% > %g%%): counters count "
				"speculative work too, so the other categories are suspect: look at "
				"it first\n", 100 * t->node[i].value, 100 * t->node[i].def->threshold);
	fputc('\n', f);
	for (unsigned i = 0; i < t->n; i++) {
		const struct td_node *n = &t->node[i];

		if (!n->shown && !r->show_all) {
			hidden++;
			continue;
		}
		node_line(f, r, n);
	}
	fputc('\n', f);
	if (hidden)
		fprintf(f, "%u node%s under parents that are not flagged are hidden (--show-all shows "
			"them).\n", hidden, hidden == 1 ? "" : "s");
	if (t->negative || t->above_one)
		fprintf(f, "Values outside 0-100%% are shown clamped, with the signed value beside "
			"them (PMU errata, or a remainder absorbing counting error).\n");
	if (t->mixed)
		fprintf(f, "~: the node's events were not all counted in one group; they were "
			"scaled to the whole run, so it is an estimate.\n");
	for (unsigned i = 0; i < r->in->counts.n; i++)
		missing_events += r->in->counts.c[i].state != TD_COUNTED;
	if (missing_events) {
		fprintf(f, "Not counted:");
		for (unsigned i = 0, k = 0; i < r->in->counts.n; i++) {
			const struct td_count *c = &r->in->counts.c[i];
			int dup = 0;

			if (c->state == TD_COUNTED)
				continue;
			for (unsigned j = 0; j < i; j++)
				dup |= r->in->counts.c[j].state != TD_COUNTED &&
				       !strcmp(r->in->counts.c[j].event, c->event);
			if (!dup)
				fprintf(f, "%s %s (%s)", k++ ? "," : "", c->event,
					c->why[0] ? c->why : c->state == TD_UNSUPPORTED ?
					"not supported" : "not counted");
		}
		fputc('\n', f);
	}
	if (r->note)
		fprintf(f, "%s\n", r->note);
}

static void json_node(struct json *j, const struct td_report *r, unsigned i)
{
	const struct td_node *n = &r->t->node[i];
	int clamped = 0;

	json_begin_object(j);
	json_kv_string(j, "name", n->def->node);
	json_kv_u64(j, "level", n->def->level);
	json_kv_string(j, "state", n->state == TD_NODE_OK ? "ok" : "missing");
	json_key(j, "value");
	n->state == TD_NODE_OK ? json_double(j, n->value) : json_null(j);
	json_key(j, "display_value");
	n->state == TD_NODE_OK ? json_double(j, topdown_display_value(n->value, &clamped)) :
				 json_null(j);
	json_kv_bool(j, "clamped", clamped);
	json_key(j, "threshold");
	n->def->threshold >= 0 ? json_double(j, n->def->threshold) : json_null(j);
	json_kv_bool(j, "flagged", n->flagged);
	json_kv_bool(j, "shown", n->shown);
	json_kv_string(j, "why", n->state == TD_NODE_OK ? NULL : n->why);
	json_key(j, "group");
	n->group >= 0 ? json_i64(j, n->group) : json_null(j);
	json_kv_bool(j, "scaled_across_groups", n->mixed);
	json_kv_string(j, "formula", n->def->expr);
	json_kv_string(j, "source", n->def->source);
	json_key(j, "children");
	json_begin_array(j);
	for (unsigned k = i + 1; k < r->t->n; k++)
		if (r->t->node[k].parent == (int)i)
			json_node(j, r, k);
	json_end_array(j);
	json_end_object(j);
}

int topdown_print_json(FILE *f, const struct td_report *r)
{
	const struct td_input *in = r->in;
	struct json j;

	json_init(&j, f, 1);
	json_begin_object(&j);
	json_kv_u64(&j, "format_version", TD_JSON_VERSION);
	json_kv_string(&j, "input", r->what);
	json_key(&j, "cpu");
	json_begin_object(&j);
	json_kv_string(&j, "arch", in->arch[0] ? in->arch : NULL);
	json_kv_string(&j, "vendor", in->vendor[0] ? in->vendor : NULL);
	json_kv_u64(&j, "family", in->family);
	json_kv_u64(&j, "model", in->model);
	json_end_object(&j);
	json_kv_string(&j, "topdown_family", r->m->family);
	json_key(&j, "width");
	r->m->width > 0 ? json_double(&j, r->m->width) : json_null(&j);
	json_kv_u64(&j, "level", r->level);
	json_key(&j, "plan");
	if (r->plan) {
		json_begin_object(&j);
		json_kv_u64(&j, "groups", r->plan->ngroups);
		json_kv_u64(&j, "runs", r->plan->npasses);
		json_kv_u64(&j, "time_slices", r->plan->max_groups_per_pass);
		json_end_object(&j);
	} else {
		json_null(&j);
	}
	json_kv_bool(&j, "bad_speculation_flagged", r->t->bad_spec_flagged);
	json_key(&j, "tree");
	json_begin_array(&j);
	for (unsigned i = 0; i < r->t->n; i++)
		if (r->t->node[i].parent < 0)
			json_node(&j, r, i);
	json_end_array(&j);
	json_key(&j, "events");
	json_begin_array(&j);
	for (unsigned i = 0; i < in->counts.n; i++) {
		const struct td_count *c = &in->counts.c[i];

		json_begin_object(&j);
		json_kv_string(&j, "event", c->event);
		json_key(&j, "group");
		c->group >= 0 ? json_i64(&j, c->group) : json_null(&j);
		json_kv_string(&j, "state", c->state == TD_COUNTED ? "counted" :
			       c->state == TD_UNSUPPORTED ? "not supported" : "not counted");
		json_key(&j, "value");
		c->state == TD_COUNTED ? json_double(&j, c->value) : json_null(&j);
		json_key(&j, "enabled");
		c->state == TD_COUNTED ? json_double(&j, c->enabled) : json_null(&j);
		json_key(&j, "running");
		c->state == TD_COUNTED ? json_double(&j, c->running) : json_null(&j);
		json_kv_string(&j, "why", c->state == TD_COUNTED ? NULL : c->why);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	return json_finish(&j);
}
