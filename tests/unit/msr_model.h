/* SPDX-License-Identifier: BSD-2-Clause */
/* A model of the x86 PMU's CPUID leaves and MSRs, with the semantics the Intel SDM (vol. 3B,
 * "Performance Monitoring") and AMD's APM/PPRs give them, for running the real drivers
 * (target/arch/x86_64/pmu_intel.c, pmu_amd.c) on the host. It supplies the access layer
 * the drivers call (pmu_rdmsr, pmu_wrmsr, pmu_rdmsr_try, pmu_wrmsr_try, pmu_cpuid).
 *
 * A plain access that would #GP on the CPU (an MSR the CPU does not have, a reserved bit
 * set, a write to a read-only register) fails the running test. A "try" access that would
 * #GP returns -1 and is counted, as the image's #GP fixup does; with mm.fixup clear, a try
 * access of an MSR CPUID does not vouch for is refused without touching it.
 *
 * Events are injected with mm_advance(counter, n): the counter counts them if it is
 * enabled (EN/enable field, the OS bit for ring 0, IA32_PERF_GLOBAL_CTRL or
 * PerfCntrGlobalCtl, not frozen); a wrap past its width sets its overflow status bit and,
 * if it interrupts, mm.pmi, and applies freeze-on-PMI (up to version 3: clears
 * IA32_PERF_GLOBAL_CTRL; version 4 up: sets CTR_Frz, which stops every counter until it is
 * cleared). Counting stops at the overflow when a freeze happens.
 *
 * Included (#include "msr_model.c") by the tests that use it, so it needs no build rule.
 */
#ifndef MSR_MODEL_H
#define MSR_MODEL_H

#include <stdint.h>

enum mm_msrs {
	MM_REAL = 0,     /* the PMU CPUID describes */
	MM_IGNORE = 1,   /* no PMU behind the MSRs: reads give 0, writes are dropped (QEMU TCG) */
	MM_FAULT = 2,    /* no PMU: every PMU MSR #GPs (a strict hypervisor) */
};

struct mm_cpu {
	const char *name;
	const char *vendor;        /* the 12-character CPUID.0 string */
	uint32_t max_leaf, ext_max;
	uint32_t sig;              /* CPUID.1:EAX */
	uint32_t leaf1_ecx;        /* bit 15 PDCM, bit 31 hypervisor */
	uint32_t leafa[4];         /* CPUID.0AH: EAX EBX ECX EDX */
	uint64_t perf_caps;        /* IA32_PERF_CAPABILITIES (13: full-width writes, 15: PERF_METRICS) */
	uint32_t ext1_ecx;         /* CPUID 0x80000001 ECX (bit 23 PerfCtrExtCore) */
	uint32_t ext22[4];         /* CPUID 0x80000022 (EAX[0] PerfMonV2, EBX[3:0] counters) */
	uint8_t msrs;              /* enum mm_msrs */
	uint64_t debugctl_gp;      /* IA32_DEBUGCTL bits whose setting #GPs (a hypervisor's) */
	uint32_t leaf1_edx;        /* bit 21 DS (the debug store: PEBS) */
	uint64_t misc_enable;      /* IA32_MISC_ENABLE (bit 12: PEBS unavailable) */
};

/* Intel */
extern const struct mm_cpu mm_core_duo;     /* version 1: 2 GP 40-bit, no fixed */
extern const struct mm_cpu mm_core2;        /* version 2: 2 GP 40-bit, 3 fixed 40-bit */
extern const struct mm_cpu mm_core2_quirk;  /* version 2 reporting no fixed counters */
extern const struct mm_cpu mm_skylake;      /* version 4: 4 GP 48-bit, 3 fixed, full-width */
extern const struct mm_cpu mm_sapphire;     /* version 5: 8 GP, fixed bitmap 0..3 (slots) */
extern const struct mm_cpu mm_v5_gap;       /* version 5: fixed counters 0 and 3 only */
extern const struct mm_cpu mm_icelake;      /* version 5: 4 fixed, PERF_METRICS (4 fields) */
extern const struct mm_cpu mm_sapphire_pm;  /* Sapphire Rapids with PERF_METRICS (8 fields) */
extern const struct mm_cpu mm_intel_hv_fake; /* a hypervisor advertising version 2, no PMU */
extern const struct mm_cpu mm_kvm_nopmu;    /* KVM here: GenuineIntel, CPUID.0AH = 0 */
extern const struct mm_cpu mm_kvm_vpmu;     /* KVM with a v2 vPMU that refuses the freeze bit */
extern const struct mm_cpu mm_skylake_pebs; /* Skylake with DS: PEBS record format 3 */
extern const struct mm_cpu mm_icelake_pebs; /* Ice Lake with DS: adaptive PEBS, format 4 */
extern const struct mm_cpu mm_skylake_pebs_off; /* DS, but IA32_MISC_ENABLE[12] set */
/* AMD */
extern const struct mm_cpu mm_amd_k10;      /* legacy: 4 counters */
extern const struct mm_cpu mm_amd_zen2;     /* PerfCtrExtCore: 6 counters */
extern const struct mm_cpu mm_amd_zen4;     /* PerfMonV2: 6 counters, global control */
extern const struct mm_cpu mm_tcg_qemu64;   /* QEMU 7.2 TCG -cpu qemu64: AMD, no PMU */
extern const struct mm_cpu mm_tcg_max;      /* QEMU 7.2 TCG -cpu max */
extern const struct mm_cpu mm_amd_hv_strict; /* AMD under a hypervisor that #GPs */

#define MM_MAX_GP 16
#define MM_MAX_FIXED 8
#define MM_FIXED_BASE 32      /* counter numbering as bmprof_pmu.h */

struct mm_state {
	const struct mm_cpu *cpu;
	int intel, amd;
	/* what CPUID describes */
	unsigned version, ngp, gp_width, fixed_width, full_width, any_ok;
	uint32_t fixed_exists;    /* bit i: fixed counter i */
	unsigned amd_ext, amd_v2;
	/* registers */
	uint64_t pmc[MM_MAX_GP], evtsel[MM_MAX_GP], fixed[MM_MAX_FIXED];
	uint64_t fixed_ctrl, global_ctrl, global_status, debugctl;
	uint64_t perf_metrics;    /* IA32_PERF_METRICS (the test sets the fractions) */
	unsigned perf_metrics_writes;
	/* the CPU */
	int cpl;                  /* privilege level events happen at (0: OS bit counts) */
	int fixup;                /* try accesses are #GP-safe (default 1) */
	int pmi;                  /* a PMI was raised (the test clears it) */
	unsigned pmis;            /* PMIs raised since reset */
	unsigned faults;          /* try accesses that #GPed */
	unsigned accesses;        /* MSR accesses of any kind */
	unsigned writes;          /* MSR writes of any kind */
	/* PEBS (with CPUID.1:EDX[21]): IA32_DS_AREA, IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG,
	 * MSR_PEBS_LD_LAT_THRESHOLD. Records are written by the test (mm_pebs_record). */
	uint64_t ds_area, pebs_enable, pebs_data_cfg, ld_lat;
	/* the last MM_LOG MSR writes that succeeded, oldest first (mm_log_find) */
	struct { uint32_t msr; uint64_t v; } log[64];
	unsigned nlog;
};
extern struct mm_state mm;

void mm_reset(const struct mm_cpu *cpu);
/* n events for counter ctr (GP index, or MM_FIXED_BASE + i). */
void mm_advance(unsigned ctr, uint64_t n);
/* Whether counter ctr counts now. */
int mm_counting(unsigned ctr);
/* Read / write an MSR as the CPU would; 0, or -1 for #GP. No test failure. */
int mm_rdmsr(uint32_t msr, uint64_t *v);
int mm_wrmsr(uint32_t msr, uint64_t v);
/* PEBS: the record (size bytes) the CPU writes when a PEBS counter overflows: at the DS
 * area's PEBS index unless that passes the absolute maximum (then dropped: returns -1),
 * the index moved on, OvfBuffer and a PMI once the index reaches the threshold. */
int mm_pebs_record(const void *rec, unsigned size);
/* Writes logged since the last mm_log_clear, to msr: how many; *last their last value. */
unsigned mm_log_count(uint32_t msr, uint64_t *last);
void mm_log_clear(void);
/* A register's value with no side effect (fails the test if the CPU has no such MSR). */
uint64_t mm_peek(uint32_t msr);

#endif
