/* Refines the boot identity map: the 2 MiB regions holding page 0 and the stack guard page
 * get 4 KiB page tables with those pages left out, so a NULL dereference and a stack
 * overflow fault; the LAPIC's region is mapped uncached. */
#include "rt.h"

#define PTE_P 0x1ull
#define PTE_RW 0x2ull
#define PTE_PWT 0x8ull
#define PTE_PCD 0x10ull
#define PAGE 4096ull
#define LARGE (2ull << 20)
#define LAPIC_PHYS 0xFEE00000ull

extern uint64_t bmrt_pml4[512], bmrt_pd[4 * 512], bmrt_pt_low[512], bmrt_pt_guard[512];
extern char bmrt_stack_guard[];

static void split(uint64_t *pt, unsigned pdi)
{
	for (unsigned i = 0; i < 512; i++)
		pt[i] = (pdi * LARGE + i * PAGE) | PTE_P | PTE_RW;
	bmrt_pd[pdi] = (uintptr_t)pt | PTE_P | PTE_RW;
}

void bmrt_paging_init(void)
{
	uintptr_t g = (uintptr_t)bmrt_stack_guard;
	unsigned gpd = (unsigned)(g / LARGE);

	split(bmrt_pt_low, 0);
	bmrt_pt_low[0] = 0;
	if (gpd != 0)
		split(bmrt_pt_guard, gpd);
	(gpd ? bmrt_pt_guard : bmrt_pt_low)[g / PAGE % 512] = 0;
	bmrt_pd[LAPIC_PHYS / LARGE] |= PTE_PCD | PTE_PWT;
	__asm__ volatile("mov %0, %%cr3" : : "r"((uintptr_t)bmrt_pml4) : "memory");
}
