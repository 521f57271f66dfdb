/* SPDX-License-Identifier: BSD-2-Clause */
/* F per frequency equivalence class from the cycles samples (DCPI §6.1.3), or from
 * instruction-retired samples when the cycles give none. The rules are in dcpi.h. */
#include "dcpi_steps.h"

#include <math.h>
#include <stdlib.h>

struct point { double num, den, ratio; };

static int point_cmp(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->ratio > y->ratio) - (x->ratio < y->ratio);
}

/* S and M of issue point i of block bl: its own, or summed from the instruction after the
 * one it depends on (DCPI's refinement for dependent issue points). */
static struct point issue_point(const struct dcpi_input *in, const struct cfg_block *bl,
				uint32_t i)
{
	const struct sched_insn *s = &in->sched[i];
	uint32_t from = i;
	struct point p = { 0, 0, 0 };

	if (s->reason == SCHED_DEPENDENCY && s->culprit >= 0 &&
	    (uint32_t)s->culprit + 1 < i - bl->first)
		from = bl->first + (uint32_t)s->culprit + 1;
	for (uint32_t k = from; k <= i; k++) {
		p.num += (double)in->samples[k];
		p.den += in->sched[k].M;
	}
	p.ratio = p.num / p.den;
	return p;
}

/* Out of order, a sample lands on whichever instruction is oldest when the interrupt is
 * taken, which the static schedule predicts only on average over a block: the block's
 * samples and best-case cycles (its sum of M) form one point. 0 if the block has no
 * cycles in the schedule. */
static size_t block_point(const struct dcpi_input *in, const struct cfg_block *bl,
			  struct point *p)
{
	p->num = p->den = 0;
	for (uint32_t i = bl->first; i < bl->first + bl->n; i++) {
		p->num += (double)in->samples[i];
		p->den += in->sched[i].M;
	}
	if (!(p->den > 0))
		return 0;
	p->ratio = p->num / p->den;
	return 1;
}

static int consistent(const struct point *p, double F)
{
	double want = F * p->den;

	return fabs(p->num - want) <= 2 * sqrt(want) + 1;
}

static uint8_t cluster_conf(uint32_t npts, double samples, uint32_t nissue)
{
	if (npts >= 3 && samples >= 100 && 2 * npts >= nissue)
		return DCPI_CONF_HIGH;
	if (npts >= 2 && samples >= 30)
		return DCPI_CONF_MEDIUM;
	return DCPI_CONF_LOW;
}

/* Out of order the points are blocks: a lone loop body is one point, and its samples
 * decide. */
static uint8_t block_conf(uint32_t npts, double samples, uint32_t nblocks)
{
	if (samples >= 100 && 2 * npts >= nblocks)
		return DCPI_CONF_HIGH;
	if (samples >= 30)
		return DCPI_CONF_MEDIUM;
	return DCPI_CONF_LOW;
}

/* F from the cluster of the smaller ratios, pts sorted by ratio */
static double cluster(struct point *pts, size_t n, uint32_t *ncluster, double *csamples)
{
	size_t minsize = (n + 3) / 4, k0 = n, best = 0, bestsize = 0;
	size_t *end = malloc(n * sizeof(*end));

	if (!end)
		return -1;
	for (size_t k = 0, m = 0; k < n; k++) {
		if (m < k)
			m = k;
		while (m + 1 < n && pts[m + 1].ratio <= 1.5 * pts[k].ratio)
			m++;
		end[k] = m;
		if (k0 == n && m - k + 1 >= minsize)
			k0 = k;
	}
	if (k0 == n)
		k0 = 0;
	for (size_t k = k0; k < n && (k == k0 || pts[k].ratio <= 1.5 * pts[k0].ratio); k++) {
		if (end[k] - k + 1 > bestsize) {
			bestsize = end[k] - k + 1;
			best = k;
		}
	}
	double num = 0, den = 0;
	for (size_t k = best; k <= end[best]; k++) {
		num += pts[k].num;
		den += pts[k].den;
	}
	/* seed the widening with the window's median ratio: one stalled point at the edge
	 * of the window does not move it */
	size_t lo = best + (bestsize - 1) / 2, hi = best + bestsize / 2;
	double F = (pts[lo].ratio + pts[hi].ratio) / 2;
	uint32_t cnt = (uint32_t)bestsize;

	free(end);
	if (!(F > 0))
		F = num / den;

	/* widen to every point consistent with F up to sampling noise, until settled */
	for (int iter = 0; iter < 32; iter++) {
		double n2 = 0, d2 = 0;
		uint32_t c2 = 0;

		for (size_t k = 0; k < n; k++) {
			if (consistent(&pts[k], F)) {
				n2 += pts[k].num;
				d2 += pts[k].den;
				c2++;
			}
		}
		if (c2 == 0) {
			F = num / den;   /* nothing agrees: the window's (or last set's) ratio */
			break;
		}
		double F2 = n2 / d2;

		num = n2;
		den = d2;
		cnt = c2;
		if (F2 == F)
			break;
		F = F2;
	}
	*ncluster = cnt;
	*csamples = num;
	return F;
}

int dcpi_estimate_classes(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;
	struct point *pts = malloc((g->ninsns ? g->ninsns : 1) * sizeof(*pts));
	uint32_t *first = malloc((g->nclasses ? g->nclasses : 1) * sizeof(*first));
	uint32_t *next = malloc((g->nblocks ? g->nblocks : 1) * sizeof(*next));
	int rc = -1;

	if (!pts || !first || !next)
		goto out;
	/* blocks of each class as linked lists */
	for (size_t c = 0; c < g->nclasses; c++)
		first[c] = UINT32_MAX;
	for (size_t b = g->nblocks; b-- > 0;) {
		uint32_t c = g->blocks[b].cls;

		if (c == CFG_NO_CLASS)
			continue;
		next[b] = first[c];
		first[c] = (uint32_t)b;
	}
	for (size_t c = 0; c < g->nclasses; c++) {
		struct dcpi_class *dc = &r->classes[c];
		size_t n = 0, ninsns = 0;
		double sumS = 0, sumM = 0, sumR = 0;
		int ooo = in->uarch && in->uarch->out_of_order;

		for (uint32_t b = first[c]; b != UINT32_MAX; b = next[b]) {
			const struct cfg_block *bl = &g->blocks[b];

			for (uint32_t i = bl->first; i < bl->first + bl->n; i++) {
				dc->samples += in->samples[i];
				sumS += (double)in->samples[i];
				sumM += in->sched[i].M;
				if (in->retired.samples)
					sumR += (double)in->retired.samples[i];
				ninsns++;
				if (in->sched[i].M > 0 && !ooo)
					pts[n++] = issue_point(in, bl, i);
			}
			if (ooo)
				n += block_point(in, bl, &pts[n]);
		}
		dc->nissue = (uint32_t)n;
		int use_retired = in->retired.samples && in->retired.period > 0 && ninsns > 0 &&
				  (n == 0 || (sumS < DCPI_FEW_SAMPLES && sumR > sumS));

		if (use_retired) {
			dc->F = sumR * in->retired.period / (double)ninsns / in->period;
			dc->basis = sumR;
			dc->how = DCPI_HOW_RETIRED;
			dc->conf = sumR >= 100 ? DCPI_CONF_HIGH :
				   sumR >= 25 ? DCPI_CONF_MEDIUM : DCPI_CONF_LOW;
		} else if (n > 0 && sumS < DCPI_FEW_SAMPLES) {
			dc->F = sumS / sumM;
			dc->basis = sumS;
			dc->how = DCPI_HOW_SUM;
			dc->conf = DCPI_CONF_LOW;
			dc->ncluster = (uint32_t)n;
		} else if (n > 0) {
			double cs = 0;

			qsort(pts, n, sizeof(*pts), point_cmp);
			dc->F = cluster(pts, n, &dc->ncluster, &cs);
			if (dc->F < 0)
				goto out;
			dc->basis = cs;
			dc->how = DCPI_HOW_CLUSTER;
			dc->conf = ooo ? block_conf(dc->ncluster, cs, dc->nissue) :
				   cluster_conf(dc->ncluster, cs, dc->nissue);
		}
	}
	rc = 0;
out:
	free(pts);
	free(first);
	free(next);
	return rc;
}
