/* SPDX-License-Identifier: BSD-2-Clause */
/* The arch-neutral PMU layer (target/core/pmu_*.c) driven through a fake driver: an ops
 * table over an array of counters with a width, an enable bit, an interrupt-enable bit and
 * an overflow bit that is set when a counter wraps. Frames are decoded with wire.h alone
 * and their CRCs checked with zlib. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>

#include "bmprof.h"
#include "bmprof_pmu.h"
#include "wire.h"
#include "core_fixture.h"

#define FX BMPROF_PMU_FIXED_BASE

/* ---- the fake PMU ---- */

struct fctr {
	uint64_t value, enc;
	int programmed, irq, enabled, ovf;
	unsigned writes;
};

static struct {
	struct bmprof_pmu_caps caps;
	int absent;
	struct fctr c[64];
	uint64_t unsupported;      /* an encoding event_ok refuses (0: none) */
	uint64_t acked;
	unsigned acks;
} F;

static uint64_t fmask(unsigned ctr)
{
	unsigned w = ctr >= FX ? F.caps.fixed_width : F.caps.gp_width;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static int f_probe(struct bmprof_pmu_caps *caps)
{
	if (F.absent)
		return -1;
	*caps = F.caps;
	return 0;
}

static void f_program(unsigned ctr, uint64_t enc, int irq)
{
	assert_true(ctr < 64);
	assert_false(F.c[ctr].enabled);        /* programmed while stopped */
	F.c[ctr].enc = enc;
	F.c[ctr].irq = irq;
	F.c[ctr].programmed = 1;
}

static void f_clear(unsigned ctr)
{
	F.c[ctr].enabled = F.c[ctr].programmed = F.c[ctr].irq = 0;
	F.c[ctr].enc = 0;
}

static uint64_t f_read(unsigned ctr) { return F.c[ctr].value; }

/* A counter is never reloaded while its overflow bit is set: QEMU's PMUv3 loses later
 * overflows of a counter reloaded before its bit is cleared. */
static void f_write(unsigned ctr, uint64_t v)
{
	assert_true(v <= fmask(ctr));
	assert_false(F.c[ctr].ovf);
	F.c[ctr].value = v;
	F.c[ctr].writes++;
}

static void f_enable(uint64_t m)
{
	for (unsigned i = 0; i < 64; i++)
		if (m >> i & 1) {
			assert_true(F.c[i].programmed);
			F.c[i].enabled = 1;
		}
}

static void f_disable(uint64_t m)
{
	for (unsigned i = 0; i < 64; i++)
		if (m >> i & 1)
			F.c[i].enabled = 0;
}

static uint64_t f_overflow(void)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < 64; i++)
		m |= (uint64_t)(F.c[i].ovf != 0) << i;
	return m;
}

static void f_ack(uint64_t m)
{
	for (unsigned i = 0; i < 64; i++)
		if (m >> i & 1)
			F.c[i].ovf = 0;
	F.acked |= m;
	F.acks++;
}

static int f_event_ok(uint64_t enc) { return !F.unsupported || enc != F.unsupported; }

static const struct bmprof_pmu_ops fake_ops = {
	.name = "fake", .probe = f_probe, .program = f_program, .clear = f_clear,
	.read = f_read, .write = f_write, .enable = f_enable, .disable = f_disable,
	.overflow = f_overflow, .ack = f_ack, .event_ok = f_event_ok,
};

/* n events on counter ctr if it runs; a wrap sets its overflow bit. */
static void run(unsigned ctr, uint64_t n)
{
	struct fctr *c = &F.c[ctr];
	if (!c->enabled)
		return;
	uint64_t v = c->value + n;
	if ((v & ~fmask(ctr)) || v < c->value)
		c->ovf = 1;
	c->value = v & fmask(ctr);
}

static void run_all(uint64_t n)
{
	for (unsigned i = 0; i < 64; i++)
		run(i, n);
}

/* An Intel-like PMU: ngp GP counters of gp_width bits, fixed 0/1/2 = instructions,
 * cycles, ref-cycles (nfixed of them) 48 bits wide. */
static void fake_intel(unsigned ngp, unsigned gp_width, unsigned nfixed)
{
	memset(&F, 0, sizeof F);
	F.caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_INTEL, .version = 4, .ngp = (uint8_t)ngp,
		.nfixed = (uint8_t)nfixed, .gp_width = (uint8_t)gp_width, .fixed_width = 48,
		.fixed_kind = { BMPROF_FIXED_INSTRUCTIONS, BMPROF_FIXED_CYCLES,
				BMPROF_FIXED_REF_CYCLES },
		.can_interrupt = 1,
	};
}

/* A PMUv3-like PMU: ngp 32-bit event counters and the 64-bit cycle counter. */
static void fake_arm(unsigned ngp)
{
	memset(&F, 0, sizeof F);
	F.caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_ARM, .version = 5, .ngp = (uint8_t)ngp, .nfixed = 1,
		.gp_width = 32, .fixed_width = 64, .fixed_kind = { BMPROF_FIXED_CYCLES },
		.can_interrupt = 1,
	};
}

/* ---- helpers ---- */

static struct bmprof_pmu *pmu_new(void)
{
	struct bmprof_pmu *p = calloc(1, sizeof *p);
	assert_non_null(p);
	return p;
}

static void add(struct bmprof_pmu *p, const char *spec, uint8_t vendor)
{
	int r = bmprof_pmu_parse_event(p, spec, (unsigned)strlen(spec), vendor);
	if (r)
		fail_msg("%s: %s", spec, p->error ? p->error : "(no error)");
}

static const struct bmprof_pmu_event *ev(const struct bmprof_pmu *p, uint16_t id)
{
	for (unsigned i = 0; i < p->nevents; i++)
		if (p->ev[i].id == id)
			return &p->ev[i];
	fail_msg("no event %u", id);
	return NULL;
}

static struct cpu *cpu_new(void) { return cpu_new_seeded(2, 42); }

/* ---- a sink and a frame splitter ---- */

struct sink {
	uint8_t buf[1 << 16];
	size_t len;
	int fail;
};

static int sink_write(void *ctx, const void *b, size_t n)
{
	struct sink *s = ctx;
	if (s->fail)
		return -7;
	assert_true(s->len + n <= sizeof s->buf);
	memcpy(s->buf + s->len, b, n);
	s->len += n;
	return 0;
}

/* The k-th frame of s: its type and payload (checked: magic, CRC). */
static const uint8_t *frame(const struct sink *s, unsigned k, uint8_t *type, uint16_t *len)
{
	size_t off = 0;
	for (;;) {
		assert_true(off + BMPROF_FRAME_HDR + BMPROF_FRAME_CRC <= s->len);
		const uint8_t *f = s->buf + off;
		assert_int_equal(f[0], BMPROF_MAGIC0);
		assert_int_equal(f[1], 'B');
		assert_int_equal(f[2], 'M');
		assert_int_equal(f[3], 'P');
		uint16_t n = bmprof_get16(f + 6);
		assert_true(off + BMPROF_FRAME_HDR + n + BMPROF_FRAME_CRC <= s->len);
		uint32_t crc = (uint32_t)crc32(0, f + 4, BMPROF_FRAME_HDR - 4 + n);
		assert_int_equal(bmprof_get32(f + BMPROF_FRAME_HDR + n), crc);
		if (k-- == 0) {
			*type = f[4];
			*len = n;
			return f + BMPROF_FRAME_HDR;
		}
		off += BMPROF_FRAME_HDR + n + BMPROF_FRAME_CRC;
	}
}

static unsigned nframes(const struct sink *s)
{
	size_t off = 0;
	unsigned k = 0;
	while (off < s->len) {
		off += BMPROF_FRAME_HDR + bmprof_get16(s->buf + off + 6) + BMPROF_FRAME_CRC;
		k++;
	}
	assert_int_equal(off, s->len);
	return k;
}

/* ---- parsing ---- */

static void test_parse_good(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();

	add(p, "1:cycles:100000", BMPROF_VENDOR_INTEL);
	add(p, "2:intel.0x3c/amd.0x76/arm.11:0:cyc:3", BMPROF_VENDOR_AMD);
	add(p, "3:intel.0xc0/0x8:20000", BMPROF_VENDOR_ARM);
	add(p, "4:0x1004300C0:20000", BMPROF_VENDOR_INTEL);
	add(p, "5:ref-cycles:0", BMPROF_VENDOR_AMD);
	add(p, "6:amd.instructions/arm.instructions:0", BMPROF_VENDOR_ARM);
	add(p, "7:2e:0::9", BMPROF_VENDOR_INTEL);
	add(p, "65535:ref-cycles:0:refs", BMPROF_VENDOR_INTEL);
	assert_int_equal(p->nevents, 8);

	const struct bmprof_pmu_event *e = ev(p, 1);
	assert_int_equal(e->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(e->fixed, BMPROF_FIXED_CYCLES);
	assert_int_equal(e->encoding, 0x3c);              /* Intel's GP form of cycles */
	assert_int_equal(e->period, 100000);
	assert_int_equal(e->jitter, 6250);
	assert_string_equal(e->name, "cycles");
	assert_int_equal(e->user_group, BMPROF_PMU_NONE);
	assert_int_equal(e->counter, BMPROF_PMU_NONE);

	e = ev(p, 2);                                    /* the AMD alternative */
	assert_int_equal(e->fixed, BMPROF_FIXED_NONE);
	assert_int_equal(e->encoding, 0x76);
	assert_int_equal(e->period, 0);
	assert_string_equal(e->name, "cyc");
	assert_int_equal(e->user_group, 3);

	e = ev(p, 3);                                    /* no vendor: any */
	assert_int_equal(e->encoding, 0x8);
	assert_string_equal(e->name, "r8");

	e = ev(p, 4);
	assert_int_equal(e->encoding, 0x1004300c0ull);
	assert_string_equal(e->name, "r1004300c0");

	e = ev(p, 5);                                    /* no GP form on AMD */
	assert_int_equal(e->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(e->fixed, BMPROF_FIXED_REF_CYCLES);
	assert_true(e->flags & BMPROF_PMUEV_NO_GP);

	e = ev(p, 6);
	assert_int_equal(e->fixed, BMPROF_FIXED_INSTRUCTIONS);
	assert_int_equal(e->encoding, 0x08);
	assert_string_equal(e->name, "instructions");

	e = ev(p, 7);                                    /* empty NAME before a GROUP */
	assert_string_equal(e->name, "r2e");
	assert_int_equal(e->user_group, 9);

	e = ev(p, 65535);
	assert_int_equal(e->encoding, 0x13c);
	assert_string_equal(e->name, "refs");
	free(p);
}

static void test_parse_bad(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "1", "1:cycles", "0:cycles:0", "65536:cycles:0", "x:cycles:0", "-1:cycles:0",
		"1::0", "1:zz:0", "1:foo.11:0", "1:0x11/:0", "1:/0x11:0", "1:intel.:0",
		"1:0x:0", "1:12345678901234567:0", "1:cycles:5", "1:cycles:9999", "1:cycles:abc",
		"1:cycles:", "1:cycles:0:", "1:cycles:0:abcdefghijabcdefghijabcdefghijab",
		"1:cycles:0:n:255", "1:cycles:0:n:x", "1:cycles:0:n:1:more",
		"1:cycles:18446744073709551616", "1:cycles:0:", "2:cycles:0",
	};
	struct bmprof_pmu *p = pmu_new();

	add(p, "2:0x11:0", BMPROF_VENDOR_ARM);
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p->error = NULL;
		if (bmprof_pmu_parse_event(p, bad[i], (unsigned)strlen(bad[i]),
					   BMPROF_VENDOR_ARM) != -1)
			fail_msg("'%s' was accepted", bad[i]);
		assert_non_null(p->error);
		assert_int_equal(p->nevents, 1);
	}
	assert_int_equal(bmprof_pmu_parse_event(p, NULL, 3, BMPROF_VENDOR_ARM), -1);
	/* len bounds the text: the rest of the string is not read */
	assert_int_equal(bmprof_pmu_parse_event(p, "3:0x11:0:abc", 6, BMPROF_VENDOR_ARM), -1);
	assert_int_equal(bmprof_pmu_parse_event(p, "3:0x11:0:abc", 8, BMPROF_VENDOR_ARM), 0);
	assert_int_equal(ev(p, 3)->encoding, 0x11);

	/* a full table */
	char spec[32];
	for (unsigned id = 10; p->nevents < BMPROF_PMU_MAX_EVENTS; id++) {
		snprintf(spec, sizeof spec, "%u:0x11:0", id);
		add(p, spec, BMPROF_VENDOR_ARM);
	}
	assert_int_equal(bmprof_pmu_parse_event(p, "99:0x11:0", 9, BMPROF_VENDOR_ARM), -1);
	assert_non_null(strstr(p->error, "too many"));
	free(p);
}

static void test_parse_vendor(void **state)
{
	(void)state;
	const char *spec = "4:intel.0x3c/amd.0x76:0";
	struct bmprof_pmu *p = pmu_new();

	add(p, spec, BMPROF_VENDOR_INTEL);
	assert_int_equal(ev(p, 4)->encoding, 0x3c);
	memset(p, 0, sizeof *p);
	add(p, spec, BMPROF_VENDOR_AMD);
	assert_int_equal(ev(p, 4)->encoding, 0x76);
	memset(p, 0, sizeof *p);
	add(p, spec, BMPROF_VENDOR_ARM);               /* no Arm form: BAD_ENCODING */
	assert_int_equal(ev(p, 4)->status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(ev(p, 4)->reason, BMPROF_EVR_BAD_ENCODING);
	assert_string_equal(ev(p, 4)->name, "intel.0x3c/amd.0x76");
	memset(p, 0, sizeof *p);
	add(p, "5:amd.0x76/intel.0x3c/0x11:0", BMPROF_VENDOR_INTEL);  /* first match wins */
	assert_int_equal(ev(p, 5)->encoding, 0x3c);
	memset(p, 0, sizeof *p);
	add(p, "5:0x11/intel.0x3c:0", BMPROF_VENDOR_INTEL);
	assert_int_equal(ev(p, 5)->encoding, 0x11);
	/* stays BAD_ENCODING through setup */
	memset(p, 0, sizeof *p);
	add(p, spec, BMPROF_VENDOR_ARM);
	fake_arm(6);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 0);
	assert_int_equal(ev(p, 4)->reason, BMPROF_EVR_BAD_ENCODING);
	/* RISC-V: its own prefix, and the words as the SBI PMU's event codes */
	memset(p, 0, sizeof *p);
	add(p, "7:arm.0x11/riscv.10019:0", BMPROF_VENDOR_RISCV);
	assert_int_equal(ev(p, 7)->encoding, 0x10019);
	add(p, "8:riscv.10019:0", BMPROF_VENDOR_ARM);
	assert_int_equal(ev(p, 8)->reason, BMPROF_EVR_BAD_ENCODING);
	add(p, "9:cycles/0x11:0", BMPROF_VENDOR_RISCV);
	assert_int_equal(ev(p, 9)->encoding, 0x1);
	add(p, "10:instructions:0", BMPROF_VENDOR_RISCV);
	assert_int_equal(ev(p, 10)->encoding, 0x2);
	free(p);
}

/* ---- placement and grouping ---- */

static void test_place_fixed_first(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	fake_intel(4, 48, 3);
	add(p, "1:0x2e:0", BMPROF_VENDOR_INTEL);
	add(p, "2:cycles:0", BMPROF_VENDOR_INTEL);
	add(p, "3:instructions:0", BMPROF_VENDOR_INTEL);
	add(p, "4:ref-cycles:0", BMPROF_VENDOR_INTEL);
	add(p, "5:cycles:0", BMPROF_VENDOR_INTEL);       /* fixed 1 is taken: GP, 0x3c */
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 5);
	assert_int_equal(p->ngroups, 1);
	assert_int_equal(ev(p, 1)->counter, 0);
	assert_int_equal(ev(p, 2)->counter, FX + 1);
	assert_int_equal(ev(p, 3)->counter, FX + 0);
	assert_int_equal(ev(p, 4)->counter, FX + 2);
	assert_int_equal(ev(p, 5)->counter, 1);
	/* one group: every event stays on the PMU */
	assert_int_equal(p->group_mask[0], 0);
	assert_int_equal(p->pinned_mask, 0x3ull | 0x7ull << FX);
	for (uint16_t id = 1; id <= 5; id++)
		assert_int_equal(ev(p, id)->group, BMPROF_PMU_NONE);

	/* no fixed counters: words take GP counters with the vendor's encoding */
	memset(p, 0, sizeof *p);
	fake_intel(4, 48, 0);
	add(p, "2:cycles:0", BMPROF_VENDOR_INTEL);
	add(p, "4:ref-cycles:0", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 2);
	assert_int_equal(ev(p, 2)->counter, 0);
	assert_int_equal(ev(p, 4)->counter, 1);
	bmprof_pmu_start(p, 0);
	assert_int_equal(F.c[0].enc, 0x3c);
	assert_int_equal(F.c[1].enc, 0x13c);
	bmprof_pmu_stop(p, 1);

	/* Arm: cycles on the cycle counter, instructions on an event counter (0x08);
	 * ref-cycles is CNT_CYCLES (0x4004), which this PMU does not implement */
	memset(p, 0, sizeof *p);
	fake_arm(6);
	F.unsupported = 0x4004;
	add(p, "1:instructions:0", BMPROF_VENDOR_ARM);
	add(p, "2:cycles:0", BMPROF_VENDOR_ARM);
	add(p, "3:ref-cycles:0", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 2);
	assert_int_equal(ev(p, 1)->counter, 0);
	assert_int_equal(ev(p, 2)->counter, FX);
	assert_int_equal(ev(p, 3)->status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(ev(p, 3)->reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(ev(p, 3)->encoding, 0x4004);

	/* AMD has no ref-cycles at all */
	memset(p, 0, sizeof *p);
	F.unsupported = 0;
	F.caps.vendor = BMPROF_VENDOR_AMD;
	add(p, "3:ref-cycles:0", BMPROF_VENDOR_AMD);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 0);
	assert_int_equal(ev(p, 3)->reason, BMPROF_EVR_UNSUPPORTED);

	/* a vendor with no GP form: a second `cycles` waits for the fixed counter in a
	 * group of its own */
	memset(p, 0, sizeof *p);
	fake_arm(6);
	add(p, "1:cycles:0", BMPROF_VENDOR_ANY);
	add(p, "2:cycles:0", BMPROF_VENDOR_ANY);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 2);
	assert_int_equal(p->ngroups, 2);
	assert_int_equal(ev(p, 1)->counter, FX);
	assert_int_equal(ev(p, 2)->counter, FX);
	assert_int_equal(ev(p, 2)->group, 1);
	free(p);
}

static void test_place_groups(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	char spec[32];

	fake_intel(2, 48, 0);
	for (unsigned i = 1; i <= 5; i++) {
		snprintf(spec, sizeof spec, "%u:0x%x:0", i, 0x10 + i);
		add(p, spec, BMPROF_VENDOR_INTEL);
	}
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 5);
	assert_int_equal(p->ngroups, 3);
	static const uint8_t group[] = { 0, 0, 1, 1, 2 }, ctr[] = { 0, 1, 0, 1, 0 };
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(p->ev[i].group, group[i]);
		assert_int_equal(p->ev[i].counter, ctr[i]);
		assert_int_equal(p->ev[i].status, BMPROF_EVST_ACTIVE);
	}
	assert_int_equal(p->group_mask[0], 3);
	assert_int_equal(p->group_mask[2], 1);
	assert_int_equal(p->pinned_mask, 0);
	assert_true(bmprof_pmu_needs_tick(p));
	free(p);
}

static void test_place_user_groups(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();

	fake_intel(4, 48, 0);
	add(p, "1:0x11:0", BMPROF_VENDOR_INTEL);
	add(p, "2:0x12:0", BMPROF_VENDOR_INTEL);
	add(p, "3:0x13:0:a:7", BMPROF_VENDOR_INTEL);
	add(p, "4:0x14:0", BMPROF_VENDOR_INTEL);
	add(p, "5:0x15:0:b:7", BMPROF_VENDOR_INTEL);
	add(p, "6:0x16:0:c:7", BMPROF_VENDOR_INTEL);
	add(p, "7:0x17:0:d:2", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 7);
	/* 1, 2 in group 0; the three of group 7 do not fit beside them: group 1; 4 and 7
	 * fill group 0, and 7's counter (GP 3) is used by group 0 alone: it stays on */
	assert_int_equal(ev(p, 1)->group, 0);
	assert_int_equal(ev(p, 2)->group, 0);
	assert_int_equal(ev(p, 3)->group, 1);
	assert_int_equal(ev(p, 5)->group, 1);
	assert_int_equal(ev(p, 6)->group, 1);
	assert_int_equal(ev(p, 4)->group, 0);
	assert_int_equal(ev(p, 7)->group, BMPROF_PMU_NONE);
	assert_int_equal(ev(p, 7)->counter, 3);
	assert_int_equal(p->ngroups, 2);
	assert_int_equal(p->group_mask[0], 0x7);
	assert_int_equal(p->group_mask[1], 0x7);
	assert_int_equal(p->pinned_mask, 0x8);

	/* a group larger than the PMU: NO_COUNTER for all of it, the rest placed */
	memset(p, 0, sizeof *p);
	fake_intel(2, 48, 1);
	add(p, "1:0x11:0:a:1", BMPROF_VENDOR_INTEL);
	add(p, "2:instructions:0:b:1", BMPROF_VENDOR_INTEL);
	add(p, "3:0x13:0:c:1", BMPROF_VENDOR_INTEL);
	add(p, "4:0x14:0:d:1", BMPROF_VENDOR_INTEL);
	add(p, "5:0x15:0", BMPROF_VENDOR_INTEL);
	add(p, "6:0x16:0:e:2", BMPROF_VENDOR_INTEL);
	add(p, "7:instructions:0:f:2", BMPROF_VENDOR_INTEL);
	add(p, "8:0x18:0:g:2", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 4);
	for (uint16_t id = 1; id <= 4; id++) {
		assert_int_equal(ev(p, id)->status, BMPROF_EVST_UNAVAILABLE);
		assert_int_equal(ev(p, id)->reason, BMPROF_EVR_NO_COUNTER);
		assert_int_equal(ev(p, id)->counter, BMPROF_PMU_NONE);
	}
	/* group 2 exactly fits: fixed instructions + 2 GP, in a group of its own; 7 and 8
	 * have counters no other group uses, but 6 shares GP 0 with 5, so the group rotates
	 * as a whole */
	assert_int_equal(ev(p, 5)->group, 0);
	assert_int_equal(ev(p, 6)->group, 1);
	assert_int_equal(ev(p, 7)->group, 1);
	assert_int_equal(ev(p, 7)->counter, FX);
	assert_int_equal(ev(p, 8)->group, 1);
	assert_int_equal(p->ngroups, 2);
	assert_int_equal(p->pinned_mask, 0);
	free(p);
}

static void test_place_no_pmu(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();

	add(p, "1:cycles:100000", BMPROF_VENDOR_INTEL);
	add(p, "2:0xc0:0", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, NULL, NULL, BMPROF_PMU_SAMPLE), 0);
	/* the sampling one falls back to the timer; the counting one is not counted */
	assert_int_equal(ev(p, 1)->status, BMPROF_EVST_FALLBACK);
	assert_int_equal(ev(p, 1)->reason, BMPROF_EVR_NO_PMU);
	assert_int_equal(ev(p, 2)->status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(ev(p, 2)->reason, BMPROF_EVR_NO_PMU);
	assert_false(bmprof_pmu_sampling(p));
	assert_false(bmprof_pmu_needs_tick(p));
	bmprof_pmu_start(p, 0);                           /* harmless without a PMU */
	bmprof_pmu_tick(p, 5);
	assert_int_equal(bmprof_pmu_overflow(p, 0x1000), 0);
	bmprof_pmu_stop(p, 9);

	/* the probe says absent; counting mode: UNAVAILABLE */
	fake_intel(4, 48, 3);
	F.absent = 1;
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 0);
	assert_null(p->ops);
	assert_int_equal(ev(p, 1)->status, BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(ev(p, 1)->reason, BMPROF_EVR_NO_PMU);

	/* a PMU with no counters at all is no PMU */
	fake_intel(0, 48, 0);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 0);
	assert_int_equal(ev(p, 2)->reason, BMPROF_EVR_NO_PMU);

	/* set up again with a PMU: the earlier verdicts do not stick */
	fake_intel(4, 48, 3);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_SAMPLE), 2);
	assert_int_equal(ev(p, 1)->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(ev(p, 1)->reason, BMPROF_EVR_NONE);
	assert_true(bmprof_pmu_sampling(p));
	free(p);
}

static void test_place_unsupported_and_mask(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();

	fake_arm(6);
	F.unsupported = 0x08;
	F.caps.gp_mask_for_event = 0x0a;                 /* event counters 1 and 3 only */
	add(p, "1:0x08:0", BMPROF_VENDOR_ARM);
	add(p, "2:instructions:0", BMPROF_VENDOR_ARM);   /* GP 0x08 too */
	add(p, "3:0x11:0", BMPROF_VENDOR_ARM);
	add(p, "4:0x23:0", BMPROF_VENDOR_ARM);
	add(p, "5:0x24:0", BMPROF_VENDOR_ARM);
	add(p, "6:cycles:0", BMPROF_VENDOR_ARM);         /* fixed: not asked */
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 4);
	assert_int_equal(ev(p, 1)->reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(ev(p, 2)->reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(ev(p, 3)->counter, 1);
	assert_int_equal(ev(p, 4)->counter, 3);
	assert_int_equal(ev(p, 5)->counter, 1);
	assert_int_equal(ev(p, 5)->group, 1);
	assert_int_equal(ev(p, 6)->counter, FX);
	assert_int_equal(ev(p, 6)->group, BMPROF_PMU_NONE);
	assert_int_equal(ev(p, 4)->group, BMPROF_PMU_NONE);
	assert_int_equal(ev(p, 3)->group, 0);
	free(p);
}

static void test_place_overflow_caps(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	struct cpu *k = cpu_new();

	/* no overflow interrupt at all: every sampling event falls back, still counted */
	fake_arm(6);
	F.caps.can_interrupt = 0;
	add(p, "1:cycles:100000", BMPROF_VENDOR_ARM);
	add(p, "2:0x11:100000", BMPROF_VENDOR_ARM);
	add(p, "3:0x23:0", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 3);
	assert_false(bmprof_pmu_sampling(p));
	assert_int_equal(ev(p, 1)->status, BMPROF_EVST_FALLBACK);
	assert_int_equal(ev(p, 1)->reason, BMPROF_EVR_NO_OVERFLOW);
	assert_int_equal(ev(p, 1)->counter, FX);
	assert_int_equal(ev(p, 2)->status, BMPROF_EVST_FALLBACK);
	assert_int_equal(ev(p, 3)->status, BMPROF_EVST_ACTIVE);
	assert_true(bmprof_pmu_needs_tick(p));
	bmprof_pmu_start(p, 0);
	assert_false(F.c[FX].irq);
	assert_false(F.c[0].irq);
	bmprof_pmu_stop(p, 1);

	/* the event counters cannot interrupt, the cycle counter can */
	memset(p, 0, sizeof *p);
	fake_arm(6);
	F.caps.no_irq_mask = 0x3f;
	add(p, "1:cycles:100000", BMPROF_VENDOR_ARM);
	add(p, "2:0x11:100000", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 2);
	assert_true(bmprof_pmu_sampling(p));
	assert_int_equal(ev(p, 1)->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(ev(p, 1)->reason, BMPROF_EVR_NONE);
	assert_int_equal(ev(p, 2)->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(ev(p, 2)->reason, BMPROF_EVR_NO_OVERFLOW);
	bmprof_pmu_start(p, 0);
	assert_true(F.c[FX].irq);
	assert_false(F.c[0].irq);
	assert_int_equal(F.c[0].value, 0);               /* counting: starts at 0 */
	bmprof_pmu_stop(p, 1);

	/* count mode: nothing interrupts */
	memset(p, 0, sizeof *p);
	fake_arm(6);
	add(p, "1:cycles:100000", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_COUNT), 1);
	assert_false(bmprof_pmu_sampling(p));
	assert_int_equal(ev(p, 1)->status, BMPROF_EVST_ACTIVE);
	bmprof_pmu_start(p, 0);
	assert_false(F.c[FX].irq);
	assert_int_equal(F.c[FX].value, 0);
	bmprof_pmu_stop(p, 1);

	/* a period longer than the counter is cut to what it can hold */
	memset(p, 0, sizeof *p);
	fake_arm(6);
	add(p, "1:0x11:10000000000", BMPROF_VENDOR_ARM);
	add(p, "2:cycles:10000000000", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 2);
	assert_int_equal(ev(p, 1)->period, 0xffffffffull);
	assert_int_equal(ev(p, 1)->jitter, 0xffffffffull / 16);
	assert_int_equal(ev(p, 2)->period, 10000000000ull);
	F.caps.max_period = 0x7fffffff;
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 2);
	assert_int_equal(ev(p, 2)->period, 0x7fffffff);
	cpu_free(k);
	free(p);
}

/* ---- rotation, enabled/running, width ---- */

static void test_rotation_times(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();

	fake_intel(1, 48, 0);
	add(p, "1:0x11:0", BMPROF_VENDOR_INTEL);
	add(p, "2:0x22:0", BMPROF_VENDOR_INTEL);
	add(p, "3:0x33:0", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 3);
	assert_int_equal(p->ngroups, 3);

	bmprof_pmu_start(p, 1000);
	assert_int_equal(F.c[0].enc, 0x11);
	assert_true(F.c[0].enabled);
	run_all(100);
	bmprof_pmu_tick(p, 1100);
	assert_int_equal(F.c[0].enc, 0x22);
	assert_true(F.c[0].enabled);
	assert_int_equal(F.c[0].value, 0);
	run_all(200);
	bmprof_pmu_tick(p, 1300);
	assert_int_equal(F.c[0].enc, 0x33);
	run_all(50);
	bmprof_pmu_tick(p, 1400);
	assert_int_equal(F.c[0].enc, 0x11);
	assert_int_equal(F.c[0].value, 100);             /* resumes where it left off */
	run_all(10);
	bmprof_pmu_stop(p, 1450);
	assert_false(F.c[0].enabled);
	assert_false(F.c[0].programmed);

	assert_int_equal(ev(p, 1)->count, 110);
	assert_int_equal(ev(p, 2)->count, 200);
	assert_int_equal(ev(p, 3)->count, 50);
	for (uint16_t id = 1; id <= 3; id++)
		assert_int_equal(ev(p, id)->enabled, 450);
	assert_int_equal(ev(p, 1)->running, 150);        /* 1000-1100, 1400-1450 */
	assert_int_equal(ev(p, 2)->running, 200);
	assert_int_equal(ev(p, 3)->running, 100);
	/* nothing counts after stop */
	run_all(1000);
	bmprof_pmu_tick(p, 2000);
	assert_int_equal(ev(p, 1)->count, 110);
	assert_int_equal(ev(p, 1)->enabled, 450);
	free(p);
}

static void test_one_group_times(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();

	fake_intel(2, 48, 3);
	add(p, "1:cycles:0", BMPROF_VENDOR_INTEL);
	add(p, "2:0x2e:0", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 2);
	assert_int_equal(p->ngroups, 1);
	assert_true(bmprof_pmu_needs_tick(p));
	bmprof_pmu_start(p, 7);
	run(FX + 1, 1000);
	run(0, 30);
	bmprof_pmu_tick(p, 17);
	assert_int_equal(ev(p, 1)->count, 1000);        /* read on every tick */
	assert_int_equal(F.c[FX + 1].writes, 1);        /* not reprogrammed */
	run(FX + 1, 5);
	bmprof_pmu_stop(p, 27);
	assert_int_equal(ev(p, 1)->count, 1005);
	assert_int_equal(ev(p, 2)->count, 30);
	assert_int_equal(ev(p, 1)->enabled, 20);
	assert_int_equal(ev(p, 1)->running, 20);
	assert_int_equal(ev(p, 2)->running, 20);
	free(p);
}

static void test_width_wrap(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };

	fake_arm(1);
	add(p, "1:0x11:0", BMPROF_VENDOR_ARM);
	add(p, "2:0x08:0", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 2);
	bmprof_pmu_start(p, 0);
	run(0, 0xffffff00u);
	bmprof_pmu_tick(p, 1);          /* to event 2 */
	bmprof_pmu_tick(p, 2);          /* back */
	assert_int_equal(ev(p, 1)->count, 0xffffff00u);
	assert_false(ev(p, 1)->flags & BMPROF_PMUEV_WRAPPED);
	run(0, 0x200);                  /* wraps past 2^32 */
	bmprof_pmu_tick(p, 3);
	assert_int_equal(ev(p, 1)->count, 0x100000100ull);
	assert_true(ev(p, 1)->flags & BMPROF_PMUEV_WRAPPED);
	/* the wrapped counter's overflow bit was cleared when it left the PMU */
	assert_false(F.c[0].ovf);
	bmprof_pmu_stop(p, 4);
	assert_int_equal(bmprof_pmu_emit_counts(p, &out), 0);
	uint8_t type;
	uint16_t len;
	const uint8_t *f = frame(&s, 0, &type, &len);
	assert_int_equal(type, BMPROF_FRAME_COUNTS);
	assert_int_equal(len, BMPROF_COUNTS_FIXED + 2 * BMPROF_COUNTS_RECORD);
	assert_int_equal(bmprof_get16(f + 4), 1);
	assert_int_equal(bmprof_get16(f + 6), 1);                 /* extended by software */
	assert_int_equal(bmprof_get64(f + 12), 0x100000100ull);
	assert_int_equal(bmprof_get16(f + 4 + 32 + 2), 0);
	free(p);
}

/* A single group of counting events on a 32-bit counter: one read per tick keeps it. */
static void test_width_wrap_one_group(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	uint64_t total = 0;

	fake_arm(1);
	add(p, "1:0x11:0", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, NULL, BMPROF_PMU_COUNT), 1);
	bmprof_pmu_start(p, 0);
	for (unsigned t = 1; t <= 10; t++) {
		run(0, 0xc0000000u);
		total += 0xc0000000u;
		bmprof_pmu_tick(p, t);
	}
	bmprof_pmu_stop(p, 11);
	assert_int_equal(ev(p, 1)->count, total);
	assert_true(ev(p, 1)->flags & BMPROF_PMUEV_WRAPPED);
	free(p);
}

/* ---- overflow and sampling ---- */

static void test_overflow_samples(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	struct cpu *k = cpu_new();
	const uint64_t P1 = 100000, P2 = 50000;
	uint64_t lo1 = ~0ull, hi1 = 0, expect1 = 0, expect2 = 0;

	fake_arm(2);
	add(p, "1:cycles:100000", BMPROF_VENDOR_ARM);
	add(p, "2:0x08:50000:insns", BMPROF_VENDOR_ARM);
	add(p, "3:0x23:0", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 3);
	assert_true(bmprof_pmu_sampling(p));
	assert_true(bmprof_pmu_needs_tick(p));           /* event 3 counts */
	F.c[0].ovf = 1;                                  /* left over from before */
	bmprof_pmu_start(p, 0);
	assert_false(F.c[0].ovf);
	assert_int_equal(bmprof_pmu_overflow(p, 0x4000), 0);
	assert_int_equal(k->c.taken, 0);
	assert_true(F.c[FX].irq);
	assert_true(F.c[0].irq);
	assert_false(F.c[1].irq);
	/* armed with -(first period) */
	uint64_t n1 = 0 - F.c[FX].value, n2 = (0x100000000ull - F.c[0].value);
	assert_true(n1 >= P1 - P1 / 16 && n1 <= P1);
	assert_true(n2 >= P2 - P2 / 16 && n2 <= P2);
	assert_int_equal(ev(p, 1)->next, n1);

	for (unsigned i = 0; i < 400; i++) {
		/* run the cycle counter 3 events past its overflow */
		uint64_t left = 0 - F.c[FX].value;
		run(FX, left + 3);
		expect1 += left + 3;
		assert_true(F.c[FX].ovf);
		assert_int_equal(bmprof_pmu_overflow(p, 0x4000 + (i & 1)), 1ull << FX);
		assert_false(F.c[FX].ovf);
		uint64_t next = ev(p, 1)->next;
		lo1 = next < lo1 ? next : lo1;
		hi1 = next > hi1 ? next : hi1;
		assert_true(next >= P1 - P1 / 16 && next <= P1);
		/* the 3 events since the overflow count toward the next period */
		assert_int_equal(F.c[FX].value, 3 - next);
		assert_int_equal(ev(p, 1)->count, expect1);
	}
	assert_true(hi1 - lo1 > P1 / 32);                  /* randomized across the window */
	assert_int_equal(ev(p, 1)->samples, 400);
	assert_false(ev(p, 1)->flags & BMPROF_PMUEV_WRAPPED);  /* wrapping is its job */
	assert_int_equal(table_count(&k->c, 0x4000, 1), 200);
	assert_int_equal(table_count(&k->c, 0x4001, 1), 200);

	/* both event counters overflow at once: one PMI, a sample each */
	uint64_t left = 0x100000000ull - F.c[0].value;
	run(0, left);
	run(1, 0x100000000ull - F.c[1].value);
	expect2 += left;
	run(FX, 0 - F.c[FX].value);
	assert_int_equal(bmprof_pmu_overflow(p, 0x5000), 1ull << FX | 1 | 2);
	assert_int_equal(table_count(&k->c, 0x5000, 2), 1);
	assert_int_equal(table_count(&k->c, 0x5000, 1), 1);
	assert_int_equal(table_count(&k->c, 0x5000, 3), 0);   /* counting: no sample */
	assert_int_equal(F.acked & 7, 3);                  /* its wrap bit acknowledged */
	assert_int_equal(ev(p, 2)->count, expect2);
	n2 = 0x100000000ull - F.c[0].value;
	assert_int_equal(n2, ev(p, 2)->next);
	assert_true(n2 >= P2 - P2 / 16 && n2 <= P2);

	/* nothing pending: nothing happens */
	uint64_t taken = k->c.taken;
	assert_int_equal(bmprof_pmu_overflow(p, 0x6000), 0);
	assert_int_equal(k->c.taken, taken);

	/* a PMI while start/stop hold the PMU: acknowledged, no sample */
	run(0, 0x100000000ull - F.c[0].value);
	p->busy = BMPROF_PMU_BUSY_ALL;
	assert_int_equal(bmprof_pmu_overflow(p, 0x7000), 1);
	assert_false(F.c[0].ovf);
	assert_int_equal(k->c.taken, taken);
	/* while a rotation holds the rotating group: these events stay on, so they are
	 * the PMI's */
	run(0, 0x100000000ull - F.c[0].value);
	p->busy = BMPROF_PMU_BUSY_GROUP;
	assert_int_equal(bmprof_pmu_overflow(p, 0x7000), 1);
	p->busy = BMPROF_PMU_IDLE;
	assert_int_equal(table_count(&k->c, 0x7000, 2), 1);
	assert_int_equal(k->c.taken, ++taken);

	/* after stop: acknowledged, no sample */
	bmprof_pmu_stop(p, 10);
	F.c[0].ovf = 1;
	assert_int_equal(bmprof_pmu_overflow(p, 0x7000), 1);
	assert_int_equal(k->c.taken, taken);
	cpu_free(k);
	free(p);
}

/* A sampling event that overflowed without its PMI before its group left the PMU is
 * counted, and comes back armed for a fresh period. */
static void test_overflow_at_rotation(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	struct cpu *k = cpu_new();

	fake_arm(1);
	F.caps.nfixed = 0;
	add(p, "1:0x11:20000", BMPROF_VENDOR_ARM);
	add(p, "2:0x08:0", BMPROF_VENDOR_ARM);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 2);
	assert_int_equal(p->ngroups, 2);
	bmprof_pmu_start(p, 0);
	uint64_t first = ev(p, 1)->next;
	run(0, first + 40);                            /* overflow, no PMI yet */
	bmprof_pmu_tick(p, 100);
	assert_false(F.c[0].ovf);                      /* acknowledged when it left */
	assert_int_equal(F.c[0].enc, 0x08);
	assert_false(F.c[0].irq);
	assert_int_equal(ev(p, 1)->count, first + 40);
	uint64_t next = ev(p, 1)->next;
	assert_true(next >= 20000 - 1250 && next <= 20000);
	run(0, 77);
	bmprof_pmu_tick(p, 200);
	assert_int_equal(F.c[0].enc, 0x11);
	assert_true(F.c[0].irq);
	assert_int_equal(F.c[0].value, (40 - next) & 0xffffffffu);
	assert_int_equal(ev(p, 2)->count, 77);
	/* a PMI while a rotation holds the group: acknowledged, no sample */
	F.c[0].ovf = 1;
	p->busy = BMPROF_PMU_BUSY_GROUP;
	assert_int_equal(bmprof_pmu_overflow(p, 0x100), 1);
	p->busy = BMPROF_PMU_IDLE;
	assert_false(F.c[0].ovf);
	assert_int_equal(k->c.taken, 0);
	/* a stale overflow bit on a counter of another group's event: no sample */
	bmprof_pmu_tick(p, 300);
	F.c[0].ovf = 1;
	assert_int_equal(bmprof_pmu_overflow(p, 0x100), 1);
	assert_int_equal(k->c.taken, 0);
	bmprof_pmu_stop(p, 400);
	assert_int_equal(ev(p, 1)->running, 200);
	assert_int_equal(ev(p, 2)->running, 200);
	assert_int_equal(ev(p, 1)->enabled, 400);
	cpu_free(k);
	free(p);
}

static void test_random_period(void **state)
{
	(void)state;
	struct cpu *k = cpu_new();
	assert_int_equal(bmprof_random_period(&k->c, 0, 5), 0);
	assert_int_equal(bmprof_random_period(&k->c, 7, 0), 7);
	for (int i = 0; i < 1000; i++) {
		uint64_t v = bmprof_random_period(&k->c, 64000, 4000);
		assert_true(v >= 60000 && v <= 64000);
		v = bmprof_random_period(&k->c, 10, 100);     /* jitter capped at 9 */
		assert_true(v >= 1 && v <= 10);
	}
	cpu_free(k);
}

/* ---- frames ---- */

static void test_event_frames(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };
	struct cpu *k = cpu_new();
	uint8_t type;
	uint16_t len;

	fake_intel(1, 48, 3);
	add(p, "1:cycles:100000", BMPROF_VENDOR_INTEL);
	add(p, "2:0x2e:0:llc", BMPROF_VENDOR_INTEL);
	add(p, "3:0xc4:0", BMPROF_VENDOR_INTEL);
	add(p, "4:amd.0x76:0", BMPROF_VENDOR_INTEL);
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_SAMPLE), 3);
	assert_int_equal(bmprof_pmu_announce(p, &out), 0);
	assert_int_equal(nframes(&s), 4);

	const uint8_t *f = frame(&s, 0, &type, &len);
	assert_int_equal(type, BMPROF_FRAME_EVENT);
	assert_int_equal(len, BMPROF_EVENT_FIXED + 1 + 6 + 7);
	assert_int_equal(bmprof_get16(f), 1);
	assert_int_equal(f[2], BMPROF_SOURCE_PMU_FIXED);
	assert_int_equal(f[3], BMPROF_EVENT_RANDOMIZED);
	assert_int_equal(bmprof_get64(f + 4), 0x3c);
	assert_int_equal(bmprof_get64(f + 12), 100000);
	assert_int_equal(bmprof_get64(f + 20), 6250);
	assert_int_equal(f[28], 6);
	assert_memory_equal(f + 29, "cycles", 6);
	const uint8_t *t = f + 35;
	assert_int_equal(t[0], BMPROF_EVST_ACTIVE);
	assert_int_equal(t[1], BMPROF_EVR_NONE);
	assert_int_equal(t[2], BMPROF_CTR_FIXED);
	assert_int_equal(t[3], 1);
	assert_int_equal(t[4], 0xff);                    /* pinned: not multiplexed */
	assert_int_equal(t[5], 2);                       /* 2 and 3 share GP 0 */

	f = frame(&s, 1, &type, &len);
	assert_int_equal(len, BMPROF_EVENT_FIXED + 1 + 3 + 7);
	assert_int_equal(f[2], BMPROF_SOURCE_PMU);
	assert_int_equal(f[3], BMPROF_EVENT_COUNTING);
	assert_int_equal(bmprof_get64(f + 4), 0x2e);
	assert_int_equal(bmprof_get64(f + 12), 0);
	t = f + 32;
	assert_int_equal(t[2], BMPROF_CTR_GP);
	assert_int_equal(t[3], 0);
	assert_int_equal(t[4], 0);
	f = frame(&s, 2, &type, &len);
	assert_int_equal(f[29 + 3 + 4], 1);              /* after "rc4": group 1 */

	f = frame(&s, 3, &type, &len);                   /* no form for Intel */
	assert_memory_equal(f + 29, "amd.0x76", 8);
	t = f + 29 + 8;
	assert_int_equal(t[0], BMPROF_EVST_UNAVAILABLE);
	assert_int_equal(t[1], BMPROF_EVR_BAD_ENCODING);
	assert_int_equal(t[2], BMPROF_CTR_NONE);
	assert_int_equal(t[3], 0xff);
	assert_int_equal(t[4], 0xff);
	assert_int_equal(t[5], 2);

	/* no PMU: the sampling event falls back to the timer */
	s.len = 0;
	memset(p, 0, sizeof *p);
	add(p, "1:cycles:100000", BMPROF_VENDOR_INTEL);
	bmprof_pmu_setup(p, NULL, &k->c, BMPROF_PMU_SAMPLE);
	assert_int_equal(bmprof_pmu_announce(p, &out), 0);
	f = frame(&s, 0, &type, &len);
	assert_int_equal(f[2], BMPROF_SOURCE_TIMER);
	assert_int_equal(f[3], BMPROF_EVENT_COUNTING);
	t = f + 35;
	assert_int_equal(t[0], BMPROF_EVST_FALLBACK);
	assert_int_equal(t[1], BMPROF_EVR_NO_PMU);
	assert_int_equal(t[2], BMPROF_CTR_TIMER);
	assert_int_equal(t[3], 0xff);
	assert_int_equal(t[4], 0xff);
	assert_int_equal(t[5], 1);
	/* nothing placed: no COUNTS */
	s.len = 0;
	assert_int_equal(bmprof_pmu_emit_counts(p, &out), 0);
	assert_int_equal(s.len, 0);
	/* a failing sink's result comes back */
	s.fail = 1;
	assert_int_equal(bmprof_pmu_announce(p, &out), -7);
	cpu_free(k);
	free(p);
}

static void test_emit_event_defaults(void **state)
{
	(void)state;
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };
	struct bmprof_event_desc d = { .id = 0, .source = BMPROF_SOURCE_TIMER, .name = "timer",
				       .counter = 5, .group = 3 };
	uint8_t type;
	uint16_t len;

	assert_int_equal(bmprof_emit_event(&out, &d), 0);
	const uint8_t *t = frame(&s, 0, &type, &len) + 29 + 5;
	assert_int_equal(len, 29 + 5 + 7);
	assert_int_equal(t[0], 0);
	assert_int_equal(t[2], BMPROF_CTR_NONE);
	assert_int_equal(t[3], 0xff);                    /* no counter kind: no counter */
	assert_int_equal(t[4], 0xff);                    /* one group: not multiplexed */
	assert_int_equal(t[5], 1);
	assert_int_equal(t[6], BMPROF_PRECISE_NONE);       /* not sampled by PEBS */
}

static void test_counts_frames(void **state)
{
	(void)state;
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };
	struct bmprof_count r[40];
	uint8_t type;
	uint16_t len;

	for (unsigned i = 0; i < 40; i++)
		r[i] = (struct bmprof_count){ .event = (uint16_t)(100 + i), .flags = i & 1,
					      .value = 0x0102030405060708ull + i,
					      .enabled = 1000 + i, .running = 500 + i };
	assert_int_equal(bmprof_emit_counts(&out, 3, r, 40), 0);
	assert_int_equal(nframes(&s), 2);
	unsigned seen = 0;
	for (unsigned k = 0; k < 2; k++) {
		const uint8_t *f = frame(&s, k, &type, &len);
		assert_int_equal(type, BMPROF_FRAME_COUNTS);
		assert_true(len <= 1024);
		unsigned n = bmprof_get16(f + 2);
		assert_int_equal(bmprof_get16(f), 3);
		assert_int_equal(len, BMPROF_COUNTS_FIXED + n * BMPROF_COUNTS_RECORD);
		for (unsigned i = 0; i < n; i++, seen++) {
			const uint8_t *q = f + 4 + i * 32;
			assert_int_equal(bmprof_get16(q), 100 + seen);
			assert_int_equal(bmprof_get16(q + 2), seen & 1);
			assert_int_equal(bmprof_get32(q + 4), 0);
			assert_int_equal(bmprof_get64(q + 8), 0x0102030405060708ull + seen);
			assert_int_equal(bmprof_get64(q + 16), 1000 + seen);
			assert_int_equal(bmprof_get64(q + 24), 500 + seen);
		}
	}
	assert_int_equal(seen, 40);
	assert_int_equal(bmprof_get16(frame(&s, 0, &type, &len) + 2), 31);

	/* none: one empty frame */
	s.len = 0;
	assert_int_equal(bmprof_emit_counts(&out, 1, NULL, 0), 0);
	frame(&s, 0, &type, &len);
	assert_int_equal(len, 4);
	assert_int_equal(nframes(&s), 1);
	assert_int_equal(bmprof_emit_counts(&out, 1, NULL, 2), -1);
	s.fail = 1;
	assert_int_equal(bmprof_emit_counts(&out, 1, r, 40), -7);
}

/* COUNTS from a multiplexed count-mode run: values, enabled, running, the CPU id. */
static void test_counts_from_run(void **state)
{
	(void)state;
	struct bmprof_pmu *p = pmu_new();
	struct cpu *k = cpu_new();
	struct sink s = { 0 };
	struct bmprof_out out = { sink_write, &s };
	uint8_t type;
	uint16_t len;

	fake_intel(1, 48, 3);
	add(p, "1:cycles:0", BMPROF_VENDOR_INTEL);
	add(p, "2:0x2e:0", BMPROF_VENDOR_INTEL);
	add(p, "3:0x3e:0", BMPROF_VENDOR_INTEL);
	add(p, "5:amd.0x1:0", BMPROF_VENDOR_INTEL);     /* not counted: not in COUNTS */
	assert_int_equal(bmprof_pmu_setup(p, &fake_ops, &k->c, BMPROF_PMU_COUNT), 3);
	bmprof_pmu_start(p, 0);
	for (unsigned t = 1; t <= 10; t++) {
		run_all(t);       /* cycles stays on; 2 and 3 alternate */
		bmprof_pmu_tick(p, 10 * t);
	}
	bmprof_pmu_stop(p, 100);
	assert_int_equal(bmprof_pmu_emit_counts(p, &out), 0);
	const uint8_t *f = frame(&s, 0, &type, &len);
	assert_int_equal(type, BMPROF_FRAME_COUNTS);
	assert_int_equal(bmprof_get16(f), 2);
	assert_int_equal(bmprof_get16(f + 2), 3);
	static const uint64_t want[3][4] = {
		/* id, value, enabled, running */
		{ 1, 55, 100, 100 },
		{ 2, 1 + 3 + 5 + 7 + 9, 100, 50 },
		{ 3, 2 + 4 + 6 + 8 + 10, 100, 50 },
	};
	for (unsigned i = 0; i < 3; i++) {
		const uint8_t *q = f + 4 + i * 32;
		assert_int_equal(bmprof_get16(q), want[i][0]);
		assert_int_equal(bmprof_get64(q + 8), want[i][1]);
		assert_int_equal(bmprof_get64(q + 16), want[i][2]);
		assert_int_equal(bmprof_get64(q + 24), want[i][3]);
	}
	cpu_free(k);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_vendor),
		cmocka_unit_test(test_place_fixed_first),
		cmocka_unit_test(test_place_groups),
		cmocka_unit_test(test_place_user_groups),
		cmocka_unit_test(test_place_no_pmu),
		cmocka_unit_test(test_place_unsupported_and_mask),
		cmocka_unit_test(test_place_overflow_caps),
		cmocka_unit_test(test_rotation_times),
		cmocka_unit_test(test_one_group_times),
		cmocka_unit_test(test_width_wrap),
		cmocka_unit_test(test_width_wrap_one_group),
		cmocka_unit_test(test_overflow_samples),
		cmocka_unit_test(test_overflow_at_rotation),
		cmocka_unit_test(test_random_period),
		cmocka_unit_test(test_event_frames),
		cmocka_unit_test(test_emit_event_defaults),
		cmocka_unit_test(test_counts_frames),
		cmocka_unit_test(test_counts_from_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
