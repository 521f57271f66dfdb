/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's AArch64 harness (docs/bmprof-bhive.md): reads the blocks from the fw_cfg
 * file BHIVE_FWCFG_NAME, measures each as BHive does and prints one result line per block
 * (transport/bhive.h), as the x86-64 harness does. main runs at EL1 with interrupts
 * masked; only the block runs at EL0 (run.c), in an address space of its own (space.c).
 *
 * Per block: the code (both unroll factors, and the calibration with the generic timer)
 * runs until it reaches its end, each data abort on an unmapped page mapping it to the
 * shared frame (a store to a page mapped for loads making it writable) and restarting
 * from the same state (at most max_faults); an exception that cannot be mapped ends the
 * block with a status. A block that wrote a page and touched another may see 4K aliasing
 * through the shared frame and is excluded. Then the block unrolled u_lo and u_hi times
 * is timed BHIVE_TIMINGS times each a round, alternately, in one entry to EL0; a timing
 * is clean when the run reached its end; the block's timing is kept when at least
 * BHIVE_KEEP clean timings agree, else another round, up to BHIVE_ROUNDS.
 *
 * The result line's VECTOR is the exception class (ESR_EL1.EC), ERROR the whole ESR_EL1
 * and ADDR FAR_EL1 (meaningful for aborts). */
#include "bmrt.h"
#include "harness.h"

#define DFSC(esr) ((esr) & 0x3F)
#define ESR_WNR (1ull << 6)
#define ESR_FNV (1ull << 10)
#define DFSC_ALIGN 0x21
#define SYSTEM_CLASS_MASK 0xFFC00000u    /* MSR/MRS, SYS/SYSL, hints, barriers */
#define SYSTEM_CLASS 0xD5000000u

struct measure {
	int status;
	uint64_t t[2], cal[2];
	unsigned kept[2], tries, faults;
	struct run_result last;
	int faulted;
};

static uint8_t input[BHIVE_IN_MAX] __attribute__((aligned(8)));
static unsigned max_faults = BHIVE_MAX_FAULTS;
static int show_timings, pmc;

/* Translation fault (levels 0-3) or permission fault (levels 1-3) */
static int mappable_fault(uint64_t esr)
{
	unsigned f = DFSC(esr);

	return (f >= 0x04 && f <= 0x07) || (f >= 0x0D && f <= 0x0F);
}

/* The instruction at pc in the code, or 0 outside it */
static uint32_t insn_at(uint64_t pc)
{
	return pc - BHIVE_CODE_VA < BHIVE_CODE_MAX ? bhive_code[(pc - BHIVE_CODE_VA) / 4] : 0;
}

/* What an exception other than a mappable data abort means. An instruction EL0 may not
 * execute (a system register or instruction of EL1, a trapped WFI/WFE) is reported as
 * BHIVE_GENERAL_PROTECTION, which the host names privileged. */
static int by_class(const struct run_result *r)
{
	switch (r->ec) {
	case EC_UNKNOWN:
		return (insn_at(r->pc) & SYSTEM_CLASS_MASK) == SYSTEM_CLASS ?
			BHIVE_GENERAL_PROTECTION : BHIVE_INVALID_OPCODE;
	case EC_WFX: case EC_SYSREG:
		return BHIVE_GENERAL_PROTECTION;
	case EC_SVE:
		return BHIVE_INVALID_OPCODE;
	case EC_SVC: case EC_BRK: case EC_IABT_LOW: case EC_PC_ALIGN:
		return BHIVE_CONTROL_FLOW;
	case EC_SP_ALIGN:
		return BHIVE_MISALIGNED;
	case EC_DABT_LOW:
		if (DFSC(r->esr) == DFSC_ALIGN)
			return BHIVE_MISALIGNED;
		if (r->esr & ESR_FNV)
			return BHIVE_FAULT;
		return mappable_fault(r->esr) ? BHIVE_UNMAPPABLE : BHIVE_FAULT;
	default:
		return BHIVE_FAULT;
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
		if (r->pc - BHIVE_CODE_VA >= BHIVE_CODE_MAX)
			return BHIVE_CONTROL_FLOW;
		if (r->ec != EC_DABT_LOW || (r->esr & ESR_FNV) || !mappable_fault(r->esr))
			return by_class(r);
		if (m->faults == max_faults)
			return BHIVE_TOO_MANY_FAULTS;
		int st = space_map(r->far, (r->esr & ESR_WNR) != 0);
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

/* Timings that agree: equal with the cycle counter; with the generic timer, which ticks
 * at its own (lower) rate, within max(BHIVE_TSC_TOL_TICKS, 1%) of the smallest. */
static uint64_t tolerance(uint64_t t)
{
	return pmc ? 0 : t / 100 > BHIVE_TSC_TOL_TICKS ? t / 100 : BHIVE_TSC_TOL_TICKS;
}

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
			return by_class(&m->last);
		}
		for (unsigned i = 0; i < nseg * BHIVE_TIMINGS; i++)
			v[i % nseg][n[i % nseg]++] = m->last.ticks[i];
		for (unsigned k = 0; k < nseg; k++)
			ok &= agree(v[k], n[k], &t[k], &kept[k]);
		if (ok)
			return BHIVE_OK;
	}
	return BHIVE_UNSTABLE;
}

/* The calibration block (generic timer only): dependent register adds, add x0, x0, x1 */
static uint32_t cal[BHIVE_CAL_ADDS];

static void measure(const uint32_t *code, unsigned len, unsigned u_lo, unsigned u_hi,
		    struct measure *m)
{
	const struct run_seg segs[4] = { { code, len, u_lo, 1 }, { code, len, u_hi, 1 },
					 { cal, sizeof cal, BHIVE_CAL_LO, 0 },
					 { cal, sizeof cal, BHIVE_CAL_HI, 0 } };
	uint64_t t[4] = { 0 };
	unsigned kept[4] = { 0 };

	space_reset();
	run_emit(segs, pmc ? 2 : 4);
	m->status = map_pages(m);
	if (m->status)
		return;
	if (space_pages() > 1 && space_written()) {
		m->status = BHIVE_ALIASING;
		return;
	}
	m->status = time_code(m, pmc ? 2 : 4, t, kept);
	for (unsigned k = 0; k < 2; k++) {
		m->t[k] = t[k];
		m->kept[k] = kept[k];
		m->cal[k] = t[2 + k];
	}
}

static void report(uint32_t index, unsigned len, const struct measure *m)
{
	const struct run_result *r = &m->last;
	long off = -1;

	for (unsigned k = 0; k < run_segments; k++)
		if (r->pc >= BHIVE_CODE_VA + run_seg_at[k] && r->pc < BHIVE_CODE_VA + run_seg_end[k])
			off = (long)((r->pc - BHIVE_CODE_VA - run_seg_at[k]) % len);

	bm_printf("@bhive %u %d %lu %lu %lu %lu %u %u %u %u %u %u", index, m->status, m->t[0],
		  m->t[1], m->cal[0], m->cal[1], m->faults, space_pages(), space_written(),
		  m->kept[0], m->kept[1], m->tries);
	if (!m->faulted) {
		bm_printf(" -1 0 -1 0\n");
		return;
	}
	bm_printf(" %lu 0x%lx %ld 0x%lx\n", r->ec, r->esr, off, r->far);
}

/* PMUv3 present: ID_AA64DFR0_EL1.PMUVer neither 0 (none) nor 0xF (IMPLEMENTATION DEFINED) */
static int pmc_present(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, id_aa64dfr0_el1" : "=r"(v));
	v = v >> 8 & 0xF;
	return v != 0 && v != 0xF;
}

int main(void)
{
	const struct bhive_in_header *h = (const void *)input;
	int n = fwcfg_read_file(BHIVE_FWCFG_NAME, (char *)input, sizeof input);
	uint64_t at = sizeof *h;

	irq_off();
	if (n < (int)sizeof *h || n > (int)sizeof input || h->magic != BHIVE_MAGIC) {
		bm_printf("@bhive-error no block list in fw_cfg " BHIVE_FWCFG_NAME "\n");
		return 2;
	}
	show_timings = h->flags & BHIVE_IN_TIMINGS;
	if (h->max_faults)
		max_faults = h->max_faults;
	pmc = pmc_present();
	run_init(pmc, 1);
	for (unsigned i = 0; i < BHIVE_CAL_ADDS; i++)
		cal[i] = 0x8B010000u;                  /* add x0, x0, x1 */
	bm_printf("@bhive-clock %s\n", pmc ? "pmc" : "cntvct");
	for (uint32_t i = 0; i < h->count; i++) {
		const struct bhive_in_block *b = (const void *)(input + at);
		struct measure m = { 0 };
		if (at + sizeof *b > (uint64_t)n || at + sizeof *b + b->len > (uint64_t)n ||
		    b->len == 0 || b->len % 4 || b->len > BHIVE_MAX_BLOCK || !b->u_lo ||
		    b->u_hi <= b->u_lo || (uint64_t)b->len * (b->u_lo + b->u_hi) + sizeof cal *
		    (BHIVE_CAL_LO + BHIVE_CAL_HI) + 4096 > BHIVE_CODE_MAX) {
			bm_printf("@bhive-error block %u is malformed\n", i);
			return 2;
		}
		measure((const uint32_t *)(input + at + sizeof *b), b->len, b->u_lo, b->u_hi, &m);
		report(b->index, b->len, &m);
		at += (sizeof *b + b->len + 3) & ~3ull;
	}
	bm_printf("@bhive-end %u\n", h->count);
	return 0;
}
