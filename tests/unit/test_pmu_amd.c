/* SPDX-License-Identifier: BSD-2-Clause */
/* The AMD PMU driver (target/arch/x86_64/pmu_amd.c) against the MSR model (msr_model.c),
 * alone and under the arch-neutral PMU layer (target/core/pmu_*.c). Expected register
 * values are spelled out from the APM's bit definitions, not the driver's constants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "msr_model.c"
#include "../../target/arch/x86_64/pmu_amd.c"
#include "core_fixture.h"
#include "wire.h"

#define USR (1ull << 16)
#define OS (1ull << 17)
#define EDGE (1ull << 18)
#define INT (1ull << 20)
#define EN (1ull << 22)
#define INV (1ull << 23)
#define CMASK(n) ((uint64_t)(n) << 24)
#define EVHI(n) ((uint64_t)(n) << 32)   /* event select bits 11:8 */
#define W48 ((1ull << 48) - 1)

static const struct bmprof_pmu_ops *const ops = &bmprof_pmu_amd;
static struct bmprof_pmu_caps caps;

static void probe_ok(const struct mm_cpu *c)
{
	mm_reset(c);
	memset(&caps, 0xEE, sizeof caps);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(mm.faults, 0);
}

/* ---- probing ---- */

static void test_probe_legacy(void **s)
{
	(void)s;
	probe_ok(&mm_amd_k10);
	assert_int_equal(caps.vendor, BMPROF_VENDOR_AMD);
	assert_int_equal(caps.version, 1);
	assert_int_equal(caps.ngp, 4);
	assert_int_equal(caps.nfixed, 0);
	assert_int_equal(caps.gp_width, 48);
	assert_int_equal(caps.can_interrupt, 1);
	assert_int_equal(caps.max_period, (1ull << 47) - 1);
	/* the legacy MSRs (the model has no 0xC0010200 block here: using it would fail) */
	ops->program(3, 0x76, 0);
	assert_int_equal(mm_peek(0xC0010003), 0x76 | USR | OS);
	ops->write(3, 99);
	assert_int_equal(mm_peek(0xC0010007), 99);
}

static void test_probe_core_ext(void **s)
{
	(void)s;
	probe_ok(&mm_amd_zen2);
	assert_int_equal(caps.ngp, 6);
	assert_int_equal(caps.version, 1);
	/* PERF_CTL n at 0xC0010200 + 2n, PERF_CTR n at 0xC0010201 + 2n */
	ops->program(5, 0xC0, 1);
	assert_int_equal(mm_peek(0xC001020A), 0xC0 | USR | OS | INT);
	ops->write(5, 1234);
	assert_int_equal(mm_peek(0xC001020B), 1234);
	ops->write(1, 77);
	assert_int_equal(mm_peek(0xC0010005), 77);      /* counter 1 through its legacy alias */
}

static void test_probe_perfmon_v2(void **s)
{
	(void)s;
	probe_ok(&mm_amd_zen4);
	assert_int_equal(caps.version, 2);
	assert_int_equal(caps.ngp, 6);
	assert_int_equal(mm_peek(0xC0000301), 0);        /* PerfCntrGlobalCtl: all stopped */
}

static void test_probe_absent(void **s)
{
	(void)s;
	/* QEMU TCG: AuthenticAMD family 15 under a hypervisor, MSRs read 0 and drop writes */
	mm_reset(&mm_tcg_qemu64);
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.faults, 0);
	mm_reset(&mm_tcg_max);
	assert_int_equal(ops->probe(&caps), -1);
	/* CPUID 0x80000022 past the maximum leaf says nothing (QEMU returns leaf 0xD's data) */
	assert_false(amd_cpu[0].v2);
	/* a hypervisor that #GPs: the safe access catches it */
	mm_reset(&mm_amd_hv_strict);
	assert_int_equal(ops->probe(&caps), -1);
	assert_true(mm.faults > 0);
	/* with no #GP fixup, an unvouched MSR is never touched */
	mm_reset(&mm_amd_hv_strict);
	mm.fixup = 0;
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.accesses, 0);
	mm_reset(&mm_tcg_qemu64);
	mm.fixup = 0;
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.accesses, 0);
	/* not AMD */
	mm_reset(&mm_skylake);
	assert_int_equal(ops->probe(&caps), -1);
	assert_int_equal(mm.accesses, 0);
	/* bare metal vouches for the legacy counters: no fixup needed */
	mm_reset(&mm_amd_k10);
	mm.fixup = 0;
	assert_int_equal(ops->probe(&caps), 0);
}

/* ---- programming ---- */

static void test_program_encodings(void **s)
{
	(void)s;
	probe_ok(&mm_amd_zen2);
	/* PMCx076 cycles not in halt, interrupting: EN comes with enable() */
	ops->program(0, 0x76, 1);
	assert_int_equal(mm.evtsel[0], 0x76 | USR | OS | INT);
	/* event select 0x1C0 (bits 35:32 = 1), umask 0x0F, edge, inv, cmask 2 */
	ops->program(1, EVHI(1) | 0x0FC0 | EDGE | INV | CMASK(2), 0);
	assert_int_equal(mm.evtsel[1], EVHI(1) | 0x0FC0 | EDGE | INV | CMASK(2) | USR | OS);
	/* control bits in a spec are the driver's */
	ops->program(2, 0xC2 | INT | EN, 0);
	assert_int_equal(mm.evtsel[2], 0xC2 | USR | OS);
	assert_true(ops->event_ok(EVHI(0xF) | 0xFFFF | EDGE | INV | CMASK(255)));
	assert_false(ops->event_ok(1ull << 21));        /* Intel's AnyThread: reserved here */
	assert_false(ops->event_ok(1ull << 40));        /* HostOnly is not an event bit */
	assert_false(ops->event_ok(EVHI(0x10)));
	/* enable / disable: the EN bit */
	ops->enable(3);
	assert_int_equal(mm.evtsel[0], 0x76 | USR | OS | INT | EN);
	assert_int_equal(mm.evtsel[1] & EN, EN);
	assert_int_equal(mm.evtsel[2] & EN, 0);
	mm_advance(0, 10);
	mm_advance(2, 10);
	assert_int_equal(ops->read(0), 10);
	assert_int_equal(ops->read(2), 0);
	ops->disable(1);
	assert_int_equal(mm.evtsel[0], 0x76 | USR | OS | INT);
	mm_advance(0, 10);
	assert_int_equal(ops->read(0), 10);
	ops->clear(1);
	assert_int_equal(mm.evtsel[1], 0);
	/* values are cut to 48 bits */
	ops->write(4, ~0ull);
	assert_int_equal(mm.pmc[4], W48);
}

static void test_perfmon_v2_global(void **s)
{
	(void)s;
	probe_ok(&mm_amd_zen4);
	/* EN stays set; PerfCntrGlobalCtl starts and stops the counters together */
	ops->program(0, 0x76, 1);
	ops->program(4, 0xC0, 0);
	assert_int_equal(mm.evtsel[0], 0x76 | USR | OS | INT | EN);
	assert_int_equal(mm.evtsel[4], 0xC0 | USR | OS | EN);
	assert_int_equal(mm.global_ctrl, 0);
	mm_advance(4, 3);
	assert_int_equal(ops->read(4), 0);
	ops->enable(1 << 0 | 1 << 4);
	assert_int_equal(mm.global_ctrl, 0x11);
	mm_advance(4, 3);
	assert_int_equal(ops->read(4), 3);
	ops->write(0, W48 + 1 - 20);
	mm_advance(0, 25);
	assert_true(mm.pmi);
	assert_int_equal(mm.global_status, 1);
	assert_int_equal(ops->overflow(), 1);
	ops->write(0, W48 + 1 - 20);
	ops->ack(1);
	assert_int_equal(mm.global_status, 0);            /* PerfCntrGlobalStatusClr */
	/* a counting counter's wrap: no PMI, not reported, cleared by the next ack */
	mm.pmi = 0;
	ops->write(4, W48);
	mm_advance(4, 2);
	assert_false(mm.pmi);
	assert_int_equal(mm.global_status, 1 << 4);
	assert_int_equal(ops->overflow(), 0);
	ops->ack(0);
	assert_int_equal(mm.global_status, 0);
	ops->disable(1 << 4);
	assert_int_equal(mm.global_ctrl, 1);
}

static void test_overflow_legacy(void **s)
{
	(void)s;
	probe_ok(&mm_amd_k10);
	/* no status register: a counter armed at minus the period overflowed when its top
	 * bit (47) went clear */
	ops->program(1, 0x76, 1);
	ops->program(2, 0xC0, 0);
	ops->write(1, W48 + 1 - 1000);
	ops->enable(6);
	mm_advance(2, 5);
	mm_advance(1, 999);
	assert_int_equal(ops->overflow(), 0);
	mm_advance(1, 3);
	assert_true(mm.pmi);
	assert_int_equal(ops->overflow(), 2);
	ops->write(1, W48 + 1 - 1000);
	ops->ack(2);
	assert_int_equal(ops->overflow(), 0);
	/* stopped counters are not reported */
	mm_advance(1, 1000);
	ops->disable(2);
	assert_int_equal(ops->overflow(), 0);
}

/* ---- under the neutral PMU layer ---- */

static struct cpu *cpu_new(void) { return cpu_new_seeded(0, 7); }

static void add(struct bmprof_pmu *p, const char *spec)
{
	assert_int_equal(bmprof_pmu_parse_event(p, spec, (unsigned)strlen(spec),
						BMPROF_VENDOR_AMD), 0);
}

static uint64_t armed(uint64_t v) { return (W48 - v + 1) & W48; }

/* Cycles and branches sampled, instructions counted, on a CPU given by c. */
static void sample_three(const struct mm_cpu *c)
{
	struct cpu *cpu = cpu_new();
	struct bmprof_pmu *p = calloc(1, sizeof *p);
	uint64_t per;

	mm_reset(c);
	add(p, "1:cycles:200000");
	add(p, "2:intel.0xc4/amd.0xc2:20000:branches");
	add(p, "3:instructions:0");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_SAMPLE), 3);
	/* no fixed counters: the words take AMD's encodings */
	assert_int_equal(p->ev[0].encoding, 0x76);
	assert_int_equal(p->ev[2].encoding, 0xC0);
	bmprof_pmu_start(p, 0);
	assert_int_equal(mm.evtsel[0], 0x76 | USR | OS | INT | EN);
	assert_int_equal(mm.evtsel[1], 0xC2 | USR | OS | INT | EN);
	assert_int_equal(mm.evtsel[2], 0xC0 | USR | OS | EN);
	per = armed(mm.pmc[1]);
	assert_true(per >= 20000 - 20000 / 16 && per <= 20000);
	mm_advance(2, 12345);
	mm_advance(1, per + 3);
	assert_true(mm.pmi);
	assert_int_equal(bmprof_pmu_overflow(p, 0xABC0), 2);
	assert_int_equal(table_count(&cpu->c, 0xABC0, 2), 1);
	/* re-armed so the next overflow comes a new period after the last one */
	per = armed(mm.pmc[1]) + 3;
	assert_true(per >= 20000 - 20000 / 16 && per <= 20000);
	assert_int_equal(ops->overflow(), 0);
	if (mm.amd_v2)
		assert_int_equal(mm.global_status, 0);
	bmprof_pmu_tick(p, 50);
	bmprof_pmu_stop(p, 100);
	assert_int_equal(p->ev[2].count, 12345);
	assert_int_equal(p->ev[2].running, 100);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(mm.evtsel[i], 0);
	free(p);
	cpu_free(cpu);
}

static void test_layer_legacy(void **s)
{
	(void)s;
	sample_three(&mm_amd_k10);
}

static void test_layer_perfmon_v2(void **s)
{
	(void)s;
	sample_three(&mm_amd_zen4);
	assert_int_equal(mm.global_ctrl, 0);
}

static void test_layer_multiplex_six(void **s)
{
	(void)s;
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	/* eight events on six counters, two of them a group that must stay together */
	mm_reset(&mm_amd_zen2);
	add(p, "1:0x76:0");
	add(p, "2:0xc0:0");
	add(p, "3:0xc2:0");
	add(p, "4:0xc3:0");
	add(p, "5:0x40:0");
	add(p, "6:0x41:0");
	add(p, "7:0x60:0:a:1");
	add(p, "8:0x64:0:b:1");
	assert_int_equal(bmprof_pmu_setup(p, ops, 0, BMPROF_PMU_COUNT), 8);
	assert_int_equal(p->ngroups, 2);
	assert_int_equal(p->ev[6].group, p->ev[7].group);
	bmprof_pmu_start(p, 0);
	mm_advance(p->ev[0].counter, 11);
	bmprof_pmu_tick(p, 10);
	mm_advance(p->ev[6].counter, 22);
	mm_advance(p->ev[7].counter, 33);
	bmprof_pmu_stop(p, 20);
	assert_int_equal(p->ev[0].count, 11);
	assert_int_equal(p->ev[6].count, 22);
	assert_int_equal(p->ev[7].count, 33);
	assert_int_equal(p->ev[0].running, 10);
	assert_int_equal(p->ev[6].running, 10);
	free(p);
}

static void test_layer_tcg_fallback(void **s)
{
	(void)s;
	struct bmprof_pmu *p = calloc(1, sizeof *p);

	mm_reset(&mm_tcg_qemu64);
	add(p, "1:cycles:100000");
	assert_int_equal(bmprof_pmu_setup(p, ops, 0, BMPROF_PMU_SAMPLE), 0);
	assert_int_equal(p->ev[0].status, BMPROF_EVST_FALLBACK);
	assert_int_equal(p->ev[0].reason, BMPROF_EVR_NO_PMU);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_legacy),
		cmocka_unit_test(test_probe_core_ext),
		cmocka_unit_test(test_probe_perfmon_v2),
		cmocka_unit_test(test_probe_absent),
		cmocka_unit_test(test_program_encodings),
		cmocka_unit_test(test_perfmon_v2_global),
		cmocka_unit_test(test_overflow_legacy),
		cmocka_unit_test(test_layer_legacy),
		cmocka_unit_test(test_layer_perfmon_v2),
		cmocka_unit_test(test_layer_multiplex_six),
		cmocka_unit_test(test_layer_tcg_fallback),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
