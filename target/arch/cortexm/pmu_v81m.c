/* SPDX-License-Identifier: BSD-2-Clause */
/* The Armv8.1-M PMU driver (Cortex-M55, M85): an ops table for the neutral PMU layer.
 *
 * Registers (Armv8.1-M ARM, D1.2 "PMU"; base 0xE0003000): PMU_EVCNTR<n> +4n, PMU_CCNTR
 * +0x07C, PMU_EVTYPER<n> +0x400+4n, PMU_CNTENSET/CLR +0xC00/+0xC20, PMU_INTENSET/CLR
 * +0xC40/+0xC60, PMU_OVSCLR +0xC80, PMU_OVSSET +0xCC0, PMU_TYPE +0xE00 (N 7:0 event
 * counters, SIZE 13:8 their width - 1, CC 14 cycle counter present), PMU_CTRL +0xE04
 * (E 0). Bit n of the set/clear registers is event counter n, bit 31 the cycle counter.
 *
 * Neutral counter i < N is event counter i (16 bits wide on the M55 and M85: periods are
 * cut to 2^16 - 1); fixed counter 0 is PMU_CCNTR (32 bits, the same counter as
 * DWT_CYCCNT). An encoding is a PMU_EVTYPER value: the event number in bits 15:0.
 *
 * An overflow with its PMU_INTENSET bit set raises the DebugMonitor exception when
 * DEMCR.MON_EN is set (it pends DEMCR.MON_PEND and sets DFSR.PMU); the handler calls
 * bmprof_v81m_overflow_pending() to tell it from other debug events, then
 * bmprof_pmu_overflow(). Its priority (SHPR3 bits 7:0) is the runtime's to set.
 */
#include "cm_mmio.h"
#include "cm_pmu.h"

#define PMU_BASE 0xE0003000u
#define PMU_EVCNTR(n) (PMU_BASE + 4u * (n))
#define PMU_CCNTR (PMU_BASE + 0x07Cu)
#define PMU_EVTYPER(n) (PMU_BASE + 0x400u + 4u * (n))
#define PMU_CNTENSET (PMU_BASE + 0xC00u)
#define PMU_CNTENCLR (PMU_BASE + 0xC20u)
#define PMU_INTENSET (PMU_BASE + 0xC40u)
#define PMU_INTENCLR (PMU_BASE + 0xC60u)
#define PMU_OVSCLR (PMU_BASE + 0xC80u)
#define PMU_OVSSET (PMU_BASE + 0xCC0u)
#define PMU_TYPE (PMU_BASE + 0xE00u)
#define PMU_CTRL (PMU_BASE + 0xE04u)

#define TYPE_N(t) ((t) & 0xFFu)
#define TYPE_SIZE(t) (((t) >> 8 & 0x3Fu) + 1)
#define TYPE_CC (1u << 14)
#define CTRL_E (1u << 0)
#define CYCLE_BIT (1u << 31)
#define MAX_EVENT_COUNTERS 31u

static struct {
	uint32_t width_mask;   /* event counters' value mask */
} v81m;

static uint32_t hw_bit(unsigned ctr)
{
	return ctr >= BMPROF_PMU_FIXED_BASE ? CYCLE_BIT : 1u << ctr;
}

static uint32_t hw_mask(uint64_t m)
{
	return (uint32_t)(m & 0x7FFFFFFFu) | (uint32_t)(m >> BMPROF_PMU_FIXED_BASE & 1) << 31;
}

static uint64_t neutral_mask(uint32_t h)
{
	return (h & 0x7FFFFFFFu) | (uint64_t)(h >> 31) << BMPROF_PMU_FIXED_BASE;
}

static int v81m_probe(struct bmprof_pmu_caps *caps)
{
	uint32_t type, n, width, demcr;
	int irq;

	mmio_wr32(CM_DEMCR, mmio_rd32(CM_DEMCR) | CM_DEMCR_TRCENA | CM_DEMCR_MON_EN);
	type = mmio_rd32(PMU_TYPE);
	n = TYPE_N(type);
	if (n > MAX_EVENT_COUNTERS)
		n = MAX_EVENT_COUNTERS;
	if (!n && !(type & TYPE_CC))
		return -1;
	width = TYPE_SIZE(type);
	if (width > 32)
		width = 32;
	v81m.width_mask = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1;
	demcr = mmio_rd32(CM_DEMCR);
	irq = (demcr & CM_DEMCR_MON_EN) && !(mmio_rd32(CM_DHCSR) & CM_DHCSR_C_DEBUGEN);
	*caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_ARM,
		.version = 1,
		.ngp = (uint8_t)(n < BMPROF_PMU_MAX_GP ? n : BMPROF_PMU_MAX_GP),
		.nfixed = (type & TYPE_CC) ? 1 : 0,
		.gp_width = (uint8_t)width,
		.fixed_width = 32,
		.fixed_kind = { (type & TYPE_CC) ? BMPROF_FIXED_CYCLES : BMPROF_FIXED_NONE },
		.can_interrupt = (uint8_t)irq,
	};
	return 0;
}

static void v81m_program(unsigned ctr, uint64_t encoding, int irq)
{
	uint32_t bit = hw_bit(ctr);

	if (bit != CYCLE_BIT)
		mmio_wr32(PMU_EVTYPER(ctr), (uint32_t)(encoding & 0xFFFFu));
	mmio_wr32(irq ? PMU_INTENSET : PMU_INTENCLR, bit);
}

static void v81m_clear(unsigned ctr)
{
	uint32_t bit = hw_bit(ctr);

	mmio_wr32(PMU_CNTENCLR, bit);
	mmio_wr32(PMU_INTENCLR, bit);
	mmio_wr32(PMU_OVSCLR, bit);
	if (bit != CYCLE_BIT)
		mmio_wr32(PMU_EVTYPER(ctr), 0);
}

static uint64_t v81m_read(unsigned ctr)
{
	if (hw_bit(ctr) == CYCLE_BIT)
		return mmio_rd32(PMU_CCNTR);
	return mmio_rd32(PMU_EVCNTR(ctr)) & v81m.width_mask;
}

static void v81m_write(unsigned ctr, uint64_t v)
{
	if (hw_bit(ctr) == CYCLE_BIT)
		mmio_wr32(PMU_CCNTR, (uint32_t)v);
	else
		mmio_wr32(PMU_EVCNTR(ctr), (uint32_t)v & v81m.width_mask);
}

static void v81m_enable(uint64_t mask)
{
	mmio_wr32(PMU_CNTENSET, hw_mask(mask));
	mmio_wr32(PMU_CTRL, mmio_rd32(PMU_CTRL) | CTRL_E);
}

static void v81m_disable(uint64_t mask)
{
	mmio_wr32(PMU_CNTENCLR, hw_mask(mask));
}

static uint64_t v81m_overflow(void)
{
	return neutral_mask(mmio_rd32(PMU_OVSSET));
}

static void v81m_ack(uint64_t mask)
{
	mmio_wr32(PMU_OVSCLR, hw_mask(mask));
}

const struct bmprof_pmu_ops bmprof_pmu_v81m = {
	.name = "armv8.1-m", .probe = v81m_probe, .program = v81m_program, .clear = v81m_clear,
	.read = v81m_read, .write = v81m_write, .enable = v81m_enable, .disable = v81m_disable,
	.overflow = v81m_overflow, .ack = v81m_ack,
};

int bmprof_v81m_overflow_pending(void)
{
	if (!(mmio_rd32(CM_DFSR) & CM_DFSR_PMU))
		return 0;
	mmio_wr32(CM_DFSR, CM_DFSR_PMU);
	return 1;
}
