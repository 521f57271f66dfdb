/* SPDX-License-Identifier: BSD-2-Clause */
/* The block's address space (harness.h): its own page tables. The 2 MiB regions the
 * harness spans keep the runtime's identity map, ring 0's only (the CPU needs the IDT,
 * GDT, TSS, handlers and ring 0's stack to take an exception); the unrolled code is
 * mapped read-only and the scratch page writable for ring 3; every other page the block
 * touches faults once and is then mapped: a page it only reads to the one shared frame,
 * read-only, and a page it writes to a frame of its own, so all its data stays in L1D
 * and no load reads what a store to another page wrote (no dependence the block does
 * not have). There are at most write_frames written pages: as many as L1D keeps apart. */
#include "harness.h"

#define P 0x1ull
#define RW 0x2ull
#define US 0x4ull
#define PS 0x80ull
#define PAGE 4096ull
#define LARGE (2ull << 20)
#define ADDR_MASK 0x000FFFFFFFFFF000ull
#define TABLES (8 + 3 * BHIVE_MAX_FAULTS)

extern uint64_t bmrt_pd[4 * 512];
extern char __image_end[];

uint8_t bhive_code[BHIVE_CODE_MAX] __attribute__((aligned(4096)));
uint64_t bhive_scratch[512] __attribute__((aligned(4096)));
/* frames[0] the shared read-only frame, frames[1 ..] the written pages' own */
static uint64_t frames[BHIVE_FRAMES][512] __attribute__((aligned(4096)));
static uint64_t pml4[512] __attribute__((aligned(4096)));
static uint64_t pool[TABLES][512] __attribute__((aligned(4096)));
static unsigned used, pages, written, write_frames = BHIVE_FRAMES - 1;

static uint64_t *new_table(void)
{
	uint64_t *t;

	if (used == TABLES)
		return 0;
	t = pool[used++];
	__builtin_memset(t, 0, sizeof pool[0]);
	return t;
}

/* The leaf entry of va, with every table on the way made (user, writable: the leaf
 * decides); 0 when the pool is empty. */
static uint64_t *leaf(uint64_t va)
{
	uint64_t *t = pml4;

	for (int shift = 39; shift > 12; shift -= 9) {
		uint64_t *e = &t[va >> shift & 511];
		if (!(*e & P)) {
			uint64_t *n = new_table();
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

	used = pages = written = 0;
	__builtin_memset(pml4, 0, sizeof pml4);
	leaf(0);   /* the tables of the first GiB */
	pd = (uint64_t *)(uintptr_t)(((uint64_t *)(uintptr_t)(pml4[0] & ADDR_MASK))[0] &
				     ADDR_MASK);
	for (unsigned i = 0; i < harness_end() / LARGE; i++)
		pd[i] = bmrt_pd[i];
	for (unsigned i = 0; i < BHIVE_CODE_MAX / PAGE; i++)
		*leaf(BHIVE_CODE_VA + i * PAGE) = ((uintptr_t)bhive_code + i * PAGE) | P | US;
	*leaf(BHIVE_SCRATCH_VA) = (uintptr_t)bhive_scratch | P | RW | US;
	for (unsigned i = 0; i < BHIVE_FRAMES; i++)
		*leaf(BHIVE_FRAME_VA + i * PAGE) = (uintptr_t)frames[i] | P | RW | US;
	if (bmrt_steal_word())
		*leaf(BHIVE_STEAL_VA) = ((uintptr_t)bmrt_steal_word() & ~(PAGE - 1)) | P | US;
}

uint64_t space_cr3(void)
{
	return (uintptr_t)pml4;
}

void space_set_write_frames(unsigned n)
{
	write_frames = n < BHIVE_FRAMES - 1 ? n : BHIVE_FRAMES - 1;
}

void space_fill_frames(void)
{
	void *d = frames;
	uint64_t n = 512 * (1 + written);

	/* one instruction: ring 0 may be emulated an instruction at a time */
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(BHIVE_INIT) : "memory");
}

static int canonical(uint64_t a)
{
	return (uint64_t)((int64_t)(a << 16) >> 16) == a;
}

int space_map(uint64_t addr, int write)
{
	uint64_t page = addr & ~(PAGE - 1), *e;

	if (!canonical(addr))
		return BHIVE_NONCANONICAL;
	if (page < harness_end() || page - BHIVE_CODE_VA < BHIVE_CODE_MAX ||
	    page == BHIVE_SCRATCH_VA || page == BHIVE_STEAL_VA ||
	    page - BHIVE_FRAME_VA < BHIVE_FRAMES * PAGE)
		return BHIVE_UNMAPPABLE;
	e = leaf(page);
	if (!e)
		return BHIVE_TOO_MANY_FAULTS;
	if (*e & P && (!write || (*e & RW)))
		return BHIVE_UNMAPPABLE;   /* mapped and allowed, yet it faulted */
	if (write && written == write_frames)
		return BHIVE_ALIASING;
	if (!(*e & P))
		pages++;
	if (!write) {
		*e = (uintptr_t)frames[0] | P | US;
		return BHIVE_OK;
	}
	/* written: a frame of its own (a page read before moves off the shared frame,
	 * whose contents every run starts from are the same) */
	*e = (uintptr_t)frames[++written] | P | RW | US;
	return BHIVE_OK;
}

unsigned space_pages(void) { return pages; }
unsigned space_written(void) { return written; }
