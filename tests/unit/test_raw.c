/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw samples: the target's per-CPU raw ring (target/core/raw.c) with tiny rings that
 * force losses, its RAW_SAMPLES frames read back by the profile model with exact
 * accounting (taken = delivered + lost, delivered = received), a transport that fails,
 * the sampler recording raw samples from the timer tick over a fake architecture, and the
 * model's bound on kept records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bmprof.h"
#include "profile.h"
#include "wire.h"
#include "../../target/core/sampler.h"

struct cpu {
	struct bmprof_cpu c;
	void *mem, *rmem;
};

static struct cpu *cpu_new(uint32_t raw_entries, uint8_t nregs)
{
	struct cpu *p = calloc(1, sizeof *p);
	size_t n = bmprof_cpu_mem_size(64, 16), rn = bmprof_raw_mem_size(raw_entries);

	assert_non_null(p);
	assert_true(rn > 0);
	p->mem = aligned_alloc(64, (n + 63) & ~(size_t)63);
	p->rmem = malloc(rn);
	memset(p->rmem, 0xa5, rn);
	assert_int_equal(bmprof_cpu_init(&p->c, 3, p->mem, n, 64, 16, 7), 0);
	assert_int_equal(bmprof_raw_init(&p->c, p->rmem, rn, raw_entries, BMPROF_ARCH_X86_64,
					 nregs), 0);
	return p;
}

static void cpu_free(struct cpu *p)
{
	free(p->mem);
	free(p->rmem);
	free(p);
}

/* Sample i: pc 0x1000 + i, event i % 3, register r holding i * 100 + r for r in valid. */
static struct bmprof_raw sample(unsigned i, uint32_t valid)
{
	struct bmprof_raw s = { .pc = 0x1000 + i, .event = (uint16_t)(i % 3), .valid = valid };

	for (unsigned r = 0; r < BMPROF_RAW_REGS; r++)
		s.r[r] = valid >> r & 1 ? (uint64_t)i * 100 + r : 0xdead;
	return s;
}

struct sink {
	struct profile prof;
	int fail;                  /* write() refuses the frames */
	unsigned raw_frames, totals;
};

static int sink_write(void *ctx, const void *buf, size_t len)
{
	struct sink *s = ctx;
	const uint8_t *b = buf;
	uint16_t n = bmprof_get16(b + 6);

	assert_int_equal(len, BMPROF_FRAME_HDR + n + BMPROF_FRAME_CRC);
	assert_int_equal(bmprof_crc32(0, b + 4, 4 + n), bmprof_get32(b + 8 + n));
	if (s->fail)
		return -1;
	if (b[4] == BMPROF_FRAME_RAW_SAMPLES) {
		s->raw_frames++;
		assert_true(n <= 1024);
	}
	if (b[4] == BMPROF_FRAME_TOTALS)
		s->totals++;
	assert_int_equal(profile_apply_frame(&s->prof, b[4], b + BMPROF_FRAME_HDR, n), 0);
	return 0;
}

static void check_totals(const struct sink *s, const struct bmprof_cpu *c)
{
	const struct profile_cpu *pc = &s->prof.cpus[c->cpu_id];

	assert_true(pc->have_totals);
	assert_int_equal(pc->totals[BMPROF_TOTAL_RAW_TAKEN], c->raw.taken);
	assert_int_equal(pc->totals[BMPROF_TOTAL_RAW_DELIVERED], c->raw.delivered);
	assert_int_equal(pc->totals[BMPROF_TOTAL_RAW_LOST_FULL], c->raw.lost_full);
	assert_int_equal(pc->totals[BMPROF_TOTAL_RAW_LOST_TRANSPORT], c->raw.lost_transport);
	assert_int_equal(pc->totals[BMPROF_TOTAL_RAW_FRAMES], c->raw.frames);
	assert_int_equal(c->raw.taken,
			 c->raw.delivered + c->raw.lost_full + c->raw.lost_transport);
}

static void test_init_rejects(void **state)
{
	struct bmprof_cpu c;
	uint64_t m[512];

	(void)state;
	memset(&c, 0, sizeof c);
	assert_int_equal(bmprof_raw_mem_size(0), 0);
	assert_int_equal(bmprof_raw_mem_size((1u << 20) + 1), 0);
	assert_int_equal(bmprof_raw_mem_size(3), 3 * sizeof(struct bmprof_raw));
	assert_int_equal(bmprof_raw_init(&c, m, sizeof m, 2, 1, 0), -1);
	assert_int_equal(bmprof_raw_init(&c, m, sizeof m, 2, 1, BMPROF_RAW_REGS + 1), -1);
	assert_int_equal(bmprof_raw_init(&c, m, 8, 2, 1, 16), -1);
	assert_int_equal(bmprof_raw_init(&c, (uint8_t *)m + 4, sizeof m - 8, 2, 1, 16), -1);
	assert_int_equal(bmprof_raw_init(&c, NULL, sizeof m, 2, 1, 16), -1);
	assert_int_equal(c.raw.cap, 0);
	/* raw mode off: recording does nothing, counts nothing */
	struct bmprof_raw s = sample(1, 1);
	bmprof_record_raw(&c, &s);
	assert_int_equal(c.raw.taken, 0);
	assert_int_equal(bmprof_raw_init(&c, m, sizeof m, 2, 1, 16), 0);
	assert_int_equal(c.raw.cap, 2);
}

/* A 4-record ring: the fifth sample before a drain is lost, counted in lost_full; the ring
 * is drained once half full; the records the model reads back are the ones kept, in
 * order, register by register. */
static void test_tiny_ring_losses(void **state)
{
	struct cpu *p = cpu_new(4, 16);
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };
	const uint32_t valid = 0x80ffu;   /* rax .. rdi, rbp, rsp, r8 .. and r15 */
	unsigned kept[32], nkept = 0;

	(void)state;
	profile_init(&s.prof);
	for (unsigned i = 0; i < 10; i++) {
		struct bmprof_raw x = sample(i, valid);
		bmprof_record_raw(&p->c, &x);
		if (i < 4)
			kept[nkept++] = i;
	}
	assert_int_equal(p->c.raw.taken, 10);
	assert_int_equal(p->c.raw.lost_full, 6);
	assert_int_equal(bmprof_raw_pending(&p->c), 4);
	assert_true(bmprof_drain_pending(&p->c));
	bmprof_drain(&p->c, &out);
	assert_int_equal(bmprof_raw_pending(&p->c), 0);
	assert_false(bmprof_drain_pending(&p->c));
	/* one record is not due for a drain; two are (half of four) */
	for (unsigned i = 10; i < 13; i++) {
		struct bmprof_raw x = sample(i, valid);
		bmprof_record_raw(&p->c, &x);
		kept[nkept++] = i;
		assert_int_equal(bmprof_drain_pending(&p->c), i >= 11);
	}
	bmprof_flush(&p->c, &out);
	assert_int_equal(s.totals, 1);
	assert_int_equal(p->c.raw.delivered, 7);
	check_totals(&s, &p->c);
	assert_int_equal(s.prof.cpus[3].raw_received, 7);
	assert_int_equal(s.prof.cpus[3].raw_frames, p->c.raw.frames);
	assert_int_equal(s.prof.cpus[3].raw_seq_gaps, 0);
	assert_int_equal(s.prof.nraw, nkept);
	for (unsigned k = 0; k < nkept; k++) {
		const struct profile_raw *r = &s.prof.raw[k];
		unsigned i = kept[k];
		assert_int_equal(r->cpu, 3);
		assert_int_equal(r->event, i % 3);
		assert_int_equal(r->flags, 0);
		assert_int_equal(r->regs.arch, BMPROF_ARCH_X86_64);
		assert_int_equal(r->regs.n, 16);
		assert_int_equal(r->regs.pc, 0x1000 + i);
		assert_int_equal(r->regs.valid, valid & 0xffffu);
		for (unsigned reg = 0; reg < REGFILE_MAX; reg++) {
			if (regfile_has(&r->regs, reg))
				assert_int_equal(r->regs.r[reg], (uint64_t)i * 100 + reg);
			else
				assert_int_equal(r->regs.r[reg], 0);
		}
	}
	profile_free(&s.prof);
	cpu_free(p);
}

/* Enough records for several frames, each frame within the drain's payload; a transport
 * that refuses them counts them in lost_transport. */
static void test_frames_and_transport_loss(void **state)
{
	struct cpu *p = cpu_new(64, 32);
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };

	(void)state;
	profile_init(&s.prof);
	for (unsigned i = 0; i < 20; i++) {
		struct bmprof_raw x = sample(i, 0xffffffffu);
		x.r[31] = UINT64_MAX - i;   /* ten-byte varints */
		bmprof_record_raw(&p->c, &x);
	}
	bmprof_flush_delta(&p->c, &out);
	assert_int_equal(p->c.raw.delivered, 20);
	assert_true(s.raw_frames >= 2);   /* 20 records of ~80 bytes in 1024-byte frames */
	assert_int_equal(s.prof.nraw, 20);
	assert_int_equal(s.prof.raw[19].regs.r[31], UINT64_MAX - 19);
	assert_int_equal(s.prof.raw[19].regs.r[30], 19 * 100 + 30);
	for (unsigned i = 0; i < 5; i++) {
		struct bmprof_raw x = sample(i, 3);
		bmprof_record_raw(&p->c, &x);
	}
	s.fail = 1;
	bmprof_flush_delta(&p->c, &out);
	assert_int_equal(p->c.raw.lost_transport, 5);
	s.fail = 0;
	struct bmprof_raw x = sample(99, 1);
	bmprof_record_raw(&p->c, &x);
	bmprof_flush(&p->c, &out);
	check_totals(&s, &p->c);
	assert_int_equal(p->c.raw.taken, 26);
	assert_int_equal(p->c.raw.delivered, 21);
	assert_int_equal(s.prof.cpus[3].raw_received, 21);
	/* the refused frame's sequence number is a gap */
	assert_int_equal(s.prof.cpus[3].raw_seq_gaps, 1);
	struct bmprof_counters k;
	bmprof_get_counters(&p->c, &k);
	assert_int_equal(k.raw_taken, 26);
	assert_int_equal(k.raw_lost_transport, 5);
	profile_free(&s.prof);
	cpu_free(p);
}

/* The model keeps max_entries raw records and counts the rest. */
static void test_model_bound(void **state)
{
	struct cpu *p = cpu_new(16, 16);
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };

	(void)state;
	profile_init(&s.prof);
	s.prof.max_entries = 5;
	for (unsigned i = 0; i < 12; i++) {
		struct bmprof_raw x = sample(i, 0xff);
		bmprof_record_raw(&p->c, &x);
	}
	bmprof_flush(&p->c, &out);
	assert_int_equal(s.prof.nraw, 5);
	assert_int_equal(s.prof.raw_over_cap, 7);
	assert_int_equal(s.prof.cpus[3].raw_received, 12);
	assert_int_equal(s.prof.raw[4].regs.pc, 0x1004);
	assert_true(profile_has_raw(&s.prof));
	profile_free(&s.prof);
	cpu_free(p);
}

/* ---- the sampler records a raw sample per timer tick, registers from the arch op ---- */

#define MEM_PER_CPU 4096
static struct bmprof_scpu cpus[1];
static uint8_t mem[MEM_PER_CPU] __attribute__((aligned(64)));
static uint8_t rmem[2 * sizeof(struct bmprof_raw)] __attribute__((aligned(8)));
static uint64_t clock_now = 1000000;

static uint64_t now(void) { return clock_now; }
static uint64_t irq_save(void) { return 0; }
static void irq_restore(uint64_t v) { (void)v; }
static void nop(void) {}
static uint64_t hwid(void) { return 5; }
static void cpuinfo(struct bmprof_hello *h) { (void)h; }
static void timer_c(struct bmprof_scpu *c) { (void)c; }
static void timer_arm(struct bmprof_scpu *c, uint64_t d) { (void)c, (void)d; }
static void pmi_enable(struct bmprof_scpu *c, int on) { (void)c, (void)on; }

/* frame[i] is register i */
static void raw_regs(const struct bmprof_regs *r, struct bmprof_raw *s)
{
	for (unsigned i = 0; i < 16; i++)
		s->r[i] = r->frame[i];
	s->r[7] = r->sp;
	s->valid = 0xffff;
}

static const struct bmprof_sampler_ops ops = {
	.name = "fake", .arch = BMPROF_ARCH_X86_64, .now = now, .irq_save = irq_save,
	.irq_restore = irq_restore, .irq_enable = nop, .irq_disable = nop, .hwid = hwid,
	.cpuinfo = cpuinfo, .timer_start = timer_c, .timer_arm = timer_arm,
	.timer_stop = timer_c, .pmi_enable = pmi_enable, .raw_regs = raw_regs, .raw_nregs = 16,
};

static void test_sampler_tick(void **state)
{
	struct bmprof_sampler_config sc = {
		.ops = &ops, .cpus = cpus, .max_cpus = 1, .mem = mem, .mem_per_cpu = MEM_PER_CPU,
		.table_entries = 64, .ovf_entries = 16, .timebase_hz = 1000000, .hz = 1000,
		.mode = BMPROF_PMU_SAMPLE, .raw = 1, .raw_entries = 2, .raw_mem = rmem,
		.raw_mem_per_cpu = sizeof rmem,
	};
	uint64_t frame[16];
	struct bmprof_scpu *c;

	(void)state;
	bmprof_sampler_init(&sc);
	c = bmprof_sampler_claim(0);
	assert_non_null(c);
	assert_int_equal(bmprof_sampler_setup(c, 0), 0);
	bmprof_sampler_publish(c);
	bmprof_sampler_start();
	for (unsigned t = 0; t < 3; t++) {
		for (unsigned i = 0; i < 16; i++)
			frame[i] = t * 1000 + i;
		struct bmprof_regs r = { .pc = 0x4000 + t, .sp = 0x8000 - t, .frame = frame };
		clock_now += 1000;
		bmprof_sampler_tick_regs(c, &r);
	}
	/* a 2-record ring and no drain: the third is lost, and counted */
	assert_int_equal(c->core.taken, 3);
	assert_int_equal(c->core.raw.taken, 3);
	assert_int_equal(c->core.raw.lost_full, 1);
	const struct bmprof_raw *x = &c->core.raw.slot[1];
	assert_int_equal(x->pc, 0x4001);
	assert_int_equal(x->event, BMPROF_SAMPLER_TIMER_EVENT);
	assert_int_equal(x->valid, 0xffff);
	assert_int_equal(x->r[3], 1003);
	assert_int_equal(x->r[7], 0x7fff);
	assert_int_equal(x->r[15], 1015);
	bmprof_sampler_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_tiny_ring_losses),
		cmocka_unit_test(test_frames_and_transport_loss),
		cmocka_unit_test(test_model_bound),
		cmocka_unit_test(test_sampler_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
