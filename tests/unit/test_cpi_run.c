/* SPDX-License-Identifier: BSD-2-Clause */
/* cpi_run.c and cpi_print.c: a profile's samples mapped onto a decoded function (after the
 * load bias), the events that play culprit roles recognised by name, the default event,
 * the one-line errors, the estimates for a loop whose count is known, the culprit texts,
 * and adding summaries. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <elf.h>
#include <math.h>
#include <string.h>

#include "cpi/cpi_print.h"
#include "cpi/cpi_run.h"
#include "profile.h"

/* gcc -O1: for (i = 0; i < n; i++) sink += i; at 0x401000 */
static const uint8_t loop_fn[] = {
	0x85, 0xff,                         /* 401000 test %edi,%edi */
	0x7e, 0x1a,                         /* 401002 jle 40101e */
	0xb8, 0x00, 0x00, 0x00, 0x00,       /* 401004 mov $0,%eax */
	0x8b, 0x15, 0xf1, 0x1f, 0x00, 0x00, /* 401009 mov 0x1ff1(%rip),%edx */
	0x01, 0xc2,                         /* 40100f add %eax,%edx */
	0x89, 0x15, 0xe9, 0x1f, 0x00, 0x00, /* 401011 mov %edx,0x1fe9(%rip) */
	0x83, 0xc0, 0x01,                   /* 401017 add $1,%eax */
	0x39, 0xc7,                         /* 40101a cmp %eax,%edi */
	0x75, 0xeb,                         /* 40101c jne 401009 */
	0xc3,                               /* 40101e ret */
};
static const uint64_t body[] = { 0x401009, 0x40100f, 0x401011, 0x401017, 0x40101a, 0x40101c };
#define BIAS 0x10000u

static void add_event(struct profile *p, uint16_t id, uint8_t source, const char *name,
		      uint64_t period)
{
	struct profile_event *e = &p->events[p->nevents++];

	memset(e, 0, sizeof *e);
	e->id = id;
	e->source = source;
	e->period = period;
	e->have_status = 1;
	e->status = BMPROF_EVST_ACTIVE;
	snprintf(e->name, sizeof e->name, "%s", name);
}

/* A timer profile (event 0) with s samples on each loop-body instruction (3 s on the add
 * after the load), loaded at BIAS; l1d-misses (event 1) sampled with 5 samples on the
 * store and 9 outside the function. */
static void make_profile(struct profile *p, uint64_t s)
{
	profile_init(p);
	p->have_hello = 1;
	p->hello.arch = BMPROF_ARCH_X86_64;
	p->hello.load_bias = BIAS;
	add_event(p, 0, BMPROF_SOURCE_TIMER, "timer", 1000000);
	add_event(p, 1, BMPROF_SOURCE_PMU, "l1d-misses", 2000);
	for (size_t k = 0; k < 6; k++)
		assert_int_equal(profile_add(p, 0, 0, body[k] + BIAS, k == 1 ? 3 * s : s), 0);
	assert_int_equal(profile_add(p, 0, 1, 0x401011 + BIAS, 5), 0);
	assert_int_equal(profile_add(p, 0, 1, 0x500000 + BIAS, 9), 0);
	/* outside the function: not its samples */
	assert_int_equal(profile_add(p, 0, 0, 0x401020 + BIAS, 77), 0);
}

static void decode(struct cpi_func *cf)
{
	char err[256];

	memset(cf, 0, sizeof *cf);
	assert_int_equal(insn_decode(EM_X86_64, loop_fn, sizeof loop_fn, 0x401000, NULL, NULL,
				     &cf->fn, err, sizeof err), 0);
	snprintf(cf->fn.name, sizeof cf->fn.name, "loop_fn");
}

static const struct cfg_block *block_at(const struct cpi_func *cf, uint64_t addr)
{
	long i = cfg_insn_at(&cf->cfg, addr);

	assert_true(i >= 0);
	return &cf->cfg.blocks[cf->cfg.block_of[i]];
}

static void test_loop_estimate(void **state)
{
	struct profile p;
	struct cpi_func cf;
	struct cpi_opts o = { .event = -1, .uarch = uarch_find("tcg"), .period = 1000 };
	char err[512], buf[256];

	(void)state;
	make_profile(&p, 1000);
	decode(&cf);
	assert_int_equal(cpi_func_analyze(&p, &o, &cf, err, sizeof err), 0);
	assert_int_equal(cf.event, 0);
	assert_int_equal(cf.fn_samples, 8000);
	assert_string_equal(cf.uarch_why, "--uarch");
	assert_string_equal(cf.period_why, "--period");
	/* the store's 5 samples of l1d-misses are its role's, at 2000 per sample */
	assert_int_equal(cf.ev_id[2], 1);
	assert_int_equal(cf.ev_total[2], 5);
	assert_true(fabs(cf.ev_period[2] - 2000) < 1e-9);
	assert_int_equal(cf.ev[2][cfg_insn_at(&cf.cfg, 0x401011)], 5);
	assert_int_equal(cf.ev_id[0], -1);
	assert_null(cf.ev[0]);
	/* S x P executions of the loop body, with high confidence */
	const struct cfg_block *bl = block_at(&cf, 0x401009);
	const struct dcpi_block *db = &cf.res.blocks[bl - cf.cfg.blocks];
	assert_int_equal(bl->n, 6);
	assert_true(fabs(db->execs - 1e6) < 1);
	assert_int_equal(db->conf, DCPI_CONF_HIGH);
	/* the add waits 2 cycles per execution: on the load it depends on */
	uint32_t add = (uint32_t)cfg_insn_at(&cf.cfg, 0x40100f);
	assert_true(fabs(cf.res.insns[add].dyn_stall - 2) < 1e-9);
	cpi_culprits_text(&cf, add, buf, sizeof buf);
	assert_non_null(strstr(buf, "dep on 0x401009"));
	assert_non_null(strstr(buf, "D-cache"));
	assert_string_equal(cpi_static_text(&cf, add, buf, sizeof buf), "");
	assert_true(fabs(cf.res.sum.cycles - 8e6) < 1);
	cpi_func_free(&cf);
	profile_free(&p);
}

/* instructions samples (period 500, 2000 per loop-body instruction) give each its
 * executions directly: 2000 x 500 = 1e6, for comparison with the estimate */
static void test_retired(void **state)
{
	struct profile p;
	struct cpi_func cf;
	struct cpi_opts o = { .event = -1, .uarch = uarch_find("tcg"), .period = 1000 };
	char err[512];

	(void)state;
	make_profile(&p, 1000);
	add_event(&p, 2, BMPROF_SOURCE_PMU_FIXED, "instructions", 500);
	for (size_t k = 0; k < 6; k++)
		assert_int_equal(profile_add(&p, 0, 2, body[k] + BIAS, 2000), 0);
	decode(&cf);
	assert_int_equal(cpi_func_analyze(&p, &o, &cf, err, sizeof err), 0);
	assert_int_equal(cf.event, 0);
	assert_int_equal(cf.ev_id[0], 2);
	assert_int_equal(cf.ev_total[0], 12000);
	for (size_t k = 0; k < 6; k++) {
		const struct dcpi_insn *d = &cf.res.insns[cfg_insn_at(&cf.cfg, body[k])];

		assert_true(fabs(d->retired_execs - 1e6) < 1);
		assert_true(fabs(d->execs - 1e6) < 1);
	}
	cpi_func_free(&cf);
	profile_free(&p);
}

static void test_errors(void **state)
{
	struct profile p;
	struct cpi_func cf;
	struct cpi_opts o = { .event = -1, .uarch = uarch_find("tcg"), .period = 0 };
	char err[512];

	(void)state;
	make_profile(&p, 1000);
	/* the timer's cycles per sample cannot be known without HELLO's core clock */
	decode(&cf);
	assert_int_equal(cpi_func_analyze(&p, &o, &cf, err, sizeof err), -1);
	assert_non_null(strstr(err, "pass --period CYCLES"));
	assert_null(strchr(err, '\n'));
	cpi_func_free(&cf);
	/* the l1d-misses event has samples in the function, but it is no cycles event; as the
	 * analysed event its samples are at 0x401011 only */
	o.event = 1;
	o.period = 1000;
	decode(&cf);
	assert_int_equal(cpi_func_analyze(&p, &o, &cf, err, sizeof err), 0);
	assert_int_equal(cf.fn_samples, 5);
	cpi_func_free(&cf);
	/* no samples of the event in the function */
	profile_free(&p);
	profile_init(&p);
	add_event(&p, 0, BMPROF_SOURCE_TIMER, "timer", 1000000);
	assert_int_equal(profile_add(&p, 0, 0, 0x500000, 4), 0);
	o.event = -1;
	decode(&cf);
	assert_int_equal(cpi_func_analyze(&p, &o, &cf, err, sizeof err), -1);
	assert_string_equal(err, "no samples of event timer in loop_fn (4 elsewhere): nothing to "
			    "analyse (bmprof report lists the sampled functions)");
	cpi_func_free(&cf);
	/* no model given and no HELLO to choose one by */
	assert_int_equal(profile_add(&p, 0, 0, 0x401009, 4), 0);
	o.uarch = NULL;
	decode(&cf);
	assert_int_equal(cpi_func_analyze(&p, &o, &cf, err, sizeof err), -1);
	assert_non_null(strstr(err, "pass --uarch NAME"));
	cpi_func_free(&cf);
	profile_free(&p);
}

static void test_default_event(void **state)
{
	struct profile p;

	(void)state;
	profile_init(&p);
	assert_int_equal(cpi_default_event(&p), -1);
	add_event(&p, 0, BMPROF_SOURCE_TIMER, "timer", 1000000);
	add_event(&p, 1, BMPROF_SOURCE_PMU, "instructions", 100000);
	add_event(&p, 2, BMPROF_SOURCE_PMU_FIXED, "cpu-cycles", 100000);
	assert_int_equal(profile_add(&p, 0, 1, 0x1000, 3), 0);
	/* instructions plays the retired role: not the cycles event */
	assert_int_equal(cpi_default_event(&p), 1);
	assert_int_equal(profile_add(&p, 0, 0, 0x1000, 3), 0);
	assert_int_equal(cpi_default_event(&p), 0);
	/* a cycles event (by alias) with samples wins over the timer */
	assert_int_equal(profile_add(&p, 0, 2, 0x1000, 3), 0);
	assert_int_equal(cpi_default_event(&p), 2);
	profile_free(&p);
}

static void test_summary_add(void **state)
{
	struct dcpi_summary t = { .best_cpi = -1, .actual_cpi = -1 };
	struct dcpi_summary a = { .samples = 10, .cycles = 100, .execution = 50,
				  .insn_execs = 100, .best_cpi = 1, .actual_cpi = 2 };
	struct dcpi_summary b = { .samples = 5, .cycles = 60, .execution = 20,
				  .insn_execs = 300, .best_cpi = 2, .actual_cpi = 3 };
	struct dcpi_summary none = { .best_cpi = -1, .actual_cpi = -1 };

	(void)state;
	a.static_stall[SCHED_DEPENDENCY] = 7;
	a.dyn_lo[DCPI_C_DCACHE] = 1;
	a.dyn_hi[DCPI_C_DCACHE] = 3;
	b.dyn_hi[DCPI_C_DCACHE] = 4;
	b.sampling_error = -2;
	cpi_summary_add(&t, &a);
	cpi_summary_add(&t, &none);
	cpi_summary_add(&t, &b);
	assert_int_equal(t.samples, 15);
	assert_true(fabs(t.cycles - 160) < 1e-9);
	assert_true(fabs(t.execution - 70) < 1e-9);
	assert_true(fabs(t.static_stall[SCHED_DEPENDENCY] - 7) < 1e-9);
	assert_true(fabs(t.dyn_lo[DCPI_C_DCACHE] - 1) < 1e-9);
	assert_true(fabs(t.dyn_hi[DCPI_C_DCACHE] - 7) < 1e-9);
	assert_true(fabs(t.sampling_error + 2) < 1e-9);
	assert_true(fabs(t.insn_execs - 400) < 1e-9);
	/* weighted by executions: (1 x 100 + 2 x 300) / 400, (2 x 100 + 3 x 300) / 400 */
	assert_true(fabs(t.best_cpi - 1.75) < 1e-9);
	assert_true(fabs(t.actual_cpi - 2.75) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_estimate),
		cmocka_unit_test(test_retired),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_default_event),
		cmocka_unit_test(test_summary_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
