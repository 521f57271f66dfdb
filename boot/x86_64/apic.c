/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's own use of the local APIC: this CPU's ID, the EOI of its IPI vector, and
 * sending inter-processor interrupts. The sampler (target/arch/x86_64) owns the timer and
 * the LVT entries. Both find the APIC the same way: xAPIC at the identity-mapped address
 * IA32_APIC_BASE gives, or the x2APIC MSRs when the APIC is in x2APIC mode. */
#include "rt.h"

#define MSR_APIC_BASE 0x1B
#define APIC_BASE_X2APIC (1u << 10)
#define MSR_X2APIC_ID 0x802
#define MSR_X2APIC_EOI 0x80B
#define MSR_X2APIC_ICR 0x830
#define REG_ID 0x020
#define REG_EOI 0x0B0
#define REG_ICR_LO 0x300
#define REG_ICR_HI 0x310
#define ICR_PENDING (1u << 12)

static volatile uint32_t *mmio;
static int x2apic;

/* On the first CPU; every CPU's APIC is at the same address, in the same mode. */
void bmrt_apic_init(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	x2apic = (base & APIC_BASE_X2APIC) != 0;
	mmio = (volatile uint32_t *)(uintptr_t)(base & 0xFFFFFF000ull);
}

uint32_t bmrt_apic_id(void)
{
	return x2apic ? (uint32_t)rdmsr(MSR_X2APIC_ID) : mmio[REG_ID / 4] >> 24;
}

void bmrt_apic_eoi(void)
{
	if (x2apic)
		wrmsr(MSR_X2APIC_EOI, 0);
	else
		mmio[REG_EOI / 4] = 0;
}

/* The xAPIC sends when the low half of the ICR is written, and shows the delivery as
 * pending until it has; a second IPI written meanwhile could be lost. Interrupts are off
 * from the destination's write to the send. */
void bmrt_apic_send(uint32_t apic_id, uint32_t icr)
{
	uint64_t flags;

	if (bmrt_in_user()) {   /* the APIC is ring 0's */
		bmrt_user_call(BMRT_UCALL_IPI, apic_id, icr);
		return;
	}
	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	if (x2apic) {
		wrmsr(MSR_X2APIC_ICR, (uint64_t)apic_id << 32 | icr);
	} else {
		mmio[REG_ICR_HI / 4] = apic_id << 24;
		mmio[REG_ICR_LO / 4] = icr;
		while (mmio[REG_ICR_LO / 4] & ICR_PENDING)
			cpu_relax();
	}
	__asm__ volatile("pushq %0; popfq" : : "r"(flags) : "memory", "cc");
}
