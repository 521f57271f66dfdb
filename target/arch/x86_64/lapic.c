/* Local APIC register access: xAPIC through MMIO, or x2APIC through MSRs when the firmware
 * left the APIC in x2APIC mode (then MMIO does not respond). */
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

	if (!(base & APIC_BASE_ENABLE))
		x86_wrmsr(MSR_APIC_BASE, base |= APIC_BASE_ENABLE);
	x2apic = (base & APIC_BASE_X2APIC) != 0;
	mmio = (volatile uint32_t *)(va ? va : (uintptr_t)(base & 0xFFFFFFFFFF000ull));
	/* A kernel that already enabled its APIC keeps its own spurious vector. */
	if (!(lapic_read(LAPIC_SVR) & SVR_ENABLE))
		lapic_write(LAPIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
	return x2apic;
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
