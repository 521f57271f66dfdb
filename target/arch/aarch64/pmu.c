/* PMUv3 counter access. Event counters are reached through PMSELR_EL0 and the
 * PMXEV*_EL0 windows, so the counter index can be a run-time value; callers keep IRQs
 * masked around a select and its access. Index 31 is the cycle counter, which runs with
 * PMCR_EL0.LC set: it overflows (and interrupts) at 64 bits. */
#include "a64.h"

#define PMCR_E (1u << 0)
#define PMCR_LC (1u << 6)
#define PMCR_N(v) ((v) >> 11 & 0x1F)

uint8_t pmu_version(void) { return (uint8_t)(a64_read(id_aa64dfr0_el1) >> 8 & 0xF); }

uint32_t pmu_counters(void) { return PMCR_N((uint32_t)a64_read(pmcr_el0)); }

/* [0]: common events 0x00..0x3F, [1]: 0x4000..0x403F (PMUv3p1) */
void pmu_events_implemented(uint64_t pmceid[2])
{
	uint64_t e0 = a64_read(pmceid0_el0), e1 = a64_read(pmceid1_el0);

	pmceid[0] = (e0 & 0xFFFFFFFFu) | e1 << 32;
	pmceid[1] = e0 >> 32 | (e1 >> 32) << 32;
}

static void select_counter(uint32_t idx)
{
	a64_write(pmselr_el0, idx);
	a64_isb();
}

/* Filter bits all 0: count at EL0 and EL1 */
void pmu_program(uint32_t idx, uint16_t number)
{
	if (idx == PMU_CYCLE_IDX) {
		a64_write(pmccfiltr_el0, 0);
		return;
	}
	select_counter(idx);
	a64_write(pmxevtyper_el0, number);
}

uint64_t pmu_read(uint32_t idx)
{
	if (idx == PMU_CYCLE_IDX)
		return a64_read(pmccntr_el0);
	select_counter(idx);
	return a64_read(pmxevcntr_el0) & 0xFFFFFFFFu;
}

void pmu_write(uint32_t idx, uint64_t v)
{
	if (idx == PMU_CYCLE_IDX) {
		a64_write(pmccntr_el0, v);
		return;
	}
	select_counter(idx);
	a64_write(pmxevcntr_el0, v & 0xFFFFFFFFu);
}

void pmu_enable(uint32_t mask)
{
	a64_write(pmovsclr_el0, mask);
	a64_write(pmintenset_el1, mask);
	a64_write(pmcntenset_el0, mask);
	a64_write(pmcr_el0, a64_read(pmcr_el0) | PMCR_E | PMCR_LC);
	a64_isb();
}

void pmu_disable(uint32_t mask)
{
	a64_write(pmcntenclr_el0, mask);
	a64_write(pmintenclr_el1, mask);
	a64_write(pmovsclr_el0, mask);
	a64_isb();
}

uint32_t pmu_overflowed(uint32_t mask)
{
	uint32_t v = (uint32_t)a64_read(pmovsclr_el0) & mask;

	if (v)
		a64_write(pmovsclr_el0, v);
	return v;
}
