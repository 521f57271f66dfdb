/* SPDX-License-Identifier: BSD-2-Clause */
/* Call stacks in the target core, driven natively: the frame-pointer walk against hostile
 * chains (loops, pointers outside the ranges or to unmapped memory, misaligned, straddling
 * a range's end, too deep), the per-CPU stack table (ids, flags, a full table counted), and
 * the drain's STACKS and STACK_SAMPLES frames read back by the host's profile model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bmprof.h"
#include "wire.h"
#include "profile.h"
#include "../../target/core/core.h"

/* An address that faults if read: the walk must check before it reads. */
#define UNMAPPED 0x10ull

static uint64_t stk[64] __attribute__((aligned(16)));

static uint64_t at(unsigned i) { return (uint64_t)(uintptr_t)&stk[i]; }

static struct bmprof_range whole(void) { return (struct bmprof_range){ at(0), at(64) }; }

/* A record at stk[i]: { next, ret } */
static void rec(unsigned i, uint64_t next, uint64_t ret)
{
	stk[i] = next;
	stk[i + 1] = ret;
}

static unsigned walk(uint64_t fp, uint64_t *out, unsigned max, int *more)
{
	struct bmprof_range r = whole();

	return bmprof_walk_fp(fp, 0, &r, 1, out, max, more);
}

static void test_walk_good_chain(void **state)
{
	uint64_t f[8];
	int more;

	(void)state;
	memset(stk, 0, sizeof stk);
	rec(0, at(4), 0x1001);
	rec(4, at(10), 0x1002);
	rec(10, 0, 0x1003);
	assert_int_equal(walk(at(0), f, 8, &more), 3);
	assert_int_equal(f[0], 0x1001);
	assert_int_equal(f[1], 0x1002);
	assert_int_equal(f[2], 0x1003);
	assert_false(more);
}

static void test_walk_hostile(void **state)
{
	uint64_t f[8];
	int more;

	(void)state;
	memset(stk, 0, sizeof stk);
	rec(0, at(0), 0x2001);                   /* a loop onto itself */
	assert_int_equal(walk(at(0), f, 8, &more), 1);
	rec(0, at(4), 0x2001);
	rec(4, at(2), 0x2002);                   /* going down */
	assert_int_equal(walk(at(0), f, 8, &more), 2);
	rec(4, UNMAPPED, 0x2002);                /* out of the range: never read */
	assert_int_equal(walk(at(0), f, 8, &more), 2);
	rec(4, 0xdead000000000000ull, 0x2002);   /* non-canonical */
	assert_int_equal(walk(at(0), f, 8, &more), 2);
	rec(4, at(6) + 4, 0x2002);               /* misaligned */
	assert_int_equal(walk(at(0), f, 8, &more), 2);
	rec(4, at(63), 0x2002);                  /* its record would straddle the end */
	assert_int_equal(walk(at(0), f, 8, &more), 2);
	rec(4, UINT64_MAX - 7, 0x2002);          /* wraps around */
	assert_int_equal(walk(at(0), f, 8, &more), 2);
	/* starting points that are not frame records */
	assert_int_equal(walk(UNMAPPED, f, 8, &more), 0);
	assert_int_equal(walk(at(0) + 3, f, 8, &more), 0);
	assert_int_equal(walk(0, f, 8, &more), 0);
	assert_int_equal(walk(at(63), f, 8, &more), 0);
	/* a zero return address ends the chain */
	rec(0, at(4), 0);
	assert_int_equal(walk(at(0), f, 8, &more), 0);
}

static void test_walk_range_from_zero(void **state)
{
	struct bmprof_range r = { 0, 4096 };
	uint64_t f[4];
	int more;

	(void)state;
	/* fp 0 is never read even where a range starts at 0 */
	assert_int_equal(bmprof_walk_fp(0, 0, &r, 1, f, 4, &more), 0);
}

static void test_walk_depth_bound(void **state)
{
	uint64_t f[8];
	int more;

	(void)state;
	memset(stk, 0, sizeof stk);
	for (unsigned i = 0; i < 20; i++)
		rec(2 * i, at(2 * i + 2), 0x3000 + i);
	assert_int_equal(walk(at(0), f, 4, &more), 4);
	assert_true(more);
	assert_int_equal(f[3], 0x3003);
	/* a chain of exactly max frames is not cut */
	rec(6, 0, 0x3003);
	assert_int_equal(walk(at(0), f, 4, &more), 4);
	assert_false(more);
}

static void test_walk_second_range(void **state)
{
	static uint64_t other[8] __attribute__((aligned(16)));
	struct bmprof_range r[2] = { whole(), { (uintptr_t)other, (uintptr_t)(other + 8) } };
	uint64_t f[8];
	int more;

	(void)state;
	memset(stk, 0, sizeof stk);
	other[0] = (uintptr_t)&other[2];
	other[1] = 0x4001;
	other[2] = at(0);                        /* into the other range: the chain ends */
	other[3] = 0x4002;
	rec(0, 0, 0x4003);
	assert_int_equal(bmprof_walk_fp((uintptr_t)other, 0, r, 2, f, 8, &more), 2);
}

/* RISC-V's records lie below the frame pointer: { next fp, ra } at fp - 16. */
static void test_walk_records_below(void **state)
{
	struct bmprof_range r = whole();
	uint64_t f[8];
	int more;

	(void)state;
	memset(stk, 0, sizeof stk);
	rec(2, at(8), 0x5001);                   /* fp at(4) */
	rec(6, at(14), 0x5002);                  /* fp at(8) */
	rec(12, 0, 0x5003);                      /* fp at(14) */
	assert_int_equal(bmprof_walk_fp(at(4), -16, &r, 1, f, 8, &more), 3);
	assert_int_equal(f[0], 0x5001);
	assert_int_equal(f[2], 0x5003);
	/* the same chain read at the frame pointer is something else */
	assert_int_not_equal(bmprof_walk_fp(at(4), 0, &r, 1, f, 8, &more), 3);
	/* a frame pointer whose record would start below the range is never read */
	assert_int_equal(bmprof_walk_fp(at(1), -16, &r, 1, f, 8, &more), 0);
	assert_int_equal(bmprof_walk_fp(8, -16, &r, 1, f, 8, &more), 0);
	/* the record of the range's last frame pointer ends at its top */
	rec(62, 0, 0x5004);
	rec(2, at(64), 0x5001);
	assert_int_equal(bmprof_walk_fp(at(4), -16, &r, 1, f, 8, &more), 2);
	assert_int_equal(f[1], 0x5004);
	/* going down ends the chain */
	rec(2, at(2), 0x5001);
	assert_int_equal(bmprof_walk_fp(at(4), -16, &r, 1, f, 8, &more), 1);
}

/* ---- the stack table ---- */

struct cpu {
	struct bmprof_cpu c;
	void *mem, *smem;
};

static struct cpu *cpu_new(uint32_t stacks, uint32_t frames)
{
	struct cpu *p = calloc(1, sizeof *p);
	size_t n = bmprof_cpu_mem_size(1024, 256), sn = bmprof_stacks_mem_size(stacks, frames);

	assert_true(sn > 0);
	p->mem = aligned_alloc(64, (n + 63) & ~(size_t)63);
	p->smem = malloc(sn);
	memset(p->smem, 0xa5, sn);
	assert_int_equal(bmprof_cpu_init(&p->c, 1, p->mem, n, 1024, 256, 7), 0);
	assert_int_equal(bmprof_stacks_init(&p->c, p->smem, sn, stacks, frames, 8), 0);
	return p;
}

static void cpu_free(struct cpu *p)
{
	free(p->mem);
	free(p->smem);
	free(p);
}

static void test_stacks_init_rejects(void **state)
{
	struct bmprof_cpu c;
	uint64_t m[64];

	(void)state;
	memset(&c, 0, sizeof c);
	assert_int_equal(bmprof_stacks_mem_size(0, 8), 0);
	assert_int_equal(bmprof_stacks_mem_size(0xFFFF, 8), 0);
	assert_int_equal(bmprof_stacks_mem_size(4, 0), 0);
	assert_int_equal(bmprof_stacks_init(&c, m, sizeof m, 4, 8, 0), -1);
	assert_int_equal(bmprof_stacks_init(&c, m, sizeof m, 4, 8, BMPROF_STACK_DEPTH_MAX + 1), -1);
	assert_int_equal(bmprof_stacks_init(&c, m, 8, 4, 8, 8), -1);
	assert_int_equal(bmprof_stacks_init(&c, (uint8_t *)m + 1, sizeof m - 8, 4, 8, 8), -1);
	assert_int_equal(bmprof_stacks_init(&c, m, sizeof m, 4, 8, 8), 0);
}

static void test_stack_ids(void **state)
{
	struct cpu *p = cpu_new(8, 64);
	const uint64_t x[] = { 1, 2, 3 }, y[] = { 1, 2, 4 };

	(void)state;
	assert_int_equal(bmprof_stack_id(&p->c, x, 0, 0), 0);
	assert_int_equal(bmprof_stack_id(&p->c, x, 3, 0), 1);
	assert_int_equal(bmprof_stack_id(&p->c, y, 3, 0), 2);
	assert_int_equal(bmprof_stack_id(&p->c, x, 2, 0), 3);
	assert_int_equal(bmprof_stack_id(&p->c, x, 3, BMPROF_STACKF_CUT), 4);
	assert_int_equal(bmprof_stack_id(&p->c, x, 0, BMPROF_STACKF_CUT), 5);
	assert_int_equal(bmprof_stack_id(&p->c, x, 3, 0), 1);
	assert_int_equal(bmprof_stack_id(&p->c, y, 3, 0), 2);
	assert_int_equal(p->c.stacks.n, 5);
	assert_int_equal(p->c.stacks.full, 0);
	cpu_free(p);
}

static void test_stack_table_full(void **state)
{
	struct cpu *p = cpu_new(2, 64), *q = cpu_new(8, 4);
	const uint64_t a[] = { 1, 2, 3 }, b[] = { 4, 5 }, c[] = { 6 };

	(void)state;
	assert_int_equal(bmprof_stack_id(&p->c, a, 3, 0), 1);
	assert_int_equal(bmprof_stack_id(&p->c, b, 2, 0), 2);
	assert_int_equal(bmprof_stack_id(&p->c, c, 1, 0), BMPROF_STACK_LOST);
	assert_int_equal(bmprof_stack_id(&p->c, c, 1, 0), BMPROF_STACK_LOST);
	assert_int_equal(p->c.stacks.full, 2);
	assert_int_equal(bmprof_stack_id(&p->c, a, 3, 0), 1);   /* the kept ones still hit */
	/* the frames run out first */
	assert_int_equal(bmprof_stack_id(&q->c, a, 3, 0), 1);
	assert_int_equal(bmprof_stack_id(&q->c, b, 2, 0), BMPROF_STACK_LOST);
	assert_int_equal(bmprof_stack_id(&q->c, c, 1, 0), 2);
	assert_int_equal(q->c.stacks.full, 1);
	cpu_free(p);
	cpu_free(q);
}

/* ---- through the drain into the profile model ---- */

struct sink {
	struct profile prof;
	int stacks_before_samples;  /* every STACK_SAMPLES frame came after a STACKS frame */
	int seen_stacks, seen_samples, seen_plain;
};

static int sink_write(void *ctx, const void *buf, size_t len)
{
	struct sink *s = ctx;
	const uint8_t *b = buf;
	uint16_t n = bmprof_get16(b + 6);

	assert_int_equal(len, BMPROF_FRAME_HDR + n + BMPROF_FRAME_CRC);
	if (b[4] == BMPROF_FRAME_STACKS)
		s->seen_stacks++;
	if (b[4] == BMPROF_FRAME_STACK_SAMPLES) {
		s->seen_samples++;
		if (!s->seen_stacks)
			s->stacks_before_samples = 0;
	}
	if (b[4] == BMPROF_FRAME_SAMPLES)
		s->seen_plain++;
	assert_int_equal(profile_apply_frame(&s->prof, b[4], b + BMPROF_FRAME_HDR, n), 0);
	return 0;
}

static void test_drain_to_model(void **state)
{
	struct cpu *p = cpu_new(2, 64);
	struct sink s = { .stacks_before_samples = 1 };
	struct bmprof_out out = { sink_write, &s };
	const uint64_t a[] = { 0x1000, 0x2000 }, b[] = { 0x3000 }, c[] = { 0x4000 };
	uint64_t empty = 0, viaa = 0, viab = 0, viac = 0, lost = 0;

	(void)state;
	profile_init(&s.prof);
	for (int i = 0; i < 300; i++) {
		const uint64_t *f = i % 3 == 0 ? a : i % 3 == 1 ? b : c;
		uint16_t id = i % 5 ? bmprof_stack_id(&p->c, f, f == a ? 2 : 1, 0) : 0;
		bmprof_record_stack(&p->c, 0x500 + (uint64_t)(i % 7), 0, id);
	}
	bmprof_flush(&p->c, &out);
	assert_true(s.stacks_before_samples);
	assert_int_equal(s.seen_plain, 0);
	assert_true(s.seen_samples > 0);
	assert_int_equal(p->c.taken, p->c.delivered);
	assert_int_equal(s.prof.total, 300);
	for (size_t i = 0; i < s.prof.nstack_samples; i++) {
		const struct profile_stack_sample *x = &s.prof.stack_samples[i];
		if (x->stack == PROFILE_STACK_NONE) {
			lost += x->count;
			continue;
		}
		const struct profile_stack *st = &s.prof.stacks[x->stack];
		const uint64_t *fr = s.prof.stack_frames + st->off;
		if (st->depth == 0)
			empty += x->count;
		else if (st->depth == 2 && fr[0] == 0x1000 && fr[1] == 0x2000)
			viaa += x->count;
		else if (st->depth == 1 && fr[0] == 0x3000)
			viab += x->count;
		else if (st->depth == 1 && fr[0] == 0x4000)
			viac += x->count;
		else
			fail_msg("a chain that was never recorded: stack %u depth %u f0 %llx", x->stack, st->depth, (unsigned long long)(st->depth ? fr[0] : 0));
	}
	/* i % 5 == 0: no chain (60); of the rest b 80 and c 80 (first seen at i = 1 and 2:
	 * ids 1 and 2), a 80 (it found the table full) */
	assert_int_equal(empty, 60);
	assert_int_equal(viaa, 0);
	assert_int_equal(viab, 80);
	assert_int_equal(viac, 80);
	assert_int_equal(lost, 80);
	assert_int_equal(s.prof.stack_lost, 80);
	assert_int_equal(s.prof.cpus[1].totals[BMPROF_TOTAL_STACK_FULL], 80);
	assert_int_equal(s.prof.cpus[1].totals[BMPROF_TOTAL_STACKS], 2);
	profile_free(&s.prof);
	cpu_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_good_chain),
		cmocka_unit_test(test_walk_hostile),
		cmocka_unit_test(test_walk_range_from_zero),
		cmocka_unit_test(test_walk_depth_bound),
		cmocka_unit_test(test_walk_second_range),
		cmocka_unit_test(test_walk_records_below),
		cmocka_unit_test(test_stacks_init_rejects),
		cmocka_unit_test(test_stack_ids),
		cmocka_unit_test(test_stack_table_full),
		cmocka_unit_test(test_drain_to_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
