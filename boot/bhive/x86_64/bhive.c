/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's x86-64 harness (docs/bmprof-bhive.md): reads the blocks from the fw_cfg
 * file BHIVE_FWCFG_NAME, measures each as BHive does and prints one result line per block
 * (transport/bhive.h). main runs in ring 0 with interrupts disabled; only the block runs
 * in ring 3 (run.c), in an address space of its own (space.c).
 *
 * Per block: the code (both unroll factors, the calibration) runs until it reaches its
 * end, each page fault mapping the page (read: to the shared frame; written: to a frame of
 * its own, at most as many as L1D keeps apart, l1d_write_frames) and restarting from the
 * same state (at most max_faults); a fault that cannot be mapped ends the block with a
 * status (more written pages than frames: aliasing). Then the block unrolled u_lo and
 * u_hi times is timed BHIVE_TIMINGS times each a
 * round, alternately, in one entry to ring 3 (run.c); a timing is clean when the run
 * reached its end and the hypervisor stole no time
 * in the window; the block's timing is kept when at least BHIVE_KEEP clean timings agree
 * (time_code), else another round, up to BHIVE_ROUNDS. */
#include "bmrt.h"
#include "harness.h"

#define VEC_DE 0
#define VEC_UD 6
#define VEC_SS 12
#define VEC_GP 13
#define VEC_PF 14
#define VEC_AC 17
#define PF_WRITE 0x2ull
#define PF_FETCH 0x10ull

struct measure {
	int status;
	uint64_t t[2], cal[2];           /* the block's timings, the calibration's */
	unsigned kept[2], tries, faults;
	struct run_result last;
	int faulted;                    /* last holds the exception that ended it */
};

static uint8_t input[BHIVE_IN_MAX] __attribute__((aligned(8)));
static unsigned max_faults = BHIVE_MAX_FAULTS;
static int show_timings, pmc;

static int by_vector(uint64_t v)
{
	switch (v) {
	case VEC_DE: return BHIVE_DIVIDE_ERROR;
	case VEC_UD: return BHIVE_INVALID_OPCODE;
	case VEC_SS: return BHIVE_NONCANONICAL;   /* #SS(0): a non-canonical stack address */
	case VEC_GP: return BHIVE_GENERAL_PROTECTION;
	case VEC_AC: return BHIVE_MISALIGNED;
	default: return BHIVE_FAULT;
	}
}

/* Runs until the code reaches its end, mapping pages as it faults. */
static int map_pages(struct measure *m)
{
	struct run_result *r = &m->last;

	for (;;) {
		run_once(r, 1);
		if (r->exited)
			return BHIVE_OK;
		m->faulted = 1;
		if (r->vector != VEC_PF)
			return by_vector(r->vector);
		if ((r->error & PF_FETCH) || r->rip - BHIVE_CODE_VA >= BHIVE_CODE_MAX)
			return BHIVE_CONTROL_FLOW;
		if (m->faults == max_faults)
			return BHIVE_TOO_MANY_FAULTS;
		int st = space_map(r->cr2, (r->error & PF_WRITE) != 0);
		if (st)
			return st;
		m->faults++;
		m->faulted = 0;
	}
}

static void sort(uint64_t *a, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && a[j - 1] > a[j]; j--) {
			uint64_t t = a[j];
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

/* Timings that agree: equal with the core cycle counter; with the TSC, which ticks at
 * its own rate and is read with some jitter, within max(BHIVE_TSC_TOL_TICKS, 1%) of the
 * smallest of them. */
static uint64_t tolerance(uint64_t t)
{
	return pmc ? 0 : t / 100 > BHIVE_TSC_TOL_TICKS ? t / 100 : BHIVE_TSC_TOL_TICKS;
}

/* The timing at least BHIVE_KEEP of the n clean timings in v agree on (the median of the
 * largest group that agrees): 1 with it in *t, and *kept how many agree. */
static int agree(uint64_t *v, unsigned n, uint64_t *t, unsigned *kept)
{
	unsigned best = 0;

	sort(v, n);
	if (show_timings) {
		bm_printf("@bhive-timings %u", n);
		for (unsigned i = 0; i < n; i++)
			bm_printf(" %lu", v[i]);
		bm_printf("\n");
	}
	for (unsigned i = 0, j; i < n; i++) {
		for (j = i; j < n && v[j] - v[i] <= tolerance(v[i]); j++)
			;
		if (j - i > best)
			best = j - i, *t = v[i + (j - i) / 2];
	}
	*kept = best;
	return best >= BHIVE_KEEP;
}

/* Rounds of BHIVE_TIMINGS passes, each timing the segments in turn, until every
 * segment's timing is kept. A run is clean when it reached its end and the steal counter,
 * read in ring 3 around the timed window, did not move. */
static int time_code(struct measure *m, unsigned nseg, uint64_t *t, unsigned *kept)
{
	uint64_t v[RUN_MAX_SEGS][BHIVE_TIMINGS];

	for (unsigned round = 0; round < BHIVE_ROUNDS; round++) {
		unsigned n[RUN_MAX_SEGS] = { 0 };
		int ok = 1;
		m->tries++;
		run_once(&m->last, BHIVE_TIMINGS);
		if (!m->last.exited) {
			m->faulted = 1;
			return by_vector(m->last.vector);
		}
		for (unsigned i = 0; i < nseg * BHIVE_TIMINGS; i++)
			if (!m->last.stolen[i])
				v[i % nseg][n[i % nseg]++] = m->last.ticks[i];
		for (unsigned k = 0; k < nseg; k++)
			ok &= agree(v[k], n[k], &t[k], &kept[k]);
		if (ok)
			return BHIVE_OK;
	}
	return BHIVE_UNSTABLE;
}

/* The calibration block: register adds (recent Intel cores fold chains of add-immediates
 * at rename, corehz.c), timed beside every block, so the TSC's ticks convert to the core
 * cycles of the moment */
static uint8_t cal[3 * BHIVE_CAL_ADDS];

static void measure(const uint8_t *code, const struct bhive_in_block *b,
		    const struct bhive_in_rip *rip, struct measure *m)
{
	const unsigned len = b->len, u_lo = b->u_lo, u_hi = b->u_hi;
	/* the calibration first: the same code at the same place for every block, written
	 * once (run_emit); the block after it */
	const struct run_seg segs[4] = { { cal, sizeof cal, BHIVE_CAL_LO, 0, 0, 0, 0 },
					 { cal, sizeof cal, BHIVE_CAL_HI, 0, 0, 0, 0 },
					 { code, len, u_lo, 1, rip, b->nrip, b->rip_align },
					 { code, len, u_hi, 1, rip, b->nrip, b->rip_align } };
	const unsigned first = pmc ? 2 : 0, nseg = 4 - first;
	uint64_t t[4] = { 0 };
	unsigned kept[4] = { 0 };

	/* the pages are mapped by a pass over the very code that is timed: rip-relative
	 * addresses depend on where each copy is */
	space_reset();
	run_emit(segs + first, nseg);
	m->status = map_pages(m);
	if (m->status)
		return;
	m->status = time_code(m, nseg, t, kept);
	for (unsigned k = 0; k < 2; k++) {
		m->t[k] = t[nseg - 2 + k];
		m->kept[k] = kept[nseg - 2 + k];
		m->cal[k] = pmc ? 0 : t[k];
	}
}

static void report(uint32_t index, unsigned len, const struct measure *m)
{
	const struct run_result *r = &m->last;
	long off = -1;

	for (unsigned k = 0; k < run_segments; k++)
		if (r->rip >= BHIVE_CODE_VA + run_seg_at[k] && r->rip < BHIVE_CODE_VA + run_seg_end[k])
			off = (long)((r->rip - BHIVE_CODE_VA - run_seg_at[k]) % len);

	bm_printf("@bhive %u %d %lu %lu %lu %lu %u %u %u %u %u %u", index, m->status, m->t[0],
		  m->t[1], m->cal[0], m->cal[1], m->faults, space_pages(), space_written(), m->kept[0], m->kept[1], m->tries);
	if (!m->faulted) {
		bm_printf(" -1 0 -1 0\n");
		return;
	}
	bm_printf(" %lu 0x%lx %ld 0x%lx", r->vector, r->error, off, r->cr2);
	if (r->vector == VEC_GP)
		for (unsigned i = 0; i < 16; i++)
			bm_printf(" %lx", r->regs[i]);
	bm_printf("\n");
}

/* Each rip-relative operand's disp32 lies inside its instruction, inside the block. */
static int rips_fit(const struct bhive_in_rip *rip, const struct bhive_in_block *b)
{
	for (unsigned k = 0; k < b->nrip; k++)
		if (rip[k].disp_at + 4u > rip[k].end_at || rip[k].end_at > b->len)
			return 0;
	return 1;
}

static int pmc_present(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	if (a < 0xA)
		return 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xA), "c"(0));
	return (a & 0xFF) >= 2 && (d & 0x1F) >= 2;
}

/* Written pages with a frame each: as many as L1D holds in one set beside the shared
 * frame, the scratch page and the steal-time page (a 4 KiB page covers every set once
 * where sets x line size is 4 KiB), from CPUID leaf 4; 8 ways when it does not say. */
static unsigned l1d_write_frames(void)
{
	uint32_t a, b, c, d, max, ways = 8;

	__asm__ volatile("cpuid" : "=a"(max), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	for (uint32_t i = 0; max >= 4 && i < 8; i++) {
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(4), "c"(i));
		uint32_t type = a & 0x1F, level = a >> 5 & 7;
		if (!type)
			break;
		if ((type == 1 || type == 3) && level == 1) {   /* data or unified L1 */
			ways = (b >> 22 & 0x3FF) + 1;
			break;
		}
	}
	ways = ways > 4 ? ways - 3 : 1;
	return ways < BHIVE_FRAMES - 1 ? ways : BHIVE_FRAMES - 1;
}

/* Fixed counter 1 (core cycles) counting in both rings; RDPMC allowed in ring 3. */
static void pmc_enable(void)
{
	wrmsr(0x38D, rdmsr(0x38D) | 0x30);          /* IA32_FIXED_CTR_CTRL: ctr 1 OS|USR */
	wrmsr(0x38F, rdmsr(0x38F) | 1ull << 33);    /* IA32_PERF_GLOBAL_CTRL: fixed ctr 1 */
}

int main(void)
{
	const struct bhive_in_header *h = (const void *)input;
	int n = fwcfg_read_file(BHIVE_FWCFG_NAME, (char *)input, sizeof input);
	uint64_t at = sizeof *h;

	cli();
	if (n < (int)sizeof *h || n > (int)sizeof input || h->magic != BHIVE_MAGIC) {
		bm_printf("@bhive-error no block list in fw_cfg " BHIVE_FWCFG_NAME "\n");
		return 2;
	}
	show_timings = h->flags & BHIVE_IN_TIMINGS;
	if (h->max_faults)
		max_faults = h->max_faults;
	pmc = pmc_present();
	if (pmc)
		pmc_enable();
	bmrt_steal_init();
	unsigned write_frames = l1d_write_frames();
	space_set_write_frames(write_frames);
	run_init(pmc, 1);
	for (unsigned i = 0; i < sizeof cal; i++)
		cal[i] = (const uint8_t[3]){ 0x48, 0x01, 0xd8 }[i % 3];   /* add %rbx, %rax */
	bm_printf("@bhive-clock %s\n", pmc ? "pmc" : "tsc");
	bm_printf("@bhive-frames %u\n", write_frames);
	for (uint32_t i = 0; i < h->count; i++) {
		const struct bhive_in_block *b = (const void *)(input + at);
		const uint64_t code_end = at + ((sizeof *b + b->len + 3) & ~3ull);
		const struct bhive_in_rip *rip = (const void *)(input + code_end);
		struct measure m = { 0 };
		if (at + sizeof *b > (uint64_t)n ||
		    code_end + b->nrip * sizeof *rip > (uint64_t)n ||
		    b->len == 0 || b->len > BHIVE_MAX_BLOCK || !b->u_lo || b->u_hi <= b->u_lo ||
		    (uint64_t)b->len * (b->u_lo + b->u_hi) + sizeof cal *
		    (BHIVE_CAL_LO + BHIVE_CAL_HI) + 1024 > BHIVE_CODE_MAX ||
		    b->nrip > BHIVE_MAX_RIP || b->rip_align > 63 || !rips_fit(rip, b)) {
			bm_printf("@bhive-error block %u is malformed\n", i);
			return 2;
		}
		measure(input + at + sizeof *b, b, rip, &m);
		report(b->index, b->len, &m);
		at = code_end + b->nrip * sizeof *rip;
	}
	bm_printf("@bhive-end %u\n", h->count);
	return 0;
}
