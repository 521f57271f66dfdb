/* SPDX-License-Identifier: BSD-2-Clause */
/* Flat profile over a synthetic profile: grouping, percentages, the four sort orders,
 * deterministic ties, the hottest line of a function, unresolved pcs, the per-CPU split of
 * every row, and the default event. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "flat.h"

#define BIAS 0x100000u    /* runtime pc = link address + BIAS */

static const struct flat_pcinfo info[] = {
	/* pc, addr, symbol, sym_lo, sym_hi, function, file, line, outside, module,
	   pc_last */
	{ BIAS + 0x1000, 0x1000, "main", 0x1000, 0x1100, NULL, "a.c", 10, 0, NULL, 0 },
	{ BIAS + 0x1004, 0x1004, "main", 0x1000, 0x1100, NULL, "a.c", 11, 0, NULL, 0 },
	{ BIAS + 0x1008, 0x1008, "main", 0x1000, 0x1100, "inl", "b.h", 3, 0, NULL, 0 },
	{ BIAS + 0x2000, 0x2000, "foo", 0x2000, 0x2040, NULL, "a.c", 20, 0, NULL, 0 },
	{ BIAS + 0x2010, 0x2010, "foo", 0x2000, 0x2040, NULL, "a.c", 21, 0, NULL, 0 },
	{ BIAS + 0x2020, 0x2020, "foo", 0x2000, 0x2040, "inl", "b.h", 3, 0, NULL, 0 },
	{ BIAS + 0x3000, 0x3000, "helper", 0x3000, 0x3010, NULL, "c.c", 5, 0, NULL, 0 },
	{ BIAS + 0x4000, 0x4000, "helper", 0x4000, 0x4010, NULL, "d.c", 5, 0, NULL, 0 },
	{ BIAS + 0x6000, 0x6000, "bar", 0x6000, 0x6020, NULL, NULL, 0, 0, NULL, 0 },
	{ BIAS + 0x9000, 0x9000, NULL, 0, 0, NULL, NULL, 0, 0, NULL, 0 },
	{ BIAS + 0x9100, 0x9100, NULL, 0, 0, NULL, NULL, 0, 0, NULL, 0 },
};
#define NINFO (sizeof info / sizeof info[0])
#define MISSING_PC (BIAS + 0x5000)    /* sampled but absent from info */

static struct profile_sample samples[] = {
	/* pc, count, event, cpu */
	{ BIAS + 0x1000, 10, 0, 0 },
	{ BIAS + 0x1000, 5, 0, 1 },
	{ BIAS + 0x1004, 20, 0, 0 },
	{ BIAS + 0x1008, 25, 0, 0 },
	{ BIAS + 0x2000, 30, 0, 1 },
	{ BIAS + 0x2010, 30, 0, 0 },
	{ BIAS + 0x2020, 5, 0, 0 },
	{ BIAS + 0x3000, 7, 0, 0 },
	{ BIAS + 0x4000, 7, 0, 0 },
	{ BIAS + 0x6000, 7, 0, 0 },
	{ BIAS + 0x9000, 3, 0, 0 },
	{ BIAS + 0x9100, 4, 0, 0 },
	{ MISSING_PC, 1, 0, 0 },
	{ BIAS + 0x2000, 100, 1, 0 },   /* another event */
};
#define NSAMPLES (sizeof samples / sizeof samples[0])
#define TOTAL0 154u                 /* event 0 */

static void make_profile(struct profile *p)
{
	memset(p, 0, sizeof *p);
	p->samples = samples;
	p->nsamples = NSAMPLES;
	for (size_t i = 0; i < NSAMPLES; i++)
		p->total += samples[i].count;
}

static void assert_near(double got, double want)
{
	assert_true(got > want - 1e-9 && got < want + 1e-9);
}

static void check_str(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

static void check_row(const struct flat_row *r, uint64_t samples, const char *symbol,
		      const char *file, unsigned line, uint64_t lo, uint64_t hi)
{
	assert_int_equal(r->samples, samples);
	check_str(r->symbol, symbol);
	check_str(r->file, file);
	assert_int_equal(r->line, line);
	assert_int_equal(r->addr_lo, lo);
	assert_int_equal(r->addr_hi, hi);
}

static void test_by_function(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_profile(&p);
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.total, TOTAL0);
	assert_int_equal(res.nrows, 6);
	/* foo: two lines tie at 30, the lower line wins over the same file */
	check_row(&res.rows[0], 65, "foo", "a.c", 20, 0x2000, 0x2040);
	assert_int_equal(res.rows[0].line_samples, 30);
	/* main: the inlined line (innermost frame) is its hottest */
	check_row(&res.rows[1], 60, "main", "b.h", 3, 0x1000, 0x1100);
	assert_int_equal(res.rows[1].line_samples, 25);
	/* unresolved pcs, the one missing from info included, as one row over their range */
	check_row(&res.rows[2], 8, NULL, NULL, 0, 0x9000, MISSING_PC + 1);
	/* ties at 7: by name, then two same-named static functions by address */
	check_row(&res.rows[3], 7, "bar", NULL, 0, 0x6000, 0x6020);
	check_row(&res.rows[4], 7, "helper", "c.c", 5, 0x3000, 0x3010);
	check_row(&res.rows[5], 7, "helper", "d.c", 5, 0x4000, 0x4010);
	assert_near(res.rows[0].percent, 100.0 * 65 / TOTAL0);
	assert_near(res.rows[2].percent, 100.0 * 8 / TOTAL0);
	double sum = 0;
	for (size_t i = 0; i < res.nrows; i++)
		sum += res.rows[i].percent;
	assert_near(sum, 100.0);
	flat_free(&res);
}

static void test_by_line(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_profile(&p);
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_LINE, &res), 0);
	assert_int_equal(res.total, TOTAL0);
	assert_int_equal(res.nrows, 9);
	check_row(&res.rows[0], 30, "foo", "a.c", 20, 0x2000, 0x2001);
	check_row(&res.rows[1], 30, "foo", "a.c", 21, 0x2010, 0x2011);
	/* one line inlined into two functions: one row, charged to the inlined function,
	 * spanning the sampled addresses of both copies */
	check_row(&res.rows[2], 30, "inl", "b.h", 3, 0x1008, 0x2021);
	check_row(&res.rows[3], 20, "main", "a.c", 11, 0x1004, 0x1005);
	check_row(&res.rows[4], 15, "main", "a.c", 10, 0x1000, 0x1001);
	check_row(&res.rows[5], 8, NULL, NULL, 0, 0x9000, MISSING_PC + 1);
	check_row(&res.rows[6], 7, "helper", "c.c", 5, 0x3000, 0x3001);
	check_row(&res.rows[7], 7, "helper", "d.c", 5, 0x4000, 0x4001);
	check_row(&res.rows[8], 7, "bar", NULL, 0, 0x6000, 0x6001);   /* no line info */
	flat_free(&res);
}

static void test_by_address(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_profile(&p);
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_ADDRESS, &res), 0);
	assert_int_equal(res.nrows, 12);
	static const uint64_t order[] = { 0x2000, 0x2010, 0x1008, 0x1004, 0x1000, 0x3000,
					  0x4000, 0x6000, 0x2020, 0x9100, 0x9000, MISSING_PC };
	for (size_t i = 0; i < res.nrows; i++)
		assert_int_equal(res.rows[i].addr_lo, order[i]);
	/* per-CPU entries of one pc merge */
	check_row(&res.rows[4], 15, "main", "a.c", 10, 0x1000, 0x1001);
	check_row(&res.rows[1], 30, "foo", "a.c", 21, 0x2010, 0x2011);
	assert_int_equal(res.rows[1].offset, 0x10);
	check_str(res.rows[2].function, "inl");
	check_str(res.rows[2].symbol, "main");
	assert_int_equal(res.rows[2].offset, 8);
	check_row(&res.rows[11], 1, NULL, NULL, 0, MISSING_PC, MISSING_PC + 1);
	assert_int_equal(res.rows[11].offset, 0);
	flat_free(&res);
}

static void test_event_filter(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_profile(&p);

	assert_int_equal(flat_compute(&p, FLAT_ALL_EVENTS, info, NINFO, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.total, TOTAL0 + 100);
	check_row(&res.rows[0], 165, "foo", "a.c", 20, 0x2000, 0x2040);
	assert_int_equal(res.rows[0].line_samples, 130);
	flat_free(&res);

	assert_int_equal(flat_compute(&p, 1, info, NINFO, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.total, 100);
	assert_int_equal(res.nrows, 1);
	assert_near(res.rows[0].percent, 100.0);
	flat_free(&res);

	assert_int_equal(flat_compute(&p, 7, info, NINFO, FLAT_BY_LINE, &res), 0);
	assert_int_equal(res.total, 0);
	assert_int_equal(res.nrows, 0);
	assert_null(res.rows);
	flat_free(&res);
}

static void test_nothing_resolved(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_profile(&p);
	assert_int_equal(flat_compute(&p, 0, NULL, 0, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.nrows, 1);
	check_row(&res.rows[0], TOTAL0, NULL, NULL, 0, BIAS + 0x1000, BIAS + 0x9100 + 1);
	flat_free(&res);
}

static void test_empty_and_distinct(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	uint64_t *pcs;

	memset(&p, 0, sizeof p);
	assert_int_equal(flat_compute(&p, FLAT_ALL_EVENTS, info, NINFO, FLAT_BY_ADDRESS, &res), 0);
	assert_int_equal(res.nrows, 0);
	assert_int_equal(res.total, 0);
	assert_int_equal(flat_distinct_pcs(&p, &pcs), 0);
	assert_null(pcs);

	make_profile(&p);
	long n = flat_distinct_pcs(&p, &pcs);
	assert_int_equal(n, 12);
	for (long i = 1; i < n; i++)
		assert_true(pcs[i - 1] < pcs[i]);
	assert_int_equal(pcs[0], BIAS + 0x1000);
	assert_int_equal(pcs[n - 1], BIAS + 0x9100);
	free(pcs);
}

/* Every row's per-CPU split: ascending CPUs with samples, adding up to the row; the CPU
 * totals add up to the result's total. */
static void check_splits(const struct flat_result *res)
{
	uint64_t all = 0;

	for (size_t i = 0; i < res->nrows; i++) {
		const struct flat_row *r = &res->rows[i];
		uint64_t sum = 0;
		assert_true(r->nper_cpu >= 1);
		for (size_t k = 0; k < r->nper_cpu; k++) {
			assert_true(r->per_cpu[k].samples > 0);
			if (k)
				assert_true(r->per_cpu[k - 1].cpu < r->per_cpu[k].cpu);
			sum += r->per_cpu[k].samples;
		}
		assert_int_equal(sum, r->samples);
	}
	for (size_t k = 0; k < res->ncpus; k++) {
		if (k)
			assert_true(res->cpus[k - 1].cpu < res->cpus[k].cpu);
		all += res->cpus[k].samples;
	}
	assert_int_equal(all, res->total);
}

static void check_split(const struct flat_row *r, size_t n, const uint16_t *cpu,
			const uint64_t *samples)
{
	assert_int_equal(r->nper_cpu, n);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(r->per_cpu[k].cpu, cpu[k]);
		assert_int_equal(r->per_cpu[k].samples, samples[k]);
	}
}

/* A 4-CPU profile built the way a stream builds it. cpu 3 runs only foo; cpu 2 has no
 * samples of event 0, only of event 1. */
static void make_smp_profile(struct profile *p)
{
	static const struct { uint16_t cpu, event; uint64_t pc, count; } s[] = {
		{ 0, 0, BIAS + 0x1000, 40 }, { 0, 0, BIAS + 0x1004, 20 }, { 0, 0, BIAS + 0x2000, 10 },
		{ 1, 0, BIAS + 0x2000, 50 }, { 1, 0, BIAS + 0x2010, 25 }, { 1, 0, BIAS + 0x1000, 5 },
		{ 1, 0, BIAS + 0x9000, 3 }, { 1, 0, BIAS + 0x3000, 7 },
		{ 3, 0, BIAS + 0x2020, 30 }, { 3, 0, BIAS + 0x9100, 2 },
		{ 2, 1, BIAS + 0x2000, 100 }, { 0, 1, BIAS + 0x1000, 1 },
		{ 0, 0, BIAS + 0x1000, 4 },   /* adds to the first */
	};
	profile_init(p);
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
		assert_int_equal(profile_add(p, s[i].cpu, s[i].event, s[i].pc, s[i].count), 0);
}
#define SMP_TOTAL0 196u     /* event 0: cpu 0 74, cpu 1 90, cpu 3 32 */

static void test_smp_by_function(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_smp_profile(&p);
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.total, SMP_TOTAL0);
	assert_int_equal(res.ncpus, 3);
	assert_int_equal(res.cpus[0].cpu, 0);
	assert_int_equal(res.cpus[0].samples, 74);
	assert_int_equal(res.cpus[1].cpu, 1);
	assert_int_equal(res.cpus[1].samples, 90);
	assert_int_equal(res.cpus[2].cpu, 3);
	assert_int_equal(res.cpus[2].samples, 32);
	assert_int_equal(flat_cpu_total(&res, 1), 90);
	assert_int_equal(flat_cpu_total(&res, 2), 0);
	assert_int_equal(res.nrows, 4);
	/* foo: 10 + 50 + 25 + 30 over three CPUs; main: 44 + 20 + 5 */
	check_row(&res.rows[0], 115, "foo", "a.c", 20, 0x2000, 0x2040);
	check_split(&res.rows[0], 3, (const uint16_t[]){ 0, 1, 3 }, (const uint64_t[]){ 10, 75, 30 });
	assert_int_equal(res.rows[0].cpu, -1);
	check_row(&res.rows[1], 69, "main", "a.c", 10, 0x1000, 0x1100);
	check_split(&res.rows[1], 2, (const uint16_t[]){ 0, 1 }, (const uint64_t[]){ 64, 5 });
	check_row(&res.rows[2], 7, "helper", "c.c", 5, 0x3000, 0x3010);
	check_split(&res.rows[2], 1, (const uint16_t[]){ 1 }, (const uint64_t[]){ 7 });
	check_row(&res.rows[3], 5, NULL, NULL, 0, 0x9000, 0x9101);
	check_split(&res.rows[3], 2, (const uint16_t[]){ 1, 3 }, (const uint64_t[]){ 3, 2 });
	check_splits(&res);
	flat_free(&res);

	/* the split of every sort order adds up, every event included */
	for (int sort = FLAT_BY_FUNCTION; sort <= FLAT_BY_CPU; sort++) {
		assert_int_equal(flat_compute(&p, FLAT_ALL_EVENTS, info, NINFO, sort, &res), 0);
		assert_int_equal(res.total, SMP_TOTAL0 + 101);
		assert_int_equal(res.ncpus, 4);
		check_splits(&res);
		flat_free(&res);
	}
	profile_free(&p);
}

static void test_smp_by_address(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_smp_profile(&p);
	/* one row per address, whatever CPUs sampled it */
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_ADDRESS, &res), 0);
	assert_int_equal(res.nrows, 8);
	check_row(&res.rows[0], 60, "foo", "a.c", 20, 0x2000, 0x2001);
	check_split(&res.rows[0], 2, (const uint16_t[]){ 0, 1 }, (const uint64_t[]){ 10, 50 });
	check_row(&res.rows[1], 49, "main", "a.c", 10, 0x1000, 0x1001);
	check_split(&res.rows[1], 2, (const uint16_t[]){ 0, 1 }, (const uint64_t[]){ 44, 5 });
	check_splits(&res);
	flat_free(&res);
	/* a line's split */
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_LINE, &res), 0);
	check_row(&res.rows[0], 60, "foo", "a.c", 20, 0x2000, 0x2001);
	check_row(&res.rows[1], 49, "main", "a.c", 10, 0x1000, 0x1001);
	check_row(&res.rows[2], 30, "inl", "b.h", 3, 0x2020, 0x2021);
	check_split(&res.rows[2], 1, (const uint16_t[]){ 3 }, (const uint64_t[]){ 30 });
	check_splits(&res);
	flat_free(&res);
	profile_free(&p);
}

static void test_sort_cpu(void **state)
{
	(void)state;
	struct profile p;
	struct flat_result res;
	make_smp_profile(&p);
	assert_int_equal(flat_compute(&p, 0, info, NINFO, FLAT_BY_CPU, &res), 0);
	assert_int_equal(res.total, SMP_TOTAL0);
	/* by CPU, then samples; cpu 2 has none of event 0 */
	static const struct { int cpu; uint64_t samples; const char *symbol; } want[] = {
		{ 0, 64, "main" }, { 0, 10, "foo" },
		{ 1, 75, "foo" }, { 1, 7, "helper" }, { 1, 5, "main" }, { 1, 3, NULL },
		{ 3, 30, "foo" }, { 3, 2, NULL },
	};
	assert_int_equal(res.nrows, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < res.nrows; i++) {
		const struct flat_row *r = &res.rows[i];
		assert_int_equal(r->cpu, want[i].cpu);
		assert_int_equal(r->samples, want[i].samples);
		check_str(r->symbol, want[i].symbol);
		check_split(r, 1, (const uint16_t[]){ (uint16_t)want[i].cpu },
			    (const uint64_t[]){ want[i].samples });
		assert_near(r->percent, 100.0 * (double)want[i].samples / SMP_TOTAL0);
		assert_near(r->cpu_percent, 100.0 * (double)want[i].samples /
			    (double)flat_cpu_total(&res, (unsigned)want[i].cpu));
	}
	/* a (cpu, function) row is a function row of that CPU's samples */
	check_row(&res.rows[2], 75, "foo", "a.c", 20, 0x2000, 0x2040);
	assert_int_equal(res.rows[2].line_samples, 50);
	check_row(&res.rows[6], 30, "foo", "b.h", 3, 0x2000, 0x2040);
	check_row(&res.rows[7], 2, NULL, NULL, 0, 0x9100, 0x9101);
	/* each CPU's shares add up to 100 */
	double sum[4] = { 0 };
	for (size_t i = 0; i < res.nrows; i++)
		sum[res.rows[i].cpu] += res.rows[i].cpu_percent;
	assert_near(sum[0], 100.0);
	assert_near(sum[1], 100.0);
	assert_near(sum[3], 100.0);
	check_splits(&res);
	flat_free(&res);

	/* event 1: CPU order first, though cpu 2 has more samples than cpu 0 */
	assert_int_equal(flat_compute(&p, 1, info, NINFO, FLAT_BY_CPU, &res), 0);
	assert_int_equal(res.nrows, 2);
	assert_int_equal(res.rows[0].cpu, 0);
	check_str(res.rows[0].symbol, "main");
	assert_int_equal(res.rows[1].cpu, 2);
	check_str(res.rows[1].symbol, "foo");
	assert_near(res.rows[1].cpu_percent, 100.0);
	flat_free(&res);

	/* a single-CPU profile: cpu -1 on other rows, one CPU */
	profile_free(&p);
	make_profile(&p);
	assert_int_equal(flat_compute(&p, 1, info, NINFO, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.ncpus, 1);
	assert_int_equal(res.rows[0].cpu, -1);
	check_split(&res.rows[0], 1, (const uint16_t[]){ 0 }, (const uint64_t[]){ 100 });
	flat_free(&res);
	assert_int_equal(flat_compute(&p, 0, info, NINFO, (enum flat_sort)9, &res), -1);
	assert_int_equal(res.nrows, 0);
}

static void test_default_event(void **state)
{
	(void)state;
	struct profile p;

	profile_init(&p);
	assert_int_equal(flat_default_event(&p), FLAT_ALL_EVENTS);
	p.nevents = 1;
	p.events[0].id = 5;
	assert_int_equal(flat_default_event(&p), FLAT_ALL_EVENTS);
	/* several: the first described that has samples, not the first described */
	p.nevents = 3;
	p.events[1].id = 7;
	p.events[2].id = 3;
	assert_int_equal(profile_add(&p, 1, 3, 0x1000, 2), 0);
	assert_int_equal(flat_default_event(&p), 3);
	assert_int_equal(profile_add(&p, 0, 7, 0x1000, 1), 0);
	assert_int_equal(flat_default_event(&p), 7);
	profile_free(&p);
	/* none has samples: the first */
	p.nevents = 2;
	p.events[0].id = 9;
	p.events[1].id = 4;
	assert_int_equal(flat_default_event(&p), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_function),
		cmocka_unit_test(test_by_line),
		cmocka_unit_test(test_by_address),
		cmocka_unit_test(test_event_filter),
		cmocka_unit_test(test_nothing_resolved),
		cmocka_unit_test(test_empty_and_distinct),
		cmocka_unit_test(test_smp_by_function),
		cmocka_unit_test(test_smp_by_address),
		cmocka_unit_test(test_sort_cpu),
		cmocka_unit_test(test_default_event),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
