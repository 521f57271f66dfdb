/* SPDX-License-Identifier: BSD-2-Clause */
/* AMD core performance counters (APM vol. 2, "Performance Monitoring Counters"; the PPRs)
 * as a struct bmprof_pmu_ops.
 *
 * Every AMD64 CPU has four legacy counters, PERF_CTL0-3 (0xC0010000..3) and PERF_CTR0-3
 * (0xC0010004..7). With CPUID 0x80000001 ECX[23] (PerfCtrExtCore) there are six, at
 * PERF_CTL n = 0xC0010200 + 2n and PERF_CTR n = 0xC0010201 + 2n (the first four alias the
 * legacy ones). With CPUID 0x80000022 EAX[0] (PerfMonV2) EBX[3:0] gives the number, and
 * PerfCntrGlobalCtl starts and stops them together (a counter counts when both its EN bit
 * and its global bit are set), PerfCntrGlobalStatus reports overflows and
 * PerfCntrGlobalStatusClr clears them. Counters are 48 bits wide; writes take the whole
 * width. Without PerfMonV2 there is no overflow status: a sampling counter (armed with
 * minus the period) overflowed when its top bit went clear.
 *
 * Emulators report an AMD CPU with no counters behind the MSRs (QEMU TCG reads them as 0
 * and drops writes); under a hypervisor with neither PerfCtrExtCore nor PerfMonV2 the
 * probe writes counter 0 with a #GP-safe access and reads it back.
 *
 * The driver state is per CPU (pmu_x86_cpu() picks the running CPU's); every operation
 * acts on the CPU it runs on. overflow() reports only counters programmed with the
 * interrupt.
 */
#include "pmu_x86.h"

#define AMD_MAX_GP 16

struct amd_pmu {
	uint8_t ngp, ext, v2;
	uint64_t ctl[AMD_MAX_GP];       /* PERF_CTL as programmed, without EN */
	uint64_t on;                    /* started counters */
	uint64_t irq;                   /* counters that interrupt on overflow */
};

static struct amd_pmu amd_cpu[BMPROF_X86_MAX_CPUS];

static struct amd_pmu *this_cpu(void) { return &amd_cpu[pmu_x86_cpu()]; }

static uint32_t ctl_msr(struct amd_pmu *amd, unsigned i)
{
	return amd->ext ? AMD_PERF_CTL_EXT0 + 2 * i : AMD_PERF_CTL0 + i;
}

static uint32_t ctr_msr(struct amd_pmu *amd, unsigned i)
{
	return amd->ext ? AMD_PERF_CTL_EXT0 + 2 * i + 1 : AMD_PERF_CTR0 + i;
}

static int exists(struct amd_pmu *amd, unsigned ctr) { return ctr < amd->ngp; }

/* Stop counter 0, write it, read it back. */
static int counter_works(struct amd_pmu *amd, int vouched)
{
	uint64_t v = 0x5A5A5A5A5A5ull, got;

	if (pmu_wrmsr_try(ctl_msr(amd, 0), 0, vouched) ||
	    pmu_wrmsr_try(ctr_msr(amd, 0), v, vouched) ||
	    pmu_rdmsr_try(ctr_msr(amd, 0), &got, vouched))
		return 0;
	pmu_wrmsr(ctr_msr(amd, 0), 0);
	return got == v;
}

static int amd_probe(struct bmprof_pmu_caps *caps)
{
	struct amd_pmu *amd = this_cpu();
	uint32_t r[4], ext_max;
	int hypervisor;

	*amd = (struct amd_pmu){ 0 };
	if (pmu_x86_vendor() != BMPROF_VENDOR_AMD)
		return -1;
	pmu_cpuid(1, 0, r);
	hypervisor = (int)(r[2] >> 31);
	/* AMD64 starts at family 0Fh; the display family is base + extended there */
	if ((r[0] >> 8 & 0xF) != 0xF)
		return -1;
	pmu_cpuid(0x80000000, 0, r);
	ext_max = r[0];
	if (ext_max >= 0x80000001) {
		pmu_cpuid(0x80000001, 0, r);
		amd->ext = r[2] >> 23 & 1;
	}
	amd->ngp = amd->ext ? 6 : 4;
	/* PerfMonV2 counters live at the PerfCtrExtCore addresses */
	if (ext_max >= 0x80000022 && amd->ext) {
		pmu_cpuid(0x80000022, 0, r);
		if (r[0] & 1) {
			amd->v2 = 1;
			amd->ngp = r[1] & 0xF;
		}
	}
	if (!amd->ngp)
		return -1;
	if (!counter_works(amd, !hypervisor || amd->ext || amd->v2))
		return -1;
	for (unsigned i = 0; i < amd->ngp; i++)
		pmu_wrmsr(ctl_msr(amd, i), 0);
	if (amd->v2) {
		pmu_wrmsr(AMD_GLOBAL_CTL, 0);
		pmu_wrmsr(AMD_GLOBAL_STATUS_CLR, x86_width_mask(amd->ngp));
	}
	*caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_AMD,
		.version = amd->v2 ? 2 : 1,
		.ngp = amd->ngp,
		.gp_width = AMD_WIDTH,
		.can_interrupt = 1,
		/* half the width: without PerfMonV2 an overflow is told by the top bit */
		.max_period = x86_width_mask(AMD_WIDTH - 1),
	};
	return 0;
}

static int amd_event_ok(uint64_t encoding)
{
	return !(encoding & ~(AMD_ENC_MASK | AMD_CTL_BITS));
}

static void write_global(struct amd_pmu *amd)
{
	if (amd->v2)
		pmu_wrmsr(AMD_GLOBAL_CTL, amd->on);
}

/* PerfMonV2: EN stays set and PerfCntrGlobalCtl starts and stops; else EN does. */
static void write_ctl(struct amd_pmu *amd, unsigned i)
{
	uint64_t en = amd->v2 || (amd->on >> i & 1) ? AMD_CTL_EN : 0;

	pmu_wrmsr(ctl_msr(amd, i), amd->ctl[i] | en);
}

static void amd_program(unsigned ctr, uint64_t encoding, int irq)
{
	struct amd_pmu *amd = this_cpu();
	uint64_t bit = 1ull << ctr;

	if (!exists(amd, ctr))
		return;
	if (amd->on & bit) {
		amd->on &= ~bit;
		write_global(amd);
	}
	amd->irq = irq ? amd->irq | bit : amd->irq & ~bit;
	amd->ctl[ctr] = (encoding & AMD_ENC_MASK) | AMD_CTL_USR | AMD_CTL_OS |
			(irq ? AMD_CTL_INT : 0);
	write_ctl(amd, ctr);
}

static void amd_clear(unsigned ctr)
{
	struct amd_pmu *amd = this_cpu();
	uint64_t bit = 1ull << ctr;

	if (!exists(amd, ctr))
		return;
	amd->on &= ~bit;
	amd->irq &= ~bit;
	write_global(amd);
	amd->ctl[ctr] = 0;
	pmu_wrmsr(ctl_msr(amd, ctr), 0);
}

static uint64_t amd_read(unsigned ctr)
{
	struct amd_pmu *amd = this_cpu();

	if (!exists(amd, ctr))
		return 0;
	return pmu_rdmsr(ctr_msr(amd, ctr)) & x86_width_mask(AMD_WIDTH);
}

static void amd_write(unsigned ctr, uint64_t v)
{
	struct amd_pmu *amd = this_cpu();

	if (exists(amd, ctr))
		pmu_wrmsr(ctr_msr(amd, ctr), v & x86_width_mask(AMD_WIDTH));
}

static void amd_enable(uint64_t mask)
{
	struct amd_pmu *amd = this_cpu();

	mask &= x86_width_mask(amd->ngp);
	amd->on |= mask;
	if (amd->v2) {
		write_global(amd);
		return;
	}
	for (unsigned i = 0; i < amd->ngp; i++)
		if (mask >> i & 1)
			write_ctl(amd, i);
}

static void amd_disable(uint64_t mask)
{
	struct amd_pmu *amd = this_cpu();

	mask &= x86_width_mask(amd->ngp);
	amd->on &= ~mask;
	if (amd->v2) {
		write_global(amd);
		return;
	}
	for (unsigned i = 0; i < amd->ngp; i++)
		if (mask >> i & 1)
			write_ctl(amd, i);
}

static uint64_t amd_overflow(void)
{
	struct amd_pmu *amd = this_cpu();
	uint64_t m = 0;

	if (amd->v2)
		return pmu_rdmsr(AMD_GLOBAL_STATUS) & amd->irq;
	for (unsigned i = 0; i < amd->ngp; i++)
		if ((amd->irq & amd->on) >> i & 1 &&
		    !(pmu_rdmsr(ctr_msr(amd, i)) >> (AMD_WIDTH - 1) & 1))
			m |= 1ull << i;
	return m;
}

/* PerfMonV2: clears the overflow bits in mask and those of counters that do not
 * interrupt. Without it the re-arm (top bit set again) is the acknowledgement. */
static void amd_ack(uint64_t mask)
{
	struct amd_pmu *amd = this_cpu();

	if (amd->v2)
		pmu_wrmsr(AMD_GLOBAL_STATUS_CLR, (mask | ~amd->irq) & x86_width_mask(amd->ngp));
}

const struct bmprof_pmu_ops bmprof_pmu_amd = {
	.name = "amd",
	.probe = amd_probe,
	.program = amd_program,
	.clear = amd_clear,
	.read = amd_read,
	.write = amd_write,
	.enable = amd_enable,
	.disable = amd_disable,
	.overflow = amd_overflow,
	.ack = amd_ack,
	.event_ok = amd_event_ok,
};
