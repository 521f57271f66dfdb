/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel PEBS (target/arch/x86_64/pebs.c) through the Intel driver and the neutral PMU
 * layer, against the MSR model (msr_model.c). The PEBS records are built here byte by byte
 * from the SDM's layouts (format 3: Skylake; format 4: adaptive, Ice Lake), not from the
 * driver's constants, and the raw samples they become are checked field by field. */
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

#define USR (1ull << 16)
#define OS (1ull << 17)
#define INT (1ull << 20)
#define EN (1ull << 22)
#define W48 ((1ull << 48) - 1)
#define OVF_BUF (1ull << 62)
#define DS_AREA 0x600u
#define PEBS_ENABLE 0x3F1u
#define DATA_CFG 0x3F2u
#define LD_LAT 0x3F6u

static const struct bmprof_pmu_ops *const ops = &bmprof_pmu_intel;

struct rig {
	struct cpu *cpu;
	struct bmprof_pmu *p;
	void *raw_mem;
};

/* A CPU with a raw ring of `entries` records (0: raw mode off) and the events in specs. */
static void rig_up(struct rig *r, const struct mm_cpu *model, uint32_t entries,
		   const char *const *specs, unsigned n)
{
	size_t len = bmprof_raw_mem_size(entries ? entries : 1);

	mm_reset(model);
	r->cpu = cpu_new_seeded(0, 7);
	r->p = calloc(1, sizeof *r->p);
	r->raw_mem = aligned_alloc(8, (len + 7) & ~(size_t)7);
	assert_non_null(r->p);
	assert_non_null(r->raw_mem);
	if (entries)
		assert_int_equal(bmprof_raw_init(&r->cpu->c, r->raw_mem, len, entries,
						 BMPROF_ARCH_X86_64, 16), 0);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(bmprof_pmu_parse_event(r->p, specs[i], (unsigned)strlen(specs[i]),
							BMPROF_VENDOR_INTEL), 0);
	assert_int_equal((unsigned)bmprof_pmu_setup(r->p, ops, &r->cpu->c, BMPROF_PMU_SAMPLE), n);
	assert_int_equal(mm.faults, 0);
}

static void rig_down(struct rig *r)
{
	bmprof_pmu_stop(r->p, 2000);
	free(r->p);
	free(r->raw_mem);
	cpu_free(r->cpu);
}

static const uint64_t *ds(void) { return (const uint64_t *)(uintptr_t)mm.ds_area; }

static void put64(uint8_t *b, unsigned off, uint64_t v) { memcpy(b + off, &v, 8); }

/* Register values by name: rax 0xA0, rbx 0xB0, rcx 0xC0, rdx 0xD0, rsi 0x51, rdi 0xD1,
 * rbp 0xB9, rsp 0x59, r8..r15 0x108..0x10F, each plus k << 16 for record k. */
enum { RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP };
static uint64_t reg(unsigned which, unsigned k)
{
	static const uint64_t v[8] = { 0xA0, 0xB0, 0xC0, 0xD0, 0x51, 0xD1, 0xB9, 0x59 };
	return v[which] + ((uint64_t)k << 16);
}
static uint64_t rn(unsigned n, unsigned k) { return 0x100 + n + ((uint64_t)k << 16); }

/* A format 3 record (SDM "PEBS Record Format", 0xC8 bytes): RFLAGS, RIP (after the
 * instruction), RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8-R15, applicable counters
 * (0x90), data linear address (0x98), data source (0xA0), latency (0xA8), EventingIP
 * (0xB0), TX abort info (0xB8), TSC (0xC0). */
static unsigned fmt3_record(uint8_t *b, unsigned k, uint64_t applicable, uint64_t ip,
			    uint64_t dla)
{
	memset(b, 0, 0xC8);
	put64(b, 0x00, 0x246);
	put64(b, 0x08, ip + 3);
	put64(b, 0x10, reg(RAX, k));
	put64(b, 0x18, reg(RBX, k));
	put64(b, 0x20, reg(RCX, k));
	put64(b, 0x28, reg(RDX, k));
	put64(b, 0x30, reg(RSI, k));
	put64(b, 0x38, reg(RDI, k));
	put64(b, 0x40, reg(RBP, k));
	put64(b, 0x48, reg(RSP, k));
	for (unsigned n = 8; n < 16; n++)
		put64(b, 0x50 + 8 * (n - 8), rn(n, k));
	put64(b, 0x90, applicable);
	put64(b, 0x98, dla);
	put64(b, 0xA0, 0x1);
	put64(b, 0xA8, 7);
	put64(b, 0xB0, ip);
	put64(b, 0xC0, 123456789 + k);
	return 0xC8;
}

/* An adaptive record with the memory info and GPR groups (SDM "Adaptive PEBS"): basic
 * group (record format in 47:0, size in 63:48; IP; applicable counters; TSC), memory info
 * (address, aux, latency, TSX), GPRs (RFLAGS, RIP, RAX, RCX, RDX, RBX, RSP, RBP, RSI,
 * RDI, R8-R15). */
static unsigned fmt4_record(uint8_t *b, unsigned k, uint64_t applicable, uint64_t ip,
			    uint64_t addr)
{
	unsigned size = 0x20 + 0x20 + 0x90;

	memset(b, 0, size);
	put64(b, 0x00, (uint64_t)size << 48 | 0x3);
	put64(b, 0x08, ip);
	put64(b, 0x10, applicable);
	put64(b, 0x18, 987654321 + k);
	put64(b, 0x20, addr);
	put64(b, 0x28, 0x42);
	put64(b, 0x30, 30);
	uint8_t *g = b + 0x40;
	put64(g, 0x00, 0x202);
	put64(g, 0x08, ip + 4);
	put64(g, 0x10, reg(RAX, k));
	put64(g, 0x18, reg(RCX, k));
	put64(g, 0x20, reg(RDX, k));
	put64(g, 0x28, reg(RBX, k));
	put64(g, 0x30, reg(RSP, k));
	put64(g, 0x38, reg(RBP, k));
	put64(g, 0x40, reg(RSI, k));
	put64(g, 0x48, reg(RDI, k));
	for (unsigned n = 8; n < 16; n++)
		put64(g, 0x50 + 8 * (n - 8), rn(n, k));
	return size;
}

/* The raw sample a record becomes: DWARF order rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp,
 * r8..r15, all valid; pc the eventing IP; the data address from the hardware. */
static void check_raw(const struct bmprof_raw *s, unsigned k, uint16_t event, uint64_t ip,
		      uint64_t dla)
{
	static const unsigned dwarf[8] = { RAX, RDX, RCX, RBX, RSI, RDI, RBP, RSP };

	assert_int_equal(s->event, event);
	assert_int_equal(s->flags, BMPROF_RAWF_DATA_ADDR | BMPROF_RAWF_PC_EXACT);
	assert_int_equal(s->pc, ip);
	assert_int_equal(s->data_addr, dla);
	assert_int_equal(s->valid, 0xFFFF);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(s->r[i], reg(dwarf[i], k));
	for (unsigned n = 8; n < 16; n++)
		assert_int_equal(s->r[n], rn(n, k));
}

static const struct bmprof_raw *raw_at(const struct rig *r, uint32_t i)
{
	return &r->cpu->c.raw.slot[i % r->cpu->c.raw.cap];
}

/* The interrupted context's raw sample (what a PMI without PEBS records). */
static const struct bmprof_raw interrupted = { .pc = 0x409999, .valid = 1, .r = { 0x77 } };

/* ---- probing ---- */

static void test_probe(void **s)
{
	struct bmprof_pmu_caps caps;
	(void)s;

	mm_reset(&mm_skylake_pebs);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(pebs_status(), BMPROF_PRECISE_PEBS);
	assert_int_equal(pebs_cpus[0].format, 3);
	assert_int_equal(pebs_cpus[0].rec_size, 0xC8);
	/* IA32_DS_AREA was tried and left 0; IA32_PEBS_ENABLE untouched */
	assert_int_equal(mm.ds_area, 0);
	assert_int_equal(mm_log_count(PEBS_ENABLE, 0), 0);
	assert_int_equal(mm.faults, 0);

	mm_reset(&mm_icelake_pebs);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(pebs_status(), BMPROF_PRECISE_PEBS);
	assert_int_equal(pebs_cpus[0].format, 4);
	assert_int_equal(pebs_cpus[0].adaptive, 1);
	assert_int_equal(pebs_cpus[0].rec_size, 0xD0);

	mm_reset(&mm_skylake_pebs_off);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(pebs_status(), BMPROF_PRECISE_DISABLED);
	assert_int_equal(mm_log_count(DS_AREA, 0), 0);

	/* no DS in CPUID.1:EDX: nothing of PEBS is touched */
	mm_reset(&mm_skylake);
	assert_int_equal(ops->probe(&caps), 0);
	assert_int_equal(pebs_status(), BMPROF_PRECISE_NO_DS);
	assert_int_equal(mm.faults, 0);

	/* which encodings PEBS samples with a data address */
	assert_true(pebs_event(0x81D0));
	assert_true(pebs_event(0x82D0));
	assert_true(pebs_event(0x08D1));
	assert_true(pebs_event(0x4000001CDull));
	assert_false(pebs_event(0x0151));            /* L1D.REPLACEMENT */
	assert_false(pebs_event(0x81D0 | 1ull << 24)); /* a cmask */
	assert_false(pebs_event(0x1000081D0ull));
}

/* ---- format 3 (Skylake) ---- */

static void test_skylake_loads(void **s)
{
	static const char *const specs[] = { "1:intel.0x81d0:20000:mem-loads" };
	struct rig r;
	uint8_t rec[0xC8];
	const uint64_t *d;
	uint64_t base;
	(void)s;

	rig_up(&r, &mm_skylake_pebs, 16, specs, 1);
	assert_int_equal(r.p->ev[0].precise, BMPROF_PRECISE_PEBS);
	assert_int_equal(r.p->ev[0].jitter, 0);
	assert_int_equal(r.p->ev[0].counter, 0);
	mm_log_clear();
	bmprof_pmu_start(r.p, 1000);
	/* the counter counts without its interrupt bit; PEBS on for PMC0 */
	assert_int_equal(mm.evtsel[0], 0x81D0 | USR | OS | EN);
	assert_int_equal(mm.pebs_enable, 0x1);
	assert_int_equal(mm_log_count(PEBS_ENABLE, 0), 1);
	assert_int_equal(mm.global_ctrl, 0x1);
	assert_int_equal(mm.pmc[0], (0 - 20000ull) & W48);
	/* the DS area: the PEBS buffer, its absolute maximum (8 records of 0xC8 bytes), a PMI
	 * after every record, PMC0's reset value */
	assert_int_equal(mm.ds_area, (uint64_t)(uintptr_t)&pebs_cpus[0].ds);
	d = ds();
	base = d[4];
	assert_int_equal(base, (uint64_t)(uintptr_t)pebs_cpus[0].buf);
	assert_int_equal(d[5], base);
	assert_int_equal(d[6], base + 8 * 0xC8);
	assert_int_equal(d[7], base + 0xC8);
	assert_int_equal(d[8], (0 - 20000ull) & W48);
	assert_int_equal(d[0] | d[1] | d[2] | d[3], 0);   /* no BTS */

	/* 20000 loads: the counter wraps, the hardware writes a record and reloads it */
	mm_advance(0, 20000);
	assert_int_equal(mm.pmc[0], (0 - 20000ull) & W48);
	assert_false(mm.pmi);
	mm_pebs_record(rec, fmt3_record(rec, 0, 0x1, 0x401234, 0x601040));
	assert_true(mm.pmi);
	assert_int_equal(mm.global_status & OVF_BUF, OVF_BUF);
	mm_log_clear();
	assert_int_equal(bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted),
			 1ull << 62);
	/* OvfBuffer and PMC0's bit acknowledged; PMC0 stopped while the buffer was read */
	assert_int_equal(mm.nlog, 3);
	assert_int_equal(mm.log[0].msr, 0x390);
	assert_int_equal(mm.log[0].v, OVF_BUF | 0xFull | 7ull << 32);
	assert_int_equal(mm.log[1].msr, 0x38F);
	assert_int_equal(mm.log[1].v, 0);
	assert_int_equal(mm.log[2].msr, 0x38F);
	assert_int_equal(mm.log[2].v, 1);
	/* OvfBuffer and PMC0's overflow bit cleared, the buffer emptied */
	assert_int_equal(mm.global_status, 0);
	assert_int_equal(d[5], base);
	/* one raw sample, from the record, none from the interrupted context */
	assert_int_equal(r.cpu->c.raw.head, 1);
	check_raw(raw_at(&r, 0), 0, 1, 0x401234, 0x601040);
	assert_int_equal(table_count(&r.cpu->c, 0x401234, 1), 1);
	assert_int_equal(table_count(&r.cpu->c, 0x409999, 1), 0);
	assert_int_equal(r.p->ev[0].samples, 1);
	assert_int_equal(r.p->ev[0].count, 20000);

	/* a second period, and 500 loads into the third: counted exactly at stop */
	mm.pmi = 0;
	mm_advance(0, 20000);
	mm_pebs_record(rec, fmt3_record(rec, 1, 0x1, 0x401250, 0x601048));
	bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted);
	check_raw(raw_at(&r, 1), 1, 1, 0x401250, 0x601048);
	mm_advance(0, 500);
	bmprof_pmu_stop(r.p, 2000);
	assert_int_equal(r.p->ev[0].count, 40500);
	assert_int_equal(r.p->ev[0].samples, 2);
	/* stopped: PEBS off, the DS area detached */
	assert_int_equal(mm.pebs_enable, 0);
	assert_int_equal(mm.ds_area, 0);
	assert_int_equal(r.cpu->c.raw.taken, 2);
	assert_int_equal(r.cpu->c.raw.lost_full, 0);
	rig_down(&r);
}

/* MEM_TRANS_RETIRED.LOAD_LATENCY: the threshold MSR, and before version 5 the counter's
 * load-latency bit in IA32_PEBS_ENABLE[35:32]. Beside a store event on PMC1. */
static void test_skylake_load_latency(void **s)
{
	static const char *const specs[] = { "1:intel.0x82d0:20000:mem-stores",
					     "2:intel.0x10000001cd:30000:lat" };
	struct rig r;
	uint8_t rec[0xC8];
	(void)s;

	rig_up(&r, &mm_skylake_pebs, 16, specs, 2);
	bmprof_pmu_start(r.p, 1000);
	assert_int_equal(mm.evtsel[1], 0x01CD | USR | OS | EN);
	assert_int_equal(mm.ld_lat, 0x10);
	assert_int_equal(mm.pebs_enable, 1ull << 33 | 0x3);
	assert_int_equal(ds()[8], (0 - 20000ull) & W48);
	assert_int_equal(ds()[9], (0 - 30000ull) & W48);
	/* a record for each counter, in one buffer: each goes to its event */
	mm_pebs_record(rec, fmt3_record(rec, 0, 0x2, 0x402000, 0x7000));
	mm_pebs_record(rec, fmt3_record(rec, 1, 0x1, 0x402010, 0x7008));
	bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted);
	assert_int_equal(r.cpu->c.raw.head, 2);
	check_raw(raw_at(&r, 0), 0, 2, 0x402000, 0x7000);
	check_raw(raw_at(&r, 1), 1, 1, 0x402010, 0x7008);
	assert_int_equal(r.p->ev[0].samples, 1);
	assert_int_equal(r.p->ev[1].samples, 1);
	rig_down(&r);
}

/* ---- format 4 (adaptive, Ice Lake) ---- */

static void test_icelake_adaptive(void **s)
{
	static const char *const specs[] = { "1:cycles:100000",
					     "2:intel.0x8d1:10000:l1-miss-loads",
					     "3:intel.0x4000001cd:10000:lat" };
	struct rig r;
	uint8_t rec[0xD0];
	const uint64_t *d;
	(void)s;

	rig_up(&r, &mm_icelake_pebs, 16, specs, 3);
	/* cycles on its fixed counter keeps the interrupt */
	assert_int_equal(r.p->ev[0].precise, BMPROF_PRECISE_NONE);
	assert_int_equal(r.p->ev[1].precise, BMPROF_PRECISE_PEBS);
	assert_int_equal(r.p->ev[2].precise, BMPROF_PRECISE_PEBS);
	mm_log_clear();
	bmprof_pmu_start(r.p, 1000);
	/* records with the memory info and GPR groups; version 5: no load-latency bits */
	assert_int_equal(mm.pebs_data_cfg, 0x3);
	assert_int_equal(mm_log_count(DATA_CFG, 0), 1);
	assert_int_equal(mm.pebs_enable, 0x3);
	assert_int_equal(mm.ld_lat, 4);
	assert_int_equal(mm.evtsel[0], 0x08D1 | USR | OS | EN);
	assert_int_equal(mm.evtsel[1], 0x01CD | USR | OS | EN);
	d = ds();
	assert_int_equal(d[6], d[4] + 8 * 0xD0);
	assert_int_equal(d[7], d[4] + 0xD0);
	assert_int_equal(d[8], (0 - 10000ull) & W48);

	mm_advance(0, 10000);
	mm_pebs_record(rec, fmt4_record(rec, 0, 0x1, 0x403000, 0x605000));
	mm_pebs_record(rec, fmt4_record(rec, 1, 0x2, 0x403010, 0x605010));
	assert_int_equal(bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted), 1ull << 62);
	assert_int_equal(r.cpu->c.raw.head, 2);
	check_raw(raw_at(&r, 0), 0, 2, 0x403000, 0x605000);
	check_raw(raw_at(&r, 1), 1, 3, 0x403010, 0x605010);
	assert_int_equal(table_count(&r.cpu->c, 0x403000, 2), 1);
	assert_int_equal(table_count(&r.cpu->c, 0x403010, 3), 1);
	assert_int_equal(mm.global_status, 0);
	rig_down(&r);
}

/* ---- a full buffer, a full raw ring ---- */

/* The buffer filled to its absolute maximum (the PMI came late): the hardware drops the
 * ninth record; the drain takes all eight, oldest first, in one PMI. */
static void test_full_buffer(void **s)
{
	static const char *const specs[] = { "1:intel.0x81d0:20000:mem-loads" };
	struct rig r;
	uint8_t rec[0xC8];
	(void)s;

	rig_up(&r, &mm_skylake_pebs, 16, specs, 1);
	bmprof_pmu_start(r.p, 1000);
	for (unsigned k = 0; k < 8; k++)
		assert_int_equal(mm_pebs_record(rec, fmt3_record(rec, k, 1, 0x404000 + 16 * k,
								 0x608000 + 8 * k)), 0);
	assert_int_equal(ds()[5], ds()[6]);
	assert_int_equal(mm_pebs_record(rec, fmt3_record(rec, 8, 1, 0x404100, 0)), -1);
	bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted);
	assert_int_equal(r.cpu->c.raw.head, 8);
	for (unsigned k = 0; k < 8; k++)
		check_raw(raw_at(&r, k), k, 1, 0x404000 + 16 * k, 0x608000 + 8 * k);
	assert_int_equal(r.p->ev[0].samples, 8);
	assert_int_equal(ds()[5], ds()[4]);
	/* room again */
	assert_int_equal(mm_pebs_record(rec, fmt3_record(rec, 9, 1, 0x404200, 0x609000)), 0);
	rig_down(&r);
}

/* The driver's drain alone: fewer records asked for than the buffer holds leaves the rest,
 * moved to the buffer's start, for the next call; an adaptive record whose size field
 * cannot be a record ends the buffer (nothing after it can be framed). */
static void test_drain_partial_and_bad_size(void **s)
{
	static const char *const specs[] = { "1:intel.0x81d0:20000:mem-loads" };
	struct bmprof_raw out[8];
	struct rig r;
	uint8_t rec[0xD0];
	(void)s;

	rig_up(&r, &mm_icelake_pebs, 16, specs, 1);
	bmprof_pmu_start(r.p, 1000);
	for (unsigned k = 0; k < 5; k++)
		mm_pebs_record(rec, fmt4_record(rec, k, 1, 0x406000 + 16 * k, 0x60B000 + 8 * k));
	assert_int_equal(pebs_drain(out, 3), 3);
	for (unsigned k = 0; k < 3; k++)
		check_raw(&out[k], k, 0, 0x406000 + 16 * k, 0x60B000 + 8 * k);
	assert_int_equal(ds()[5], ds()[4] + 2 * 0xD0);
	assert_int_equal(pebs_drain(out, 8), 2);
	for (unsigned k = 0; k < 2; k++)
		check_raw(&out[k], k + 3, 0, 0x406000 + 16 * (k + 3), 0x60B000 + 8 * (k + 3));
	assert_int_equal(ds()[5], ds()[4]);

	mm_pebs_record(rec, fmt4_record(rec, 0, 1, 0x406100, 0x60C000));
	fmt4_record(rec, 1, 1, 0x406110, 0x60C008);
	put64(rec, 0, 0x10ull << 48 | 0x3);   /* a 16-byte "record" */
	mm_pebs_record(rec, 0xD0);
	assert_int_equal(pebs_drain(out, 8), 1);
	check_raw(&out[0], 0, 0, 0x406100, 0x60C000);
	assert_int_equal(ds()[5], ds()[4]);
	rig_down(&r);
}

/* Records the raw ring has no room for are lost and counted: taken = in the ring + lost;
 * every record is still a sample in the aggregated table. */
static void test_ring_overflow(void **s)
{
	static const char *const specs[] = { "1:intel.0x81d0:20000:mem-loads" };
	struct rig r;
	uint8_t rec[0xC8];
	const struct bmprof_raw_ring *q;
	(void)s;

	rig_up(&r, &mm_skylake_pebs, 4, specs, 1);
	q = &r.cpu->c.raw;
	bmprof_pmu_start(r.p, 1000);
	for (unsigned k = 0; k < 6; k++)
		mm_pebs_record(rec, fmt3_record(rec, k, 1, 0x405000 + 16 * k, 0x60A000 + 8 * k));
	bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted);
	assert_int_equal(q->taken, 6);
	assert_int_equal(q->head - q->tail, 4);
	assert_int_equal(q->lost_full, 2);
	assert_int_equal(q->taken, (q->head - q->tail) + q->lost_full);
	for (unsigned k = 0; k < 4; k++)
		check_raw(raw_at(&r, k), k, 1, 0x405000 + 16 * k, 0x60A000 + 8 * k);
	for (unsigned k = 0; k < 6; k++)
		assert_int_equal(table_count(&r.cpu->c, 0x405000 + 16 * k, 1), 1);
	assert_int_equal(r.p->ev[0].samples, 6);
	rig_down(&r);
}

/* ---- PEBS that cannot be used ---- */

struct sink {
	uint8_t buf[4096];
	size_t len;
};

static int sink_write(void *ctx, const void *b, size_t n)
{
	struct sink *k = ctx;

	assert_true(k->len + n <= sizeof k->buf);
	memcpy(k->buf + k->len, b, n);
	k->len += n;
	return 0;
}

/* IA32_MISC_ENABLE says PEBS is unavailable: the event samples by its overflow interrupt,
 * the host backtracks, and the EVENT frame says why (precise = DISABLED). */
static void test_unavailable_falls_back(void **s)
{
	static const char *const specs[] = { "1:intel.0x81d0:20000:mem-loads" };
	struct rig r;
	(void)s;

	rig_up(&r, &mm_skylake_pebs_off, 16, specs, 1);
	assert_int_equal(r.p->ev[0].precise, BMPROF_PRECISE_DISABLED);
	assert_false(r.p->ev[0].flags & BMPROF_PMUEV_PEBS);
	bmprof_pmu_start(r.p, 1000);
	assert_int_equal(mm.evtsel[0], 0x81D0 | USR | OS | INT | EN);
	assert_int_equal(mm_log_count(PEBS_ENABLE, 0) + mm_log_count(DS_AREA, 0), 0);
	mm_advance(0, 30000);
	assert_true(mm.pmi);
	assert_int_equal(bmprof_pmu_overflow_raw(r.p, 0x409999, 0, &interrupted), 1);
	assert_int_equal(r.cpu->c.raw.head, 1);
	assert_int_equal(raw_at(&r, 0)->pc, 0x409999);
	assert_int_equal(raw_at(&r, 0)->flags, 0);
	/* the EVENT frame: after the name, status, reason, counter kind, counter, group,
	 * ngroups, and precise */
	struct sink k = { 0 };
	struct bmprof_out out = { sink_write, &k };
	assert_int_equal(bmprof_pmu_announce(r.p, &out), 0);
	const uint8_t *at = memmem(k.buf, k.len, "mem-loads", 9);
	assert_non_null(at);
	assert_memory_equal(at + 9, ((const uint8_t[]){ BMPROF_EVST_ACTIVE, BMPROF_EVR_NONE,
			    BMPROF_CTR_GP, 0, 0xff, 1, BMPROF_PRECISE_DISABLED }), 7);
	rig_down(&r);

	/* no DS at all */
	rig_up(&r, &mm_skylake, 16, specs, 1);
	assert_int_equal(r.p->ev[0].precise, BMPROF_PRECISE_NO_DS);
	rig_down(&r);

	/* not raw mode: PEBS is not used, nothing said */
	rig_up(&r, &mm_skylake_pebs, 0, specs, 1);
	assert_int_equal(r.p->ev[0].precise, BMPROF_PRECISE_NONE);
	bmprof_pmu_start(r.p, 1000);
	assert_int_equal(mm.evtsel[0], 0x81D0 | USR | OS | INT | EN);
	assert_int_equal(mm.pebs_enable, 0);
	rig_down(&r);

	/* a raw-mode event PEBS has no data address for keeps the interrupt, nothing said */
	static const char *const l1d[] = { "1:intel.0x151:20000:l1d-misses" };
	rig_up(&r, &mm_skylake_pebs, 16, l1d, 1);
	assert_int_equal(r.p->ev[0].precise, BMPROF_PRECISE_NONE);
	rig_down(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_skylake_loads),
		cmocka_unit_test(test_skylake_load_latency),
		cmocka_unit_test(test_icelake_adaptive),
		cmocka_unit_test(test_full_buffer),
		cmocka_unit_test(test_drain_partial_and_bad_size),
		cmocka_unit_test(test_ring_overflow),
		cmocka_unit_test(test_unavailable_falls_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
