/* SPDX-License-Identifier: BSD-2-Clause */
/* KVM's paravirtual steal time, on CPU 0: the time the hypervisor ran something else while
 * this vCPU was runnable (ns), kept by the hypervisor in a 64-byte area of guest memory
 * that MSR_KVM_STEAL_TIME points to (present when CPUID 0x40000000 says "KVMKVMKVM" and
 * 0x40000001 EAX bit 5 is set; this machine's kvm_pvm has it). On a loaded host it is a
 * large part of the time: the sampler takes it off the time the workload ran, and the
 * core-clock measurement drops runs it hit. */
#include "bmprof_x86_64.h"
#include "rt.h"

#define MSR_KVM_STEAL_TIME 0x4b564d03u
#define KVM_FEATURE_STEAL_TIME 5

static struct {
	volatile uint64_t steal;
	volatile uint32_t version;
	uint8_t rest[52];
} area __attribute__((aligned(64)));
static int on;

static void cpuid(uint32_t leaf, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(0));
}

/* In ring 0 on CPU 0, after bmprof_x86_init; the identity map makes &area physical. */
void bmrt_steal_init(void)
{
	uint32_t r[4];
	uint64_t v = (uintptr_t)&area | 1;   /* bit 0: enable */

	cpuid(0x40000000, r);
	if (r[0] < 0x40000001 || r[1] != 0x4b4d564b || r[2] != 0x564b4d56 || r[3] != 0x4d)
		return;
	cpuid(0x40000001, r);
	if (!(r[0] >> KVM_FEATURE_STEAL_TIME & 1))
		return;
	__asm__ volatile("wrmsr" : : "c"(MSR_KVM_STEAL_TIME), "a"((uint32_t)v),
			 "d"((uint32_t)(v >> 32)));
	on = 1;
	bmprof_x86_set_steal(&area);
}

/* The steal counter itself (NULL without it), for code that reads it around a window of
 * its own (bmprof bhive's harness maps its page for ring 3) */
const volatile uint64_t *bmrt_steal_word(void)
{
	return on ? &area.steal : 0;
}

/* CPU 0's steal so far, ns (0 without it); memory reads, so ring 3 may call it too */
uint64_t bmrt_steal_ns(void)
{
	uint64_t ns = 0;

	for (int i = 0; on && i < 100; i++) {
		uint32_t v = area.version;
		__asm__ volatile("" : : : "memory");
		ns = area.steal;
		__asm__ volatile("" : : : "memory");
		if (!(v & 1) && v == area.version)
			break;
	}
	return ns;
}
