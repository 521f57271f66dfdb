/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel PEBS (Processor Event-Based Sampling) for the Intel driver (pmu_intel.c): SDM
 * vol. 3B, "Debug Store (DS) Mechanism" and "Processor Event Based Sampling".
 *
 * Support: CPUID.1:EDX[21] (DS), IA32_MISC_ENABLE[12] clear (PEBS available), and a record
 * format from IA32_PERF_CAPABILITIES[11:8] (which exists when CPUID.1:ECX[15]) this file
 * reads: 2 and 3 (Haswell, Skylake: fixed layout, EventingIP at 0xB0, 3 adds the TSC), and
 * 4 and later with PERF_CAPABILITIES[14] (Ice Lake on: adaptive records, groups chosen by
 * MSR_PEBS_DATA_CFG; the basic group, the memory info group and the GPR group here).
 *
 * The DS save area and the PEBS buffer are per CPU in static memory. The buffer holds
 * PEBS_RECORDS records; the interrupt threshold is one record, so each record raises the
 * PMI (IA32_PERF_GLOBAL_STATUS[62], OvfBuffer) and is drained at once. A record is written
 * when a counter enabled in IA32_PEBS_ENABLE overflows; the hardware then reloads the
 * counter with the DS area's reset value for it. A counter sampling by PEBS does not set
 * its own interrupt bit (EVTSEL.INT clear): the buffer's PMI stands for it.
 *
 * Records as raw samples: pc is the eventing instruction (format 2/3: EventingIP; adaptive:
 * the basic group's IP, which is the eventing IP), the registers are those after it
 * retired, and the data address is the record's data linear address. */
#include "pmu_x86.h"

/* PEBS records the buffer holds per CPU; 0: no PEBS. PEBS serves raw mode only, so an
 * image without raw memory has no PEBS memory either. */
#ifndef BMPROF_X86_PEBS_RECORDS
#define BMPROF_X86_PEBS_RECORDS (BMPROF_X86_RAW_ENTRIES ? 8 : 0)
#endif

#define IA32_MISC_ENABLE 0x1A0u
#define MISC_PEBS_UNAVAILABLE (1ull << 12)
#define PERF_CAP_PEBS_FORMAT(c) ((unsigned)((c) >> 8 & 0xF))
#define PERF_CAP_PEBS_BASELINE (1ull << 14)
#define CPUID1_EDX_DS (1u << 21)
#define CPUID1_ECX_PDCM (1u << 15)

#define REC_LEGACY2 0xC0u         /* format 2 */
#define REC_LEGACY3 0xC8u         /* format 3: + TSC */
#define GRP_BASIC 0x20u           /* format_size, ip, applicable counters, tsc */
#define GRP_MEMINFO 0x20u         /* address, aux (data source), latency, tsx tuning */
#define GRP_GPRS 0x90u            /* rflags, rip, rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8-r15 */
#define REC_ADAPTIVE (GRP_BASIC + GRP_MEMINFO + GRP_GPRS)
#define REC_MAX REC_ADAPTIVE

/* The DS save area, 64-bit format: BTS fields (unused), PEBS fields, then the counter
 * reset values (GP counters 0..7, then the fixed counters from format 4). */
struct pebs_ds {
	uint64_t bts_base, bts_index, bts_max, bts_threshold;
	uint64_t pebs_base, pebs_index, pebs_max, pebs_threshold;
	uint64_t reset[PEBS_MAX_GP + 8];
};

struct pebs_cpu {
	struct pebs_ds ds;
	uint8_t buf[BMPROF_X86_PEBS_RECORDS ? BMPROF_X86_PEBS_RECORDS * REC_MAX : 1]
		__attribute__((aligned(64)));
	uint64_t enable;          /* IA32_PEBS_ENABLE as written */
	uint32_t rec_size;
	uint8_t why;              /* enum bmprof_precise: PEBS (usable) or why not */
	uint8_t format, adaptive, version;
	uint8_t ds_on;            /* IA32_DS_AREA points at ds */
};

static struct pebs_cpu pebs_cpus[BMPROF_X86_MAX_CPUS] __attribute__((aligned(64)));

static struct pebs_cpu *pc_this(void) { return &pebs_cpus[pmu_x86_cpu()]; }

/* event | umask << 8 of the events with a data linear address in their PEBS records
 * (perfmon Data_LA on Skylake, Ice Lake and Sapphire Rapids alike). */
static const uint16_t dla_events[] = {
	0x81D0, 0x82D0, 0x83D0,           /* MEM_INST_RETIRED.ALL_LOADS, ALL_STORES, ANY */
	0x11D0, 0x12D0, 0x21D0,           /* STLB_MISS_LOADS, STLB_MISS_STORES, LOCK_LOADS */
	0x41D0, 0x42D0,                   /* SPLIT_LOADS, SPLIT_STORES */
	0x01D1, 0x02D1, 0x04D1, 0x08D1,   /* MEM_LOAD_RETIRED.L1_HIT, L2_HIT, L3_HIT, L1_MISS */
	0x10D1, 0x20D1, 0x40D1,           /* L2_MISS, L3_MISS, FB_HIT */
	0x01D2, 0x02D2, 0x04D2, 0x08D2,   /* MEM_LOAD_L3_HIT_RETIRED.XSNP_* */
	0x04D4,                           /* MEM_LOAD_MISC_RETIRED.UC */
	PEBS_LOAD_LATENCY,                /* MEM_TRANS_RETIRED.LOAD_LATENCY */
};

int pebs_event(uint64_t encoding)
{
	/* PEBS events count with edge, any, inv and cmask clear (SDM) */
	if (encoding & (EVTSEL_EDGE | EVTSEL_ANY | EVTSEL_INV | 0xFF000000ull))
		return 0;
	if ((encoding & 0xFFFF) != PEBS_LOAD_LATENCY && encoding >> 32)
		return 0;
	for (unsigned i = 0; i < sizeof dla_events / sizeof dla_events[0]; i++)
		if ((encoding & 0xFFFF) == dla_events[i])
			return 1;
	return 0;
}

static uint64_t addr_of(const void *p) { return (uint64_t)(uintptr_t)p; }

/* Whether this CPU's PEBS can be used: BMPROF_PRECISE_PEBS or the reason not. */
static uint8_t find_pebs(struct pebs_cpu *c)
{
	uint32_t r[4];
	uint64_t misc, caps, got;

	pmu_cpuid(1, 0, r);
	if (!(r[3] & CPUID1_EDX_DS) || !BMPROF_X86_PEBS_RECORDS)
		return BMPROF_PRECISE_NO_DS;
	if (c->version < 2)           /* no IA32_PERF_GLOBAL_STATUS to say the buffer filled */
		return BMPROF_PRECISE_FORMAT;
	if (pmu_rdmsr_try(IA32_MISC_ENABLE, &misc, 1) || (misc & MISC_PEBS_UNAVAILABLE))
		return BMPROF_PRECISE_DISABLED;
	if (!(r[2] & CPUID1_ECX_PDCM) || pmu_rdmsr_try(IA32_PERF_CAPABILITIES, &caps, 1))
		return BMPROF_PRECISE_NO_CAPS;
	c->format = (uint8_t)PERF_CAP_PEBS_FORMAT(caps);
	c->adaptive = c->format >= 4 && (caps & PERF_CAP_PEBS_BASELINE);
	if (c->format == 2 || c->format == 3)
		c->rec_size = c->format == 2 ? REC_LEGACY2 : REC_LEGACY3;
	else if (c->adaptive)
		c->rec_size = REC_ADAPTIVE;
	else
		return BMPROF_PRECISE_FORMAT;
	/* a hypervisor may enumerate DS without the MSR behind it */
	if (pmu_wrmsr_try(IA32_DS_AREA, addr_of(&c->ds), 1) ||
	    pmu_rdmsr_try(IA32_DS_AREA, &got, 1) || got != addr_of(&c->ds))
		return BMPROF_PRECISE_NO_DS;
	pmu_wrmsr(IA32_DS_AREA, 0);
	return BMPROF_PRECISE_PEBS;
}

uint8_t pebs_probe(uint8_t version)
{
	struct pebs_cpu *c = pc_this();

	*c = (struct pebs_cpu){ .version = version };
	c->why = find_pebs(c);
	return c->why;
}

uint8_t pebs_status(void) { return pc_this()->why; }

uint64_t pebs_enabled(void) { return pc_this()->enable; }

/* The DS area empty, with room for BMPROF_X86_PEBS_RECORDS records and a PMI for each. */
static void ds_init(struct pebs_cpu *c)
{
	uint64_t base = addr_of(c->buf);

	c->ds = (struct pebs_ds){
		.pebs_base = base, .pebs_index = base,
		.pebs_max = base + (uint64_t)BMPROF_X86_PEBS_RECORDS * c->rec_size,
		.pebs_threshold = base + c->rec_size,
	};
}

void pebs_reload(unsigned ctr, uint64_t value)
{
	if (ctr < PEBS_MAX_GP)
		pc_this()->ds.reset[ctr] = value;
}

void pebs_arm(unsigned ctr, uint64_t encoding)
{
	struct pebs_cpu *c = pc_this();

	if (c->why != BMPROF_PRECISE_PEBS || ctr >= PEBS_MAX_GP)
		return;
	if (!c->ds_on) {
		ds_init(c);
		pmu_wrmsr(IA32_DS_AREA, addr_of(&c->ds));
		if (c->adaptive)
			pmu_wrmsr(MSR_PEBS_DATA_CFG, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GPRS);
		c->ds_on = 1;
	}
	c->enable |= 1ull << ctr;
	if ((encoding & 0xFFFF) == PEBS_LOAD_LATENCY) {
		uint64_t t = encoding >> 32 & 0xFFFF;
		pmu_wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, t ? t : PEBS_LD_LAT_DEFAULT);
		/* before version 5 load latency is enabled per counter in bits 35:32 */
		if (c->version < 5)
			c->enable |= 1ull << (32 + ctr);
	}
	pmu_wrmsr(IA32_PEBS_ENABLE, c->enable);
}

void pebs_disarm(unsigned ctr)
{
	struct pebs_cpu *c = pc_this();
	uint64_t bits = 1ull << ctr | 1ull << (32 + ctr);

	if (ctr >= PEBS_MAX_GP || !(c->enable & bits))
		return;
	c->enable &= ~bits;
	pmu_wrmsr(IA32_PEBS_ENABLE, c->enable);
	if (c->enable)
		return;
	pmu_wrmsr(IA32_DS_AREA, 0);
	c->ds_on = 0;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return v;
}

/* DWARF register i's offset in the record (format 2/3) or in the GPR group (adaptive). */
static const uint8_t legacy_reg[16] = { 0x10, 0x28, 0x20, 0x18, 0x30, 0x38, 0x40, 0x48,
					0x50, 0x58, 0x60, 0x68, 0x70, 0x78, 0x80, 0x88 };
static const uint8_t gprs_reg[16] = { 0x10, 0x20, 0x18, 0x28, 0x40, 0x48, 0x38, 0x30,
				      0x50, 0x58, 0x60, 0x68, 0x70, 0x78, 0x80, 0x88 };

/* The GP counter a record applies to: the lowest PEBS counter in its applicable-counters
 * mask, or the lowest PEBS counter when the mask names none (a record whose counter
 * overflowed with another's). */
static uint16_t applies_to(const struct pebs_cpu *c, uint64_t applicable)
{
	uint64_t m = applicable & c->enable & 0xFFFFFFFFull;

	if (!m)
		m = c->enable & 0xFFFFFFFFull;
	return m ? (uint16_t)__builtin_ctzll(m) : 0;
}

static void regs_from(struct bmprof_raw *s, const uint8_t *base, const uint8_t *off)
{
	for (unsigned i = 0; i < 16; i++)
		s->r[i] = rd64(base + off[i]);
	s->valid = 0xFFFF;
}

/* The record at p as a raw sample; 0, or -1 if it is not one this reads (an adaptive
 * record without the memory info group). */
static int parse(const struct pebs_cpu *c, const uint8_t *p, struct bmprof_raw *s)
{
	*s = (struct bmprof_raw){ .flags = BMPROF_RAWF_PC_EXACT | BMPROF_RAWF_DATA_ADDR };
	if (!c->adaptive) {
		s->pc = rd64(p + 0xB0);               /* EventingIP */
		s->data_addr = rd64(p + 0x98);        /* DLA */
		s->event = applies_to(c, rd64(p + 0x90));
		regs_from(s, p, legacy_reg);
		return 0;
	}
	uint64_t fmt = rd64(p);
	if (!(fmt & PEBS_DATACFG_MEMINFO))
		return -1;
	s->pc = rd64(p + 8);
	s->event = applies_to(c, rd64(p + 16));
	s->data_addr = rd64(p + GRP_BASIC);
	if (fmt & PEBS_DATACFG_GPRS)
		regs_from(s, p + GRP_BASIC + GRP_MEMINFO, gprs_reg);
	return 0;
}

unsigned pebs_drain(struct bmprof_raw *out, unsigned max)
{
	struct pebs_cpu *c = pc_this();
	struct pebs_ds *ds = &c->ds;
	uint64_t at, end;
	unsigned n = 0;

	if (!c->ds_on)
		return 0;
	at = ds->pebs_base;
	end = __atomic_load_n(&ds->pebs_index, __ATOMIC_ACQUIRE);
	if (end > ds->pebs_max || end < at)
		end = at;
	while (n < max && at + c->rec_size <= end) {
		const uint8_t *p = (const uint8_t *)(uintptr_t)at;
		uint32_t size = c->adaptive ? (uint32_t)(rd64(p) >> 48) : c->rec_size;
		if (size < c->rec_size || at + size > end) {
			at = end;             /* not a record: the rest cannot be framed */
			break;
		}
		if (!parse(c, p, &out[n]))
			n++;
		at += size;
	}
	if (n < max)
		at = end;                     /* less than a record left: not one */
	if (at >= end) {
		ds->pebs_index = ds->pebs_base;
		return n;
	}
	/* records left for the next call: move them to the start of the buffer */
	{
		uint8_t *dst = c->buf;
		const uint8_t *src = (const uint8_t *)(uintptr_t)at;
		for (uint64_t k = 0; k < end - at; k++)
			dst[k] = src[k];
		ds->pebs_index = ds->pebs_base + (end - at);
	}
	return n;
}
