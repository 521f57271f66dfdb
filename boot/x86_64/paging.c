/* SPDX-License-Identifier: BSD-2-Clause */
/* Refines the boot identity map: the 2 MiB regions holding page 0 and the stack guard
 * pages get 4 KiB page tables with those pages left out, so a NULL dereference and a stack
 * overflow (on any CPU) fault; the LAPIC's region is mapped uncached. The other CPUs load
 * these tables when they start. With main in ring 3 (user.c), the regions the image spans
 * are made user pages (the U bit at every level); the rest of memory, the LAPIC's page
 * among it, stays ring 0's. */
#include "bmprof_x86_64.h"
#include "rt.h"

#define PTE_P 0x1ull
#define PTE_RW 0x2ull
#define PTE_US 0x4ull
#define PTE_PWT 0x8ull
#define PTE_PCD 0x10ull
#define PTE_PS 0x80ull
#define PAGE 4096ull
#define LARGE (2ull << 20)
#define LAPIC_PHYS 0xFEE00000ull
/* page 0, the main stack's guard, ring 3's stack guard, and the regions the other CPUs'
 * stacks span */
#define TABLES (5 + (BMPROF_X86_MAX_CPUS * (PAGE + BMRT_AP_STACK)) / LARGE)

extern uint64_t bmrt_pml4[512], bmrt_pdpt[512], bmrt_pd[4 * 512];
extern char bmrt_stack_guard[], __image_end[];
extern uint8_t bmrt_ap_stack[][4096 + BMRT_AP_STACK];

static uint64_t tables[TABLES][512] __attribute__((aligned(4096)));
static unsigned used;

/* The 4 KiB table of 2 MiB region pdi, made on first use; 0 if none is left. */
static uint64_t *table_of(unsigned pdi)
{
	uint64_t *pt;

	if (!(bmrt_pd[pdi] & PTE_PS))
		return (uint64_t *)(uintptr_t)(bmrt_pd[pdi] & ~(PAGE - 1));
	if (used == TABLES)
		return 0;
	pt = tables[used++];
	for (unsigned i = 0; i < 512; i++)
		pt[i] = (pdi * LARGE + i * PAGE) | PTE_P | PTE_RW;
	bmrt_pd[pdi] = (uintptr_t)pt | PTE_P | PTE_RW;
	return pt;
}

static void unmap(uintptr_t a)
{
	uint64_t *pt = table_of((unsigned)(a / LARGE));

	if (pt)
		pt[a / PAGE % 512] = 0;
}

int bmrt_is_guard_page(uint64_t addr)
{
	if (addr - (uintptr_t)bmrt_stack_guard < PAGE || addr - (uintptr_t)bmrt_user_stack < PAGE)
		return 1;
	for (unsigned i = 0; i + 1 < BMPROF_X86_MAX_CPUS; i++)
		if (addr - (uintptr_t)bmrt_ap_stack[i] < PAGE)
			return 1;
	return 0;
}

void bmrt_paging_init(void)
{
	unmap(0);
	unmap((uintptr_t)bmrt_stack_guard);
	unmap((uintptr_t)bmrt_user_stack);
	for (unsigned i = 0; i + 1 < BMPROF_X86_MAX_CPUS; i++)
		unmap((uintptr_t)bmrt_ap_stack[i]);
	bmrt_pd[LAPIC_PHYS / LARGE] |= PTE_PCD | PTE_PWT;
	__asm__ volatile("mov %0, %%cr3" : : "r"((uintptr_t)bmrt_pml4) : "memory");
}

void bmrt_paging_user(void)
{
	unsigned end = (unsigned)(((uintptr_t)__image_end + LARGE - 1) / LARGE);

	bmrt_pml4[0] |= PTE_US;
	for (unsigned i = 0; i < 4; i++)
		bmrt_pdpt[i] |= PTE_US;
	for (unsigned pdi = 0; pdi < end; pdi++) {
		uint64_t *pt;
		bmrt_pd[pdi] |= PTE_US;
		if (bmrt_pd[pdi] & PTE_PS)
			continue;
		pt = (uint64_t *)(uintptr_t)(bmrt_pd[pdi] & ~(PAGE - 1) & ~(1ull << 63));
		for (unsigned i = 0; i < 512; i++)
			if (pt[i] & PTE_P)
				pt[i] |= PTE_US;
	}
	__asm__ volatile("mov %0, %%cr3" : : "r"((uintptr_t)bmrt_pml4) : "memory");
}
