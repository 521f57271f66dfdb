/* SPDX-License-Identifier: BSD-2-Clause */
/* AArch64 under the arch-neutral sampler (target/core/sampler.h): the generic timer's count
 * as the timebase, DAIF.I, MPIDR_EL1's affinity as the hardware id, the EL1 virtual or
 * physical timer as a compare-value deadline timer (it interrupts while enabled, unmasked
 * and its count, CNTVCT_EL0 or CNTPCT_EL0, is at or past CVAL), and the PMU's and the timer's PPIs
 * enabled in bmprof's GIC or through the integrator's irq_enable. One ops table per timer;
 * a64_ops() picks one at init. The GIC's acknowledge and EOI are the dispatch's
 * (sampler.c), so a tick has no ack of its own. */
#include "bmprof_aarch64.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "a64.h"

#define AFFINITY_MASK 0xFF00FFFFFFull   /* MPIDR_EL1 Aff3, Aff2, Aff1, Aff0 */
#define CTL_ENABLE 1u

/* Set by a64_ops(), read-only afterwards. */
static struct {
	uint16_t timer_intid, pmu_intid;
	uint8_t gic;                     /* enum bmprof_a64_gic in use */
	void (*irq_enable)(uint32_t intid, int enable);
} o;

struct gic_cpu a64_gic[BMPROF_A64_MAX_CPUS];

int a64_ppi(unsigned idx, uint32_t intid, int enable)
{
	if (o.gic != BMPROF_A64_GIC_NONE)
		gic_private(&a64_gic[idx], intid, enable);
	else if (o.irq_enable)
		o.irq_enable(intid, enable);
	else
		return 0;
	return 1;
}

static uint64_t now_v(void)
{
	a64_isb();
	return a64_read(cntvct_el0);
}

static uint64_t now_p(void)
{
	a64_isb();
	return a64_read(cntpct_el0);
}

static uint64_t irq_save(void) { return a64_irq_save(); }
static void irq_restore(uint64_t f) { a64_irq_restore(f); }
static void irq_enable(void) { a64_irq_enable(); }
static void irq_disable(void) { a64_irq_disable(); }
static uint64_t hwid(void) { return a64_read(mpidr_el1) & AFFINITY_MASK; }

static void timer_start(struct bmprof_scpu *c) { a64_ppi(c->idx, o.timer_intid, 1); }

/* Writing a later CVAL also takes the (level) interrupt down. */
static void arm_v(struct bmprof_scpu *c, uint64_t deadline)
{
	(void)c;
	a64_write(cntv_cval_el0, deadline);
	a64_write(cntv_ctl_el0, CTL_ENABLE);
	a64_isb();
}

static void arm_p(struct bmprof_scpu *c, uint64_t deadline)
{
	(void)c;
	a64_write(cntp_cval_el0, deadline);
	a64_write(cntp_ctl_el0, CTL_ENABLE);
	a64_isb();
}

void a64_timer_off(uint8_t which)
{
	if (which == BMPROF_A64_TIMER_PHYSICAL)
		a64_write(cntp_ctl_el0, 0);
	else
		a64_write(cntv_ctl_el0, 0);
	a64_isb();
}

static void stop_v(struct bmprof_scpu *c)
{
	a64_timer_off(BMPROF_A64_TIMER_VIRTUAL);
	a64_ppi(c->idx, o.timer_intid, 0);
}

static void stop_p(struct bmprof_scpu *c)
{
	a64_timer_off(BMPROF_A64_TIMER_PHYSICAL);
	a64_ppi(c->idx, o.timer_intid, 0);
}

static void pmi_enable(struct bmprof_scpu *c, int on) { a64_ppi(c->idx, o.pmu_intid, on); }

#define A64_COMMON \
	.arch = BMPROF_ARCH_AARCH64, .irq_save = irq_save, .irq_restore = irq_restore, \
	.irq_enable = irq_enable, .irq_disable = irq_disable, .hwid = hwid, \
	.cpuinfo = cpuinfo_fill, .timer_start = timer_start, .pmi_enable = pmi_enable

static const struct bmprof_sampler_ops virtual_ops = {
	.name = "aarch64 cntv", A64_COMMON, .now = now_v, .timer_arm = arm_v, .timer_stop = stop_v,
};

static const struct bmprof_sampler_ops physical_ops = {
	.name = "aarch64 cntp", A64_COMMON, .now = now_p, .timer_arm = arm_p, .timer_stop = stop_p,
};

const struct bmprof_sampler_ops *a64_ops(uint8_t timer, uint16_t timer_intid,
					 uint16_t pmu_intid, uint8_t gic,
					 void (*irq_enable_fn)(uint32_t, int))
{
	o.timer_intid = timer_intid;
	o.pmu_intid = pmu_intid;
	o.gic = gic;
	o.irq_enable = irq_enable_fn;
	return timer == BMPROF_A64_TIMER_PHYSICAL ? &physical_ops : &virtual_ops;
}
