/* SPDX-License-Identifier: BSD-2-Clause */
/* Keeping only some of a profile's samples (profile_filter.h). */
#include "profile_filter.h"

int profile_filter_keeps(const struct profile_filter *f, uint16_t cpu, uint64_t pc)
{
	if (f->by_cpu && (cpu >= PROFILE_MAX_CPUS || !(f->cpus[cpu / 64] >> (cpu % 64) & 1)))
		return 0;
	if (f->by_addr && (pc < f->lo || pc > f->hi))
		return 0;
	return 1;
}

int profile_filter_apply(struct profile *p, const struct profile_filter *f)
{
	size_t m = 0, sorted = 0;
	uint64_t total = 0;

	/* order is kept, so the sorted part stays sorted */
	for (size_t i = 0; i < p->nsamples; i++) {
		if (!profile_filter_keeps(f, p->samples[i].cpu, p->samples[i].pc))
			continue;
		total += p->samples[i].count;
		p->samples[m++] = p->samples[i];
		sorted += i < p->nsorted;
	}
	p->nsorted = sorted;
	p->nsamples = m;
	p->total = total;
	m = 0;
	for (size_t i = 0; i < p->nstack_samples; i++)
		if (profile_filter_keeps(f, p->stack_samples[i].cpu, p->stack_samples[i].pc))
			p->stack_samples[m++] = p->stack_samples[i];
	p->nstack_samples = m;
	m = 0;
	for (size_t i = 0; i < p->nphase_samples; i++)
		if (profile_filter_keeps(f, p->phase_samples[i].cpu, p->phase_samples[i].pc))
			p->phase_samples[m++] = p->phase_samples[i];
	p->nphase_samples = m;
	if (p->phase_samples_merged > m)
		p->phase_samples_merged = m;
	return profile_settle(p);
}
