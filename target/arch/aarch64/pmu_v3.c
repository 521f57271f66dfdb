/* SPDX-License-Identifier: BSD-2-Clause */
/* The Arm PMUv3 driver: an ops table for the neutral PMU layer (bmprof_pmu.h).
 *
 * Neutral counter i < 31 is event counter i (32 bits wide, reached through PMSELR_EL0 and
 * the PMXEV*_EL0 windows so the index can be a run-time value); fixed counter 0 is the
 * cycle counter PMCCNTR_EL0, run with PMCR_EL0.LC set so it overflows (and interrupts) at
 * 64 bits. Counting is at EL0 and EL1: an encoding is a PMEVTYPER<n>_EL0 value, the event
 * number in bits 15:0 and the filter bits 31:24 (0: count EL0 and EL1). Callers keep IRQs
 * masked, as the ops contract says, so a select and its access are never split.
 */
#include "bmprof_aarch64.h"
#include "bmprof_pmu.h"
#include "a64.h"

#define PMCR_E (1u << 0)
#define PMCR_LC (1u << 6)
#define PMCR_N(v) ((v) >> 11 & 0x1F)
#define CYCLE_BIT (1u << 31)
#define ISR_I (1u << 7)
#define PROBE_EVENTS 2000u    /* the overflow-interrupt probe's period */
#define PROBE_WAIT_S 2        /* its longest wait for an overflow to show, without -icount */

static struct {
	uint64_t pmceid[2];
	uint64_t no_irq;      /* neutral mask, from pmu_v3_probe_irq(): for every CPU's setup */
} v3;

uint8_t pmu_version(void) { return (uint8_t)(a64_read(id_aa64dfr0_el1) >> 8 & 0xF); }

int pmu_present(void)
{
	uint8_t v = pmu_version();
	return v != 0 && v != 0xF;
}

uint32_t pmu_counters(void) { return PMCR_N((uint32_t)a64_read(pmcr_el0)); }

/* [0]: common events 0x00..0x3F, [1]: 0x4000..0x403F (PMUv3p1) */
void pmu_events_implemented(uint64_t pmceid[2])
{
	uint64_t e0 = a64_read(pmceid0_el0), e1 = a64_read(pmceid1_el0);

	pmceid[0] = (e0 & 0xFFFFFFFFu) | e1 << 32;
	pmceid[1] = e0 >> 32 | (e1 >> 32) << 32;
}

static uint32_t hw_bit(unsigned ctr)
{
	return ctr >= BMPROF_PMU_FIXED_BASE ? CYCLE_BIT : 1u << ctr;
}

static uint32_t hw_mask(uint64_t m)
{
	return (uint32_t)(m & ~(uint64_t)CYCLE_BIT) | (uint32_t)(m >> BMPROF_PMU_FIXED_BASE & 1) << 31;
}

static uint64_t neutral_mask(uint32_t h)
{
	return (h & ~CYCLE_BIT) | (uint64_t)(h >> 31) << BMPROF_PMU_FIXED_BASE;
}

static void select_counter(unsigned idx)
{
	a64_write(pmselr_el0, idx);
	a64_isb();
}

static int v3_probe(struct bmprof_pmu_caps *caps)
{
	uint32_t n;

	if (!pmu_present())
		return -1;
	n = pmu_counters();
	pmu_events_implemented(v3.pmceid);
	*caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_ARM,
		.version = pmu_version(),
		.ngp = (uint8_t)(n < BMPROF_PMU_MAX_GP ? n : BMPROF_PMU_MAX_GP),
		.nfixed = 1,
		.gp_width = 32,
		.fixed_width = 64,
		.fixed_kind = { BMPROF_FIXED_CYCLES },
		.can_interrupt = 1,
		.no_irq_mask = v3.no_irq,
	};
	return 0;
}

static void v3_program(unsigned ctr, uint64_t encoding, int irq)
{
	uint32_t bit = hw_bit(ctr);

	if (bit == CYCLE_BIT) {
		a64_write(pmccfiltr_el0, 0);
	} else {
		select_counter(ctr);
		a64_write(pmxevtyper_el0, encoding & 0xFFFFFFFFu);
	}
	if (irq)
		a64_write(pmintenset_el1, bit);
	else
		a64_write(pmintenclr_el1, bit);
	a64_isb();
}

static void v3_clear(unsigned ctr)
{
	uint32_t bit = hw_bit(ctr);

	a64_write(pmcntenclr_el0, bit);
	a64_write(pmintenclr_el1, bit);
	a64_write(pmovsclr_el0, bit);
	if (bit != CYCLE_BIT) {
		select_counter(ctr);
		a64_write(pmxevtyper_el0, 0);
	}
	a64_isb();
}

static uint64_t v3_read(unsigned ctr)
{
	if (hw_bit(ctr) == CYCLE_BIT)
		return a64_read(pmccntr_el0);
	select_counter(ctr);
	return a64_read(pmxevcntr_el0) & 0xFFFFFFFFu;
}

static void v3_write(unsigned ctr, uint64_t v)
{
	if (hw_bit(ctr) == CYCLE_BIT) {
		a64_write(pmccntr_el0, v);
		return;
	}
	select_counter(ctr);
	a64_write(pmxevcntr_el0, v & 0xFFFFFFFFu);
}

static void v3_enable(uint64_t mask)
{
	a64_write(pmcntenset_el0, hw_mask(mask));
	a64_write(pmcr_el0, a64_read(pmcr_el0) | PMCR_E | PMCR_LC);
	a64_isb();
}

static void v3_disable(uint64_t mask)
{
	a64_write(pmcntenclr_el0, hw_mask(mask));
	a64_isb();
}

static uint64_t v3_overflow(void) { return neutral_mask((uint32_t)a64_read(pmovsclr_el0)); }

static void v3_ack(uint64_t mask)
{
	a64_write(pmovsclr_el0, hw_mask(mask));
	a64_isb();
}

/* PMCEID0/1 list the common events; IMPLEMENTATION DEFINED ones they do not cover. */
static int v3_event_ok(uint64_t encoding)
{
	unsigned number = (unsigned)(encoding & 0xFFFF);

	if (number < 0x40)
		return v3.pmceid[0] >> number & 1;
	if (number >= 0x4000 && number < 0x4040)
		return v3.pmceid[1] >> (number - 0x4000) & 1;
	return 1;
}

const struct bmprof_pmu_ops bmprof_pmu_v3 = {
	.name = "pmuv3", .probe = v3_probe, .program = v3_program, .clear = v3_clear,
	.read = v3_read, .write = v3_write, .enable = v3_enable, .disable = v3_disable,
	.overflow = v3_overflow, .ack = v3_ack, .event_ok = v3_event_ok,
};

/* Arm counter idx (31: the cycle counter) for CPU_CYCLES, PROBE_EVENTS before overflow,
 * with its interrupt enabled (IRQs masked). The counter is not read while it runs (an
 * emulator looks at its counters on such accesses, raising an overflow it would otherwise
 * not signal): the wait is for the overflow to show on its own, in PMOVSCLR_EL0 or as a
 * pending IRQ (ISR_EL1.I). Once the status shows, a write of PMINTENSET_EL1 (what it
 * holds already) makes QEMU re-evaluate its interrupt line, and the IRQ is looked for
 * during SETTLE_DIV of a second (real hardware signals it within nanoseconds). So the
 * answer follows the overflow, however late a busy host lets QEMU's timer notice it;
 * `ticks` of the generic timer only bound the wait for an overflow that never shows by
 * itself. 1 if it interrupted, 0 if it overflowed without interrupting, -1 if it did not
 * overflow (nothing learnt). */
#define SETTLE_DIV 1000            /* 1 ms */
#define POLLS_PER_CLOCK_READ 256   /* reading the clock is not free under emulation */

static int irq_from(unsigned idx, uint64_t ticks, uint64_t cntfrq)
{
	uint32_t bit = 1u << idx;
	uint64_t t0, isr = 0;
	unsigned polls = 0;
	int r;

	if (idx == 31) {
		a64_write(pmccfiltr_el0, 0);
		a64_write(pmccntr_el0, 0 - (uint64_t)PROBE_EVENTS);
	} else {
		select_counter(idx);
		a64_write(pmxevtyper_el0, BMPROF_A64_CPU_CYCLES);
		a64_write(pmxevcntr_el0, 0x100000000ull - PROBE_EVENTS);
	}
	a64_write(pmovsclr_el0, bit);
	a64_write(pmintenset_el1, bit);
	a64_write(pmcr_el0, a64_read(pmcr_el0) | PMCR_E | PMCR_LC);
	a64_write(pmcntenset_el0, bit);
	a64_isb();
	t0 = a64_read(cntvct_el0);
	for (;;) {
		a64_isb();
		isr = a64_read(isr_el1);
		if (isr & ISR_I)
			break;
		if (a64_read(pmovsclr_el0) & bit) {
			uint64_t t1;

			a64_write(pmintenset_el1, bit);
			t1 = a64_read(cntvct_el0);
			do {
				a64_isb();
				isr = a64_read(isr_el1);
			} while (!(isr & ISR_I) && a64_read(cntvct_el0) - t1 < cntfrq / SETTLE_DIV);
			break;
		}
		if (++polls % POLLS_PER_CLOCK_READ == 0 && a64_read(cntvct_el0) - t0 >= ticks)
			break;
	}
	a64_write(pmcntenclr_el0, bit);
	a64_write(pmintenclr_el1, bit);
	a64_isb();
	r = (a64_read(pmovsclr_el0) & bit) ? !!(isr & ISR_I) : -1;
	a64_write(pmovsclr_el0, bit);
	if (idx != 31)
		a64_write(pmxevtyper_el0, 0);
	a64_isb();
	return r;
}

/* Whether the cycle counter advances exactly with the instructions executed (QEMU with
 * -icount): the same loop timed three times counts the same. */
static int instruction_clock(void)
{
	uint64_t d[3];

	a64_write(pmccfiltr_el0, 0);
	a64_write(pmcr_el0, a64_read(pmcr_el0) | PMCR_E | PMCR_LC);
	a64_write(pmcntenset_el0, CYCLE_BIT);
	a64_isb();
	for (unsigned k = 0; k < 3; k++) {
		uint64_t t0 = a64_read(pmccntr_el0), n = 4096;
		__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
		d[k] = a64_read(pmccntr_el0) - t0;
	}
	a64_write(pmcntenclr_el0, CYCLE_BIT);
	a64_isb();
	return d[0] == d[1] && d[1] == d[2];
}

void pmu_v3_forget_irq(void) { v3.no_irq = 0; }

/* Learn which counters raise the overflow interrupt, with the PMU's PPI enabled in the GIC,
 * IRQs masked and no other interrupt enabled. QEMU with -icount never signals an event
 * counter's overflow by itself; without -icount it signals every overflow from its timer
 * thread, which a busy host can hold up for a hundred milliseconds and more. irq_from
 * decides from the overflow, so time only bounds the wait for one that never shows: 2 ms
 * where the clock follows the instructions (waiting longer would not help), else
 * PROBE_WAIT_S. Returns bit 0 set if event counters do not interrupt, bit 1 if the cycle
 * counter does not; every later probe() reports them in caps.no_irq_mask until
 * pmu_v3_forget_irq(), so every CPU places the events as the probing CPU did. */
uint8_t pmu_v3_probe_irq(uint64_t cntfrq)
{
	uint8_t no = 0;
	uint64_t ticks;

	v3.no_irq = 0;
	if (!pmu_present())
		return 0;
	ticks = instruction_clock() ? cntfrq / 500 + 1 : cntfrq * PROBE_WAIT_S;
	if (pmu_counters() && irq_from(0, ticks, cntfrq) == 0) {
		v3.no_irq |= (1ull << BMPROF_PMU_MAX_GP) - 1;
		no |= 1;
	}
	if (irq_from(31, ticks, cntfrq) == 0) {
		v3.no_irq |= 1ull << BMPROF_PMU_FIXED_BASE;
		no |= 2;
	}
	return no;
}
