/* SPDX-License-Identifier: BSD-2-Clause */
/* One run of the unrolled block in ring 3 (harness.h). The code is a prologue that resets
 * the x87 unit, sets MXCSR (FTZ and DAZ: no gradual underflow; exceptions masked) and
 * every XMM lane to BHIVE_INIT from the scratch page, reads the clock into it and sets the
 * registers it used back to BHIVE_INIT, the
 * copies of the block, and an epilogue that reads the clock again and ends in a ud2 at a
 * known address. Any exception from ring 3, that ud2's included, comes to hook(): it
 * switches back to the runtime's page tables, records the exception and resumes ring 0 at
 * bhive_land, so a block that faults never reaches the runtime's handler. Ring 3 runs with
 * interrupts disabled and IOPL 0: no interrupt can be taken in the timed window and the
 * block cannot enable them. */
#include "harness.h"

#define RFLAGS_FIXED 0x2ull
#define RFLAGS_AC (1ull << 18)
#define CR0_AM (1ull << 18)
#define CR4_PCE (1ull << 8)
#define SEL_KCODE 0x08
#define SEL_KDATA 0x10
#define VEC_UD 6
#define R0_STACK 16384
#define PMC_FIXED_CYCLES 0x40000001u   /* RDPMC: fixed counter 1, core cycles */
#define MXCSR 0x9FC0u                  /* FTZ (15), DAZ (6), every exception masked */
/* the scratch page: the two clock readings, then what the prologue loads */
#define S_MXCSR 4
#define S_VEC 6

extern uint64_t bmrt_pml4[512];

static uint8_t r0_stack[R0_STACK] __attribute__((aligned(16)));
static struct run_result *current;
uint64_t run_exit_va;
static uint64_t rflags = RFLAGS_FIXED;
static int pmc;

static int hook(struct bmrt_regs *r)
{
	struct run_result *res = current;
	uint64_t cr2;

	if ((r->cs & 3) != 3 || !res)
		return 0;
	__asm__ volatile("mov %0, %%cr3" : : "r"((uintptr_t)bmrt_pml4) : "memory");
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	res->exited = r->vector == VEC_UD && r->rip == run_exit_va;
	res->vector = r->vector;
	res->error = r->error;
	res->cr2 = cr2;
	res->rip = r->rip;
	const uint64_t regs[16] = { r->rax, r->rcx, r->rdx, r->rbx, r->rsp, r->rbp, r->rsi,
				    r->rdi, r->r8, r->r9, r->r10, r->r11, r->r12, r->r13,
				    r->r14, r->r15 };
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

void run_init(int use_pmc, int align_check)
{
	uint64_t cr;

	pmc = use_pmc;
	bhive_scratch[S_MXCSR] = MXCSR;
	bhive_scratch[S_VEC] = bhive_scratch[S_VEC + 1] = BHIVE_INIT;
	bmrt_desc_set_rsp0(0, (uintptr_t)r0_stack + sizeof r0_stack);
	bmrt_exception_hook = hook;
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

void run_once(struct run_result *res)
{
	res->exited = 0;
	res->ticks = 0;
	space_fill_frame();
	current = res;
	bhive_enter(space_cr3(), BHIVE_CODE_VA, rflags);
	if (res->exited)
		res->ticks = bhive_scratch[2] | bhive_scratch[3] << 32;
	if (res->exited)
		res->ticks -= bhive_scratch[0] | bhive_scratch[1] << 32;
}

/* ---- the code ---- */

static unsigned at;
unsigned run_block_at;

static void put(const void *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		bhive_code[at++] = ((const uint8_t *)p)[i];
}

static void put8(uint8_t b) { put(&b, 1); }
static void put64(uint64_t v) { put(&v, 8); }

static void put32(uint32_t v) { put(&v, 4); }

/* a rip-relative operand naming scratch[slot], the instruction's last 4 bytes */
static void put_rel(unsigned slot)
{
	put32((uint32_t)(BHIVE_SCRATCH_VA + 8 * slot - (BHIVE_CODE_VA + at + 4)));
}

/* fninit, ldmxcsr and movdqa of the XMM registers from the scratch page */
static void reset_fp(void)
{
	put8(0xdb), put8(0xe3);
	put8(0x0f), put8(0xae), put8(0x15), put_rel(S_MXCSR);
	for (unsigned x = 0; x < 16; x++) {
		put8(0x66);
		if (x >= 8)
			put8(0x44);                       /* REX.R */
		put8(0x0f), put8(0x6f), put8((uint8_t)((x & 7) << 3 | 5)), put_rel(S_VEC);
	}
}

/* The clock into scratch[slot], scratch[slot + 1] (edx:eax). */
static void read_clock(unsigned slot)
{
	static const uint8_t lfence[] = { 0x0f, 0xae, 0xe8 }, rdtsc[] = { 0x0f, 0x31 },
		rdpmc[] = { 0x0f, 0x33 }, mov_rdx_rax[] = { 0x48, 0x89, 0xd0 };

	put(lfence, 3);
	if (pmc) {
		put8(0xb9);                       /* mov $imm32, %ecx */
		uint32_t c = PMC_FIXED_CYCLES;
		put(&c, 4);
		put(rdpmc, 2);
	} else {
		put(rdtsc, 2);
	}
	put8(0x48), put8(0xa3), put64(BHIVE_SCRATCH_VA + 8 * slot);      /* movabs %rax */
	put(mov_rdx_rax, 3);
	put8(0x48), put8(0xa3), put64(BHIVE_SCRATCH_VA + 8 * (slot + 1));
}

unsigned run_emit(const uint8_t *block, unsigned len, unsigned n)
{
	static const uint8_t lfence[] = { 0x0f, 0xae, 0xe8 }, ud2[] = { 0x0f, 0x0b };
	static const uint8_t movabs[3] = { 0xb8, 0xba, 0xb9 };   /* rax, rdx, rcx */

	at = 0;
	reset_fp();
	read_clock(0);
	for (unsigned i = 0; i < 3; i++)
		put8(0x48), put8(movabs[i]), put64(BHIVE_INIT);
	put(lfence, 3);
	run_block_at = at;
	for (unsigned i = 0; i < n; i++, at += len)
		__builtin_memcpy(bhive_code + at, block, len);
	read_clock(2);
	run_exit_va = BHIVE_CODE_VA + at;
	put(ud2, 2);
	return at;
}
