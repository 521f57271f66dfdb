/* A minimal GIC driver for one CPU's private peripheral interrupts: GICv2 through the
 * memory-mapped CPU interface, GICv3 through the redistributor and the ICC_* system
 * registers. Both run the interrupts in the non-secure group 1 view QEMU virt gives
 * (one security state), level-triggered, with EOI dropping priority and deactivating. */
#include "bmprof_aarch64.h"
#include "a64.h"

#define PRIO 0xA0u                /* ours; the priority mask must be above it */

/* Distributor (both versions) */
#define GICD_CTLR 0x0000
#define GICD_IGROUPR 0x0080
#define GICD_ISENABLER 0x0100
#define GICD_ICENABLER 0x0180
#define GICD_IPRIORITYR 0x0400
#define GICD_ICFGR 0x0C00
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
#define GICR_IGROUPR0 (GICR_SGI + 0x0080)
#define GICR_ISENABLER0 (GICR_SGI + 0x0100)
#define GICR_ICENABLER0 (GICR_SGI + 0x0180)
#define GICR_IPRIORITYR (GICR_SGI + 0x0400)
#define GICR_ICFGR1 (GICR_SGI + 0x0C04)
#define WAKER_SLEEP (1u << 1)
#define WAKER_CHILDREN_ASLEEP (1u << 2)
#define TYPER_LAST (1u << 4)
#define TYPER_VLPIS (1u << 1)
#define SPIN_MAX 1000000u
#define RD_FRAMES_MAX 256u

/* ICC_* by encoding, so any assembler takes them */
#define ICC_PMR_EL1 S3_0_C4_C6_0
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
	uintptr_t gicd, gicc, rd;
} g;

static int wait_clear(uintptr_t reg, uint32_t bits)
{
	for (unsigned i = 0; i < SPIN_MAX; i++)
		if (!(mmio_read32(reg) & bits))
			return 0;
	return -1;
}

static unsigned arch_rev(uintptr_t pidr2) { return mmio_read32(pidr2) >> 4 & 0xF; }

/* This CPU's redistributor: the frame whose GICR_TYPER affinity matches MPIDR_EL1. */
static uintptr_t find_rd(uintptr_t gicr)
{
	uint64_t mpidr = a64_read(mpidr_el1);
	uint32_t aff = (uint32_t)((mpidr & 0xFFFFFF) | (mpidr >> 8 & 0xFF000000));

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

static int setup_v2(void)
{
	dist_enable(0x3);
	if (mmio_read32(g.gicc + GICC_PMR) <= PRIO)
		mmio_write32(g.gicc + GICC_PMR, 0xFF);
	mmio_write32(g.gicc + GICC_BPR, 0);
	mmio_write32(g.gicc + GICC_CTLR, mmio_read32(g.gicc + GICC_CTLR) | 0x3);
	return 2;
}

static int setup_v3(uintptr_t gicr)
{
	g.rd = find_rd(gicr);
	if (!g.rd)
		return -1;
	sysreg_write(ICC_SRE_EL1, sysreg_read(ICC_SRE_EL1) | 1);
	a64_isb();
	if (!(sysreg_read(ICC_SRE_EL1) & 1))
		return -1;
	dist_enable(GICD_CTLR_ARE | 0x3);
	mmio_write32(g.rd + GICR_WAKER, mmio_read32(g.rd + GICR_WAKER) & ~WAKER_SLEEP);
	if (wait_clear(g.rd + GICR_WAKER, WAKER_CHILDREN_ASLEEP))
		return -1;
	if (sysreg_read(ICC_PMR_EL1) <= PRIO)
		sysreg_write(ICC_PMR_EL1, 0xFF);
	sysreg_write(ICC_BPR1_EL1, 0);
	sysreg_write(ICC_CTLR_EL1, sysreg_read(ICC_CTLR_EL1) & ~2ull);   /* EOImode 0 */
	sysreg_write(ICC_IGRPEN1_EL1, 1);
	a64_isb();
	return 3;
}

int gic_setup(uint8_t want, uintptr_t gicd, uintptr_t gicc, uintptr_t gicr)
{
	int sysregs = (a64_read(id_aa64pfr0_el1) >> 24 & 0xF) != 0;

	g.gicd = gicd;
	g.gicc = gicc;
	if (want == BMPROF_A64_GIC_AUTO)
		want = sysregs && arch_rev(gicd + GICD_PIDR2_V3) >= 3 ? 3 :
		       arch_rev(gicd + GICD_PIDR2_V2) == 1 || arch_rev(gicd + GICD_PIDR2_V2) == 2 ?
		       2 : 0;
	g.version = want;
	if (want == 3)
		return sysregs ? setup_v3(gicr) : -1;
	if (want == 2)
		return setup_v2();
	return -1;
}

/* A PPI's enable bit, group (1), priority and trigger (level) live in the redistributor
 * on v3 and in the banked first registers of the distributor on v2. */
void gic_ppi(uint32_t intid, int enable)
{
	uintptr_t base = g.version == 3 ? g.rd + GICR_SGI : g.gicd;
	uint32_t bit = 1u << intid;

	if (!enable) {
		mmio_write32(base + GICD_ICENABLER, bit);
		return;
	}
	if (g.version == 3)
		mmio_write32(base + GICD_IGROUPR, mmio_read32(base + GICD_IGROUPR) | bit);
	mmio_write8(base + GICD_IPRIORITYR + intid, PRIO);
	mmio_write32(base + GICD_ICFGR + 4, mmio_read32(base + GICD_ICFGR + 4) &
		     ~(2u << 2 * (intid - 16)));
	mmio_write32(base + GICD_ISENABLER, bit);
}

uint32_t gic_ack(void)
{
	if (g.version == 3)
		return (uint32_t)sysreg_read(ICC_IAR1_EL1) & 0xFFFFFF;
	return mmio_read32(g.gicc + GICC_IAR) & 0x3FF;
}

void gic_eoi(uint32_t intid)
{
	if (g.version == 3)
		sysreg_write(ICC_EOIR1_EL1, intid);
	else
		mmio_write32(g.gicc + GICC_EOIR, intid);
}
