/* SPDX-License-Identifier: BSD-2-Clause */
/* The identity map, 4 KiB granule, 32-bit addresses (T0SZ = 32; anything at or above
 * 4 GiB faults):
 *   0x00000000-0x07FFFFFF  flash: not mapped, so a NULL dereference faults
 *   0x08000000-0x3FFFFFFF  device nGnRnE, never executable (GIC, PL011, fw_cfg, PCIe, ...)
 *   0x40000000-0xFFFFFFFF  RAM: normal write-back cacheable, inner shareable
 * with the guard pages below every stack left out (layout.h). Runs with the MMU off, so it
 * is built with -mstrict-align and touches nothing but the tables. The register values go
 * to bmrt_mmu_regs too, where the other CPUs' entry (entry.S) takes them. */
#include "rt.h"
#include "layout.h"

#define GIB (1ull << 30)
#define BLOCK2M (1ull << 21)
#define PAGE 4096ull
#define DEVICE_START 0x08000000ull

#define D_BLOCK 0x1ull
#define D_TABLE 0x3ull
#define D_PAGE 0x3ull
#define ATTR_DEVICE (0ull << 2)     /* MAIR attr 0 */
#define ATTR_NORMAL (1ull << 2)     /* MAIR attr 1 */
#define SH_INNER (3ull << 8)
#define AF (1ull << 10)
#define PXN (1ull << 53)
#define UXN (1ull << 54)
#define NORMAL (ATTR_NORMAL | SH_INNER | AF)
#define DEVICE (ATTR_DEVICE | AF | PXN | UXN)

#define MAIR_VALUE 0xFF00ull        /* attr 0: Device-nGnRnE, attr 1: Normal WB RW-allocate */
/* T0SZ 32, walks inner/outer WB cacheable, inner shareable, 4 KiB granule, no TTBR1
 * walks (EPD1), 32-bit physical addresses */
#define TCR_VALUE (32ull | 1ull << 8 | 1ull << 10 | 3ull << 12 | 32ull << 16 | 1ull << 23)
#define SCTLR_M (1ull << 0)
#define SCTLR_A (1ull << 1)
#define SCTLR_C (1ull << 2)
#define SCTLR_SA (1ull << 3)
#define SCTLR_I (1ull << 12)
#define SCTLR_WXN (1ull << 19)
#define SCTLR_EE (1ull << 25)
#define L3_POOL 4

extern char bmrt_stack_guard[], bmrt_exc_stack_guard[], bmrt_cpu_stacks[];

uint64_t bmrt_mmu_regs[4];      /* MAIR_EL1, TCR_EL1, TTBR0_EL1, SCTLR_EL1 */

static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l2_low[512] __attribute__((aligned(4096)));
static uint64_t l2_ram[512] __attribute__((aligned(4096)));
static uint64_t l3[L3_POOL][512] __attribute__((aligned(4096)));
static unsigned l3_used;

/* Leave one page of the first RAM gigabyte unmapped, splitting its 2 MiB block. */
static void unmap_page(uintptr_t va)
{
	uint64_t i = (va - GIB) / BLOCK2M, base = GIB + i * BLOCK2M, *t;

	if (va < GIB || va >= 2 * GIB)
		return;
	if ((l2_ram[i] & 3) == D_BLOCK) {
		if (l3_used == L3_POOL)
			return;
		t = l3[l3_used++];
		for (unsigned j = 0; j < 512; j++)
			t[j] = (base + j * PAGE) | NORMAL | D_PAGE;
		l2_ram[i] = (uintptr_t)t | D_TABLE;
	}
	t = (uint64_t *)(uintptr_t)(l2_ram[i] & 0xFFFFFFFFF000ull);
	t[(va - base) / PAGE] = 0;
}

void bmrt_mmu_init(void)
{
	uint64_t sctlr;

	for (unsigned i = 0; i < 512; i++) {
		uint64_t pa = i * BLOCK2M;
		l2_low[i] = pa < DEVICE_START ? 0 : pa | DEVICE | D_BLOCK;
		l2_ram[i] = (GIB + pa) | NORMAL | D_BLOCK;
	}
	l1[0] = (uintptr_t)l2_low | D_TABLE;
	l1[1] = (uintptr_t)l2_ram | D_TABLE;
	l1[2] = 2 * GIB | NORMAL | D_BLOCK;
	l1[3] = 3 * GIB | NORMAL | D_BLOCK;
	unmap_page((uintptr_t)bmrt_stack_guard);
	unmap_page((uintptr_t)bmrt_exc_stack_guard);
	for (unsigned i = 1; i < BMRT_MAX_CPUS; i++) {
		uintptr_t g = (uintptr_t)bmrt_cpu_stacks + (i - 1) * (uintptr_t)CPU_STACKS;
		unmap_page(g);
		unmap_page(g + GUARD_SIZE + CPU_EXC_STACK_SIZE);
	}

	__asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_SA;
	sctlr &= ~(SCTLR_A | SCTLR_WXN | SCTLR_EE);
	bmrt_mmu_regs[0] = MAIR_VALUE;
	bmrt_mmu_regs[1] = TCR_VALUE;
	bmrt_mmu_regs[2] = (uintptr_t)l1;
	bmrt_mmu_regs[3] = sctlr;
	__asm__ volatile("msr mair_el1, %0" : : "r"(MAIR_VALUE));
	__asm__ volatile("msr tcr_el1, %0" : : "r"(TCR_VALUE));
	__asm__ volatile("msr ttbr0_el1, %0" : : "r"((uintptr_t)l1));
	__asm__ volatile("dsb ish; tlbi vmalle1; dsb ish; isb" : : : "memory");
	__asm__ volatile("msr sctlr_el1, %0; isb" : : "r"(sctlr) : "memory");
}

int bmrt_mmu_map_normal(uint64_t pa, uint64_t size)
{
	if ((pa | size) & (BLOCK2M - 1) || pa < DEVICE_START || pa + size > GIB || !size)
		return -1;
	for (uint64_t a = pa; a < pa + size; a += BLOCK2M)
		l2_low[a / BLOCK2M] = a | NORMAL | PXN | UXN | D_BLOCK;
	__asm__ volatile("dsb ishst; tlbi vmalle1is; dsb ish; isb" : : : "memory");
	return 0;
}

/* Whether addr is in a stack guard page (layout.h). */
int bmrt_in_guard(uint64_t addr)
{
	uintptr_t base = (uintptr_t)bmrt_cpu_stacks;

	if (addr - (uintptr_t)bmrt_stack_guard < GUARD_SIZE ||
	    addr - (uintptr_t)bmrt_exc_stack_guard < GUARD_SIZE)
		return 1;
	if (addr < base || addr - base >= (BMRT_MAX_CPUS - 1) * (uintptr_t)CPU_STACKS)
		return 0;
	addr = (addr - base) % CPU_STACKS;
	if (addr < GUARD_SIZE)
		return 1;
	addr -= GUARD_SIZE + CPU_EXC_STACK_SIZE;
	return addr < GUARD_SIZE;
}
