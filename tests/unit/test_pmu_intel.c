/* SPDX-License-Identifier: BSD-2-Clause */
/* The Intel PMU driver (target/arch/x86_64/pmu_intel.c) against the MSR model
 * (msr_model.c), alone and under the arch-neutral PMU layer (target/core/pmu_*.c).
 * Expected register values are spelled out from the SDM's bit definitions, not taken from
 * the driver's own constants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "msr_model.c"
#include "../../target/arch/x86_64/pmu_intel.c"
#include "../../target/arch/x86_64/pebs.c"
#include "core_fixture.h"
#include "wire.h"

#define FX 32              /* BMPROF_PMU_FIXED_BASE */
#define USR (1ull << 16)
#define OS (1ull << 17)
#define EDGE (1ull << 18)
#define INT (1ull << 20)
#define ANY (1ull << 21)
#define EN (1ull << 22)
#define INV (1ull << 23)
#define CMASK(n) ((uint64_t)(n) << 24)
#define W40 ((1ull << 40) - 1)
#define W48 ((1ull << 48) - 1)

static const struct bmprof_pmu_ops *const ops = &bmprof_pmu_intel;
static struct bmprof_pmu_caps caps;

static void probe_ok(const struct mm_cpu *c)
{
	mm_reset(c);
	memset(&caps, 0xEE, sizeof caps);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(mm.faults, 0);
}

/* ---- probing ---- */

static void test_probe_core2(void **s)
{
	(void)s;
	probe_ok(&mm_core2);
	assert_int_equal(caps.vendor, BMPROF_VENDOR_INTEL);
	assert_int_equal(caps.version, 2);
	assert_int_equal(caps.ngp, 2);
	assert_int_equal(caps.gp_width, 40);
	assert_int_equal(caps.nfixed, 3);
	assert_int_equal(caps.fixed_width, 40);
	assert_int_equal(caps.fixed_kind[0], BMPROF_FIXED_INSTRUCTIONS);
	assert_int_equal(caps.fixed_kind[1], BMPROF_FIXED_CYCLES);
	assert_int_equal(caps.fixed_kind[2], BMPROF_FIXED_REF_CYCLES);
	assert_int_equal(caps.can_interrupt, 1);
	assert_int_equal(caps.gp_mask_for_event, 0);
	assert_int_equal(caps.no_irq_mask, 0);
	/* IA32_PMCx writes sign-extend bit 31: periods up to 2^31 - 1 */
	assert_int_equal(caps.max_period, 0x7FFFFFFF);
	/* left stopped and clean */
	assert_int_equal(mm.global_ctrl, 0);
	assert_int_equal(mm.fixed_ctrl, 0);
	assert_int_equal(mm.evtsel[0] | mm.evtsel[1], 0);
	assert_int_equal(mm.pmc[0], 0);
}

static void test_probe_skylake(void **s)
{
	(void)s;
	probe_ok(&mm_skylake);
	assert_int_equal(caps.version, 4);
	assert_int_equal(caps.ngp, 4);
	assert_int_equal(caps.gp_width, 48);
	assert_int_equal(caps.nfixed, 3);
	assert_int_equal(caps.fixed_width, 48);
	/* full-width writes: half the width (2^47 - 1) */
	assert_int_equal(caps.max_period, (1ull << 47) - 1);
}

static void test_probe_sapphire_rapids(void **s)
{
	(void)s;
	probe_ok(&mm_sapphire);
	assert_int_equal(caps.version, 5);
	assert_int_equal(caps.ngp, 8);
	assert_int_equal(caps.nfixed, 4);
	assert_int_equal(caps.fixed_kind[3], BMPROF_FIXED_SLOTS);
	/* AnyThread is deprecated (CPUID.0AH:EDX[15]) */
	assert_false(ops->event_ok(0x3C | ANY));
	assert_true(ops->event_ok(0x3C));
}

static void test_probe_v5_fixed_bitmap(void **s)
{
	(void)s;
	probe_ok(&mm_v5_gap);
	/* ECX = 1001b, EDX[4:0] = 0: fixed counters 0 and 3 */
	assert_int_equal(caps.nfixed, 4);
	assert_int_equal(caps.fixed_kind[0], BMPROF_FIXED_INSTRUCTIONS);
	assert_int_equal(caps.fixed_kind[1], BMPROF_FIXED_NONE);
	assert_int_equal(caps.fixed_kind[2], BMPROF_FIXED_NONE);
	assert_int_equal(caps.fixed_kind[3], BMPROF_FIXED_SLOTS);
	/* absent ones are never touched (their IA32_FIXED_CTR_CTRL bits are reserved) */
	ops->program(FX + 1, 0, 1);
	ops->write(FX + 2, 5);
	assert_int_equal(ops->read(FX + 2), 0);
	ops->program(FX + 3, 0, 1);
	assert_int_equal(mm.fixed_ctrl, 0xBull << 12);
	/* EBX bit 2: UnHalted Reference Cycles (3CH/01H) is not available */
	assert_false(ops->event_ok(0x013C));
	assert_true(ops->event_ok(0x003C));
}

static void test_probe_v1(void **s)
{
	(void)s;
	/* version 1 has no global MSRs: any access to them would fail the test */
	probe_ok(&mm_core_duo);
	assert_int_equal(caps.version, 1);
	assert_int_equal(caps.ngp, 2);
	assert_int_equal(caps.nfixed, 0);
	assert_int_equal(caps.gp_width, 40);
}

static void test_probe_v2_fixed_quirk(void **s)
{
	(void)s;
	/* a bare-metal version 2 that reports no fixed counters has three */
	probe_ok(&mm_core2_quirk);
	assert_int_equal(caps.nfixed, 3);
	assert_int_equal(caps.fixed_width, 40);
	ops->program(FX + 1, 0, 0);
	ops->enable(1ull << (FX + 1));
	mm_advance(FX + 1, 7);
	assert_int_equal(ops->read(FX + 1), 7);
}

static void test_probe_absent(void **s)
{
	(void)s;
	/* KVM here: CPUID.0AH is 0, and the MSRs #GP: nothing may be touched */
	mm_reset(&mm_kvm_nopmu);
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.accesses, 0);
	/* QEMU TCG reports AuthenticAMD */
	mm_reset(&mm_tcg_qemu64);
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.accesses, 0);
	/* a hypervisor advertising version 2 whose MSRs read 0: the read-back catches it */
	mm_reset(&mm_intel_hv_fake);
	assert_int_equal(ops->probe(&caps), -1);
	mm_reset(&mm_intel_hv_fake);
	mm.fixup = 0;
	assert_int_equal(ops->probe(&caps), -1);
}

static void test_probe_freeze_refused(void **s)
{
	(void)s;
	/* a hypervisor that #GPs on FREEZE_PERFMON_ON_PMI: tried safely, then never set */
	mm_reset(&mm_kvm_vpmu);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(mm.faults, 1);
	assert_int_equal(caps.version, 2);
	assert_int_equal(caps.ngp, 8);
	ops->program(0, 0x3C, 1);
	ops->write(0, W48 + 1 - 10);
	ops->enable(1);
	assert_int_equal(mm.debugctl, 0);
	mm_advance(0, 10);
	assert_true(mm.pmi);
	assert_int_equal(mm.global_ctrl, 1);          /* no freeze */
	assert_int_equal(ops->overflow(), 1);
	/* no #GP fixup: under a hypervisor the bit is not even tried */
	mm_reset(&mm_kvm_vpmu);
	mm.fixup = 0;
	assert_int_equal(ops->probe(&caps), 0);
	unsigned before = mm.accesses;
	ops->program(0, 0x3C, 1);
	ops->enable(1);
	assert_int_equal(mm.debugctl, 0);
	assert_int_equal(mm.accesses - before, 2);   /* IA32_PERFEVTSEL0, IA32_PERF_GLOBAL_CTRL */
}

static void test_spurious_pmi_unfreezes(void **s)
{
	(void)s;
	/* an overflow folded and acknowledged before its PMI was handled: the PMI finds no
	 * overflow but the freeze it caused must still be lifted */
	probe_ok(&mm_skylake);
	ops->program(0, 0x3C, 1);
	ops->program(1, 0xC0, 0);
	ops->write(0, W48 + 1 - 10);
	ops->enable(3);
	mm_advance(0, 10);
	assert_int_equal(mm.global_status >> 59 & 1, 1);
	ops->ack(ops->overflow());
	mm.global_status |= 1ull << 59;              /* the freeze of a PMI raised again */
	assert_int_equal(ops->overflow(), 0);
	assert_int_equal(mm.global_status, 0);
	mm_advance(1, 4);
	assert_int_equal(ops->read(1), 4);
	/* version 2: the freeze cleared IA32_PERF_GLOBAL_CTRL */
	probe_ok(&mm_core2);
	ops->program(0, 0x3C, 1);
	ops->enable(1);
	mm.global_ctrl = 0;
	assert_int_equal(ops->overflow(), 0);
	assert_int_equal(mm.global_ctrl, 1);
}

static void test_probe_max_leaf(void **s)
{
	(void)s;
	/* CPUID.0AH past the maximum leaf returns another leaf's data: not a PMU */
	struct mm_cpu c = mm_skylake;
	c.max_leaf = 5;
	mm_reset(&c);
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.accesses, 0);
}

/* ---- programming ---- */

static void test_program_evtsel(void **s)
{
	(void)s;
	probe_ok(&mm_skylake);
	/* UnHalted Core Cycles, interrupting */
	ops->program(0, 0x3C, 1);
	assert_int_equal(mm.evtsel[0], 0x3C | USR | OS | INT | EN);
	assert_int_equal(mm.evtsel[0], 0x53003C);
	/* event C2H umask 01H, edge, inv, cmask 3, counting */
	ops->program(1, 0x01C2 | EDGE | INV | CMASK(3), 0);
	assert_int_equal(mm.evtsel[1], 0x01C2 | EDGE | INV | CMASK(3) | USR | OS | EN);
	/* AnyThread (version 3 and 4) */
	ops->program(2, 0x00C0 | ANY, 0);
	assert_int_equal(mm.evtsel[2], 0xC0 | ANY | USR | OS | EN);
	/* control bits in a spec are the driver's to set */
	ops->program(3, 0x4F2E | INT | EN | (1ull << 19), 0);
	assert_int_equal(mm.evtsel[3], 0x4F2E | USR | OS | EN);
	/* IA32_PERF_GLOBAL_CTRL holds them until enable() */
	assert_int_equal(mm.global_ctrl, 0);
	mm_advance(0, 10);
	assert_int_equal(mm.pmc[0], 0);
	ops->enable(0xF);
	assert_int_equal(mm.global_ctrl, 0xF);
	mm_advance(0, 10);
	assert_int_equal(ops->read(0), 10);
	/* reprogramming stops the counter */
	ops->program(0, 0xC4, 0);
	assert_int_equal(mm.global_ctrl, 0xE);
	ops->clear(1);
	assert_int_equal(mm.evtsel[1], 0);
	assert_int_equal(mm.global_ctrl, 0xC);
}

static void test_event_ok(void **s)
{
	(void)s;
	struct mm_cpu c = mm_core2;

	probe_ok(&mm_core2);
	assert_true(ops->event_ok(0x412E));
	assert_true(ops->event_ok(0x01C2 | EDGE | INV | CMASK(255)));
	assert_true(ops->event_ok(0x3C | USR | OS | INT | EN));
	/* AnyThread is version 3 up */
	assert_false(ops->event_ok(0x3C | ANY));
	/* bits above 31 (AMD's event[11:8]) are not Intel's */
	assert_false(ops->event_ok(0x1000000C0ull));
	/* EBX bit 5 (branch instructions retired) and length 6: bits 6 and up absent too */
	c.leafa[0] = 0x06280202;
	c.leafa[1] = 1u << 5;
	probe_ok(&c);
	assert_true(ops->event_ok(0x003C));
	assert_true(ops->event_ok(0x412E));
	assert_false(ops->event_ok(0x00C4));
	assert_false(ops->event_ok(0x00C5));
	assert_false(ops->event_ok(0x01A4));
	assert_true(ops->event_ok(0x01C4));    /* another umask: not the architectural event */
}

static void test_fixed_ctrl_fields(void **s)
{
	(void)s;
	probe_ok(&mm_core2);
	/* 4 bits per counter: OS (1), USR (2), PMI (8) */
	ops->program(FX + 1, 0, 1);
	assert_int_equal(mm.fixed_ctrl, 0xB0);
	ops->program(FX + 0, 0, 0);
	assert_int_equal(mm.fixed_ctrl, 0xB3);
	ops->program(FX + 2, 0, 1);
	assert_int_equal(mm.fixed_ctrl, 0xBB3);
	ops->enable(1ull << (FX + 0) | 1ull << (FX + 2));
	assert_int_equal(mm.global_ctrl, 5ull << 32);
	mm_advance(FX + 0, 3);
	mm_advance(FX + 1, 3);
	assert_int_equal(ops->read(FX + 0), 3);
	assert_int_equal(ops->read(FX + 1), 0);
	ops->clear(FX + 1);
	assert_int_equal(mm.fixed_ctrl, 0xB03);
	ops->disable(1ull << (FX + 0));
	assert_int_equal(mm.global_ctrl, 4ull << 32);
	mm_advance(FX + 0, 3);
	assert_int_equal(ops->read(FX + 0), 3);
}

static void test_write_full_width(void **s)
{
	(void)s;
	probe_ok(&mm_skylake);
	/* a period beyond 2^31 goes in whole through IA32_A_PMCx */
	ops->write(0, W48 + 1 - 3000000000ull);
	assert_int_equal(mm.pmc[0], W48 + 1 - 3000000000ull);
	assert_int_equal(ops->read(0), W48 + 1 - 3000000000ull);
	/* fixed counters take full-width writes */
	ops->write(FX + 1, W48 - 4);
	assert_int_equal(mm.fixed[1], W48 - 4);
	/* values are cut to the width (a write past it would #GP) */
	ops->write(2, ~0ull);
	assert_int_equal(mm.pmc[2], W48);
}

static void test_write_sign_extended(void **s)
{
	(void)s;
	probe_ok(&mm_core2);
	/* minus a period of at most 2^31: bit 31 set, sign-extended to 40 bits */
	ops->write(0, W40 + 1 - 1000);
	assert_int_equal(mm.pmc[0], W40 + 1 - 1000);
	ops->write(1, W40 + 1 - (1ull << 31));
	assert_int_equal(mm.pmc[1], W40 + 1 - (1ull << 31));
	assert_int_equal(ops->read(1), W40 + 1 - (1ull << 31));
	/* small counts are exact too */
	ops->write(0, 12345);
	assert_int_equal(mm.pmc[0], 12345);
	/* a value bit 31 cannot produce: the counter restarts at 0 and read() adds the rest */
	ops->write(0, 5000000000ull);
	assert_int_equal(mm.pmc[0], 0);
	assert_int_equal(ops->read(0), 5000000000ull);
	ops->program(0, 0xC0, 0);
	ops->enable(1);
	mm_advance(0, 10);
	assert_int_equal(ops->read(0), 5000000010ull);
	/* and a later exact write drops the offset */
	ops->write(0, W40 + 1 - 64);
	assert_int_equal(ops->read(0), W40 + 1 - 64);
	assert_int_equal(mm.pmc[0], W40 + 1 - 64);
}

/* ---- overflow, status, freeze ---- */

static void test_overflow_legacy_freeze(void **s)
{
	(void)s;
	probe_ok(&mm_core2);
	ops->program(0, 0xC0, 1);
	ops->program(1, 0x3C, 0);
	ops->write(0, W40 + 1 - 100);
	ops->enable(3);
	assert_int_equal(mm.debugctl & (1 << 12), 1 << 12);   /* FREEZE_PERFMON_ON_PMI */
	mm_advance(0, 99);
	assert_false(mm.pmi);
	assert_int_equal(ops->overflow(), 0);
	mm_advance(0, 1);
	assert_true(mm.pmi);
	assert_int_equal(mm.global_status, 1);
	/* version 2 freeze: IA32_PERF_GLOBAL_CTRL cleared by the CPU */
	assert_int_equal(mm.global_ctrl, 0);
	mm_advance(1, 5);
	assert_int_equal(ops->read(1), 0);
	assert_int_equal(ops->overflow(), 1);
	ops->write(0, W40 + 1 - 100);
	ops->ack(1);
	assert_int_equal(mm.global_status, 0);
	assert_int_equal(mm.global_ctrl, 3);
	mm_advance(1, 5);
	assert_int_equal(ops->read(1), 5);
	/* no interrupting counter left: no freeze */
	ops->clear(0);
	assert_int_equal(mm.debugctl & (1 << 12), 0);
}

static void test_overflow_v4_ctr_frz(void **s)
{
	(void)s;
	probe_ok(&mm_skylake);
	ops->program(FX + 1, 0, 1);
	ops->program(0, 0xC4, 0);
	ops->write(FX + 1, W48 + 1 - 50);
	ops->enable(1ull << (FX + 1) | 1);
	assert_int_equal(mm.debugctl & (1 << 12), 1 << 12);
	mm_advance(FX + 1, 60);
	assert_true(mm.pmi);
	/* version 4: CTR_Frz (bit 59) set, IA32_PERF_GLOBAL_CTRL untouched, all counters stop */
	assert_int_equal(mm.global_status, 1ull << 33 | 1ull << 59);
	assert_int_equal(mm.global_ctrl, 1ull << 33 | 1);
	assert_int_equal(ops->read(FX + 1), 0);      /* stopped at the overflow */
	mm_advance(0, 5);
	assert_int_equal(ops->read(0), 0);
	assert_int_equal(ops->overflow(), 1ull << 33);
	/* IA32_PERF_GLOBAL_STATUS_RESET clears the overflow and CTR_Frz: counting resumes */
	ops->ack(1ull << 33);
	assert_int_equal(mm.global_status, 0);
	mm_advance(0, 5);
	assert_int_equal(ops->read(0), 5);
	ops->disable(1ull << (FX + 1));
	assert_int_equal(mm.debugctl & (1 << 12), 0);
}

static void test_overflow_counting_counter(void **s)
{
	(void)s;
	probe_ok(&mm_sapphire);
	/* a counting counter that wraps sets its status bit but raises no PMI; overflow()
	 * reports interrupting counters only, and ack() clears the other bits too */
	ops->program(3, 0xC0, 0);
	ops->program(4, 0x3C, 1);
	ops->write(3, W48 - 1);
	ops->write(4, W48 + 1 - 1000);
	ops->enable(1 << 3 | 1 << 4);
	mm_advance(3, 5);
	assert_false(mm.pmi);
	assert_int_equal(mm.global_status, 1 << 3);
	assert_int_equal(ops->overflow(), 0);
	mm_advance(4, 1000);
	assert_true(mm.pmi);
	assert_int_equal(ops->overflow(), 1 << 4);
	ops->ack(1 << 4);
	assert_int_equal(mm.global_status, 0);
}

static void test_overflow_v1(void **s)
{
	(void)s;
	probe_ok(&mm_core_duo);
	ops->program(0, 0x3C, 1);
	ops->program(1, 0xC0, 0);
	/* stopped until enable(): EN clear */
	assert_int_equal(mm.evtsel[0], 0x3C | USR | OS | INT);
	ops->write(0, W40 + 1 - 50);
	ops->enable(3);
	assert_int_equal(mm.evtsel[0], 0x3C | USR | OS | INT | EN);
	assert_int_equal(mm.evtsel[1], 0xC0 | USR | OS | EN);
	mm_advance(1, 70);
	mm_advance(0, 49);
	assert_int_equal(ops->overflow(), 0);
	mm_advance(0, 11);
	assert_true(mm.pmi);
	/* the top bit went clear; the counting counter is never reported */
	assert_int_equal(ops->overflow(), 1);
	ops->write(0, W40 + 1 - 50);
	ops->ack(1);
	assert_int_equal(ops->overflow(), 0);
	ops->disable(1);
	assert_int_equal(mm.evtsel[0], 0x3C | USR | OS | INT);
	mm_advance(0, 100);
	assert_int_equal(ops->read(0), W40 + 1 - 50);
}

/* ---- under the neutral PMU layer ---- */

static struct cpu *cpu_new(void) { return cpu_new_seeded(0, 42); }

static void add(struct bmprof_pmu *p, const char *spec)
{
	assert_int_equal(bmprof_pmu_parse_event(p, spec, (unsigned)strlen(spec),
						BMPROF_VENDOR_INTEL), 0);
}

/* The armed period of a counter holding v (minus the period, in width w). */
static uint64_t armed(uint64_t v, uint64_t w) { return (w - v + 1) & w; }

static void test_layer_sampling_skylake(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);
	uint64_t per1, per2, first;

	mm_reset(&mm_skylake);
	add(p, "1:cycles:100000");
	add(p, "2:intel.0xc4/amd.0xc2:50000:branches");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_SAMPLE), 2);
	assert_true(bmprof_pmu_sampling(p));
	assert_int_equal(p->ev[0].counter, FX + 1);
	assert_int_equal(p->ev[1].counter, 0);
	bmprof_pmu_start(p, 1000);
	assert_int_equal(mm.fixed_ctrl, 0xB0);
	assert_int_equal(mm.evtsel[0], 0xC4 | USR | OS | INT | EN);
	assert_int_equal(mm.global_ctrl, 1ull << 33 | 1);
	per1 = armed(mm.fixed[1], W48);
	per2 = armed(mm.pmc[0], W48);
	assert_true(per1 >= 100000 - 100000 / 16 && per1 <= 100000);
	assert_true(per2 >= 50000 - 50000 / 16 && per2 <= 50000);

	/* cycles overflow: one sample at the PMI's pc, re-armed, acknowledged, unfrozen */
	first = per1;
	/* the freeze stops the counter at the overflow: the 7 events after it are not counted */
	mm_advance(FX + 1, per1 + 7);
	assert_true(mm.pmi);
	assert_int_equal(bmprof_pmu_overflow(p, 0x401000), 1ull << 33);
	assert_int_equal(table_count(&cpu->c, 0x401000, 1), 1);
	assert_int_equal(p->ev[0].samples, 1);
	assert_int_equal(mm.global_status, 0);
	per1 = armed(mm.fixed[1], W48);
	assert_true(per1 >= 100000 - 100000 / 16 && per1 <= 100000);
	assert_int_equal(p->ev[0].count, first);
	/* counting resumes after the ack */
	mm.pmi = 0;
	mm_advance(0, per2);
	assert_true(mm.pmi);
	assert_int_equal(bmprof_pmu_overflow(p, 0x402000), 1);
	assert_int_equal(table_count(&cpu->c, 0x402000, 2), 1);
	assert_int_equal(p->ev[1].count, per2);
	bmprof_pmu_stop(p, 2000);
	assert_int_equal(mm.global_ctrl, 0);
	assert_int_equal(mm.fixed_ctrl, 0);
	assert_int_equal(mm.evtsel[0], 0);
	assert_int_equal(mm.debugctl & (1 << 12), 0);
	free(p);
	cpu_free(cpu);
}

static void test_layer_period_cap(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* 3e9 events does not fit a sign-extended 32-bit write: cut to 2^31 - 1 */
	mm_reset(&mm_core2);
	add(p, "1:0xc0:3000000000:insts");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_SAMPLE), 1);
	assert_int_equal(p->ev[0].period, 0x7FFFFFFF);
	bmprof_pmu_start(p, 0);
	uint64_t per = armed(mm.pmc[0], W40);
	assert_true(per <= 0x7FFFFFFF && per >= 0x7FFFFFFF - 0x7FFFFFFF / 16);
	mm_advance(0, per - 1);
	assert_false(mm.pmi);
	mm_advance(0, 1);
	assert_true(mm.pmi);
	assert_int_equal(bmprof_pmu_overflow(p, 0x1000), 1);
	assert_int_equal(cpu->c.taken, 1);
	bmprof_pmu_stop(p, 10);
	free(p);
	cpu_free(cpu);
}

static void test_layer_counting_multiplexed(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* core 2: 2 GP counters, so four GP events need two groups; instructions stays on
	 * fixed counter 0 throughout */
	mm_reset(&mm_core2);
	add(p, "1:instructions:0");
	add(p, "2:0xc4:0");
	add(p, "3:0xc5:0");
	add(p, "4:0x412e:0");
	add(p, "5:0x4f2e:0");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_COUNT), 5);
	assert_int_equal(p->ngroups, 2);
	assert_false(bmprof_pmu_sampling(p));
	bmprof_pmu_start(p, 0);
	/* no interrupt anywhere in counting mode */
	assert_int_equal(mm.evtsel[0] & INT, 0);
	assert_int_equal(mm.fixed_ctrl & 0x888, 0);
	assert_int_equal(mm.debugctl & (1 << 12), 0);
	/* group 0 runs: its counters count what is injected */
	unsigned g0a = p->ev[1].counter, g0b = p->ev[2].counter;
	mm_advance(g0a, 1000);
	mm_advance(g0b, 2000);
	mm_advance(FX + 0, 500);
	bmprof_pmu_tick(p, 100);
	/* group 1 now; the counters of group 0 were reprogrammed for events 4 and 5 */
	assert_int_equal(p->cur, 1);
	assert_int_equal(mm.evtsel[p->ev[3].counter], 0x412E | USR | OS | EN);
	assert_int_equal(mm.global_ctrl, 1ull << 32 | 3);
	mm_advance(p->ev[3].counter, 30);
	mm_advance(p->ev[4].counter, 40);
	mm_advance(FX + 0, 500);
	bmprof_pmu_stop(p, 200);
	assert_int_equal(p->ev[0].count, 1000);
	assert_int_equal(p->ev[0].running, 200);
	assert_int_equal(p->ev[1].count, 1000);
	assert_int_equal(p->ev[2].count, 2000);
	assert_int_equal(p->ev[3].count, 30);
	assert_int_equal(p->ev[4].count, 40);
	assert_int_equal(p->ev[1].enabled, 200);
	assert_int_equal(p->ev[1].running, 100);
	assert_false(mm.pmi);
	free(p);
	cpu_free(cpu);
}

static void test_layer_counting_wrap_legacy(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* a 40-bit counter counted across its wrap, folded on ticks */
	mm_reset(&mm_core2);
	add(p, "1:0xc0:0");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_COUNT), 1);
	bmprof_pmu_start(p, 0);
	mm_advance(0, W40 - 10);
	bmprof_pmu_tick(p, 1);
	mm_advance(0, 20);
	bmprof_pmu_tick(p, 2);
	bmprof_pmu_stop(p, 3);
	assert_int_equal(p->ev[0].count, W40 + 10);
	free(p);
	cpu_free(cpu);
}

static void test_layer_unsupported_and_absent(void **s)
{
	(void)s;
	struct bmprof_pmu *p = calloc(1, sizeof *p);
	struct mm_cpu c = mm_skylake;

	c.leafa[1] = 1u << 5;          /* no Branch Instructions Retired */
	mm_reset(&c);
	add(p, "1:0xc4:100000");
	add(p, "2:0xc0:100000");
	assert_int_equal(bmprof_pmu_setup(p, ops, 0, BMPROF_PMU_SAMPLE), 1);
	assert_int_equal(p->ev[0].status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(p->ev[0].reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(p->ev[1].status, BMPROF_EVST_ACTIVE);

	/* no PMU: the sampling events fall back to the timer, nothing touched */
	memset(p, 0, sizeof *p);
	mm_reset(&mm_kvm_nopmu);
	add(p, "1:cycles:100000");
	add(p, "2:0xc0:0");
	assert_int_equal(bmprof_pmu_setup(p, ops, 0, BMPROF_PMU_SAMPLE), 0);
	assert_int_equal(p->ev[0].status, BMPROF_EVST_FALLBACK);
	assert_int_equal(p->ev[0].reason, BMPROF_EVR_NO_PMU);
	assert_int_equal(p->ev[1].status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(p->ev[1].reason, BMPROF_EVR_NO_PMU);
	assert_false(bmprof_pmu_sampling(p));
	assert_int_equal(mm.accesses, 0);
	free(p);
}

/* ---- TOPDOWN.SLOTS and PERF_METRICS (SDM vol. 3B "Performance Metrics") ---- */

#define SLOTS_EN (1ull << 35)      /* IA32_PERF_GLOBAL_CTRL: fixed counter 3 */
#define METRICS_EN (1ull << 48)    /* IA32_PERF_GLOBAL_CTRL: PERF_METRICS */
#define FIXED3_OS_USR (0x3ull << 12)   /* IA32_FIXED_CTR_CTRL bits 15:12, OS | USR */

static void test_probe_perf_metrics(void **s)
{
	(void)s;
	/* Ice Lake: 4 fields on pseudo fixed counters 8..11, which never interrupt */
	probe_ok(&mm_icelake);
	assert_int_equal(caps.nfixed, 12);
	assert_int_equal(caps.fixed_kind[3], BMPROF_FIXED_SLOTS);
	assert_int_equal(caps.fixed_kind[8], BMPROF_FIXED_TD_RETIRING);
	assert_int_equal(caps.fixed_kind[9], BMPROF_FIXED_TD_BAD_SPEC);
	assert_int_equal(caps.fixed_kind[10], BMPROF_FIXED_TD_FE_BOUND);
	assert_int_equal(caps.fixed_kind[11], BMPROF_FIXED_TD_BE_BOUND);
	assert_int_equal(caps.no_irq_mask, 0xFull << (FX + 8));
	assert_int_equal(mm.global_ctrl, 0);
	/* Sapphire Rapids (family 6 model 8FH): the 4 level-2 fields too */
	probe_ok(&mm_sapphire_pm);
	assert_int_equal(caps.nfixed, 16);
	assert_int_equal(caps.fixed_kind[12], BMPROF_FIXED_TD_HEAVY_OPS);
	assert_int_equal(caps.fixed_kind[13], BMPROF_FIXED_TD_BR_MISPREDICT);
	assert_int_equal(caps.fixed_kind[14], BMPROF_FIXED_TD_FETCH_LAT);
	assert_int_equal(caps.fixed_kind[15], BMPROF_FIXED_TD_MEM_BOUND);
	/* without IA32_PERF_CAPABILITIES[15]: SLOTS only */
	probe_ok(&mm_sapphire);
	assert_int_equal(caps.nfixed, 4);
	assert_int_equal(caps.no_irq_mask, 0);
}

static void test_layer_perf_metrics_level1(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	mm_reset(&mm_icelake);
	add(p, "1:topdown-retiring:0");
	add(p, "2:topdown-bad-spec:0");
	add(p, "3:topdown-fe-bound:0");
	add(p, "4:topdown-be-bound:0");
	add(p, "5:topdown-slots:0");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_COUNT), 5);
	assert_int_equal(p->ngroups, 1);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(p->ev[i].counter, FX + 8 + i);
	assert_int_equal(p->ev[4].counter, FX + 3);
	assert_string_equal(p->ev[0].name, "topdown-retiring");
	mm.perf_metrics = 0x1234;      /* stale fractions from before the run */
	bmprof_pmu_start(p, 0);
	/* SLOTS and PERF_METRICS zeroed together, fixed counter 3 counts in both rings with
	 * no PMI, and GLOBAL_CTRL turns on fixed counter 3 and PERF_METRICS */
	assert_int_equal(mm.perf_metrics, 0);
	assert_int_equal(mm.perf_metrics_writes, 1);
	assert_int_equal(mm.fixed[3], 0);
	assert_int_equal(mm.fixed_ctrl, FIXED3_OS_USR);
	assert_int_equal(mm.global_ctrl, SLOTS_EN | METRICS_EN);
	assert_true(mm_counting(FX + 3));

	/* 2,550,000 slots; PERF_METRICS bytes [7:0] 0x40 Retiring, [15:8] 0x20 Bad
	 * Speculation, [23:16] 0x30 Frontend Bound, [31:24] 0x6f Backend Bound */
	mm_advance(FX + 3, 2550000);
	mm.perf_metrics = 0x6f302040;
	bmprof_pmu_tick(p, 100);
	assert_int_equal(p->ev[0].count, 640000);    /* 2550000 * 64 / 255 */
	assert_int_equal(p->ev[1].count, 320000);    /* 2550000 * 32 / 255 */
	assert_int_equal(p->ev[2].count, 480000);    /* 2550000 * 48 / 255 */
	assert_int_equal(p->ev[3].count, 1110000);   /* 2550000 * 111 / 255 */
	assert_int_equal(p->ev[4].count, 2550000);

	/* 255,000 more slots, Retiring's fraction down to 0x3a: 2805000 * 58 / 255 = 638000
	 * is below what was counted, so the count stays; Backend Bound 0x75: 2805000 * 117 /
	 * 255 = 1287000 */
	mm_advance(FX + 3, 255000);
	mm.perf_metrics = 0x75302A3Aull;
	bmprof_pmu_stop(p, 200);
	assert_int_equal(p->ev[0].count, 640000);
	assert_int_equal(p->ev[1].count, 462000);    /* 2805000 * 42 / 255 */
	assert_int_equal(p->ev[3].count, 1287000);
	assert_int_equal(p->ev[4].count, 2805000);
	assert_int_equal(p->ev[0].flags & BMPROF_PMUEV_WRAPPED, 0);
	assert_int_equal(p->ev[0].enabled, 200);
	assert_int_equal(p->ev[0].running, 200);
	assert_int_equal(mm.global_ctrl, 0);
	assert_int_equal(mm.fixed_ctrl, 0);
	free(p);
	cpu_free(cpu);
}

static void test_layer_perf_metrics_level2(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* the fields alone: fixed counter 3 still counts, for them */
	mm_reset(&mm_sapphire_pm);
	add(p, "1:topdown-heavy-ops:0");
	add(p, "2:topdown-br-mispredict:0");
	add(p, "3:topdown-fetch-lat:0");
	add(p, "4:topdown-mem-bound:0");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_COUNT), 4);
	bmprof_pmu_start(p, 0);
	assert_int_equal(mm.fixed_ctrl, FIXED3_OS_USR);
	assert_int_equal(mm.global_ctrl, SLOTS_EN | METRICS_EN);
	/* 255,000 slots; bytes [39:32] 0x10, [47:40] 0x08, [55:48] 0x20, [63:56] 0x80 */
	mm_advance(FX + 3, 255000);
	mm.perf_metrics = 0x8020081000000000ull;
	bmprof_pmu_stop(p, 10);
	assert_int_equal(p->ev[0].count, 16000);     /* 255000 * 16 / 255 */
	assert_int_equal(p->ev[1].count, 8000);      /* 255000 * 8 / 255 */
	assert_int_equal(p->ev[2].count, 32000);     /* 255000 * 32 / 255 */
	assert_int_equal(p->ev[3].count, 128000);    /* 255000 * 128 / 255 */
	free(p);
	cpu_free(cpu);
}

static void test_layer_perf_metrics_absent(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* no IA32_PERF_CAPABILITIES[15]: the fields are unavailable (UNSUPPORTED), SLOTS
	 * still counts on fixed counter 3, and PERF_METRICS is never touched */
	mm_reset(&mm_sapphire);
	add(p, "1:topdown-retiring:0");
	add(p, "2:topdown-slots:0");
	add(p, "3:topdown-heavy-ops:100000");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_COUNT), 1);
	assert_int_equal(p->ev[0].status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(p->ev[0].reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(p->ev[2].status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(p->ev[2].reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(p->ev[1].counter, FX + 3);
	bmprof_pmu_start(p, 0);
	assert_int_equal(mm.fixed_ctrl, FIXED3_OS_USR);
	assert_int_equal(mm.global_ctrl, SLOTS_EN);
	mm_advance(FX + 3, 1234);
	bmprof_pmu_stop(p, 10);
	assert_int_equal(p->ev[1].count, 1234);
	assert_int_equal(mm.faults, 0);
	free(p);
	cpu_free(cpu);
}

static void test_layer_perf_metrics_sampling(void **s)
{
	(void)s;
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* a field asked to sample is counted only (it has no overflow) */
	mm_reset(&mm_icelake);
	add(p, "1:cycles:100000");
	add(p, "2:topdown-retiring:100000");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_SAMPLE), 2);
	assert_int_equal(p->ev[1].status, BMPROF_EVST_ACTIVE);
	assert_int_equal(p->ev[1].reason, BMPROF_EVR_NO_OVERFLOW);
	assert_false(p->ev[1].flags & BMPROF_PMUEV_SAMPLES);
	bmprof_pmu_start(p, 0);
	assert_int_equal(mm.fixed_ctrl, 0xB0 | FIXED3_OS_USR);
	assert_int_equal(mm.global_ctrl, 1ull << 33 | SLOTS_EN | METRICS_EN);
	mm_advance(FX + 3, 510);
	mm.perf_metrics = 0x80;        /* 510 * 128 / 255 */
	bmprof_pmu_stop(p, 10);
	assert_int_equal(p->ev[1].count, 256);
	free(p);
	cpu_free(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_core2),
		cmocka_unit_test(test_probe_skylake),
		cmocka_unit_test(test_probe_sapphire_rapids),
		cmocka_unit_test(test_probe_v5_fixed_bitmap),
		cmocka_unit_test(test_probe_v1),
		cmocka_unit_test(test_probe_v2_fixed_quirk),
		cmocka_unit_test(test_probe_absent),
		cmocka_unit_test(test_probe_freeze_refused),
		cmocka_unit_test(test_spurious_pmi_unfreezes),
		cmocka_unit_test(test_probe_max_leaf),
		cmocka_unit_test(test_program_evtsel),
		cmocka_unit_test(test_event_ok),
		cmocka_unit_test(test_fixed_ctrl_fields),
		cmocka_unit_test(test_write_full_width),
		cmocka_unit_test(test_write_sign_extended),
		cmocka_unit_test(test_overflow_legacy_freeze),
		cmocka_unit_test(test_overflow_v4_ctr_frz),
		cmocka_unit_test(test_overflow_counting_counter),
		cmocka_unit_test(test_overflow_v1),
		cmocka_unit_test(test_layer_sampling_skylake),
		cmocka_unit_test(test_layer_period_cap),
		cmocka_unit_test(test_layer_counting_multiplexed),
		cmocka_unit_test(test_layer_counting_wrap_legacy),
		cmocka_unit_test(test_layer_unsupported_and_absent),
		cmocka_unit_test(test_probe_perf_metrics),
		cmocka_unit_test(test_layer_perf_metrics_level1),
		cmocka_unit_test(test_layer_perf_metrics_level2),
		cmocka_unit_test(test_layer_perf_metrics_absent),
		cmocka_unit_test(test_layer_perf_metrics_sampling),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
