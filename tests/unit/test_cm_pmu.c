/* SPDX-License-Identifier: BSD-2-Clause */
/* The Armv8.1-M PMU driver (target/arch/cortexm/pmu_v81m.c) and the DWT cycle counter
 * detection (dwt.c) against the PPB register model (ppb_model.c), alone and under the
 * neutral PMU layer. Expected register writes are spelled out from the Armv8.1-M ARM's
 * register map, not the driver's constants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ppb_model.c"
#include "../../target/arch/cortexm/pmu_v81m.c"
#include "../../target/arch/cortexm/dwt.c"
#include "core_fixture.h"
#include "wire.h"

#define DEMCR 0xE000EDFCu
#define TRCENA (1u << 24)
#define MON_EN (1u << 16)
#define EVCNTR(n) (0xE0003000u + 4u * (n))
#define CCNTR 0xE000307Cu
#define EVTYPER(n) (0xE0003400u + 4u * (n))
#define CNTENSET 0xE0003C00u
#define CNTENCLR 0xE0003C20u
#define INTENSET 0xE0003C40u
#define INTENCLR 0xE0003C60u
#define OVSCLR 0xE0003C80u
#define CTRL 0xE0003E04u
#define DFSR 0xE000ED30u
#define DWT_CTRL 0xE0001000u
#define DWT_CYCCNT 0xE0001004u

static const struct bmprof_pmu_ops *const ops = &bmprof_pmu_v81m;
static struct bmprof_pmu_caps caps;

static void test_probe_m55(void **s)
{
	(void)s;
	pm_reset(&pm_m55);
	assert_int_equal(ops->probe(&caps), 0);
	const struct pm_write want[] = { { DEMCR, TRCENA | MON_EN, 4 } };
	pm_expect(want, 1);
	assert_int_equal(caps.vendor, BMPROF_VENDOR_ARM);
	assert_int_equal(caps.ngp, 8);
	assert_int_equal(caps.gp_width, 16);
	assert_int_equal(caps.nfixed, 1);
	assert_int_equal(caps.fixed_width, 32);
	assert_int_equal(caps.fixed_kind[0], BMPROF_FIXED_CYCLES);
	assert_int_equal(caps.can_interrupt, 1);
}

static void test_probe_absent_and_halting_debug(void **s)
{
	(void)s;
	pm_reset(&pm_qemu);
	assert_int_equal(ops->probe(&caps), -1);    /* PMU_TYPE reads 0 */
	pm_reset(&pm_m55);
	pm.dhcsr = 1;                                /* C_DEBUGEN: a debugger halts on events */
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(caps.can_interrupt, 0);
}

static void test_program_enable_clear(void **s)
{
	(void)s;
	pm_reset(&pm_m55);
	assert_int_equal(ops->probe(&caps), 0);
	pm_log_clear();
	ops->program(3, 0x0008, 1);                  /* INST_RETIRED, interrupting */
	ops->program(BMPROF_PMU_FIXED_BASE, 0, 0);   /* the cycle counter, counting only */
	ops->write(3, 0x1FFF0);                      /* cut to the 16-bit width */
	ops->write(BMPROF_PMU_FIXED_BASE, 0xFFFFFF00u);
	ops->enable(1u << 3 | 1ull << BMPROF_PMU_FIXED_BASE);
	const struct pm_write want[] = {
		{ EVTYPER(3), 0x0008, 4 },
		{ INTENSET, 1u << 3, 4 },
		{ INTENCLR, 1u << 31, 4 },
		{ EVCNTR(3), 0xFFF0, 4 },
		{ CCNTR, 0xFFFFFF00u, 4 },
		{ CNTENSET, 1u << 3 | 1u << 31, 4 },
		{ CTRL, 1, 4 },
	};
	pm_expect(want, 7);
	pm_count(3, 5);
	pm_count(31, 0x10);
	assert_int_equal(ops->read(3), 0xFFF5);
	assert_int_equal(ops->read(BMPROF_PMU_FIXED_BASE), 0xFFFFFF10u);
	/* the 16-bit counter wraps: overflow status, DebugMonitor pending, DFSR.PMU */
	pm_count(3, 0x20);
	assert_int_equal(pm.debugmon, 1);
	assert_true(pm.demcr & (1u << 17));
	assert_int_equal(ops->overflow(), 1u << 3);
	assert_int_equal(bmprof_v81m_overflow_pending(), 1);
	assert_int_equal(bmprof_v81m_overflow_pending(), 0);   /* DFSR.PMU cleared */
	/* the cycle counter wraps without interrupting */
	pm_count(31, 0x100);
	assert_int_equal(pm.debugmon, 1);
	assert_int_equal(ops->overflow(), 1u << 3 | 1ull << BMPROF_PMU_FIXED_BASE);
	pm_log_clear();
	ops->ack(1u << 3 | 1ull << BMPROF_PMU_FIXED_BASE);
	ops->disable(1u << 3);
	ops->clear(3);
	const struct pm_write want2[] = {
		{ OVSCLR, 1u << 3 | 1u << 31, 4 },
		{ CNTENCLR, 1u << 3, 4 },
		{ CNTENCLR, 1u << 3, 4 },
		{ INTENCLR, 1u << 3, 4 },
		{ OVSCLR, 1u << 3, 4 },
		{ EVTYPER(3), 0, 4 },
	};
	pm_expect(want2, 6);
	assert_int_equal(ops->overflow(), 0);
	(void)DFSR;
}

static void add(struct bmprof_pmu *p, const char *spec)
{
	assert_int_equal(bmprof_pmu_parse_event(p, spec, (unsigned)strlen(spec),
						BMPROF_VENDOR_ARM), 0);
}

/* Cycles on PMU_CCNTR counting, INST_RETIRED sampling on a 16-bit event counter through
 * the DebugMonitor, a raw event counted, under the neutral layer. */
static void test_layer_sampling(void **s)
{
	struct cpu *cpu = cpu_new_seeded(0, 7);
	struct bmprof_pmu *p = calloc(1, sizeof *p);
	uint32_t per;
	(void)s;

	pm_reset(&pm_m55);
	add(p, "1:instructions:20000");
	add(p, "2:cycles:0");
	add(p, "3:0x24:0:stall_backend");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_SAMPLE), 3);
	assert_int_equal(p->ev[0].encoding, 0x08);   /* INST_RETIRED */
	assert_int_equal(p->ev[1].counter, BMPROF_PMU_FIXED_BASE);
	bmprof_pmu_start(p, 0);
	assert_int_equal(pm.evtyper[0], 0x08);
	assert_int_equal(pm.evtyper[1], 0x24);
	assert_int_equal(pm.inten, 1);
	assert_int_equal(pm.cnten, 1u << 0 | 1u << 1 | 1u << 31);
	per = 0x10000 - pm.evcntr[0];
	assert_true(per >= 20000 - 20000 / 16 && per <= 20000);
	pm_count(1, 777);
	pm_count(31, 5000);
	pm_count(0, per + 2);
	assert_int_equal(pm.debugmon, 1);
	assert_int_equal(bmprof_v81m_overflow_pending(), 1);
	assert_int_equal(bmprof_pmu_overflow(p, 0x10000200), 1);
	assert_int_equal(table_count(&cpu->c, 0x10000200, 1), 1);
	per = 0x10000 - pm.evcntr[0] + 2;
	assert_true(per >= 20000 - 20000 / 16 && per <= 20000);
	assert_int_equal(pm.ovs, 0);
	bmprof_pmu_tick(p, 50);
	bmprof_pmu_stop(p, 100);
	assert_int_equal(p->ev[1].count, 5000);
	assert_int_equal(p->ev[2].count, 777);
	assert_int_equal(pm.cnten, 0);
	free(p);
	cpu_free(cpu);
}

/* A period past the 16-bit counters is cut to what they hold. */
static void test_layer_long_period(void **s)
{
	struct cpu *cpu = cpu_new_seeded(0, 3);
	struct bmprof_pmu *p = calloc(1, sizeof *p);
	(void)s;

	pm_reset(&pm_m55);
	add(p, "1:0x11:1000000:cpu_cycles");
	assert_int_equal(bmprof_pmu_setup(p, ops, &cpu->c, BMPROF_PMU_SAMPLE), 1);
	bmprof_pmu_start(p, 0);
	assert_true(p->ev[0].next <= 0xFFFF);
	bmprof_pmu_stop(p, 1);
	free(p);
	cpu_free(cpu);
}

/* The event numbers cm_pmu.h names are Arm's common ones (the armv8 rows of
 * analysis/events/arm_events.tsv, generated from Arm's PMU data; run from the repository
 * root). */
static void test_event_numbers_from_arm_data(void **s)
{
	static const struct { const char *name; unsigned code; } ev[] = {
#define E(n) { #n, BMPROF_CM_##n }
		E(SW_INCR), E(L1I_CACHE_REFILL), E(L1D_CACHE_REFILL), E(L1D_CACHE), E(LD_RETIRED),
		E(ST_RETIRED), E(INST_RETIRED), E(EXC_TAKEN), E(EXC_RETURN), E(PC_WRITE_RETIRED),
		E(BR_IMMED_RETIRED), E(BR_RETURN_RETIRED), E(BR_MIS_PRED), E(CPU_CYCLES), E(BR_PRED),
		E(MEM_ACCESS), E(L1I_CACHE), E(BUS_ACCESS), E(BUS_CYCLES), E(CHAIN),
		E(STALL_FRONTEND), E(STALL_BACKEND),
#undef E
	};
	unsigned found = 0;
	char line[1024];
	FILE *f = fopen("analysis/events/arm_events.tsv", "r");
	(void)s;

	if (!f)
		fail_msg("cannot open analysis/events/arm_events.tsv: run from the repository root");
	while (fgets(line, sizeof line, f)) {
		char pmu[32], name[128];
		unsigned code;

		if (sscanf(line, "%31[^\t]\t%x\t%127[^\t]", pmu, &code, name) != 3 ||
		    strcmp(pmu, "armv8"))
			continue;
		for (unsigned i = 0; i < sizeof ev / sizeof ev[0]; i++)
			if (!strcmp(ev[i].name, name)) {
				assert_int_equal(ev[i].code, code);
				found++;
			}
	}
	fclose(f);
	assert_int_equal(found, sizeof ev / sizeof ev[0]);
}

/* ---- DWT ---- */

static void test_cyccnt_present(void **s)
{
	(void)s;
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_cyccnt_start(), BMPROF_CYCCNT_OK);
	const struct pm_write want[] = {
		{ DEMCR, TRCENA, 4 },
		{ DWT_CYCCNT, 0x5A5A0000u, 4 },
		{ DWT_CTRL, 0x40000001u, 4 },     /* NUMCOMP 4 kept, CYCCNTENA */
	};
	pm_expect(want, 3);
	uint32_t a = bmprof_cyccnt_read(), b = bmprof_cyccnt_read();
	assert_true(b > a);
}

static void test_cyccnt_absent(void **s)
{
	(void)s;
	pm_reset(&pm_m0plus_like);
	assert_int_equal(bmprof_cyccnt_start(), BMPROF_CYCCNT_NONE);
	const struct pm_write want[] = { { DEMCR, TRCENA, 4 } };
	pm_expect(want, 1);
	pm_reset(&pm_qemu);
	assert_int_equal(bmprof_cyccnt_start(), BMPROF_CYCCNT_NO_DWT);
	assert_non_null(strstr(bmprof_cyccnt_text(BMPROF_CYCCNT_NO_DWT), "QEMU"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_m55),
		cmocka_unit_test(test_probe_absent_and_halting_debug),
		cmocka_unit_test(test_program_enable_clear),
		cmocka_unit_test(test_layer_sampling),
		cmocka_unit_test(test_layer_long_period),
		cmocka_unit_test(test_event_numbers_from_arm_data),
		cmocka_unit_test(test_cyccnt_present),
		cmocka_unit_test(test_cyccnt_absent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
