/* SPDX-License-Identifier: BSD-2-Clause */
/* The arch-neutral sampler (target/core/sampler.c) over a fake architecture: a clock the
 * test sets, a timer that records its deadlines, and hardware ids the test chooses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bmprof.h"
#include "wire.h"
#include "../../target/core/sampler.h"

#define NCPUS 2
#define TABLE 64
#define OVF 16
#define MEM_PER_CPU 4096   /* >= bmprof_cpu_mem_size(TABLE, OVF), a multiple of 64 */
#define HZ 1000
#define TIMEBASE 1000000   /* a period of 1000 ticks */

static struct {
	uint64_t now, hwid, deadline;
	unsigned arms, acks, stops, starts, pmi_in_ack;
	struct bmprof_scpu *nmi_cpu;   /* an overflow interrupt lands in the next ack */
} hw;

static struct bmprof_scpu cpus[NCPUS];
static uint8_t mem[NCPUS * MEM_PER_CPU] __attribute__((aligned(64)));

static uint64_t now(void) { return hw.now; }
static uint64_t irq_save(void) { return 0; }
static void irq_restore(uint64_t s) { (void)s; }
static void nop(void) {}
static uint64_t hwid(void) { return hw.hwid; }
static void cpuinfo(struct bmprof_hello *h) { (void)h; }
static void timer_start(struct bmprof_scpu *c) { (void)c; hw.starts++; }
static void timer_stop(struct bmprof_scpu *c) { (void)c; hw.stops++; }
static void pmi_enable(struct bmprof_scpu *c, int on) { (void)c; (void)on; }

static void timer_arm(struct bmprof_scpu *c, uint64_t deadline)
{
	(void)c;
	hw.deadline = deadline;
	hw.arms++;
}

static void timer_ack(void)
{
	hw.acks++;
	if (hw.nmi_cpu) {   /* an NMI in the tick, before its end */
		hw.pmi_in_ack = (unsigned)bmprof_sampler_overflow(hw.nmi_cpu, 0x99);
		hw.nmi_cpu = 0;
	}
}

static const struct bmprof_sampler_ops ops = {
	.name = "fake", .arch = BMPROF_ARCH_X86_64, .timer_drains_pmi = 1, .now = now,
	.irq_save = irq_save, .irq_restore = irq_restore, .irq_enable = nop,
	.irq_disable = nop, .hwid = hwid, .cpuinfo = cpuinfo, .timer_start = timer_start,
	.timer_arm = timer_arm, .timer_stop = timer_stop, .timer_ack = timer_ack,
	.pmi_enable = pmi_enable,
};

/* CPU idx set up with hardware id 100 + idx (on "that CPU"). */
static struct bmprof_scpu *setup_cpu(unsigned idx)
{
	struct bmprof_scpu *c;

	hw.hwid = 100 + idx;
	c = bmprof_sampler_claim(idx);
	assert_non_null(c);
	assert_int_equal(bmprof_sampler_setup(c, 0), 0);
	bmprof_sampler_publish(c);
	return c;
}

static int setup(void **state)
{
	struct bmprof_sampler_config sc = {
		.ops = &ops, .cpus = cpus, .max_cpus = NCPUS, .mem = mem,
		.mem_per_cpu = MEM_PER_CPU, .table_entries = TABLE, .ovf_entries = OVF,
		.timebase_hz = TIMEBASE, .hz = HZ, .mode = BMPROF_PMU_SAMPLE,
	};

	(void)state;
	assert_true(bmprof_cpu_mem_size(TABLE, OVF) <= MEM_PER_CPU);
	memset(&hw, 0, sizeof hw);
	hw.now = 1000000;
	bmprof_sampler_init(&sc);
	setup_cpu(0);
	hw.hwid = 100;
	return 0;
}

/* The timer samples, randomized within P/16 below P; each deadline is a period after the
 * previous one however late the handler runs, unless it is past: then a period after now. */
static void test_deadlines(void **state)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	uint64_t prev;

	(void)state;
	assert_true(c == &cpus[0] && c->timer_samples && c->timer_runs);
	assert_true(c->period == 1000 && c->jitter == 1000 / 16);
	bmprof_sampler_start();
	assert_true(c->running && hw.starts == 1 && hw.arms == 1);
	assert_true(hw.deadline >= hw.now + 1000 - 62 && hw.deadline <= hw.now + 1000);
	for (int i = 0; i < 100; i++) {
		prev = hw.deadline;
		hw.now = prev + 300;                       /* latency */
		bmprof_sampler_timer_irq(0x1000 + (uint64_t)i % 3);
		assert_true(hw.deadline >= prev + 1000 - 62 && hw.deadline <= prev + 1000);
	}
	assert_int_equal(c->core.taken, 100);
	assert_int_equal(hw.acks, 100);
	prev = hw.deadline;
	hw.now = prev + 5000;                              /* missed several periods */
	bmprof_sampler_timer_irq(0x1000);
	assert_true(hw.deadline >= hw.now + 1000 - 62 && hw.deadline <= hw.now + 1000);
	bmprof_sampler_stop();
	assert_true(!c->running && hw.stops == 1);
	/* an interrupt already on its way after stop: acknowledged, nothing recorded */
	bmprof_sampler_timer_irq(0x2000);
	assert_int_equal(c->core.taken, 101);
	assert_int_equal(hw.acks, 102);
}

/* Each outermost handler is timed from the deadline it answers to its end: TOTALS says
 * what the workload ran, enabled less handlers less the untimed part per interrupt. */
static void test_handler_time(void **state)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	uint64_t t0 = hw.now, due;

	(void)state;
	bmprof_sampler_set_untimed(0, 3 * BMPROF_UNTIMED_ONE / 2);   /* 1.5 ticks */
	bmprof_sampler_start();
	for (int i = 0; i < 10; i++) {
		due = hw.deadline;
		hw.now = due + 40;             /* entered 40 ticks late ... */
		bmprof_sampler_tick(c, 0x1000);
		hw.now = due + 100;            /* ... and done 60 ticks later */
		bmprof_sampler_handled(c);
		assert_int_equal(c->tm.last_handler, 100);
	}
	hw.now += 500;
	bmprof_sampler_stop();
	assert_int_equal(c->tm.irqs, 10);
	assert_int_equal(c->tm.enabled, hw.now - t0);
	bmprof_sampler_flush_cpu(0);      /* no stream: nothing is sent, nothing computed */
	assert_int_equal(c->core.sampled_ticks, 0);
	assert_true(bmprof_timing_sampled(&c->tm, 0) == hw.now - t0 - 10 * 100 - 15);
}

/* An overflow interrupt that lands inside the tick is noted and handled at its end. */
static void test_deferred_pmi(void **state)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	(void)state;
	bmprof_sampler_start();
	hw.nmi_cpu = c;
	hw.now = hw.deadline;
	bmprof_sampler_timer_irq(0x1000);
	assert_int_equal(hw.pmi_in_ack, 1);
	assert_int_equal(c->pmis_deferred, 1);
	assert_int_equal(c->pmis_other, 1);   /* handled after the tick (no counter overflowed) */
	assert_false(c->in_timer || c->deferred);
	assert_int_equal(bmprof_sampler_overflow(c, 0x98), 0);   /* outside: at once */
	assert_int_equal(c->pmis_other, 2);
	bmprof_sampler_stop();
}

/* Probe mode: the timer runs and times itself, nothing is recorded, and stopping it forgets
 * the times. */
static void test_probe(void **state)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	uint64_t irqs, last;

	(void)state;
	assert_int_equal(bmprof_sampler_probe(1), 0);
	assert_int_equal(bmprof_sampler_probe(1), -1);     /* running already */
	for (int i = 0; i < 5; i++) {
		hw.now = hw.deadline + 7;
		bmprof_sampler_timer_irq(0x1000);
	}
	bmprof_sampler_irq_stats(0, &irqs, &last);
	assert_int_equal(irqs, 5);
	assert_int_equal(last, 7);
	assert_int_equal(c->core.taken, 0);
	assert_int_equal(bmprof_sampler_probe(0), 0);
	assert_int_equal(c->tm.irqs, 0);
	assert_false(c->running);
}

/* With two CPUs set up the running one is found by its hardware id; a CPU (or an index)
 * cannot be set up twice. */
static void test_cpus(void **state)
{
	struct bmprof_scpu *c1;

	(void)state;
	c1 = setup_cpu(1);
	assert_int_equal(bmprof_sampler_ncpus(), 2);
	hw.hwid = 101;
	assert_ptr_equal(bmprof_sampler_cur(), c1);
	assert_null(bmprof_sampler_claim(1));
	hw.hwid = 100;
	assert_ptr_equal(bmprof_sampler_cur(), &cpus[0]);
	assert_null(bmprof_sampler_claim(1));          /* index taken */
	hw.hwid = 555;
	assert_null(bmprof_sampler_cur());
	assert_null(bmprof_sampler_at(2));
	bmprof_sampler_forget(c1);
	assert_null(bmprof_sampler_at(1));
	assert_int_equal(bmprof_sampler_ncpus(), 1);
	assert_ptr_equal(bmprof_sampler_cur(), &cpus[0]);   /* one CPU: no id read */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_deadlines, setup),
		cmocka_unit_test_setup(test_handler_time, setup),
		cmocka_unit_test_setup(test_deferred_pmi, setup),
		cmocka_unit_test_setup(test_probe, setup),
		cmocka_unit_test_setup(test_cpus, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
