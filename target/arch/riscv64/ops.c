/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V (machine mode) under the arch-neutral sampler (target/core/sampler.h): the
 * CLINT's mtime as the timebase, mstatus.MIE, mhartid as the hardware id, this hart's
 * mtimecmp as a deadline timer (its interrupt, MTIP, is pending while mtime >= mtimecmp:
 * writing a later deadline takes it down), and mie.MTIE / mie.LCOFIE for the timer's and
 * the counter-overflow interrupt. */
#include "bmprof_riscv64.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "rv.h"
#include "rv_unwind.h"

#define MTIMECMP 0x4000u
#define MTIME 0xBFF8u

static uintptr_t clint = BMPROF_RV_VIRT_CLINT;

void rv_clint_setup(uintptr_t base) { clint = base ? base : BMPROF_RV_VIRT_CLINT; }

uint64_t rv_mtime(void) { return *(volatile uint64_t *)(clint + MTIME); }

static volatile uint64_t *mtimecmp(void)
{
	return (volatile uint64_t *)(clint + MTIMECMP + 8 * rv_csr_read(mhartid));
}

static uint64_t irq_save(void) { return rv_irq_save(); }
static void irq_restore(uint64_t f) { rv_irq_restore(f); }
static void irq_enable(void) { rv_irq_enable(); }
static void irq_disable(void) { rv_irq_disable(); }
static uint64_t hwid(void) { return rv_csr_read(mhartid); }

static void timer_start(struct bmprof_scpu *c)
{
	(void)c;
	rv_csr_set(mie, RV_MIE_MTIE);
}

static void timer_arm(struct bmprof_scpu *c, uint64_t deadline)
{
	(void)c;
	*mtimecmp() = deadline;
}

static void timer_stop(struct bmprof_scpu *c)
{
	(void)c;
	*mtimecmp() = ~0ull;
	rv_csr_clear(mie, RV_MIE_MTIE);
}

static void pmi_enable(struct bmprof_scpu *c, int on)
{
	(void)c;
	if (on)
		rv_csr_set(mie, RV_MIE_LCOFIE);
	else
		rv_csr_clear(mie, RV_MIE_LCOFIE);
}

/* mvendorid (JEDEC bank and id; 0 on QEMU), marchid, mimpid. */
static void cpuinfo(struct bmprof_hello *h)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t vendor = rv_csr_read(mvendorid), arch = rv_csr_read(marchid);
	const char *p = vendor ? "jedec-0x" : "riscv";
	unsigned i = 0;

	for (; p[i]; i++)
		h->vendor[i] = p[i];
	if (vendor)
		for (int s = 28; s >= 0 && i < 15; s -= 4)
			h->vendor[i++] = hex[vendor >> s & 0xF];
	for (; i < 16; i++)
		h->vendor[i] = 0;
	h->family = (uint32_t)vendor;
	h->model = (uint32_t)arch;
	h->stepping = (uint32_t)rv_csr_read(mimpid);
	h->signature = arch;
}

/* The trap frame (BMPROF_RV_FRAME_*) by DWARF number: x0 .. x31. */
static void raw_regs(const struct bmprof_regs *r, struct bmprof_raw *s)
{
	const uint64_t *f = r->frame;

	if (!f) {
		s->r[1] = r->lr;
		s->r[2] = r->sp;
		s->r[8] = r->fp;
		s->valid = 1u << 1 | 1u << 2 | 1u << 8;
		return;
	}
	s->r[0] = 0;
	for (unsigned i = 1; i < 32; i++)
		s->r[i] = f[i];
	s->valid = 0xffffffffu;
}

const struct bmprof_sampler_ops rv_ops = {
	.name = "riscv64 clint", .arch = BMPROF_ARCH_RISCV64, .now = rv_mtime,
	.irq_save = irq_save, .irq_restore = irq_restore, .irq_enable = irq_enable,
	.irq_disable = irq_disable, .hwid = hwid, .cpuinfo = cpuinfo,
	.timer_start = timer_start, .timer_arm = timer_arm, .timer_stop = timer_stop,
	.pmi_enable = pmi_enable, .leaf_caller = rv_leaf_caller, .fp_record = -16,
	.raw_regs = raw_regs, .raw_nregs = 32,
};
