/* SPDX-License-Identifier: BSD-2-Clause */
/* The PMU drivers' access layer in the image: the real RDMSR, WRMSR and CPUID, and the
 * probing accesses, #GP-safe where the integrator's #GP handler calls
 * bmprof_x86_gp_fixup(). */
#include "bmprof_x86_64.h"
#include "pmu_x86.h"
#include "x86.h"

extern const uint64_t bmprof_x86_msr_fixups[2][2];

static int have_fixup;

void pmu_access_init(int fixup) { have_fixup = fixup; }

uint64_t pmu_rdmsr(uint32_t msr) { return x86_rdmsr(msr); }

void pmu_wrmsr(uint32_t msr, uint64_t v) { x86_wrmsr(msr, v); }

void pmu_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) { x86_cpuid(leaf, sub, r); }

int pmu_rdmsr_try(uint32_t msr, uint64_t *v, int vouched)
{
	if (have_fixup)
		return bmprof_x86_rdmsr_safe(msr, v);
	if (!vouched)
		return -1;
	*v = x86_rdmsr(msr);
	return 0;
}

int pmu_wrmsr_try(uint32_t msr, uint64_t v, int vouched)
{
	if (have_fixup)
		return bmprof_x86_wrmsr_safe(msr, v);
	if (!vouched)
		return -1;
	x86_wrmsr(msr, v);
	return 0;
}

int bmprof_x86_gp_fixup(uint64_t *rip)
{
	for (unsigned i = 0; i < 2; i++)
		if (*rip == bmprof_x86_msr_fixups[i][0]) {
			*rip = bmprof_x86_msr_fixups[i][1];
			return 1;
		}
	return 0;
}
