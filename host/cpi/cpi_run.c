/* SPDX-License-Identifier: BSD-2-Clause */
/* The CPI analysis of one function of a recorded profile (cpi_run.h): the samples mapped
 * onto its instructions, the CFG, each block's static schedule, the model and the period
 * chosen, then DCPI's estimates. */
#include "cpi/cpi_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "profile.h"

const char *const cpi_ev_role[6] = { "retired", "imiss", "dmiss", "itlb", "dtlb",
				     "mispredict" };

/* The event table's names for the roles of ev[] (cpi_ev_role order). */
static const char *const role_event[6] = { "instructions", "l1i-misses", "l1d-misses",
					   "itlb-misses", "dtlb-misses", "branch-misses" };

/* Which ev[] role event e plays, or -1: a PMU event the target counted itself (not one
 * the timer stood in for) whose name is one of the table's. */
static int event_role(const struct profile_event *e)
{
	const struct event_def *d = events_lookup(e->name);

	if (!d || (e->source != BMPROF_SOURCE_PMU && e->source != BMPROF_SOURCE_PMU_FIXED) ||
	    (e->have_status && e->status != BMPROF_EVST_ACTIVE) || !e->period)
		return -1;
	for (int k = 0; k < 6; k++)
		if (!strcmp(d->name, role_event[k]))
			return k;
	return -1;
}

static int is_cycles(const struct profile_event *e)
{
	const struct event_def *d = events_lookup(e->name);

	return d && d->word && !strcmp(d->word, "cycles");
}

int cpi_default_event(const struct profile *p)
{
	int timer = -1, other = -1;

	for (unsigned k = 0; k < p->nevents; k++) {
		const struct profile_event *e = &p->events[k];

		if (!profile_event_samples(p, e->id))
			continue;
		if (is_cycles(e))
			return e->id;
		if (e->source == BMPROF_SOURCE_TIMER && timer < 0)
			timer = e->id;
		else if (event_role(e) < 0 && other < 0)
			other = e->id;
	}
	if (timer >= 0)
		return timer;
	if (other >= 0)
		return other;
	/* samples of an event no EVENT frame described */
	return p->nsamples ? p->first_event : -1;
}

/* The events per sample of a sampled PMU event: its mean period, scaled up when it shared
 * a counter with others (multiplexed). */
static double role_period(const struct profile *p, const struct profile_event *e)
{
	uint64_t j = e->jitter < e->period ? e->jitter : e->period - 1;

	return ((double)e->period - (double)j / 2.0) * profile_event_scale(p, e->id);
}

static const char *event_name(const struct profile *p, int id, char *buf, size_t n)
{
	const struct profile_event *e = id >= 0 ? profile_event(p, (uint16_t)id) : NULL;

	if (e && e->name[0])
		return e->name;
	snprintf(buf, n, "%d", id);
	return buf;
}

int cpi_choose(const struct profile *p, const struct cpi_opts *o, int event,
	       const struct uarch **u, char *uwhy, size_t uwn, double *period, char *pwhy,
	       size_t pwn, char *err, size_t errlen)
{
	const char *accel = profile_meta(p, "accel");
	char nb[32];

	if (o->uarch) {
		*u = o->uarch;
		snprintf(uwhy, uwn, "--uarch");
	} else if (accel && !strcmp(accel, "tcg")) {
		/* QEMU's TCG times no CPU: the samples follow instructions, not a pipeline */
		*u = uarch_find("tcg");
		snprintf(uwhy, uwn, "recorded under QEMU TCG");
	} else if (p->have_hello) {
		char vendor[17];

		memcpy(vendor, p->hello.vendor, 16);
		vendor[16] = 0;
		*u = uarch_for_cpu(p->hello.arch, vendor, p->hello.family, p->hello.model);
		snprintf(uwhy, uwn, "HELLO: %s family %" PRIu32 " model 0x%" PRIx32 "%s",
			 vendor[0] ? vendor : "(no vendor)", p->hello.family, p->hello.model,
			 *u && !uarch_listing_cpu(p->hello.arch, vendor, p->hello.family,
						  p->hello.model) ? ", no closer model" : "");
	} else {
		*u = NULL;
	}
	if (!*u) {
		snprintf(err, errlen, "the profile does not say which CPU ran it (no HELLO frame): "
			 "pass --uarch NAME");
		return -1;
	}
	if (o->period > 0) {
		*period = o->period;
		snprintf(pwhy, pwn, "--period");
		return 0;
	}
	*period = event >= 0 ? profile_cycles_per_sample(p, (uint16_t)event) : -1;
	if (!(*period > 0)) {
		snprintf(err, errlen, "the cycles per sample of event %s are unknown (not a cycles "
			 "event, or the profile lacks the core clock or the CPUs' sampled ticks): "
			 "pass --period CYCLES", event_name(p, event, nb, sizeof nb));
		return -1;
	}
	{
		const struct profile_event *e = profile_event(p, (uint16_t)event);

		snprintf(pwhy, pwn, "%s", e && e->source == BMPROF_SOURCE_TIMER ?
			 "timer ticks per sample x core clock / timebase" :
			 "the event's sampling period");
	}
	return 0;
}

/* index of the instruction holding address a, or -1 */
static long insn_holding(const struct insn_func *f, uint64_t a)
{
	size_t lo = 0, hi = f->n;

	if (a < f->start || a >= f->end)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->insns[mid].addr + (f->insns[mid].size ? f->insns[mid].size : 1) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->insns[lo].addr <= a ? (long)lo : -1;
}

static int self_loop(const struct cfg *g, uint32_t b)
{
	const struct cfg_block *bl = &g->blocks[b];

	for (uint32_t k = 0; k < bl->nout; k++)
		if (g->edges[g->out[bl->out_at + k]].to == b)
			return 1;
	return 0;
}

static int map_samples(const struct profile *p, struct cpi_func *cf)
{
	const struct insn_func *f = &cf->fn;
	uint64_t bias = p->have_hello ? p->hello.load_bias : 0;

	cf->samples = calloc(f->n ? f->n : 1, sizeof *cf->samples);
	if (!cf->samples)
		return -1;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];
		long k = insn_holding(f, s->pc - bias);
		int r = 0;

		if (k < 0)
			continue;
		if (s->event == cf->event) {
			cf->samples[k] += s->count;
			cf->fn_samples += s->count;
			continue;
		}
		while (r < 6 && cf->ev_id[r] != s->event)
			r++;
		if (r < 6) {
			if (!cf->ev[r] && !(cf->ev[r] = calloc(f->n, sizeof *cf->ev[r])))
				return -1;
			cf->ev[r][k] += s->count;
			cf->ev_total[r] += s->count;
		}
	}
	return 0;
}

int cpi_func_analyze(const struct profile *p, const struct cpi_opts *o, struct cpi_func *cf,
		     char *err, size_t errlen)
{
	char nb[32];
	struct dcpi_event_samples *evs[6] = { &cf->in.retired, &cf->in.imiss, &cf->in.dmiss,
					      &cf->in.itlb, &cf->in.dtlb, &cf->in.mispredict };

	cf->event = o->event >= 0 ? o->event : cpi_default_event(p);
	if (cf->event < 0) {
		snprintf(err, errlen, "the profile has no samples");
		return -1;
	}
	if (!cf->fn.n) {
		snprintf(err, errlen, "%s has no instructions", cf->fn.name);
		return -1;
	}
	for (int r = 0; r < 6; r++) {
		cf->ev_id[r] = -1;
		cf->ev_period[r] = 0;
	}
	for (unsigned k = 0; k < p->nevents; k++) {
		const struct profile_event *e = &p->events[k];
		int r = e->id == cf->event ? -1 : event_role(e);

		if (r >= 0 && cf->ev_id[r] < 0) {
			cf->ev_id[r] = e->id;
			cf->ev_period[r] = role_period(p, e);
		}
	}
	if (map_samples(p, cf)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!cf->fn_samples) {
		uint64_t all = profile_event_samples(p, (uint16_t)cf->event);

		snprintf(err, errlen, "no samples of event %s in %s (%" PRIu64 " elsewhere): "
			 "nothing to analyse (bmprof report lists the sampled functions)",
			 event_name(p, cf->event, nb, sizeof nb), cf->fn.name, all);
		return -1;
	}
	if (cpi_choose(p, o, cf->event, &cf->uarch, cf->uarch_why, sizeof cf->uarch_why,
		       &cf->period, cf->period_why, sizeof cf->period_why, err, errlen))
		return -1;
	if (cf->uarch->arch && cf->uarch->arch != cf->fn.arch) {
		snprintf(err, errlen, "model %s is for another architecture than %s's: pick one "
			 "with --uarch (docs/uarch-models.md lists them)", cf->uarch->name,
			 cf->fn.name);
		return -1;
	}
	if (cfg_build(&cf->cfg, cf->fn.insns, cf->fn.n)) {
		snprintf(err, errlen, "out of memory building the CFG of %s", cf->fn.name);
		return -1;
	}
	cf->sched = calloc(cf->fn.n, sizeof *cf->sched);
	if (!cf->sched) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t b = 0; b < cf->cfg.nblocks; b++) {
		const struct cfg_block *bl = &cf->cfg.blocks[b];

		if (bl->n && sched_block(cf->uarch, &cf->fn.insns[bl->first], bl->n,
					 self_loop(&cf->cfg, b), &cf->sched[bl->first])) {
			snprintf(err, errlen, "cannot schedule block at 0x%" PRIx64 " of %s",
				 cf->fn.insns[bl->first].addr, cf->fn.name);
			return -1;
		}
	}
	if (o->measured) {
		if (blocks_apply_times(&cf->cfg, cf->fn.code, cf->fn.start, o->measured, cf->sched,
				       &cf->measured, &cf->pieces)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		size_t k = strlen(cf->uarch_why);
		snprintf(cf->uarch_why + k, sizeof cf->uarch_why - k, "; best case measured for "
			 "%zu of %zu blocks (%s)", cf->measured, cf->pieces,
			 o->measured_path ? o->measured_path : "--measured");
	}
	cf->in.cfg = &cf->cfg;
	cf->in.uarch = cf->uarch;
	cf->in.sched = cf->sched;
	cf->in.samples = cf->samples;
	cf->in.period = cf->period;
	for (int r = 0; r < 6; r++)
		if (cf->ev_id[r] >= 0) {
			/* an event sampled in the run but never here: zero samples rule it out */
			if (!cf->ev[r] && !(cf->ev[r] = calloc(cf->fn.n, sizeof *cf->ev[r]))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			evs[r]->samples = cf->ev[r];
			evs[r]->period = cf->ev_period[r];
		}
	if (dcpi_analyze(&cf->in, &cf->res)) {
		snprintf(err, errlen, "out of memory analysing %s", cf->fn.name);
		return -1;
	}
	return 0;
}

void cpi_func_free(struct cpi_func *cf)
{
	dcpi_result_free(&cf->res);
	cfg_free(&cf->cfg);
	free(cf->sched);
	free(cf->samples);
	for (int r = 0; r < 6; r++)
		free(cf->ev[r]);
	insn_func_free(&cf->fn);
	memset(cf, 0, sizeof *cf);
}
