/* SPDX-License-Identifier: BSD-2-Clause */
/* Phases in the profile model (profile_phase.h). The samples of phases other than the
 * start are kept apart as they come, and combined by (pc, event, cpu, phase) whenever the
 * list has doubled since the last time, so they cost memory by distinct key, like the
 * store; a profile with more distinct keys than its bound is over its cap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_phase.h"

static int ensure_phases(struct profile *p)
{
	if (!p->phases && !(p->phases = calloc(PROFILE_MAX_PHASES + 1, sizeof *p->phases)))
		return -1;
	return 0;
}

int profile_apply_phase(struct profile *p, const uint8_t *b, uint16_t len)
{
	struct profile_phase *ph;
	unsigned id, n;

	if (len < BMPROF_PHASE_FIXED)
		return -1;
	id = bmprof_get16(b);
	n = b[2];
	if (!id || id > PROFILE_MAX_PHASES || n > len - BMPROF_PHASE_FIXED || ensure_phases(p))
		return -1;
	ph = &p->phases[id];
	memcpy(ph->name, b + BMPROF_PHASE_FIXED, n);
	ph->name[n] = 0;
	for (unsigned i = 0; i < n; i++)   /* text a terminal will show */
		if ((unsigned char)ph->name[i] < 0x20 || ph->name[i] == 0x7f)
			ph->name[i] = '?';
	ph->named = 1;
	ph->at = bmprof_get64(b + 4);
	if (id > p->max_phase)
		p->max_phase = id;
	return 0;
}

static int key_cmp(const void *x, const void *y)
{
	const struct profile_phase_sample *a = x, *b = y;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return (a->phase > b->phase) - (a->phase < b->phase);
}

/* Add up repeated keys of the phase samples. */
static void combine(struct profile *p)
{
	struct profile_phase_sample *a = p->phase_samples;
	size_t m = 0;

	qsort(a, p->nphase_samples, sizeof *a, key_cmp);
	for (size_t i = 0; i < p->nphase_samples; i++) {
		if (m && !key_cmp(&a[m - 1], &a[i]))
			a[m - 1].count += a[i].count;
		else
			a[m++] = a[i];
	}
	p->nphase_samples = m;
	if (p->max_entries && m > p->max_entries)
		p->over_cap = 1;
}

void profile_phase_room(struct profile *p)
{
	if (p->nphase_samples >= 1024 && p->nphase_samples >= 2 * p->phase_samples_merged) {
		combine(p);
		p->phase_samples_merged = p->nphase_samples;
	}
}

int profile_add_phase_sample(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc,
			     uint64_t count, uint16_t phase)
{
	if (ensure_phases(p))
		return -1;
	if (p->nphase_samples == p->phase_samples_cap) {
		size_t cap = p->phase_samples_cap ? 2 * p->phase_samples_cap : 1024;
		void *a = realloc(p->phase_samples, cap * sizeof *p->phase_samples);
		if (!a)
			return -1;
		p->phase_samples = a;
		p->phase_samples_cap = cap;
	}
	p->phase_samples[p->nphase_samples++] = (struct profile_phase_sample){
		.pc = pc, .count = count, .event = event, .cpu = cpu, .phase = phase };
	if (phase > p->max_phase)
		p->max_phase = phase;
	return 0;
}

void profile_phases_free(struct profile *p)
{
	free(p->phases);
	free(p->phase_samples);
	p->phases = NULL;
	p->phase_samples = NULL;
	p->nphase_samples = p->phase_samples_cap = p->phase_samples_merged = 0;
	p->max_phase = 0;
}

const char *profile_phase_name(const struct profile *p, unsigned id, char *buf, size_t n)
{
	if (id == 0)
		snprintf(buf, n, "(start)");
	else if (p->phases && id <= PROFILE_MAX_PHASES && p->phases[id].named)
		snprintf(buf, n, "%s", p->phases[id].name);
	else
		snprintf(buf, n, "phase %u", id);
	return buf;
}

size_t profile_phase_find(const struct profile *p, const char *name, uint16_t *ids, size_t max)
{
	char buf[PROFILE_PHASE_NAME_MAX + 16], *end;
	unsigned long num = strtoul(name, &end, 10);
	int numeric = *name >= '0' && *name <= '9' && !*end;
	size_t n = 0;

	for (unsigned id = 0; id <= p->max_phase && n < max; id++)
		if (!strcmp(profile_phase_name(p, id, buf, sizeof buf), name) ||
		    (numeric && num == id))
			ids[n++] = (uint16_t)id;
	return n;
}

static int in_set(uint16_t phase, const uint16_t *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (in[i] == phase)
			return 1;
	return 0;
}

static int sample_cmp(const void *x, const void *y)
{
	const struct profile_sample *a = x, *b = y;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

/* The samples of the chosen phases as profile samples (cpu = the sample's CPU, or its
 * phase with as_cpu), unsorted, in a new array. NULL when out of memory. */
static struct profile_sample *phase_samples(const struct profile *p, const uint16_t *in,
					    size_t nin, int as_cpu, size_t *count)
{
	struct profile_sample *all, *copy = NULL;
	const struct profile_sample *s;
	int start = as_cpu || in_set(0, in, nin);
	size_t n = 0, ns = 0;

	if (start && !(s = profile_ordered(p, &ns, &copy)))
		return NULL;
	all = malloc((ns + p->nphase_samples + 1) * sizeof *all);
	if (!all) {
		free(copy);
		return NULL;
	}
	if (start) {
		/* the start's samples: every sample less those of the other phases */
		memcpy(all, s, ns * sizeof *all);
		for (size_t i = 0; i < p->nphase_samples; i++) {
			const struct profile_phase_sample *q = &p->phase_samples[i];
			struct profile_sample key = { .pc = q->pc, .event = q->event, .cpu = q->cpu };
			struct profile_sample *e = bsearch(&key, all, ns, sizeof *all, sample_cmp);
			if (e)
				e->count = e->count > q->count ? e->count - q->count : 0;
		}
		for (size_t i = 0; i < ns; i++)
			if (all[i].count) {
				all[n] = all[i];
				if (as_cpu)
					all[n].cpu = 0;
				n++;
			}
	}
	for (size_t i = 0; i < p->nphase_samples; i++) {
		const struct profile_phase_sample *q = &p->phase_samples[i];
		if (as_cpu || in_set(q->phase, in, nin))
			all[n++] = (struct profile_sample){ .pc = q->pc, .count = q->count,
				.event = q->event, .cpu = as_cpu ? q->phase : q->cpu };
	}
	free(copy);
	*count = n;
	return all;
}

/* Make s[0 .. n) p's samples (taking the array), settled. */
static int set_samples(struct profile *p, struct profile_sample *s, size_t n)
{
	uint64_t total = 0;

	free(p->samples);
	p->samples = s;
	p->nsamples = p->samples_cap = n;
	p->nsorted = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].count;
	p->total = total;
	return profile_settle(p);
}

int profile_keep_phases(struct profile *p, const uint16_t *in, size_t nin)
{
	size_t n, m = 0;
	struct profile_sample *s = phase_samples(p, in, nin, 0, &n);

	if (!s)
		return -1;
	if (set_samples(p, s, n))
		return -1;
	for (size_t i = 0; i < p->nstack_samples; i++)
		if (in_set(p->stack_samples[i].phase, in, nin))
			p->stack_samples[m++] = p->stack_samples[i];
	p->nstack_samples = m;
	return 0;
}

int profile_by_phase(const struct profile *p, struct profile *out)
{
	size_t n;
	struct profile_sample *s;

	profile_init(out);
	if (!(s = phase_samples(p, NULL, 0, 1, &n)))
		return -1;
	out->have_hello = p->have_hello;
	out->hello = p->hello;
	memcpy(out->events, p->events, sizeof out->events);
	out->nevents = p->nevents;
	out->first_event = p->first_event;
	return set_samples(out, s, n);
}
