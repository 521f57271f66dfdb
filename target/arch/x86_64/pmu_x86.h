/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86-64 PMU drivers (pmu_intel.c, pmu_amd.c): MSR numbers and the access layer.
 *
 * The drivers reach the hardware only through the functions below. In the image they are
 * the real instructions (pmu_access.c, msr_safe.S); the host unit tests link the same
 * driver code against a model of the MSRs instead. Private to target/arch/x86_64 and to
 * those tests.
 */
#ifndef BMPROF_PMU_X86_H
#define BMPROF_PMU_X86_H

#include <stdint.h>
#include "bmprof_pmu.h"
#include "bmprof_x86_64.h"
#include "wire.h"

/* MSRs that CPUID says exist. */
uint64_t pmu_rdmsr(uint32_t msr);
void pmu_wrmsr(uint32_t msr, uint64_t v);
/* Probing accesses, for MSRs a hypervisor may advertise but not emulate, or that CPUID
 * cannot vouch for (vouched = 0). With a #GP fixup in place (bmprof_x86_gp_fixup) the
 * access is made safely; without one, a vouched access is made plainly and an unvouched
 * one not at all. 0, or -1 if the access faulted or was not made. */
int pmu_rdmsr_try(uint32_t msr, uint64_t *v, int vouched);
int pmu_wrmsr_try(uint32_t msr, uint64_t v, int vouched);
void pmu_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]);
/* The running CPU's index, below BMPROF_X86_MAX_CPUS: the drivers keep their state per
 * CPU (sampler.c in the image). */
unsigned pmu_x86_cpu(void);
/* The image: whether the #GP handler calls bmprof_x86_gp_fixup (pmu_access.c). */
void pmu_access_init(int fixup);

extern const struct bmprof_pmu_ops bmprof_pmu_intel;
extern const struct bmprof_pmu_ops bmprof_pmu_amd;

/* Intel architectural performance monitoring (SDM vol. 3B, "Performance Monitoring") */
#define IA32_PMC0 0x0C1u                  /* writes sign-extend bit 31 */
#define IA32_PERFEVTSEL0 0x186u
#define IA32_FIXED_CTR0 0x309u
#define IA32_PERF_METRICS 0x329u          /* when IA32_PERF_CAPABILITIES[15] */
#define IA32_PERF_CAPABILITIES 0x345u     /* exists when CPUID.1:ECX[15] (PDCM) */
#define IA32_FIXED_CTR_CTRL 0x38Du
#define IA32_PERF_GLOBAL_STATUS 0x38Eu
#define IA32_PERF_GLOBAL_CTRL 0x38Fu
#define IA32_PERF_GLOBAL_OVF_CTRL 0x390u  /* version 4+: IA32_PERF_GLOBAL_STATUS_RESET */
#define IA32_PERF_GLOBAL_STATUS_SET 0x391u
#define IA32_A_PMC0 0x4C1u                /* full-width writes */
#define IA32_DEBUGCTL 0x1D9u

#define PERF_CAP_FW_WRITE (1ull << 13)
#define PERF_CAP_PERF_METRICS (1ull << 15)
#define GLOBAL_CTRL_METRICS_EN (1ull << 48)   /* IA32_PERF_GLOBAL_CTRL: PERF_METRICS on */
#define DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12)
#define GLOBAL_STATUS_CTR_FRZ (1ull << 59)

#define EVTSEL_USR (1ull << 16)
#define EVTSEL_OS (1ull << 17)
#define EVTSEL_EDGE (1ull << 18)
#define EVTSEL_PC (1ull << 19)
#define EVTSEL_INT (1ull << 20)
#define EVTSEL_ANY (1ull << 21)
#define EVTSEL_EN (1ull << 22)
#define EVTSEL_INV (1ull << 23)
/* The bits an event spec sets: event, umask, edge, any, inv, cmask; the driver sets USR,
 * OS, INT and EN itself (a spec may carry them, they are ignored). */
#define INTEL_ENC_MASK 0xFFA4FFFFull
#define INTEL_CTL_BITS (EVTSEL_USR | EVTSEL_OS | EVTSEL_PC | EVTSEL_INT | EVTSEL_EN)

/* IA32_FIXED_CTR_CTRL: a 4-bit field per fixed counter */
#define FIXED_OS 0x1u
#define FIXED_USR 0x2u
#define FIXED_ANY 0x4u
#define FIXED_PMI 0x8u

/* PEBS (pebs.c): SDM vol. 3B, "Processor Event Based Sampling" */
#define IA32_DS_AREA 0x600u
#define IA32_PEBS_ENABLE 0x3F1u
#define MSR_PEBS_DATA_CFG 0x3F2u          /* adaptive PEBS (format 4 up): the record's groups */
#define MSR_PEBS_LD_LAT_THRESHOLD 0x3F6u
#define PEBS_DATACFG_MEMINFO 0x1ull
#define PEBS_DATACFG_GPRS 0x2ull
#define GLOBAL_STATUS_OVF_BUF (1ull << 62)   /* the PEBS buffer reached its threshold */
#define PEBS_LOAD_LATENCY 0x01CDu          /* MEM_TRANS_RETIRED.LOAD_LATENCY */
#define PEBS_LD_LAT_DEFAULT 3u             /* cycles; the smallest threshold the SDM allows */
#define PEBS_MAX_GP 8u                     /* GP counters the DS area has reset values for */

/* This CPU's PEBS for an arch perfmon version: BMPROF_PRECISE_PEBS (usable) or the enum
 * bmprof_precise reason it is not; pebs_status() repeats it. */
uint8_t pebs_probe(uint8_t version);
uint8_t pebs_status(void);
/* Whether encoding (event | umask << 8, flags; LOAD_LATENCY's threshold in bits 47:32)
 * is a PEBS event with a data address. */
int pebs_event(uint64_t encoding);
/* GP counter ctr samples encoding by PEBS: the DS area set up (first counter), its
 * IA32_PEBS_ENABLE bit (and load latency's) set. pebs_disarm undoes it. */
void pebs_arm(unsigned ctr, uint64_t encoding);
void pebs_disarm(unsigned ctr);
void pebs_reload(unsigned ctr, uint64_t value);
/* IA32_PEBS_ENABLE as written. */
uint64_t pebs_enabled(void);
/* The records in the buffer, at most max, oldest first, as raw samples (event: the GP
 * counter each applies to); the rest stay for the next call. */
unsigned pebs_drain(struct bmprof_raw *out, unsigned max);

/* AMD (PPR / APM vol. 2, "Performance Monitoring Counters") */
#define AMD_PERF_CTL0 0xC0010000u         /* legacy: 4 counters, CTL n and CTR n = +4 + n */
#define AMD_PERF_CTR0 0xC0010004u
#define AMD_PERF_CTL_EXT0 0xC0010200u     /* PerfCtrExtCore: CTL n = +2n, CTR n = +2n + 1 */
#define AMD_GLOBAL_STATUS 0xC0000300u     /* PerfMonV2 */
#define AMD_GLOBAL_CTL 0xC0000301u
#define AMD_GLOBAL_STATUS_CLR 0xC0000302u
#define AMD_GLOBAL_STATUS_SET 0xC0000303u

#define AMD_CTL_USR (1ull << 16)
#define AMD_CTL_OS (1ull << 17)
#define AMD_CTL_INT (1ull << 20)
#define AMD_CTL_EN (1ull << 22)
/* event[7:0], umask, edge, inv, cmask, event[11:8]; the driver sets USR, OS, INT, EN */
#define AMD_ENC_MASK 0xFFF84FFFFull
#define AMD_CTL_BITS (AMD_CTL_USR | AMD_CTL_OS | (1ull << 19) | AMD_CTL_INT | AMD_CTL_EN)
#define AMD_WIDTH 48

static inline uint64_t x86_width_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* CPUID.0 vendor: BMPROF_VENDOR_INTEL, _AMD (Hygon counts as AMD) or _ANY (neither). */
static inline uint8_t pmu_x86_vendor(void)
{
	uint32_t r[4];

	pmu_cpuid(0, 0, r);
	/* "Genu" "ineI" "ntel" in EBX, EDX, ECX */
	if (r[1] == 0x756E6547u && r[3] == 0x49656E69u && r[2] == 0x6C65746Eu)
		return BMPROF_VENDOR_INTEL;
	/* "Auth" "enti" "cAMD", "Hygo" "nGen" "uine" */
	if ((r[1] == 0x68747541u && r[3] == 0x69746E65u && r[2] == 0x444D4163u) ||
	    (r[1] == 0x6F677948u && r[3] == 0x6E65476Eu && r[2] == 0x656E6975u))
		return BMPROF_VENDOR_AMD;
	return BMPROF_VENDOR_ANY;
}

#endif
