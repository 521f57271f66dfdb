/* SPDX-License-Identifier: BSD-2-Clause */
/* Local APIC register access: xAPIC through MMIO, or x2APIC through MSRs when the firmware
 * left the APIC in x2APIC mode (then MMIO does not respond). Every CPU's APIC is at the
 * same address and in the same mode, so the mode and the mapping are global. */
#include "x86.h"

#define MSR_APIC_BASE 0x1B
#define APIC_BASE_ENABLE (1u << 11)
#define APIC_BASE_X2APIC (1u << 10)
#define MSR_X2APIC_FIRST 0x800
#define SVR_ENABLE 0x100u
#define SPURIOUS_VECTOR 0xFFu

static volatile uint32_t *mmio;
static int x2apic;

/* va: where the xAPIC page is mapped; 0 means identity-mapped at its physical address. */
int lapic_setup_at(uintptr_t va)
{
	uint64_t base = x86_rdmsr(MSR_APIC_BASE);

	x2apic = (base & APIC_BASE_X2APIC) != 0;
	mmio = (volatile uint32_t *)(va ? va : (uintptr_t)(base & 0xFFFFFFFFFF000ull));
	lapic_enable_local();
	return x2apic;
}

/* This CPU's APIC, in the mode the first CPU found (a CPU leaves INIT in xAPIC mode, and
 * x2APIC mode is entered from an enabled xAPIC). A kernel that already enabled its APIC
 * keeps its own spurious vector. */
void lapic_enable_local(void)
{
	uint64_t base = x86_rdmsr(MSR_APIC_BASE);

	if (!(base & APIC_BASE_ENABLE))
		x86_wrmsr(MSR_APIC_BASE, base |= APIC_BASE_ENABLE);
	if (x2apic && !(base & APIC_BASE_X2APIC))
		x86_wrmsr(MSR_APIC_BASE, base | APIC_BASE_X2APIC);
	if (!(lapic_read(LAPIC_SVR) & SVR_ENABLE))
		lapic_write(LAPIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
}

uint32_t lapic_read(uint32_t reg)
{
	if (x2apic)
		return (uint32_t)x86_rdmsr(MSR_X2APIC_FIRST + (reg >> 4));
	return mmio[reg / 4];
}

void lapic_write(uint32_t reg, uint32_t v)
{
	if (x2apic)
		x86_wrmsr(MSR_X2APIC_FIRST + (reg >> 4), v);
	else
		mmio[reg / 4] = v;
}

void lapic_eoi(void) { lapic_write(LAPIC_EOI, 0); }

/* xAPIC: the ID is bits 31:24 of the register; x2APIC: all 32 bits. */
uint32_t lapic_id(void)
{
	uint32_t v = lapic_read(LAPIC_ID);

	return x2apic ? v : v >> 24;
}
