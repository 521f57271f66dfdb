/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86 PMU model (msr_model.h). Included by the tests after <cmocka.h>. For AMD the
 * same arrays hold PERF_CTR (pmc), PERF_CTL (evtsel), PerfCntrGlobalCtl (global_ctrl) and
 * PerfCntrGlobalStatus (global_status). */
#include <string.h>
#include "msr_model.h"

struct mm_state mm;

#define HV (1u << 31)
#define PDCM (1u << 15)

const struct mm_cpu mm_core_duo = {
	.name = "Core Duo (arch perfmon v1)", .vendor = "GenuineIntel", .max_leaf = 0xA,
	.ext_max = 0x80000008, .sig = 0x6E8, .leafa = { 0x07280201, 0, 0, 0 },
};
const struct mm_cpu mm_core2 = {
	.name = "Core 2 (v2)", .vendor = "GenuineIntel", .max_leaf = 0xA, .ext_max = 0x80000008,
	.sig = 0x6FB, .leaf1_ecx = PDCM, .perf_caps = 0x1,
	.leafa = { 0x07280202, 0, 0, 3 | 40 << 5 },
};
const struct mm_cpu mm_core2_quirk = {
	.name = "early v2 (no fixed counters reported)", .vendor = "GenuineIntel", .max_leaf = 0xA,
	.ext_max = 0x80000008, .sig = 0x6F6, .leafa = { 0x07280202, 0, 0, 0 },
};
const struct mm_cpu mm_skylake = {
	.name = "Skylake (v4)", .vendor = "GenuineIntel", .max_leaf = 0x16, .ext_max = 0x80000008,
	.sig = 0x506E3, .leaf1_ecx = PDCM, .perf_caps = 0x33C5 | 1 << 13,
	.leafa = { 0x07300404, 0, 0, 3 | 48 << 5 },
};
const struct mm_cpu mm_sapphire = {
	.name = "Sapphire Rapids (v5)", .vendor = "GenuineIntel", .max_leaf = 0x20,
	.ext_max = 0x80000008, .sig = 0x806F8, .leaf1_ecx = PDCM, .perf_caps = 0x4F33C5 | 1 << 13,
	.leafa = { 0x08300805, 0, 0xF, 4 | 48 << 5 | 1 << 15 },
};
const struct mm_cpu mm_v5_gap = {
	.name = "v5 with fixed counters 0 and 3", .vendor = "GenuineIntel", .max_leaf = 0x20,
	.ext_max = 0x80000008, .sig = 0x906A3, .leaf1_ecx = PDCM, .perf_caps = 1 << 13,
	.leafa = { 0x08300605, 0x4, 0x9, 0 | 48 << 5 },
};
/* PERF_CAPABILITIES bit 15: IA32_PERF_METRICS (MSR 329H) and IA32_PERF_GLOBAL_CTRL[48] */
const struct mm_cpu mm_icelake = {
	.name = "Ice Lake (v5, PERF_METRICS)", .vendor = "GenuineIntel", .max_leaf = 0x1B,
	.ext_max = 0x80000008, .sig = 0x706E5, .leaf1_ecx = PDCM,
	.perf_caps = 0x33C5 | 1 << 13 | 1 << 15,
	.leafa = { 0x08300805, 0, 0xF, 4 | 48 << 5 | 1 << 15 },
};
const struct mm_cpu mm_sapphire_pm = {
	.name = "Sapphire Rapids (v5, PERF_METRICS)", .vendor = "GenuineIntel", .max_leaf = 0x20,
	.ext_max = 0x80000008, .sig = 0x806F8, .leaf1_ecx = PDCM,
	.perf_caps = 0x4F33C5 | 1 << 13 | 1 << 15,
	.leafa = { 0x08300805, 0, 0xF, 4 | 48 << 5 | 1 << 15 },
};
const struct mm_cpu mm_intel_hv_fake = {
	.name = "hypervisor advertising v2 with no PMU", .vendor = "GenuineIntel",
	.max_leaf = 0xD, .ext_max = 0x80000008, .sig = 0x806F8, .leaf1_ecx = HV,
	.leafa = { 0x07300402, 0, 0, 3 | 48 << 5 }, .msrs = MM_IGNORE,
};
const struct mm_cpu mm_kvm_nopmu = {
	.name = "KVM -cpu host here (no vPMU)", .vendor = "GenuineIntel", .max_leaf = 0x20,
	.ext_max = 0x80000008, .sig = 0x806F8, .leaf1_ecx = 0xF7F83203, .msrs = MM_FAULT,
};
const struct mm_cpu mm_kvm_vpmu = {
	.name = "KVM with a version 2 vPMU", .vendor = "GenuineIntel", .max_leaf = 0x1F,
	.ext_max = 0x80000008, .sig = 0x806F8, .leaf1_ecx = HV | PDCM, .perf_caps = 1 << 13,
	.leafa = { 0x07300802, 0, 0, 3 | 48 << 5 }, .debugctl_gp = 1 << 12,
};
/* PERF_CAPABILITIES [11:8] the PEBS record format, [14] PEBS baseline (adaptive) */
const struct mm_cpu mm_skylake_pebs = {
	.name = "Skylake with PEBS (format 3)", .vendor = "GenuineIntel", .max_leaf = 0x16,
	.ext_max = 0x80000008, .sig = 0x506E3, .leaf1_ecx = PDCM, .leaf1_edx = 1u << 21,
	.perf_caps = 0x33C5 | 1 << 13, .leafa = { 0x07300404, 0, 0, 3 | 48 << 5 },
};
const struct mm_cpu mm_icelake_pebs = {
	.name = "Ice Lake with PEBS (format 4, adaptive)", .vendor = "GenuineIntel",
	.max_leaf = 0x1B, .ext_max = 0x80000008, .sig = 0x706E5, .leaf1_ecx = PDCM,
	.leaf1_edx = 1u << 21, .perf_caps = 0x04C5 | 1 << 13 | 1 << 14,
	.leafa = { 0x08300805, 0, 0xF, 4 | 48 << 5 | 1 << 15 },
};
const struct mm_cpu mm_skylake_pebs_off = {
	.name = "Skylake with PEBS unavailable", .vendor = "GenuineIntel", .max_leaf = 0x16,
	.ext_max = 0x80000008, .sig = 0x506E3, .leaf1_ecx = PDCM, .leaf1_edx = 1u << 21,
	.perf_caps = 0x33C5 | 1 << 13, .misc_enable = 1ull << 12,
	.leafa = { 0x07300404, 0, 0, 3 | 48 << 5 },
};
const struct mm_cpu mm_amd_k10 = {
	.name = "AMD family 10h (legacy counters)", .vendor = "AuthenticAMD", .max_leaf = 5,
	.ext_max = 0x8000001B, .sig = 0x100F42, .ext1_ecx = 0x37FF,
};
const struct mm_cpu mm_amd_zen2 = {
	.name = "Zen 2 (PerfCtrExtCore)", .vendor = "AuthenticAMD", .max_leaf = 0x10,
	.ext_max = 0x8000001F, .sig = 0x830F10, .ext1_ecx = 0x75C237FF,
};
const struct mm_cpu mm_amd_zen4 = {
	.name = "Zen 4 (PerfMonV2)", .vendor = "AuthenticAMD", .max_leaf = 0x10,
	.ext_max = 0x80000028, .sig = 0xA10F11, .ext1_ecx = 0x75C237FF,
	.ext22 = { 0x7, 0x10036, 0, 0 },
};
/* measured on QEMU 7.2: family 15 model 107, hypervisor bit, CPUID.0AH all zero, PMU MSRs
 * read 0 and drop writes, leaves past the maximum return the highest basic leaf's data */
const struct mm_cpu mm_tcg_qemu64 = {
	.name = "QEMU TCG qemu64", .vendor = "AuthenticAMD", .max_leaf = 0xD, .ext_max = 0x8000000A,
	.sig = 0x60FB1, .leaf1_ecx = 0x80002001, .ext1_ecx = 0x5, .msrs = MM_IGNORE,
};
const struct mm_cpu mm_tcg_max = {
	.name = "QEMU TCG max", .vendor = "AuthenticAMD", .max_leaf = 0xD, .ext_max = 0x8000000A,
	.sig = 0x60FB1, .leaf1_ecx = 0xF6D8320B, .ext1_ecx = 0x75, .msrs = MM_IGNORE,
};
const struct mm_cpu mm_amd_hv_strict = {
	.name = "AMD under a hypervisor that #GPs", .vendor = "AuthenticAMD", .max_leaf = 0xD,
	.ext_max = 0x8000001F, .sig = 0x800F12, .leaf1_ecx = HV, .ext1_ecx = 0x354233FF,
	.msrs = MM_FAULT,
};

static uint64_t mm_wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

void mm_reset(const struct mm_cpu *cpu)
{
	uint32_t a = cpu->leafa[0], d = cpu->leafa[3];

	memset(&mm, 0, sizeof mm);
	mm.cpu = cpu;
	mm.fixup = 1;
	mm.intel = !strcmp(cpu->vendor, "GenuineIntel");
	mm.amd = !strcmp(cpu->vendor, "AuthenticAMD");
	if (cpu->msrs != MM_REAL)
		return;
	if (mm.intel && cpu->max_leaf >= 0xA) {
		mm.version = a & 0xFF;
		mm.ngp = a >> 8 & 0xFF;
		mm.gp_width = a >> 16 & 0xFF;
		mm.full_width = (cpu->leaf1_ecx & PDCM) && (cpu->perf_caps >> 13 & 1);
		mm.any_ok = mm.version >= 3 && !(d >> 15 & 1);
		if (mm.version >= 2) {
			mm.fixed_width = d >> 5 & 0xFF;
			mm.fixed_exists = (uint32_t)mm_wmask(d & 0x1F);
			if (mm.version >= 5)
				mm.fixed_exists |= cpu->leafa[2];
			/* early v2 parts: three fixed counters whatever EDX says */
			if (cpu == &mm_core2_quirk) {
				mm.fixed_exists = 7;
				mm.fixed_width = 40;
			}
		}
	}
	if (mm.amd) {
		mm.amd_ext = cpu->ext1_ecx >> 23 & 1;
		mm.amd_v2 = cpu->ext22[0] & 1;
		mm.ngp = mm.amd_v2 ? cpu->ext22[1] & 0xF : mm.amd_ext ? 6 : 4;
		mm.gp_width = 48;
	}
}

/* The model is one CPU: the drivers' per-CPU state is CPU 0's. */
unsigned pmu_x86_cpu(void) { return 0; }

/* ---- CPUID ---- */

void pmu_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	const struct mm_cpu *c = mm.cpu;
	(void)sub;
	memset(r, 0, 4 * sizeof r[0]);
	/* past the maximum: what a CPU (and QEMU) returns, the highest basic leaf's data */
	if ((leaf < 0x80000000 && leaf > c->max_leaf) ||
	    (leaf >= 0x80000000 && leaf > c->ext_max)) {
		r[0] = 0x21F;
		r[1] = r[2] = 0x240;
		return;
	}
	switch (leaf) {
	case 0:
		r[0] = c->max_leaf;
		memcpy(&r[1], c->vendor, 4);
		memcpy(&r[3], c->vendor + 4, 4);
		memcpy(&r[2], c->vendor + 8, 4);
		break;
	case 1:
		r[0] = c->sig;
		r[2] = c->leaf1_ecx;
		r[3] = c->leaf1_edx;
		break;
	case 0xA:
		memcpy(r, c->leafa, sizeof c->leafa);
		break;
	case 0x80000000:
		r[0] = c->ext_max;
		break;
	case 0x80000001:
		r[2] = c->ext1_ecx;
		break;
	case 0x80000022:
		memcpy(r, c->ext22, sizeof c->ext22);
		break;
	}
}

/* ---- counting ---- */

static int mm_is_fixed(unsigned ctr) { return ctr >= MM_FIXED_BASE; }

static int mm_frozen(void) { return mm.version >= 4 && (mm.global_status >> 59 & 1); }

int mm_counting(unsigned ctr)
{
	uint64_t ring;

	ring = mm.cpl == 0 ? 1ull << 17 : 1ull << 16;
	if (mm.amd)
		return ctr < mm.ngp && (mm.evtsel[ctr] >> 22 & 1) && (mm.evtsel[ctr] & ring) &&
		       (!mm.amd_v2 || (mm.global_ctrl >> ctr & 1));
	if (mm_frozen())
		return 0;
	if (mm_is_fixed(ctr)) {
		unsigned i = ctr - MM_FIXED_BASE;
		uint64_t f = mm.fixed_ctrl >> 4 * i & 0xF;
		return (mm.fixed_exists >> i & 1) && (f & (mm.cpl == 0 ? 1 : 2)) &&
		       (mm.global_ctrl >> ctr & 1);
	}
	return ctr < mm.ngp && (mm.evtsel[ctr] >> 22 & 1) && (mm.evtsel[ctr] & ring) &&
	       (mm.version < 2 || (mm.global_ctrl >> ctr & 1));
}

static int mm_interrupts(unsigned ctr)
{
	if (mm_is_fixed(ctr))
		return mm.fixed_ctrl >> (4 * (ctr - MM_FIXED_BASE) + 3) & 1;
	return mm.evtsel[ctr] >> 20 & 1;
}

static void mm_raise_pmi(void)
{
	mm.pmi = 1;
	mm.pmis++;
	if (mm.intel && mm.version >= 2 && (mm.debugctl >> 12 & 1)) {
		if (mm.version >= 4)
			mm.global_status |= 1ull << 59;
		else
			mm.global_ctrl = 0;
	}
}

void mm_advance(unsigned ctr, uint64_t n)
{
	int fixed = mm_is_fixed(ctr);
	uint64_t *v = fixed ? &mm.fixed[ctr - MM_FIXED_BASE] : &mm.pmc[ctr];
	uint64_t mask = mm_wmask(fixed ? mm.fixed_width : mm.gp_width);

	if (!mm_counting(ctr))
		return;
	if (n <= mask - *v) {
		*v += n;
		return;
	}
	/* wraps: overflow status, the PMI, and the freeze stops counting at the wrap */
	if ((mm.intel && mm.version >= 2) || mm.amd_v2)
		mm.global_status |= 1ull << ctr;
	*v = (*v + n) & mask;
	/* a PEBS counter is reloaded from the DS area's reset value for it (the test writes
	 * the record with mm_pebs_record) */
	if (mm.intel && !fixed && ctr < 8 && (mm.pebs_enable >> ctr & 1) && mm.ds_area)
		*v = ((const uint64_t *)(uintptr_t)mm.ds_area)[8 + ctr] & mask;
	if (mm_interrupts(ctr)) {
		mm_raise_pmi();
		if (!mm_counting(ctr))
			*v = 0;
	}
}

/* ---- Intel MSRs ---- */

static int mm_intel_fixed_idx(uint32_t msr, uint32_t base)
{
	return msr >= base && msr < base + MM_MAX_FIXED && (mm.fixed_exists >> (msr - base) & 1) ?
	       (int)(msr - base) : -1;
}

static int mm_has_metrics(void)
{
	return (mm.cpu->leaf1_ecx & PDCM) && (mm.cpu->perf_caps >> 15 & 1);
}

static uint64_t mm_global_bits(void)
{
	return mm_wmask(mm.ngp) | (uint64_t)mm.fixed_exists << 32 |
	       (uint64_t)mm_has_metrics() << 48;
}

static uint64_t mm_fixed_ctrl_bits(void)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < MM_MAX_FIXED; i++)
		if (mm.fixed_exists >> i & 1)
			m |= (uint64_t)(mm.any_ok ? 0xF : 0xB) << 4 * i;
	return m;
}

static uint64_t mm_evtsel_bits(void)
{
	return 0xFFFFFFFFull & ~(mm.any_ok ? 0 : 1ull << 21);
}

static uint64_t mm_status_clear_bits(void)
{
	uint64_t m = mm_global_bits() | 3ull << 62;
	if (mm.version >= 4)
		m |= 1ull << 55 | 1ull << 58 | 1ull << 59 | 1ull << 61;
	return m;
}

static int mm_has_ds(void) { return mm.cpu->leaf1_edx >> 21 & 1; }

static unsigned mm_pebs_format(void)
{
	return (mm.cpu->leaf1_ecx & PDCM) ? (unsigned)(mm.cpu->perf_caps >> 8 & 0xF) : 0;
}

static int mm_pebs_adaptive(void)
{
	return mm_pebs_format() >= 4 && (mm.cpu->perf_caps >> 14 & 1);
}

/* IA32_PEBS_ENABLE: a bit per GP counter; before version 5 load latency per counter in
 * 35:32, from it the fixed counters there (adaptive PEBS). */
static uint64_t mm_pebs_enable_bits(void)
{
	uint64_t gp = mm_wmask(mm.ngp < 8 ? mm.ngp : 8);
	return gp | (mm.version < 5 ? (gp & 0xF) << 32 : (uint64_t)mm.fixed_exists << 32);
}

static int mm_pebs_rd(uint32_t msr, uint64_t *v)
{
	if (msr == 0x1A0)
		*v = mm.cpu->misc_enable;
	else if (msr == 0x600 && mm_has_ds())
		*v = mm.ds_area;
	else if (msr == 0x3F1 && mm_has_ds())
		*v = mm.pebs_enable;
	else if (msr == 0x3F2 && mm_pebs_adaptive())
		*v = mm.pebs_data_cfg;
	else if (msr == 0x3F6 && mm_has_ds())
		*v = mm.ld_lat;
	else
		return -1;
	return 0;
}

static int mm_pebs_wr(uint32_t msr, uint64_t v)
{
	if (msr == 0x600 && mm_has_ds()) {
		mm.ds_area = v;
	} else if (msr == 0x3F1 && mm_has_ds()) {
		if (v & ~mm_pebs_enable_bits())
			return -1;
		mm.pebs_enable = v;
	} else if (msr == 0x3F2 && mm_pebs_adaptive()) {
		if (v & ~0xFF00000Full)   /* groups 3:0, LBR entries 31:24 */
			return -1;
		mm.pebs_data_cfg = v;
	} else if (msr == 0x3F6 && mm_has_ds()) {
		if (v & ~0xFFFFull)
			return -1;
		mm.ld_lat = v;
	} else {
		return -1;
	}
	return 0;
}

int mm_pebs_record(const void *rec, unsigned size)
{
	uint64_t *ds = (uint64_t *)(uintptr_t)mm.ds_area;

	assert_true(mm.ds_area != 0);
	/* pebs_base 4, pebs_index 5, pebs_absolute_maximum 6, pebs_interrupt_threshold 7 */
	if (ds[5] + size > ds[6])
		return -1;
	memcpy((void *)(uintptr_t)ds[5], rec, size);
	ds[5] += size;
	if (ds[5] >= ds[7]) {
		mm.global_status |= 1ull << 62;
		mm_raise_pmi();
	}
	return 0;
}

static void mm_log(uint32_t msr, uint64_t v)
{
	unsigned n = sizeof mm.log / sizeof mm.log[0];

	if (mm.nlog == n) {
		memmove(mm.log, mm.log + 1, (n - 1) * sizeof mm.log[0]);
		mm.nlog--;
	}
	mm.log[mm.nlog].msr = msr;
	mm.log[mm.nlog++].v = v;
}

unsigned mm_log_count(uint32_t msr, uint64_t *last)
{
	unsigned k = 0;

	for (unsigned i = 0; i < mm.nlog; i++)
		if (mm.log[i].msr == msr) {
			k++;
			if (last)
				*last = mm.log[i].v;
		}
	return k;
}

void mm_log_clear(void) { mm.nlog = 0; }

static int mm_intel_rd(uint32_t msr, uint64_t *v)
{
	int i;

	if (!mm_pebs_rd(msr, v))
		return 0;

	if (msr >= 0xC1 && msr < 0xC1 + mm.ngp) {
		*v = mm.pmc[msr - 0xC1];
	} else if (mm.full_width && msr >= 0x4C1 && msr < 0x4C1 + mm.ngp) {
		*v = mm.pmc[msr - 0x4C1];
	} else if (msr >= 0x186 && msr < 0x186 + mm.ngp) {
		*v = mm.evtsel[msr - 0x186];
	} else if ((i = mm_intel_fixed_idx(msr, 0x309)) >= 0 && mm.version >= 2) {
		*v = mm.fixed[i];
	} else if (msr == 0x38D && mm.version >= 2 && mm.fixed_exists) {
		*v = mm.fixed_ctrl;
	} else if (msr == 0x38E && mm.version >= 2) {
		*v = mm.global_status;
	} else if (msr == 0x38F && mm.version >= 2) {
		*v = mm.global_ctrl;
	} else if (msr == 0x390 && mm.version >= 2) {
		*v = 0;
	} else if (msr == 0x1D9) {
		*v = mm.debugctl;
	} else if (msr == 0x345 && (mm.cpu->leaf1_ecx & PDCM)) {
		*v = mm.cpu->perf_caps;
	} else if (msr == 0x329 && mm_has_metrics()) {
		*v = mm.perf_metrics;
	} else {
		return -1;
	}
	return 0;
}

static int mm_intel_wr(uint32_t msr, uint64_t v)
{
	int i;

	if (!mm_pebs_wr(msr, v))
		return 0;

	if (msr >= 0xC1 && msr < 0xC1 + mm.ngp) {
		/* bits 31:0, sign-extended from bit 31 to the counter's width */
		mm.pmc[msr - 0xC1] = (uint64_t)(int64_t)(int32_t)(uint32_t)v & mm_wmask(mm.gp_width);
	} else if (mm.full_width && msr >= 0x4C1 && msr < 0x4C1 + mm.ngp) {
		if (v & ~mm_wmask(mm.gp_width))
			return -1;
		mm.pmc[msr - 0x4C1] = v;
	} else if (msr >= 0x186 && msr < 0x186 + mm.ngp) {
		if (v & ~mm_evtsel_bits())
			return -1;
		mm.evtsel[msr - 0x186] = v;
	} else if ((i = mm_intel_fixed_idx(msr, 0x309)) >= 0 && mm.version >= 2) {
		if (v & ~mm_wmask(mm.fixed_width))
			return -1;
		mm.fixed[i] = v;
	} else if (msr == 0x329 && mm_has_metrics()) {
		mm.perf_metrics = v;
		mm.perf_metrics_writes++;
	} else if (msr == 0x38D && mm.version >= 2 && mm.fixed_exists) {
		if (v & ~mm_fixed_ctrl_bits())
			return -1;
		mm.fixed_ctrl = v;
	} else if (msr == 0x38F && mm.version >= 2) {
		if (v & ~mm_global_bits())
			return -1;
		mm.global_ctrl = v;
	} else if (msr == 0x390 && mm.version >= 2) {
		/* IA32_PERF_GLOBAL_OVF_CTRL / _STATUS_RESET: write 1 to clear */
		if (v & ~mm_status_clear_bits())
			return -1;
		mm.global_status &= ~v;
	} else if (msr == 0x391 && mm.version >= 4) {
		if (v & ~mm_status_clear_bits())
			return -1;
		mm.global_status |= v;
	} else if (msr == 0x1D9) {
		if (v & (~0xFFFFull | mm.cpu->debugctl_gp))
			return -1;
		mm.debugctl = v;
	} else {
		return -1;   /* including the read-only IA32_PERF_GLOBAL_STATUS, PERF_CAPABILITIES */
	}
	return 0;
}

/* ---- AMD MSRs ---- */

#define AMD_CTL_OK (0xFFF000000ull | 0xFFFFull | 0xFFD70000ull | 3ull << 40)

/* Counter index of a PERF_CTL (ctl = 1) or PERF_CTR (ctl = 0) MSR, or -1. */
static int mm_amd_idx(uint32_t msr, int *ctl)
{
	if (msr >= 0xC0010000 && msr < 0xC0010008) {
		*ctl = msr < 0xC0010004;
		return (int)(msr - 0xC0010000) & 3;
	}
	if (mm.amd_ext && msr >= 0xC0010200 && msr < 0xC0010200 + 2 * mm.ngp) {
		*ctl = !((msr - 0xC0010200) & 1);
		return (int)(msr - 0xC0010200) / 2;
	}
	return -1;
}

static int mm_amd_rd(uint32_t msr, uint64_t *v)
{
	int ctl, i = mm_amd_idx(msr, &ctl);

	if (i >= 0)
		*v = ctl ? mm.evtsel[i] : mm.pmc[i];
	else if (mm.amd_v2 && msr == 0xC0000300)
		*v = mm.global_status;
	else if (mm.amd_v2 && msr == 0xC0000301)
		*v = mm.global_ctrl;
	else if (msr == 0x1D9)
		*v = mm.debugctl;
	else
		return -1;
	return 0;
}

static int mm_amd_wr(uint32_t msr, uint64_t v)
{
	int ctl, i = mm_amd_idx(msr, &ctl);

	if (i >= 0 && ctl) {
		if (v & ~AMD_CTL_OK)
			return -1;
		mm.evtsel[i] = v;
	} else if (i >= 0) {
		mm.pmc[i] = v & mm_wmask(48);   /* bits 63:48 are dropped */
	} else if (mm.amd_v2 && msr == 0xC0000301) {
		if (v & ~mm_wmask(mm.ngp))
			return -1;
		mm.global_ctrl = v;
	} else if (mm.amd_v2 && (msr == 0xC0000302 || msr == 0xC0000303)) {
		if (v & ~(mm_wmask(mm.ngp) | 1ull << 58 | 1ull << 59))
			return -1;
		if (msr == 0xC0000302)
			mm.global_status &= ~v;
		else
			mm.global_status |= v;
	} else if (msr == 0x1D9) {
		mm.debugctl = v;
	} else {
		return -1;
	}
	return 0;
}

/* ---- the access layer ---- */

static int mm_pmu_range(uint32_t msr)
{
	return (msr >= 0xC1 && msr < 0xD1) || (msr >= 0x186 && msr < 0x196) ||
	       (msr >= 0x309 && msr < 0x311) || msr == 0x329 || (msr >= 0x345 && msr <= 0x391) ||
	       (msr >= 0x4C1 && msr < 0x4D1) || (msr >= 0xC0010000 && msr < 0xC0010008) ||
	       (msr >= 0xC0010200 && msr < 0xC0010220) || (msr >= 0xC0000300 && msr < 0xC0000304);
}

int mm_rdmsr(uint32_t msr, uint64_t *v)
{
	mm.accesses++;
	if (mm.cpu->msrs == MM_IGNORE && mm_pmu_range(msr)) {
		*v = 0;
		return 0;
	}
	if (mm.cpu->msrs == MM_FAULT && mm_pmu_range(msr))
		return -1;
	return mm.amd ? mm_amd_rd(msr, v) : mm_intel_rd(msr, v);
}

int mm_wrmsr(uint32_t msr, uint64_t v)
{
	mm.accesses++;
	mm.writes++;
	if (mm.cpu->msrs == MM_IGNORE && mm_pmu_range(msr))
		return 0;
	if (mm.cpu->msrs == MM_FAULT && mm_pmu_range(msr))
		return -1;
	if (mm.amd ? mm_amd_wr(msr, v) : mm_intel_wr(msr, v))
		return -1;
	mm_log(msr, v);
	return 0;
}

uint64_t mm_peek(uint32_t msr)
{
	uint64_t v = 0;
	unsigned a = mm.accesses;
	if ((mm.amd ? mm_amd_rd(msr, &v) : mm_intel_rd(msr, &v)) != 0)
		fail_msg("%s: no MSR 0x%x to peek at", mm.cpu->name, msr);
	mm.accesses = a;
	return v;
}

uint64_t pmu_rdmsr(uint32_t msr)
{
	uint64_t v = 0;
	if (mm_rdmsr(msr, &v))
		fail_msg("%s: rdmsr 0x%x: #GP", mm.cpu->name, msr);
	return v;
}

void pmu_wrmsr(uint32_t msr, uint64_t v)
{
	if (mm_wrmsr(msr, v))
		fail_msg("%s: wrmsr 0x%x = 0x%llx: #GP", mm.cpu->name, msr, (unsigned long long)v);
}

int pmu_rdmsr_try(uint32_t msr, uint64_t *v, int vouched)
{
	if (!mm.fixup && !vouched)
		return -1;
	if (!mm.fixup)
		return (*v = pmu_rdmsr(msr)), 0;
	if (mm_rdmsr(msr, v)) {
		mm.faults++;
		return -1;
	}
	return 0;
}

int pmu_wrmsr_try(uint32_t msr, uint64_t v, int vouched)
{
	if (!mm.fixup && !vouched)
		return -1;
	if (!mm.fixup)
		return pmu_wrmsr(msr, v), 0;
	if (mm_wrmsr(msr, v)) {
		mm.faults++;
		return -1;
	}
	return 0;
}
