/* SPDX-License-Identifier: BSD-2-Clause */
/* Runs of the unrolled block in ring 3 (harness.h). The code is a loop, entered once for
 * a round of runs: it resets the state every run starts from (RFLAGS by popfq, the frames
 * in use by rep stosq through their own mapping, the x87 unit, MXCSR with FTZ and DAZ, every
 * XMM lane), reads KVM's steal counter and the clock into the run's record in the scratch
 * page, sets every general register to BHIVE_INIT, runs the copies of the block, reads the
 * clock and the steal counter again; the same for each other segment (the other unroll
 * factor, the calibration block at its two), so all are timed alternately, microseconds
 * apart, at whatever clock frequency the core runs (the TSC does not follow it); and
 * loops while passes are left; then a ud2 at a known
 * address. Any exception from ring 3, that ud2's included, comes to hook(): it switches
 * back to the runtime's page tables, records the exception and resumes ring 0 at
 * bhive_land, so a block that faults never reaches the runtime's handler. Ring 3 runs with
 * interrupts disabled and IOPL 0: no interrupt can be taken in the timed window and the
 * block cannot enable them.
 * An alignment check (#AC) while the pages are mapped whose access stays inside one cache
 * line (misalign.h) is not the end of the run: hook() returns to the instruction with AC
 * clear and TF set, and the single-step trap (#DB) after it sets AC again. QEMU's TCG
 * raises no #AC: there, while the pages are mapped, a breakpoint (DR0, DR1) at the start
 * of each unrolled block's copies sets TF, and each single-step trap until the copies end
 * checks the access of the instruction about to run in software, ending the run as an #AC
 * would when it crosses a line. */
#include "harness.h"
#include "emit.h"
#include "misalign.h"
#include "scratch.h"

#define RFLAGS_FIXED 0x2ull
#define RFLAGS_TF (1ull << 8)
#define RFLAGS_RF (1ull << 16)
#define DR7_L(n) (1ull << 2 * (n))        /* DRn: an instruction breakpoint, enabled */
#define RFLAGS_AC (1ull << 18)
#define CR0_AM (1ull << 18)
#define CR4_PCE (1ull << 8)
#define SEL_KCODE 0x08
#define SEL_KDATA 0x10
#define VEC_DB 1
#define VEC_UD 6
#define VEC_AC 17
#define R0_STACK 16384
#define PMC_FIXED_CYCLES 0x40000001u   /* RDPMC: fixed counter 1, core cycles */
#define MXCSR 0x9FC0u                  /* FTZ (15), DAZ (6), every exception masked */
#define MSR_FS_BASE 0xC0000100u
#define MSR_GS_BASE 0xC0000101u
/* the scratch page, in 64-bit words: what the code loads, where it records (S_PTR), how
 * many runs are left (S_LEFT), and from S_REC one record a run: the clock before and after
 * (edx:eax each) and the steal counter before and after */
#define S_MXCSR 4
#define S_VEC 6
#define REC_WORDS 4

extern uint64_t bmrt_pml4[512];

static uint8_t r0_stack[R0_STACK] __attribute__((aligned(16)));
static struct run_result *current;
static uint64_t rflags = RFLAGS_FIXED;
static int pmc, align_checks;
static int stepping;                    /* one instruction runs with AC clear */
static int soft_checks;                 /* no #AC (TCG): accesses checked at each step */

/* pc is in an unrolled block's copies that are checked: all of them, or the first when
 * the block's accesses reach the same addresses in every copy */
static int in_copies(uint64_t pc)
{
	for (unsigned k = 0; k < run_segments; k++) {
		uint64_t at = BHIVE_CODE_VA + run_seg_at[k], end = BHIVE_CODE_VA + run_seg_end[k];
		if (misalign.fixed && end > at)
			end = at + misalign.len;
		if (pc >= at && pc < end)
			return 1;
	}
	return 0;
}

static int hook(struct bmrt_regs *r)
{
	struct run_result *res = current;
	uint64_t cr2, ac_addr = 0;

	if ((r->cs & 3) != 3 || !res)
		return 0;
	const uint64_t regs[16] = { r->rax, r->rcx, r->rdx, r->rbx, r->rsp, r->rbp, r->rsi,
				    r->rdi, r->r8, r->r9, r->r10, r->r11, r->r12, r->r13,
				    r->r14, r->r15 };
	/* back to ring 3 on the block's tables, which map this code and its data */
	if (r->vector == VEC_DB && stepping) {
		stepping = 0;
		r->rflags = (r->rflags & ~RFLAGS_TF) | RFLAGS_AC;
		return 1;
	}
	if (r->vector == VEC_DB && soft_checks && misalign.probing) {
		if (!in_copies(r->rip)) {        /* past them: no more steps */
			r->rflags &= ~RFLAGS_TF;
			return 1;
		}
		if (misalign_access(r->rip, regs, &ac_addr) != MISALIGN_SPLIT) {
			r->rflags |= RFLAGS_TF | RFLAGS_RF;   /* RF: past the breakpoint */
			return 1;
		}
		r->vector = VEC_AC;   /* ends the run before the access, as #AC would */
	}
	if (r->vector == VEC_AC && !stepping && misalign_may_step(r->rip, regs, &ac_addr)) {
		stepping = 1;
		misalign.stepped++;
		r->rflags = (r->rflags & ~RFLAGS_AC) | RFLAGS_TF;
		return 1;
	}
	stepping = 0;
	__asm__ volatile("mov %0, %%cr3" : : "r"((uintptr_t)bmrt_pml4) : "memory");
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	res->exited = r->vector == VEC_UD && r->rip == run_exit_va;
	res->vector = r->vector;
	res->error = r->error;
	res->addr = r->vector == VEC_AC ? ac_addr : cr2;
	res->pc = r->rip;
	for (unsigned i = 0; i < 16; i++)
		res->regs[i] = regs[i];
	current = 0;
	r->rip = (uintptr_t)bhive_land;
	r->cs = SEL_KCODE;
	r->rflags = RFLAGS_FIXED;
	r->rsp = bhive_saved_rsp;
	r->ss = SEL_KDATA;
	return 1;
}

/* QEMU's TCG (CPUID 0x40000000: "TCGTCGTCGTCG"), which does not check alignment */
static int tcg(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x40000000u), "c"(0));
	return a >= 0x40000000u && b == 0x54474354u && c == 0x43544743u && d == 0x47435447u;
}

/* Where each segment's reset pushes the RFLAGS it starts from (an imm32 in the code) */
static unsigned rflags_at[RUN_MAX_SEGS];

/* Without #AC: while probing, a breakpoint at the start of each block's copies (at most
 * two: the unroll factors) */
static void soft_breakpoints(void)
{
	uint64_t dr7 = 0, va[2] = { 0, 0 };
	unsigned n = 0;

	for (unsigned k = 0; k < run_segments && n < 2 && misalign.probing && misalign.described;
	     k++)
		if (run_seg_end[k] > run_seg_at[k])
			va[n] = BHIVE_CODE_VA + run_seg_at[k], dr7 |= DR7_L(n), n++;
	__asm__ volatile("mov %0, %%db0" : : "r"(va[0]));
	__asm__ volatile("mov %0, %%db1" : : "r"(va[1]));
	__asm__ volatile("mov %0, %%db7" : : "r"(dr7));
}

/* RFLAGS.AC in the state every run starts from (CR0.AM stays set: a software KVM that
 * runs ring 3 on the host's own CR0 checks alignment whenever AC is set) */
void run_align(int on)
{
	uint32_t v;

	rflags = on && align_checks ? rflags | RFLAGS_AC : rflags & ~RFLAGS_AC;
	v = (uint32_t)rflags;
	for (unsigned k = 0; k < run_segments; k++)
		__builtin_memcpy(bhive_code + rflags_at[k], &v, 4);
	if (soft_checks)
		soft_breakpoints();
}

void run_init(int use_pmc, int align_check)
{
	uint64_t cr;

	/* FS and GS based at the constant too: a block's %fs:0x28 (a stack canary) or other
	 * thread-local access reaches a page near the registers', as in a process where FS
	 * holds a thread's block; ring 0 here uses neither */
	wrmsr(MSR_FS_BASE, BHIVE_INIT);
	wrmsr(MSR_GS_BASE, BHIVE_INIT);
	pmc = use_pmc;
	bhive_scratch[S_MXCSR] = MXCSR;
	bhive_scratch[S_VEC] = bhive_scratch[S_VEC + 1] = BHIVE_INIT;
	bmrt_desc_set_rsp0(0, (uintptr_t)r0_stack + sizeof r0_stack);
	bmrt_exception_hook = hook;
	align_checks = align_check;
	soft_checks = align_check && tcg();
	if (align_check) {
		__asm__ volatile("mov %%cr0, %0" : "=r"(cr));
		__asm__ volatile("mov %0, %%cr0" : : "r"(cr | CR0_AM));
		rflags |= RFLAGS_AC;
	}
	if (pmc) {
		__asm__ volatile("mov %%cr4, %0" : "=r"(cr));
		__asm__ volatile("mov %0, %%cr4" : : "r"(cr | CR4_PCE));
	}
}

void run_once(struct run_result *res, unsigned reps)
{
	const uint64_t *rec = bhive_scratch + S_REC;

	scratch_prepare(res, reps, REC_WORDS);
	stepping = 0;
	current = res;
	bhive_enter(space_cr3(), BHIVE_CODE_VA, rflags);
	for (unsigned i = 0; res->exited && i < reps * run_segments; i++, rec += REC_WORDS) {
		res->ticks[i] = rec[1] - rec[0];
		res->stolen[i] = rec[2] != rec[3];
	}
}

/* ---- the code ---- */

static unsigned at;
unsigned run_seg_at[RUN_MAX_SEGS], run_seg_end[RUN_MAX_SEGS], run_segments;
uint64_t run_exit_va;

static void put(const void *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		bhive_code[at++] = ((const uint8_t *)p)[i];
}

static void put8(uint8_t b) { put(&b, 1); }
static void put32(uint32_t v) { put(&v, 4); }
static void put64(uint64_t v) { put(&v, 8); }
static void bytes(const char *s, unsigned n) { put(s, n); }

/* a rip-relative operand naming scratch[slot], the instruction's last 4 bytes (imm: the
 * bytes of an immediate after it) */
static void put_rel(unsigned slot, unsigned imm)
{
	put32((uint32_t)(BHIVE_SCRATCH_VA + 8 * slot - (BHIVE_CODE_VA + at + 4 + imm)));
}

/* mov $imm64, reg (0-15) */
static void movabs(unsigned reg, uint64_t v)
{
	put8(reg >= 8 ? 0x49 : 0x48), put8((uint8_t)(0xb8 + (reg & 7))), put64(v);
}

/* The state every run starts from: RFLAGS (pushed on the scratch page's top), the frames
 * in use (rep stosq through their own mapping), x87, MXCSR, the XMM registers. */
static void reset_state(void)
{
	movabs(4, BHIVE_SCRATCH_VA + 4096);              /* rsp */
	put8(0x68);
	rflags_at[run_segments] = at;
	put32((uint32_t)rflags);                         /* push $rflags */
	put8(0x9d);                                      /* popfq */
	movabs(7, BHIVE_FRAME_VA);                       /* rdi */
	bytes("\x48\x8b\x0d", 3), put_rel(S_FRAME_WORDS, 0);   /* mov S_FRAME_WORDS(%rip), %rcx */
	movabs(0, BHIVE_INIT);
	bytes("\xf3\x48\xab", 3);                        /* rep stosq */
	bytes("\xdb\xe3", 2);                            /* fninit */
	bytes("\x0f\xae\x15", 3), put_rel(S_MXCSR, 0);   /* ldmxcsr */
	for (unsigned x = 0; x < 16; x++) {              /* movdqa S_VEC(%rip), %xmmX */
		put8(0x66);
		if (x >= 8)
			put8(0x44);                      /* REX.R */
		put8(0x0f), put8(0x6f), put8((uint8_t)((x & 7) << 3 | 5)), put_rel(S_VEC, 0);
	}
}

/* KVM's steal counter into the record at %rsi, word w (nothing without it) */
static void read_steal(unsigned w)
{
	const volatile uint64_t *s = bmrt_steal_word();

	if (!s)
		return;
	put8(0x48), put8(0xa1), put64(BHIVE_STEAL_VA + ((uintptr_t)s & 4095));   /* movabs */
	bytes("\x48\x89\x46", 3), put8((uint8_t)(8 * w));  /* mov %rax, 8w(%rsi) */
}

/* The clock into edx:eax */
static void read_clock(void)
{
	bytes("\x0f\xae\xe8", 3);                        /* lfence */
	if (pmc) {
		put8(0xb9), put32(PMC_FIXED_CYCLES);     /* mov $imm32, %ecx */
		bytes("\x0f\x33", 2);                    /* rdpmc */
	} else {
		bytes("\x0f\x31", 2);                    /* rdtsc */
	}
}

/* edx:eax into the record at %rsi, word w */
static void store_clock(unsigned w)
{
	bytes("\x89\x46", 2), put8((uint8_t)(8 * w));       /* mov %eax, 8w(%rsi) */
	bytes("\x89\x56", 2), put8((uint8_t)(8 * w + 4));   /* mov %edx, 8w+4(%rsi) */
}

/* The copy at `at`'s rip-relative operand r made to reach BHIVE_RIP_BASE + rip_align +
 * end + disp32, whichever copy it is (the host checked that it fits in 32 bits). */
static void rip_fix(const struct run_seg *g, const struct bhive_in_rip *r)
{
	int32_t disp;

	__builtin_memcpy(&disp, (const uint8_t *)g->block + r->disp_at, 4);
	disp = (int32_t)(BHIVE_RIP_BASE + g->rip_align + (uint64_t)(int64_t)disp -
			 (BHIVE_CODE_VA + at));
	__builtin_memcpy(bhive_code + at + r->disp_at, &disp, 4);
}

/* No store in flight: the barrier before the timed window (mfence) */
static void drain_stores(void)
{
	bytes("\x0f\xae\xf0", 3);                        /* mfence */
}

/* One timed run of n copies: reset, clock, the copies, clock, into the record at S_PTR,
 * which then moves to the next. */
static void segment(const struct run_seg *g)
{
	reset_state();
	bytes("\x48\x8b\x35", 3), put_rel(S_PTR, 0);     /* mov S_PTR(%rip), %rsi */
	read_steal(2);
	/* no store in flight when the block starts: the reset's (a page or more) drained
	 * before the clock is read, the start time's two after it (a fixed cost in every
	 * run, which the two unroll factors' difference cancels), so the block's stores
	 * do not wait behind them nor its loads alias their addresses */
	drain_stores();
	read_clock();
	store_clock(0);
	drain_stores();
	for (unsigned r = 0; r < 16; r++)
		movabs(r, BHIVE_INIT);
	bytes("\x0f\xae\xe8", 3);                        /* lfence */
	run_seg_at[run_segments] = g->track ? at : 0;
	for (unsigned i = 0; i < g->copies; i++, at += g->len) {
		__builtin_memcpy(bhive_code + at, g->block, g->len);
		for (unsigned k = 0; k < g->nrip; k++)
			rip_fix(g, &g->rip[k]);
	}
	run_seg_end[run_segments] = g->track ? at : 0;
	read_clock();
	bytes("\x48\x8b\x35", 3), put_rel(S_PTR, 0);     /* mov S_PTR(%rip), %rsi */
	store_clock(1);
	read_steal(3);
	bytes("\x48\x83\x05", 3), put_rel(S_PTR, 1), put8(8 * REC_WORDS);   /* addq */
}

unsigned run_emit(const struct run_seg *segs, unsigned n)
{
	for (run_segments = emit_kept(segs, n, &at); run_segments < n; run_segments++) {
		segment(&segs[run_segments]);
		emit_note(segs, n, run_segments, at);
	}
	bytes("\x48\xff\x0d", 3), put_rel(S_LEFT, 0);    /* decq S_LEFT(%rip) */
	bytes("\x0f\x85", 2), put32((uint32_t)(0 - (at + 4)));               /* jnz 0 */
	run_exit_va = BHIVE_CODE_VA + at;
	bytes("\x0f\x0b", 2);                            /* ud2 */
	return at;
}
