/* SPDX-License-Identifier: BSD-2-Clause */
/* Runs of the unrolled block at EL0 (harness.h). The code is a loop, entered once for a
 * round of runs: it resets the state every run starts from (the frames in use through
 * their own mapping, NZCV, FPCR with FZ (flush-to-zero) and FPSR, every vector register lane;
 * bhive_enter set X0-X30 and SP_EL0), reads the clock into the run's record in the scratch
 * page, sets every general register and SP_EL0 to BHIVE_INIT, runs the copies of the block,
 * reads the clock again; the same for each other segment (the other unroll factor, and
 * with the generic timer the calibration block at its two), so all are timed alternately;
 * and loops while passes are left; then a udf at a known address. Any exception from EL0
 * comes to bhive_vectors (enter.S), which switches back to the runtime's tables and
 * returns from bhive_enter, so a block that faults never reaches the runtime's handler.
 * EL0 runs with interrupts masked: none is taken in the timed window. The clock is the PMU
 * cycle counter PMCCNTR_EL0 when there is a PMU, else the generic timer's CNTVCT_EL0.
 * An alignment fault while the pages are mapped whose access stays inside one cache line
 * (misalign.h) is not the end of the run: the instruction runs again with SCTLR_EL1.A
 * clear and software step on (MDSCR_EL1.SS, PSTATE.SS), and the step exception after it
 * resumes the block with the checks on. */
#include "harness.h"
#include "emit.h"
#include "misalign.h"
#include "scratch.h"

#define REC_WORDS 2                      /* the clock before and after */

#define SCTLR_A (1ull << 1)              /* alignment checks */
#define SCTLR_SA0 (1ull << 4)            /* SP alignment checks at EL0 */
#define SCTLR_UMA (1ull << 9)            /* EL0 may mask interrupts */
#define SCTLR_DZE (1ull << 14)           /* DC ZVA at EL0 */
#define SCTLR_UCT (1ull << 15)           /* CTR_EL0 at EL0 */
#define SCTLR_NTWI (1ull << 16)          /* WFI at EL0 not trapped */
#define SCTLR_NTWE (1ull << 18)          /* WFE at EL0 not trapped */
#define SCTLR_UCI (1ull << 26)           /* cache maintenance by VA at EL0 */
#define TCR_T0SZ_MASK 0x3Full
#define PMCR_E (1ull << 0)
#define PMCR_LC (1ull << 6)
#define PMUSERENR_CR (1ull << 2)
#define CNTKCTL_EL0VCTEN (1ull << 1)
#define FPCR_FZ (1u << 24)
#define MDSCR_SS (1ull << 0)             /* software step */
#define SPSR_SS (1ull << 21)
#define DFSC_ALIGN 0x21

/* A64 encodings */
#define X_ZR 31
#define I_ISB 0xD5033FDFu
#define I_DSB_SY 0xD5033F9Fu
#define I_LSR_X2_1 0xD341FC42u            /* lsr x2, x2, #1 */
#define I_UDF 0x00000000u
#define I_MRS_PMCCNTR 0xD53B9D00u
#define I_MRS_CNTVCT 0xD53BE040u
#define I_MSR_NZCV 0xD51B4200u
#define I_MSR_FPCR 0xD51B4400u
#define I_MSR_FPSR 0xD51B4420u

static int pmc, align_checks;
static uint64_t sctlr_checks;            /* the block's SCTLR_EL1 with alignment checks */

void run_align(int on)
{
	bhive_block_regime.sctlr = on && align_checks ? sctlr_checks : sctlr_checks & ~SCTLR_A;
}

void run_init(int use_pmc, int align_check)
{
	uint64_t v;

	pmc = use_pmc;
	align_checks = align_check;
	/* no OS lock: software step exceptions are taken from EL0 */
	__asm__ volatile("msr oslar_el1, xzr; isb");
	if (pmc) {
		__asm__ volatile("mrs %0, pmcr_el0" : "=r"(v));
		__asm__ volatile("msr pmcr_el0, %0" : : "r"(v | PMCR_E | PMCR_LC));
		__asm__ volatile("msr pmccfiltr_el0, xzr");            /* EL0 and EL1 */
		__asm__ volatile("msr pmcntenset_el0, %0" : : "r"(1ull << 31));
		/* EL0 reads the cycle counter, and may not touch the rest of the PMU */
		__asm__ volatile("msr pmuserenr_el0, %0" : : "r"(PMUSERENR_CR));
	}
	__asm__ volatile("mrs %0, cntkctl_el1" : "=r"(v));
	__asm__ volatile("msr cntkctl_el1, %0; isb" : : "r"(v | CNTKCTL_EL0VCTEN));
	__asm__ volatile("mrs %0, tcr_el1" : "=r"(v));
	bhive_block_regime.tcr = (v & ~TCR_T0SZ_MASK) | (64 - BHIVE_VA_BITS);
	__asm__ volatile("mrs %0, sctlr_el1" : "=r"(v));
	/* EL0 may read CTR_EL0, zero and maintain lines by VA (as Linux lets it); WFI and
	 * WFE trap (a block must not wait), and DAIF stays out of its reach */
	v |= SCTLR_DZE | SCTLR_UCT | SCTLR_UCI;
	v &= ~(SCTLR_NTWI | SCTLR_NTWE | SCTLR_UMA);
	if (align_check)
		v |= SCTLR_A | SCTLR_SA0;
	sctlr_checks = bhive_block_regime.sctlr = v;
}

static void set_step(int on)
{
	uint64_t v;

	__asm__ volatile("mrs %0, mdscr_el1" : "=r"(v));
	__asm__ volatile("msr mdscr_el1, %0; isb" : : "r"(on ? v | MDSCR_SS : v & ~MDSCR_SS));
}

/* After EL0's exception: 1 when the block went on (an access inside one line stepped
 * over, or the step after it), 0 when the exception ends the run */
static int step_over(int *stepping)
{
	const struct bhive_ctx *c = &bhive_ctx;
	const uint64_t ec = c->esr >> 26 & 0x3F;
	uint64_t addr = c->far;

	if (*stepping) {
		*stepping = 0;
		set_step(0);
		bhive_block_regime.sctlr = sctlr_checks;
		if (c->kind || ec != EC_SOFTSTEP_LOW)
			return 0;   /* the instruction faulted again */
		bhive_resume(c->spsr & ~SPSR_SS);
		return 1;
	}
	if (c->kind || ec != EC_DABT_LOW || (c->esr & 0x3F) != DFSC_ALIGN ||
	    !misalign_may_step(c->elr, 0, &addr))
		return 0;
	misalign.stepped++;
	*stepping = 1;
	set_step(1);
	bhive_block_regime.sctlr = sctlr_checks & ~SCTLR_A;
	bhive_resume(c->spsr | SPSR_SS);
	return 1;
}

void run_once(struct run_result *res, unsigned reps)
{
	const uint64_t *rec = bhive_scratch + S_REC;
	const struct bhive_ctx *c = &bhive_ctx;

	scratch_prepare(res, reps, REC_WORDS);
	bhive_block_regime.ttbr0 = space_ttbr0();
	int stepping = 0;
	bhive_enter(BHIVE_CODE_VA);
	while (step_over(&stepping))
		;
	res->vector = c->kind ? 0x100 + c->kind : c->esr >> 26 & 0x3F;
	res->error = c->esr;
	res->addr = c->far;
	res->pc = c->elr;
	res->exited = c->kind == 0 && res->vector == EC_UNKNOWN && c->elr == run_exit_va;
	for (unsigned i = 0; res->exited && i < reps * run_segments; i++, rec += REC_WORDS)
		res->ticks[i] = rec[1] - rec[0];
}

/* ---- the code ---- */

static unsigned at;                      /* in instructions */
unsigned run_seg_at[RUN_MAX_SEGS], run_seg_end[RUN_MAX_SEGS], run_segments;
uint64_t run_exit_va;

static void put(uint32_t insn) { bhive_code[at++] = insn; }

static void movz(unsigned rd, unsigned imm, unsigned hw) { put(0xD2800000u | hw << 21 | imm << 5 | rd); }
static void movk(unsigned rd, unsigned imm, unsigned hw) { put(0xF2800000u | hw << 21 | imm << 5 | rd); }

static void mov64(unsigned rd, uint64_t v)
{
	int first = 1;

	for (unsigned hw = 0; hw < 4; hw++) {
		unsigned part = (unsigned)(v >> 16 * hw) & 0xFFFF;
		if (!part && !(first && hw == 3))
			continue;
		if (first)
			movz(rd, part, hw);
		else
			movk(rd, part, hw);
		first = 0;
	}
}

/* adr rd, scratch[slot] */
static void adr_scratch(unsigned rd, unsigned slot)
{
	int64_t off = (int64_t)(BHIVE_SCRATCH_VA + 8 * slot) - (int64_t)(BHIVE_CODE_VA + 4ull * at);

	put(0x10000000u | (uint32_t)(off & 3) << 29 | ((uint32_t)(off >> 2) & 0x7FFFF) << 5 | rd);
}

static void ldr(unsigned rt, unsigned rn, unsigned off) { put(0xF9400000u | off / 8 << 10 | rn << 5 | rt); }
static void str(unsigned rt, unsigned rn, unsigned off) { put(0xF9000000u | off / 8 << 10 | rn << 5 | rt); }
static void add_imm(unsigned rd, unsigned rn, unsigned imm) { put(0x91000000u | imm << 10 | rn << 5 | rd); }
static void subs_imm(unsigned rd, unsigned rn, unsigned imm) { put(0xF1000000u | imm << 10 | rn << 5 | rd); }
static void mov_reg(unsigned rd, unsigned rm) { put(0xAA0003E0u | rm << 16 | rd); }

/* b.ne to instruction index target */
static void b_ne(unsigned target)
{
	put(0x54000001u | ((uint32_t)((int32_t)target - (int32_t)at) & 0x7FFFF) << 5);
}

static void read_clock(unsigned rt)
{
	put(I_ISB);
	put((pmc ? I_MRS_PMCCNTR : I_MRS_CNTVCT) | rt);
}

/* The state every run starts from: the frames in use (stp x0, x0 over S_FRAME_WORDS
 * words), NZCV, FPCR, FPSR, every vector register (dup vN.2d, x0); x0 holds BHIVE_INIT. */
static void reset_state(void)
{
	unsigned loop;

	mov64(0, BHIVE_INIT);
	adr_scratch(1, S_FRAME_WORDS);
	ldr(2, 1, 0);
	put(I_LSR_X2_1);                           /* pairs of words */
	mov64(1, BHIVE_FRAME_VA);
	loop = at;
	put(0xA8810020u);                          /* stp x0, x0, [x1], #16 */
	subs_imm(2, 2, 1);
	b_ne(loop);
	put(I_MSR_NZCV | X_ZR);
	movz(2, FPCR_FZ >> 16, 1);
	put(I_MSR_FPCR | 2);
	put(I_MSR_FPSR | X_ZR);
	for (unsigned v = 0; v < 32; v++)
		put(0x4E080C00u | 0 << 5 | v);     /* dup vV.2d, x0 */
}

/* No store in flight: the barrier before the timed window (dsb sy) */
static void drain_stores(void)
{
	put(I_DSB_SY);
}

/* One timed run of n copies: reset, clock, the copies, clock, into the record at S_PTR,
 * which then moves to the next. */
static void segment(const struct run_seg *g)
{
	reset_state();
	adr_scratch(1, S_PTR);
	ldr(1, 1, 0);
	/* the reset's stores complete before the clock is read, the start time's after it
	 * (a fixed cost the two unroll factors' difference cancels) */
	drain_stores();
	read_clock(2);
	str(2, 1, 0);
	drain_stores();
	add_imm(X_ZR, 0, 0);                       /* mov sp, x0 */
	for (unsigned r = 1; r < 31; r++)
		mov_reg(r, 0);
	put(I_ISB);
	run_seg_at[run_segments] = g->track ? 4 * at : 0;
	for (unsigned i = 0; i < g->copies; i++, at += g->len / 4)
		__builtin_memcpy(bhive_code + at, g->block, g->len);
	run_seg_end[run_segments] = g->track ? 4 * at : 0;
	read_clock(0);
	adr_scratch(1, S_PTR);
	ldr(2, 1, 0);
	str(0, 2, 8);
	add_imm(2, 2, 8 * REC_WORDS);
	str(2, 1, 0);
}

/* The code to the point of unification, so instruction fetch sees what was written */
static void sync_icache(unsigned bytes)
{
	uint64_t ctr, line;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	line = 4ull << (ctr >> 16 & 0xF);
	for (uintptr_t p = (uintptr_t)bhive_code; p < (uintptr_t)bhive_code + bytes; p += line)
		__asm__ volatile("dc cvau, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb ish; ic iallu; dsb ish; isb" : : : "memory");
}

unsigned run_emit(const struct run_seg *segs, unsigned n)
{
	for (run_segments = emit_kept(segs, n, &at); run_segments < n; run_segments++) {
		segment(&segs[run_segments]);
		emit_note(segs, n, run_segments, at);
	}
	adr_scratch(1, S_LEFT);
	ldr(2, 1, 0);
	subs_imm(2, 2, 1);
	str(2, 1, 0);
	b_ne(0);
	run_exit_va = BHIVE_CODE_VA + 4ull * at;
	put(I_UDF);
	sync_icache(4 * at);
	return 4 * at;
}
