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

/* The IRQ entry's frame (BMPROF_A64_FRAME_*) by DWARF number: x0 .. x30, 31 = sp, the
 * interrupted sp above the frame when it ran on SP_ELx, else SP_EL0 (which the handler,
 * on SP_EL1, leaves alone). */
static void raw_regs(const struct bmprof_regs *r, struct bmprof_raw *s)
{
	const uint64_t *f = r->frame;
	uint64_t sp = r->sp;

	if (!f) {
		s->r[29] = r->fp;
		s->r[30] = r->lr;
		s->valid = 3u << 29;
		if (sp) {
			s->r[31] = sp;
			s->valid |= 1u << 31;
		}
		return;
	}
	for (unsigned i = 0; i <= 18; i++)
		s->r[i] = f[BMPROF_A64_FRAME_X0 + i];
	for (unsigned i = 0; i < 10; i++)
		s->r[19 + i] = f[BMPROF_A64_FRAME_X19 + i];
	s->r[29] = f[BMPROF_A64_FRAME_X29];
	s->r[30] = f[BMPROF_A64_FRAME_X30];
	if (f[BMPROF_A64_FRAME_SPSR] & 1)
		sp = (uint64_t)(uintptr_t)f + BMPROF_A64_FRAME_BYTES;
	else
		__asm__ volatile("mrs %0, sp_el0" : "=r"(sp));
	s->r[31] = sp;
	s->valid = 0xffffffffu;
}

static int leaf_caller(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		       uint64_t *caller, uint64_t *fp);

#define A64_COMMON \
	.arch = BMPROF_ARCH_AARCH64, .irq_save = irq_save, .irq_restore = irq_restore, \
	.irq_enable = irq_enable, .irq_disable = irq_disable, .hwid = hwid, \
	.cpuinfo = cpuinfo_fill, .timer_start = timer_start, .pmi_enable = pmi_enable, \
	.leaf_caller = leaf_caller, .raw_regs = raw_regs, .raw_nregs = 32

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

/* ---- the unwind's first step ---- */

static int insn_at(const struct bmprof_unwind_env *e, uint64_t pc, uint32_t *insn)
{
	if ((pc & 3) || !bmprof_in_range(&e->code, pc, 4))
		return 0;
	*insn = *(const volatile uint32_t *)(uintptr_t)pc;
	return 1;
}

#define IS_STP_FP_LR(i) (((i) & 0xFF407FFFu) == 0xA9007BFDu)  /* stp x29, x30, [sp, ...] */
#define IS_ADD_FP_SP(i) (((i) & 0xFFC003FFu) == 0x910003FDu)  /* add x29, sp, #n (mov) */
#define IS_SUB_SP(i) (((i) & 0xFF8003FFu) == 0xD10003FFu)     /* sub sp, sp, #n */
#define IS_ADD_SP(i) (((i) & 0xFF8003FFu) == 0x910003FFu)     /* add sp, sp, #n */
#define IS_RET(i) ((i) == 0xD65F03C0u)                         /* ret */
#define IS_BL(i) (((i) & 0xFC000000u) == 0x94000000u)
#define IS_BLR(i) (((i) & 0xFFFFFC1Fu) == 0xD63F0000u)

/* A frame record is made by `stp x29, x30, [sp, #-n]!; mov x29, sp` (or `sub sp, sp, #n;
 * stp x29, x30, [sp, #m]; add x29, sp, #m`) and taken down by `ldp x29, x30, ...` before
 * `ret` (maybe with an `add sp` between). Until x29 is set and from the ldp on, x29 is the
 * caller's and x30 holds the return address: the caller is the link register for sure. A
 * leaf built without a frame record keeps x29 the caller's all along, which cannot be told
 * from the pc: then a link register that is a return address (after a bl or blr) goes in
 * as a candidate the host keeps only when it is not in the leaf's own function. */
static int leaf_caller(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		       uint64_t *caller, uint64_t *fp)
{
	uint32_t i, next, before;

	(void)fp;
	if (!r->lr || !insn_at(e, r->pc, &i))
		return 0;
	*caller = r->lr;
	if (IS_STP_FP_LR(i) || IS_ADD_FP_SP(i) || IS_RET(i))
		return 1;
	if (insn_at(e, r->pc + 4, &next) &&
	    ((IS_SUB_SP(i) && IS_STP_FP_LR(next)) || (IS_ADD_SP(i) && IS_RET(next))))
		return 1;
	if (insn_at(e, r->lr - 4, &before) && (IS_BL(before) || IS_BLR(before)))
		return 2;
	return 0;
}
