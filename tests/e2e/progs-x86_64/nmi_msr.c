/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86-64 runtime's NMI entry and #GP fixup, with sampling running: NMIs sent to this
 * CPU through the local APIC reach bmprof_x86_nmi (which counts them as not the PMU's)
 * and return with every register intact; a WRMSR that #GPs inside bmprof_x86_wrmsr_safe
 * returns -1 instead of ending the run. Returns 0 when all of that holds. The run-time
 * parameter wait_ms (default 1000) bounds the wait for each NMI. */
#include <bmrt.h>
#include "bmprof_x86_64.h"

#define NMIS 5
#define MSR_APIC_BASE 0x1B
#define MSR_PKRS 0x6E1          /* bits 63:32 are reserved on every CPU that has it */
#define ICR_NMI 0x4400u         /* delivery mode NMI, level assert */

static uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static void self_nmi(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	if (base & (1u << 10)) {        /* x2APIC: ICR is one MSR, destination in bits 63:32 */
		uint32_t id = (uint32_t)rdmsr(0x802);
		__asm__ volatile("wrmsr" : : "c"(0x830), "a"(ICR_NMI), "d"(id) : "memory");
		return;
	}
	volatile uint32_t *apic = (volatile uint32_t *)(uintptr_t)(base & 0xFFFFF000u);
	apic[0x310 / 4] = apic[0x20 / 4] & 0xFF000000u;   /* destination: this APIC's ID */
	apic[0x300 / 4] = ICR_NMI;
	while (apic[0x300 / 4] & (1u << 12))               /* delivery status: pending */
		;
}

/* Send one NMI and wait until the handler has counted it (delivery may lag the ICR write:
 * under KVM it does), at most wait_ms: an NMI sent while one is pending would merge. */
static int nmi_taken(uint64_t want, uint64_t wait_ms)
{
	uint64_t t = bm_cycles();

	self_nmi();
	while (bmprof_x86_info()->nmis_other < want)
		if (bm_cycles() - t > bm_cycles_hz() / 1000 * wait_ms)
			return 0;
	return 1;
}

/* Values the compiler cannot recompute (the empty asm hides where they came from), live
 * across the calls: they sit in the callee-saved registers, which the NMI and the #GP
 * round trips must restore. */
__attribute__((noinline)) static int survives(uint64_t seed)
{
	uint64_t a = seed * 3, b = seed ^ 0x5555, c = seed + 7, d = ~seed, e = seed << 5;
	uint64_t base = 0, wait_ms = bm_param("wait_ms", 1000);
	int bad = 0;

	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e));
	for (int i = 0; i < NMIS; i++) {
		if (!nmi_taken(i + 1, wait_ms)) {
			bm_printf("nmi_msr: NMI %d did not arrive within %llu ms\n", i + 1,
				  (unsigned long long)wait_ms);
			bad = 1;
			break;
		}
	}
	if (bmprof_x86_wrmsr_safe(MSR_PKRS, 1ull << 40) != -1) {
		bm_puts("nmi_msr: a reserved-bit WRMSR did not fault");
		bad = 1;
	}
	if (bmprof_x86_rdmsr_safe(MSR_APIC_BASE, &base) != 0 || base != rdmsr(MSR_APIC_BASE)) {
		bm_puts("nmi_msr: bmprof_x86_rdmsr_safe(IA32_APIC_BASE) failed");
		bad = 1;
	}
	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e));
	if (a != seed * 3 || b != (seed ^ 0x5555) || c != seed + 7 || d != ~seed ||
	    e != seed << 5) {
		bm_puts("nmi_msr: registers changed across the NMI or the #GP");
		bad = 1;
	}
	return bad;
}

int main(void)
{
	int bad = survives(bm_cycles());
	uint64_t n = bmprof_x86_info()->nmis_other;

	if (n != NMIS) {
		bm_printf("nmi_msr: %llu NMIs reached bmprof_x86_nmi, want %d\n",
			  (unsigned long long)n, NMIS);
		bad = 1;
	}
	bm_printf("nmi_msr: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
