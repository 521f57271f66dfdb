/* SPDX-License-Identifier: BSD-2-Clause */
/* The block's address space (harness.h): its own translation tables, 4 KiB granule, 48-bit
 * addresses. The 2 MiB blocks the harness image spans keep their identity mapping, EL1's
 * only and never executable at EL0 (the CPU needs the vectors, the handler and SP_EL1's
 * stack to take an exception, before the handler switches back to the runtime's tables,
 * boot/aarch64/mmu.c); the unrolled code is mapped read-only and executable at EL0, the
 * scratch page and the frames' own mappings writable; every other page the block touches
 * faults once and is then mapped: read-only to the one shared frame for a load, writable
 * to a frame of its own for a store (frames.h). */
#include "harness.h"

#define PAGE 4096ull
#define BLOCK2M (2ull << 20)
#define D_VALID 0x1ull
#define D_BLOCK 0x1ull
#define D_TABLE 0x3ull
#define D_PAGE 0x3ull
#define ATTR_NORMAL (1ull << 2)          /* MAIR attr 1 (mmu.c) */
#define SH_INNER (3ull << 8)
#define AF (1ull << 10)
#define AP_EL0 (1ull << 6)               /* AP[1]: EL0 may access */
#define AP_RO (1ull << 7)                /* AP[2]: read-only */
#define PXN (1ull << 53)
#define UXN (1ull << 54)
#define NORMAL (ATTR_NORMAL | SH_INNER | AF)
#define ADDR_MASK 0x0000FFFFFFFFF000ull
#define USER_RO (NORMAL | D_PAGE | AP_EL0 | AP_RO | PXN | UXN)
#define USER_RW (NORMAL | D_PAGE | AP_EL0 | PXN | UXN)
#define USER_CODE (NORMAL | D_PAGE | AP_EL0 | AP_RO | PXN)

extern char __image_start[], __image_end[];

uint32_t bhive_code[BHIVE_CODE_MAX / 4] __attribute__((aligned(4096)));
static uint64_t root[512] __attribute__((aligned(4096)));

/* The entry of va at level (2: 2 MiB blocks, 3: pages), with every table on the way made;
 * 0 when the pool is empty or a block maps va already. */
static uint64_t *entry(uint64_t va, int level)
{
	uint64_t *t = root;

	for (int l = 0, shift = 39; l < level; l++, shift -= 9) {
		uint64_t *e = &t[va >> shift & 511];
		if (!(*e & D_VALID)) {
			uint64_t *n = pool_table();
			if (!n)
				return 0;
			*e = (uintptr_t)n | D_TABLE;
		} else if ((*e & 3) != D_TABLE) {
			return 0;
		}
		t = (uint64_t *)(uintptr_t)(*e & ADDR_MASK);
	}
	return &t[va >> (39 - 9 * level) & 511];
}

static uint64_t harness_start(void)
{
	return (uintptr_t)__image_start & ~(BLOCK2M - 1);
}

static uint64_t harness_end(void)
{
	return ((uintptr_t)__image_end + BLOCK2M - 1) & ~(BLOCK2M - 1);
}

void space_reset(void)
{
	frames_reset();
	pool_reset();
	arch_fill64(root, 0, 512);
	for (uint64_t a = harness_start(); a < harness_end(); a += BLOCK2M)
		*entry(a, 2) = a | NORMAL | D_BLOCK | UXN;
	for (unsigned i = 0; i < BHIVE_CODE_MAX / PAGE; i++)
		*entry(BHIVE_CODE_VA + i * PAGE, 3) = ((uintptr_t)bhive_code + i * PAGE) | USER_CODE;
	*entry(BHIVE_SCRATCH_VA, 3) = (uintptr_t)bhive_scratch | USER_RW;
	for (unsigned i = 0; i < BHIVE_FRAMES; i++)
		*entry(BHIVE_FRAME_VA + i * PAGE, 3) = (uintptr_t)bhive_frames[i] | USER_RW;
}

uint64_t space_ttbr0(void)
{
	return (uintptr_t)root;
}

int space_map(uint64_t addr, int write)
{
	uint64_t page = addr & ~(PAGE - 1), *e, frame;
	int st;

	if (addr >> BHIVE_VA_BITS)
		return BHIVE_UNMAPPABLE;
	if (page - harness_start() < harness_end() - harness_start() ||
	    page - BHIVE_CODE_VA < BHIVE_CODE_MAX || page == BHIVE_SCRATCH_VA ||
	    page - BHIVE_FRAME_VA < BHIVE_FRAMES * PAGE)
		return BHIVE_UNMAPPABLE;
	e = entry(page, 3);
	if (!e)
		return BHIVE_TOO_MANY_FAULTS;
	st = frame_pick(*e & D_VALID, !(*e & AP_RO), write, &frame);
	if (st)
		return st;
	*e = frame | (write ? USER_RW : USER_RO);
	return BHIVE_OK;
}

void arch_fill64(uint64_t *d, uint64_t v, uint64_t n)
{
	while (n--)
		*d++ = v;
}
