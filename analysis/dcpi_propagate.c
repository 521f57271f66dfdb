/* SPDX-License-Identifier: BSD-2-Clause */
/* Local propagation (DCPI §6.1.4): a block's count is the sum of its in-edges' and the sum
 * of its out-edges'. Each equation is written over classes (an estimate reaches every
 * member of its class at once); one with exactly one unknown class solves it, unless the
 * result is negative. Repeat until nothing changes. */
#include "dcpi_steps.h"

#include <math.h>
#include <stdlib.h>

struct eq_state {
	double *coef;       /* per class, zero outside the current equation */
	uint8_t *mark;      /* class is in touched[] */
	uint32_t *touched;
	size_t ntouched;
};

static void term(struct eq_state *s, uint32_t cls, double c)
{
	if (cls == CFG_NO_CLASS)
		return;       /* an edge from unreached code: 0 */
	if (!s->mark[cls]) {
		s->mark[cls] = 1;
		s->touched[s->ntouched++] = cls;
	}
	s->coef[cls] += c;
}

static uint8_t lower(uint8_t conf)
{
	return conf > DCPI_CONF_LOW ? (uint8_t)(conf - 1) : DCPI_CONF_LOW;
}

/* Solve the equation in s if it has one unknown; 1 if it set a class. */
static int solve(struct eq_state *s, struct dcpi_result *r)
{
	double known = 0, maxterm = 0, var = 0;
	uint32_t unknown = CFG_NO_CLASS, nunknown = 0;
	uint8_t conf = DCPI_CONF_HIGH;
	int set = 0;

	for (size_t k = 0; k < s->ntouched; k++) {
		uint32_t c = s->touched[k];
		double a = s->coef[c];

		if (a == 0)
			continue;
		if (r->classes[c].F < 0) {
			unknown = c;
			nunknown++;
			continue;
		}
		known += a * r->classes[c].F;
		/* var(F_c) = F_c^2 / basis_c; no basis: unbounded */
		if (r->classes[c].F > 0)
			var += r->classes[c].basis > 0 ? a * a * r->classes[c].F *
				r->classes[c].F / r->classes[c].basis : INFINITY;
		if (fabs(a * r->classes[c].F) > maxterm)
			maxterm = fabs(a * r->classes[c].F);
		if (r->classes[c].conf < conf)
			conf = r->classes[c].conf;
	}
	if (nunknown == 1) {
		double F = -known / s->coef[unknown];

		if (F >= 0) {
			struct dcpi_class *dc = &r->classes[unknown];
			double cv = s->coef[unknown] * s->coef[unknown];

			dc->F = F;
			dc->basis = var > 0 && isfinite(var) ? F * F * cv / var : 0;
			dc->how = DCPI_HOW_PROPAGATED;
			dc->conf = F < 0.1 * maxterm ? DCPI_CONF_LOW : lower(conf);
			set = 1;
		}
	}
	for (size_t k = 0; k < s->ntouched; k++) {
		s->coef[s->touched[k]] = 0;
		s->mark[s->touched[k]] = 0;
	}
	s->ntouched = 0;
	return set;
}

int dcpi_propagate(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;
	struct eq_state s = { 0 };

	if (g->nclasses == 0)
		return 0;
	s.coef = calloc(g->nclasses, sizeof(*s.coef));
	s.mark = calloc(g->nclasses, 1);
	s.touched = malloc(g->nclasses * sizeof(*s.touched));
	if (!s.coef || !s.mark || !s.touched) {
		free(s.coef);
		free(s.mark);
		free(s.touched);
		return -1;
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t b = 0; b < g->nblocks; b++) {
			const struct cfg_block *bl = &g->blocks[b];

			if (bl->cls == CFG_NO_CLASS)
				continue;
			if (bl->nin > 0 && !g->incomplete) {
				term(&s, bl->cls, 1);
				for (uint32_t k = 0; k < bl->nin; k++)
					term(&s, g->edges[g->in[bl->in_at + k]].cls, -1);
				changed |= solve(&s, r);
			}
			if (bl->nout > 0) {
				term(&s, bl->cls, 1);
				for (uint32_t k = 0; k < bl->nout; k++)
					term(&s, g->edges[g->out[bl->out_at + k]].cls, -1);
				changed |= solve(&s, r);
			}
		}
	}
	free(s.coef);
	free(s.mark);
	free(s.touched);
	return 0;
}
