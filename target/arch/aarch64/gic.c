/* SPDX-License-Identifier: BSD-2-Clause */
/* A minimal GIC driver for each CPU's private interrupts (PPIs and SGIs): GICv2 through
 * the memory-mapped CPU interface (banked per CPU), GICv3 through each CPU's
 * redistributor and the ICC_* system registers. Both run the interrupts in the non-secure
 * group 1 view QEMU virt gives (one security state), PPIs level-triggered, with EOI
 * dropping priority and deactivating. gic_setup() runs once (the distributor),
 * gic_cpu_setup() on every CPU. */
#include "bmprof_aarch64.h"
#include "a64.h"

#define PRIO 0xA0u                /* ours; the priority mask must be above it */

/* Distributor (both versions) */
#define GICD_CTLR 0x0000
#define GICD_IGROUPR 0x0080
#define GICD_ISENABLER 0x0100
#define GICD_ICENABLER 0x0180
#define GICD_IPRIORITYR 0x0400
#define GICD_ITARGETSR 0x0800
#define GICD_ICFGR 0x0C00
#define GICD_SGIR 0x0F00
#define GICD_PIDR2_V2 0x0FE8
#define GICD_PIDR2_V3 0xFFE8
#define GICD_CTLR_RWP (1u << 31)
#define GICD_CTLR_ARE (1u << 4)
/* GICv2 CPU interface */
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_BPR 0x08
#define GICC_IAR 0x0C
#define GICC_EOIR 0x10
/* GICv3 redistributor: RD_base frame, then SGI_base 64 KiB above it */
#define GICR_TYPER 0x0008
#define GICR_WAKER 0x0014
#define GICR_SGI 0x10000
#define WAKER_SLEEP (1u << 1)
#define WAKER_CHILDREN_ASLEEP (1u << 2)
#define TYPER_LAST (1u << 4)
#define TYPER_VLPIS (1u << 1)
#define SPIN_MAX 1000000u
#define RD_FRAMES_MAX 256u

/* ICC_* by encoding, so any assembler takes them */
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_SGI1R_EL1 S3_0_C12_C11_5
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_BPR1_EL1 S3_0_C12_C12_3
#define ICC_CTLR_EL1 S3_0_C12_C12_4
#define ICC_SRE_EL1 S3_0_C12_C12_5
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7
/* one more macro level, so the encoding is substituted before a64_read stringifies it */
#define sysreg_read(r) a64_read(r)
#define sysreg_write(r, v) a64_write(r, v)

static struct {
	int version;
	uintptr_t gicd, gicc;
} g;

static int wait_clear(uintptr_t reg, uint32_t bits)
{
	for (unsigned i = 0; i < SPIN_MAX; i++)
		if (!(mmio_read32(reg) & bits))
			return 0;
	return -1;
}

static unsigned arch_rev(uintptr_t pidr2) { return mmio_read32(pidr2) >> 4 & 0xF; }

/* MPIDR_EL1's affinity fields packed as GICR_TYPER[63:32] has them: Aff3.Aff2.Aff1.Aff0 */
static uint32_t packed_affinity(uint64_t mpidr)
{
	return (uint32_t)((mpidr & 0xFFFFFF) | (mpidr >> 8 & 0xFF000000));
}

/* This CPU's redistributor: the frame whose GICR_TYPER affinity matches MPIDR_EL1. */
static uintptr_t find_rd(uintptr_t gicr)
{
	uint32_t aff = packed_affinity(a64_read(mpidr_el1));

	for (unsigned i = 0; i < RD_FRAMES_MAX; i++) {
		uint64_t typer = mmio_read32(gicr + GICR_TYPER) |
				 (uint64_t)mmio_read32(gicr + GICR_TYPER + 4) << 32;
		if ((uint32_t)(typer >> 32) == aff)
			return gicr;
		if (typer & TYPER_LAST)
			break;
		gicr += typer & TYPER_VLPIS ? 0x40000 : 0x20000;
	}
	return 0;
}

static void dist_enable(uint32_t bits)
{
	uint32_t ctlr = mmio_read32(g.gicd + GICD_CTLR);

	/* ARE may change only while the groups are disabled */
	if (g.version == 3 && !(ctlr & GICD_CTLR_ARE)) {
		mmio_write32(g.gicd + GICD_CTLR, GICD_CTLR_ARE);
		wait_clear(g.gicd + GICD_CTLR, GICD_CTLR_RWP);
		ctlr = GICD_CTLR_ARE;
	}
	mmio_write32(g.gicd + GICD_CTLR, ctlr | bits);
	if (g.version == 3)
		wait_clear(g.gicd + GICD_CTLR, GICD_CTLR_RWP);
}

int gic_setup(uint8_t want, uintptr_t gicd, uintptr_t gicc)
{
	int sysregs = (a64_read(id_aa64pfr0_el1) >> 24 & 0xF) != 0;

	g.gicd = gicd;
	g.gicc = gicc;
	if (want == BMPROF_A64_GIC_AUTO)
		want = sysregs && arch_rev(gicd + GICD_PIDR2_V3) >= 3 ? 3 :
		       arch_rev(gicd + GICD_PIDR2_V2) == 1 || arch_rev(gicd + GICD_PIDR2_V2) == 2 ?
		       2 : 0;
	g.version = want;
	if (want == 3 && sysregs) {
		dist_enable(GICD_CTLR_ARE | 0x3);
		return 3;
	}
	if (want == 2) {
		dist_enable(0x3);
		return 2;
	}
	return -1;
}

static int cpu_setup_v2(struct gic_cpu *c)
{
	/* reading an SGI's banked target byte gives this CPU interface's own bit */
	c->v2_target = mmio_read8(g.gicd + GICD_ITARGETSR);
	if (mmio_read32(g.gicc + GICC_PMR) <= PRIO)
		mmio_write32(g.gicc + GICC_PMR, 0xFF);
	mmio_write32(g.gicc + GICC_BPR, 0);
	mmio_write32(g.gicc + GICC_CTLR, mmio_read32(g.gicc + GICC_CTLR) | 0x3);
	return 0;
}

static int cpu_setup_v3(struct gic_cpu *c, uintptr_t gicr)
{
	c->rd = find_rd(gicr);
	if (!c->rd)
		return -1;
	sysreg_write(ICC_SRE_EL1, sysreg_read(ICC_SRE_EL1) | 1);
	a64_isb();
	if (!(sysreg_read(ICC_SRE_EL1) & 1))
		return -1;
	mmio_write32(c->rd + GICR_WAKER, mmio_read32(c->rd + GICR_WAKER) & ~WAKER_SLEEP);
	if (wait_clear(c->rd + GICR_WAKER, WAKER_CHILDREN_ASLEEP))
		return -1;
	if (sysreg_read(ICC_PMR_EL1) <= PRIO)
		sysreg_write(ICC_PMR_EL1, 0xFF);
	sysreg_write(ICC_BPR1_EL1, 0);
	sysreg_write(ICC_CTLR_EL1, sysreg_read(ICC_CTLR_EL1) & ~2ull);   /* EOImode 0 */
	sysreg_write(ICC_IGRPEN1_EL1, 1);
	a64_isb();
	return 0;
}

int gic_cpu_setup(struct gic_cpu *c, uintptr_t gicr)
{
	c->rd = 0;
	c->v2_target = 0;
	c->affinity = packed_affinity(a64_read(mpidr_el1));
	if (g.version == 3)
		return cpu_setup_v3(c, gicr);
	if (g.version == 2)
		return cpu_setup_v2(c);
	return -1;
}

/* An SGI's or PPI's enable bit, group (1), priority and (PPIs) trigger (level) live in
 * this CPU's redistributor on v3 and in the banked first registers of the distributor on
 * v2. SGI triggers are fixed. */
void gic_private(const struct gic_cpu *c, uint32_t intid, int enable)
{
	uintptr_t base = g.version == 3 ? c->rd + GICR_SGI : g.gicd;
	uint32_t bit = 1u << intid;

	if (!enable) {
		mmio_write32(base + GICD_ICENABLER, bit);
		return;
	}
	if (g.version == 3)
		mmio_write32(base + GICD_IGROUPR, mmio_read32(base + GICD_IGROUPR) | bit);
	mmio_write8(base + GICD_IPRIORITYR + intid, PRIO);
	if (intid >= 16)
		mmio_write32(base + GICD_ICFGR + 4, mmio_read32(base + GICD_ICFGR + 4) &
			     ~(2u << 2 * (intid - 16)));
	mmio_write32(base + GICD_ISENABLER, bit);
}

void gic_sgi(const struct gic_cpu *to, uint32_t intid)
{
	uint64_t aff = to->affinity;

	a64_dsb();   /* what the sender wrote is visible before the interrupt is */
	if (g.version == 3) {
		/* Aff3 [55:48], Aff2 [39:32], INTID [27:24], Aff1 [23:16], target list [15:0] */
		sysreg_write(ICC_SGI1R_EL1, (aff >> 24 & 0xFF) << 48 | (aff >> 16 & 0xFF) << 32 |
			     (uint64_t)(intid & 0xF) << 24 | (aff >> 8 & 0xFF) << 16 |
			     1ull << (aff & 0xF));
		a64_isb();
	} else if (g.version == 2) {
		mmio_write32(g.gicd + GICD_SGIR, (uint32_t)to->v2_target << 16 | (intid & 0xF));
	}
}

/* The raw acknowledge value: on v2 an SGI's carries the sending CPU in bits 12:10, and
 * the EOI must give it back. */
uint32_t gic_ack(void)
{
	if (g.version == 3)
		return (uint32_t)sysreg_read(ICC_IAR1_EL1) & 0xFFFFFF;
	return mmio_read32(g.gicc + GICC_IAR) & 0x1FFF;
}

uint32_t gic_intid(uint32_t ack) { return g.version == 3 ? ack : ack & 0x3FF; }

void gic_eoi(uint32_t ack)
{
	if (g.version == 3)
		sysreg_write(ICC_EOIR1_EL1, ack);
	else
		mmio_write32(g.gicc + GICC_EOIR, ack);
}
