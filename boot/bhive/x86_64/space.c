/* SPDX-License-Identifier: BSD-2-Clause */
/* The block's address space (harness.h): its own page tables. The 2 MiB regions the
 * harness spans keep the runtime's identity map, ring 0's only (the CPU needs the IDT,
 * GDT, TSS, handlers and ring 0's stack to take an exception); the unrolled code is
 * mapped read-only and the scratch page writable for ring 3; every other page the block
 * touches faults once and is then mapped: read-only to the one shared frame for a load,
 * writable to a frame of its own for a store (frames.h). */
#include "harness.h"

#define P 0x1ull
#define RW 0x2ull
#define US 0x4ull
#define PS 0x80ull
#define PAGE 4096ull
#define LARGE (2ull << 20)
#define ADDR_MASK 0x000FFFFFFFFFF000ull

extern uint64_t bmrt_pd[4 * 512];
extern char __image_end[];

uint8_t bhive_code[BHIVE_CODE_MAX] __attribute__((aligned(4096)));
static uint64_t pml4[512] __attribute__((aligned(4096)));

/* The leaf entry of va, with every table on the way made (user, writable: the leaf
 * decides); 0 when the pool is empty. */
static uint64_t *leaf(uint64_t va)
{
	uint64_t *t = pml4;

	for (int shift = 39; shift > 12; shift -= 9) {
		uint64_t *e = &t[va >> shift & 511];
		if (!(*e & P)) {
			uint64_t *n = pool_table();
			if (!n)
				return 0;
			*e = (uintptr_t)n | P | RW | US;
		}
		t = (uint64_t *)(uintptr_t)(*e & ADDR_MASK);
	}
	return &t[va >> 12 & 511];
}

static uint64_t harness_end(void)
{
	return ((uintptr_t)__image_end + LARGE - 1) & ~(LARGE - 1);
}

void space_reset(void)
{
	uint64_t *pd;

	frames_reset();
	pool_reset();
	arch_fill64(pml4, 0, 512);
	leaf(0);   /* the tables of the first GiB */
	pd = (uint64_t *)(uintptr_t)(((uint64_t *)(uintptr_t)(pml4[0] & ADDR_MASK))[0] &
				     ADDR_MASK);
	for (unsigned i = 0; i < harness_end() / LARGE; i++)
		pd[i] = bmrt_pd[i];
	for (unsigned i = 0; i < BHIVE_CODE_MAX / PAGE; i++)
		*leaf(BHIVE_CODE_VA + i * PAGE) = ((uintptr_t)bhive_code + i * PAGE) | P | US;
	*leaf(BHIVE_SCRATCH_VA) = (uintptr_t)bhive_scratch | P | RW | US;
	for (unsigned i = 0; i < BHIVE_FRAMES; i++)
		*leaf(BHIVE_FRAME_VA + i * PAGE) = (uintptr_t)bhive_frames[i] | P | RW | US;
	if (bmrt_steal_word())
		*leaf(BHIVE_STEAL_VA) = ((uintptr_t)bmrt_steal_word() & ~(PAGE - 1)) | P | US;
}

uint64_t space_cr3(void)
{
	return (uintptr_t)pml4;
}

static int canonical(uint64_t a)
{
	return (uint64_t)((int64_t)(a << 16) >> 16) == a;
}

int space_map(uint64_t addr, int write)
{
	uint64_t page = addr & ~(PAGE - 1), *e, frame;
	int st;

	if (!canonical(addr))
		return BHIVE_NONCANONICAL;
	if (page < harness_end() || page - BHIVE_CODE_VA < BHIVE_CODE_MAX ||
	    page == BHIVE_SCRATCH_VA || page == BHIVE_STEAL_VA ||
	    page - BHIVE_FRAME_VA < BHIVE_FRAMES * PAGE)
		return BHIVE_UNMAPPABLE;
	e = leaf(page);
	if (!e)
		return BHIVE_TOO_MANY_FAULTS;
	st = frame_pick(*e & P, (*e & RW) != 0, write, &frame);
	if (st)
		return st;
	*e = frame | P | US | (write ? RW : 0);
	return BHIVE_OK;
}

void arch_fill64(uint64_t *d, uint64_t v, uint64_t n)
{
	/* one instruction: ring 0 may be emulated an instruction at a time */
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(v) : "memory");
}
