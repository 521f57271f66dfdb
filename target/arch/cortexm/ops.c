/* SPDX-License-Identifier: BSD-2-Clause */
/* Cortex-M under the arch-neutral sampler (target/core/sampler.h): SysTick as both the
 * timebase and the deadline timer, PRIMASK as the interrupt mask, one CPU (hardware id 0).
 *
 * SysTick is a 24-bit down-counter: it reaches 0 (setting COUNTFLAG and pending its
 * exception) L ticks after it was reloaded with L, and reloads on the tick after that. The
 * 64-bit time is base + L - VAL, base being when the running countdown was loaded; each
 * COUNTFLAG seen moves base on by L + 1. A count of 0 is the tick before the next reload:
 * base - 1. Arming a deadline d ticks away loads L = d - 1 and clears the count, which
 * reloads on the next tick and interrupts d ticks after now. The time never goes back
 * (last): a reload a tick late cannot make it. */
#include "bmprof_cortexm.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "cm.h"

static struct {
	uint64_t base;       /* the time the running countdown was (or will be) loaded */
	uint64_t last;       /* the latest time returned */
	uint64_t deadline;   /* the armed deadline */
	uint32_t load;       /* the reload value in SYST_RVR */
	uint8_t armed;       /* a deadline is armed */
	uint8_t short_of;    /* it is more than one SysTick period away */
} tb;

static void restart(uint64_t now, uint32_t ticks)
{
	tb.load = ticks - 1;
	cm_write(CM_SYST_RVR, tb.load);
	cm_write(CM_SYST_CVR, 0);
	cm_write(CM_ICSR, CM_ICSR_PENDSTCLR);
	tb.base = now + 1;
}

void cm_timebase_start(void)
{
	uint32_t f = cm_irq_save();

	cm_write(CM_SYST_CSR, 0);
	tb = (__typeof__(tb)){ 0 };
	restart(0, CM_SYST_MAX);
	tb.base = 0;
	cm_write(CM_SYST_CSR, CM_CSR_ENABLE | CM_CSR_TICKINT | CM_CSR_CLKSOURCE);
	cm_irq_restore(f);
}

uint64_t cm_now_masked(void)
{
	uint32_t v = cm_read(CM_SYST_CVR);
	uint64_t t;

	if (cm_read(CM_SYST_CSR) & CM_CSR_COUNTFLAG) {
		tb.base += (uint64_t)tb.load + 1;
		v = cm_read(CM_SYST_CVR);
	}
	t = v ? tb.base + tb.load - v : tb.base - 1;
	if (t < tb.last)
		t = tb.last;
	tb.last = t;
	return t;
}

uint64_t bmprof_cm_now(void)
{
	uint32_t f = cm_irq_save();
	uint64_t t = cm_now_masked();

	cm_irq_restore(f);
	return t;
}

static void arm(uint64_t deadline)
{
	uint64_t now = cm_now_masked(), d = deadline > now ? deadline - now : 1;

	tb.deadline = deadline;
	tb.armed = 1;
	tb.short_of = d > CM_SYST_MAX;
	restart(now, d < 2 ? 2 : d > CM_SYST_MAX ? CM_SYST_MAX : (uint32_t)d);
}

int cm_armed(void) { return tb.armed; }
int cm_short_of_deadline(void) { return tb.armed && tb.short_of; }
void cm_rearm(void) { arm(tb.deadline); }

static uint64_t now(void) { return cm_now_masked(); }
static uint64_t irq_save(void) { return cm_irq_save(); }
static void irq_restore(uint64_t f) { cm_irq_restore((uint32_t)f); }
static void irq_enable(void) { cm_irq_enable(); }
static void irq_disable(void) { cm_irq_disable(); }
static uint64_t hwid(void) { return 0; }
static void timer_start(struct bmprof_scpu *c) { (void)c; }
static void timer_arm(struct bmprof_scpu *c, uint64_t deadline) { (void)c; arm(deadline); }

/* Back to running free, so the time goes on; a pending tick is taken down. */
static void timer_stop(struct bmprof_scpu *c)
{
	(void)c;
	tb.armed = 0;
	restart(cm_now_masked(), CM_SYST_MAX);
}

static void pmi_enable(struct bmprof_scpu *c, int on) { (void)c; (void)on; }

static const struct bmprof_sampler_ops ops = {
	.name = "cortex-m systick", .arch = BMPROF_ARCH_CORTEX_M, .now = now,
	.irq_save = irq_save, .irq_restore = irq_restore, .irq_enable = irq_enable,
	.irq_disable = irq_disable, .hwid = hwid, .cpuinfo = cm_cpuinfo,
	.timer_start = timer_start, .timer_arm = timer_arm, .timer_stop = timer_stop,
	.pmi_enable = pmi_enable, .unwind = cm_stack_unwind,
};

const struct bmprof_sampler_ops *cm_ops(void) { return &ops; }
