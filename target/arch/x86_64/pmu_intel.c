/* SPDX-License-Identifier: BSD-2-Clause */
/* Intel architectural performance monitoring, versions 1 to 5 (SDM vol. 3B, "Performance
 * Monitoring"), as a struct bmprof_pmu_ops.
 *
 * CPUID leaf 0xA enumerates the general-purpose counters (IA32_PMCx, configured by
 * IA32_PERFEVTSELx), the fixed-function counters (IA32_FIXED_CTRx, configured by 4-bit
 * fields of IA32_FIXED_CTR_CTRL; version 2 up), their widths, and the architectural
 * events the CPU lacks. From version 2, IA32_PERF_GLOBAL_CTRL starts and stops the
 * counters, IA32_PERF_GLOBAL_STATUS reports overflows and IA32_PERF_GLOBAL_OVF_CTRL
 * clears them (version 4 renames it IA32_PERF_GLOBAL_STATUS_RESET). Version 1 has none of
 * these: a counter's EN bit starts it, and an overflow shows as the counter's top bit
 * going clear (sampling counters are armed with minus the period).
 *
 * Writes to IA32_PMCx take bits 31:0 and sign-extend bit 31. With full-width writes
 * (IA32_PERF_CAPABILITIES[13]) the IA32_A_PMCx aliases take the whole width; without
 * them a sampling period is at most 2^31 - 1 (caps.max_period), and a value that bit 31
 * cannot produce (a count carried over when a group comes back) is kept as an offset
 * that read() adds, so write() and read() agree on every value.
 *
 * Freeze on PMI (IA32_DEBUGCTL[12]) is on while a started counter interrupts: counting
 * stops when the PMI is raised, so the handler's own events are not counted. Up to
 * version 3 the CPU does that by clearing IA32_PERF_GLOBAL_CTRL, which ack() writes back;
 * from version 4 it sets IA32_PERF_GLOBAL_STATUS.CTR_Frz, which ack() clears with the
 * overflow bits.
 *
 * Top-Down level 1 (Ice Lake and later): with fixed counter 3 (TOPDOWN.SLOTS) and
 * IA32_PERF_CAPABILITIES[15], the IA32_PERF_METRICS MSR holds, a byte each, the fractions
 * (x / 255) of the slots counted since both were last written 0: [7:0] Retiring, [15:8]
 * Bad Speculation, [23:16] Frontend Bound, [31:24] Backend Bound, and on Sapphire Rapids
 * and its successors [39:32] Heavy Operations, [47:40] Branch Mispredicts, [55:48] Fetch
 * Latency, [63:56] Memory Bound (SDM vol. 3B "Performance Metrics"; Linux
 * arch/x86/events/intel/core.c). IA32_PERF_GLOBAL_CTRL[48] turns it on, with fixed
 * counter 3 ([35]). The driver shows each field as a counting-only pseudo fixed counter
 * (index METRIC_BASE + byte) whose value is SLOTS x fraction, so the neutral layer counts
 * it like any other; SLOTS and PERF_METRICS are zeroed together when the first field is
 * programmed. A read never resets them, so a field's value may fall slightly between reads
 * as the fractions move; read() keeps it from going backwards. The fields are meaningful
 * only while fixed counter 3 counts from that zero: a sampling TOPDOWN.SLOTS (re-armed on
 * every overflow) beside them spoils them.
 *
 * PEBS (pebs.c): a GP counter programmed with BMPROF_PMU_IRQ_PEBS counts without its
 * interrupt bit and writes a PEBS record on each overflow; the buffer's PMI shows as
 * BMPROF_PMU_PEBS_BIT in overflow(), and ack() clears it with the counters' bits.
 *
 * The driver state is per CPU (pmu_x86_cpu() picks the running CPU's); every operation
 * acts on the CPU it runs on. overflow() reports only counters programmed with the
 * interrupt.
 */
#include "pmu_x86.h"

#define NARCH 8    /* architectural events CPUID.0AH:EBX bits 0..7 describe */
#define NREAL_FIXED 8    /* CPUID.0AH:ECX bits 0..7 (version 5) */
#define METRIC_BASE 8    /* pseudo fixed counter of PERF_METRICS byte 0 */
#define SLOTS_CTR (BMPROF_PMU_FIXED_BASE + 3)

/* Bit i of CPUID.0AH:EBX set: architectural event i (event | umask << 8) is absent. */
static const uint16_t arch_event[NARCH] = {
	0x003C,   /* UnHalted Core Cycles */
	0x00C0,   /* Instructions Retired */
	0x013C,   /* UnHalted Reference Cycles */
	0x4F2E,   /* LLC Reference */
	0x412E,   /* LLC Misses */
	0x00C4,   /* Branch Instructions Retired */
	0x00C5,   /* Branch Misses Retired */
	0x01A4,   /* Topdown Slots */
};

/* What fixed counter i counts. */
static const uint8_t fixed_kind[4] = {
	BMPROF_FIXED_INSTRUCTIONS,   /* INST_RETIRED.ANY */
	BMPROF_FIXED_CYCLES,         /* CPU_CLK_UNHALTED.CORE */
	BMPROF_FIXED_REF_CYCLES,     /* CPU_CLK_UNHALTED.REF_TSC */
	BMPROF_FIXED_SLOTS,          /* TOPDOWN.SLOTS */
};

struct intel {
	uint8_t version, ngp, nfixed, full_width, any_thread;
	uint8_t nmetrics;               /* PERF_METRICS fields: 0, 4 or 8 */
	uint8_t can_freeze;             /* IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI can be set */
	uint8_t freeze;                 /* it is set */
	uint64_t gp_mask, fixed_mask;   /* counter value masks */
	uint64_t exists;                /* the CPU's counters, in the neutral numbering */
	uint64_t hw;                    /* those that are real (not PERF_METRICS fields) */
	uint64_t metrics;               /* the PERF_METRICS pseudo counters */
	uint64_t slots_field;           /* fixed counter 3's IA32_FIXED_CTR_CTRL field, as asked */
	uint64_t metric_prog;           /* PERF_METRICS fields programmed */
	uint64_t metric_last[8];        /* a field's value at its last read (never less) */
	uint32_t unavailable;           /* architectural events CPUID marks absent */
	uint64_t evtsel[BMPROF_PMU_MAX_GP];   /* as programmed (version 1: without EN) */
	uint64_t offset[BMPROF_PMU_MAX_GP];   /* value written minus what the counter took */
	uint64_t fixed_ctrl;            /* IA32_FIXED_CTR_CTRL as written */
	uint64_t on;                    /* started counters: the IA32_PERF_GLOBAL_CTRL value */
	uint64_t irq;                   /* counters that interrupt on overflow */
	uint64_t pebs;                  /* GP counters sampling by PEBS */
	uint64_t ovf_buf;               /* GLOBAL_STATUS_OVF_BUF when PEBS can be used */
};

static struct intel intel_cpu[BMPROF_X86_MAX_CPUS];

static struct intel *this_cpu(void) { return &intel_cpu[pmu_x86_cpu()]; }

static int is_fixed(unsigned ctr) { return ctr >= BMPROF_PMU_FIXED_BASE; }

static int exists(struct intel *in, unsigned ctr) { return ctr < 64 && (in->exists >> ctr & 1); }

static int is_metric(struct intel *in, unsigned ctr) { return ctr < 64 && (in->metrics >> ctr & 1); }

/* PERF_METRICS fields on models with the level-2 bytes: Sapphire Rapids (8FH) and Emerald
 * Rapids (CFH), family 6 (Linux sets num_topdown_events = 8 for them). Others have 4. */
static uint8_t metric_fields(void)
{
	uint32_t r[4], family, model;

	pmu_cpuid(1, 0, r);
	family = r[0] >> 8 & 0xF;
	model = (r[0] >> 4 & 0xF) | (family == 6 || family == 15 ? (r[0] >> 12 & 0xF0) : 0);
	return family == 6 && (model == 0x8F || model == 0xCF) ? 8 : 4;
}

/* A hypervisor may advertise counters it does not emulate (reads 0, drops writes) or
 * fault on them: stop counter 0, write it, read it back. */
static int counter_works(void)
{
	uint64_t v = 0x5A5A5A5, got;

	if (pmu_wrmsr_try(IA32_PERFEVTSEL0, 0, 1) || pmu_wrmsr_try(IA32_PMC0, v, 1) ||
	    pmu_rdmsr_try(IA32_PMC0, &got, 1))
		return 0;
	pmu_wrmsr(IA32_PMC0, 0);
	return got == v;
}

/* Whether IA32_DEBUGCTL takes FREEZE_PERFMON_ON_PMI (version 2 up; a hypervisor may
 * refuse the bit with a #GP, so there it is tried only with the #GP-safe access). */
static int freeze_works(struct intel *in, int hypervisor)
{
	uint64_t old, v;

	if (in->version < 2 || pmu_rdmsr_try(IA32_DEBUGCTL, &old, !hypervisor))
		return 0;
	if (pmu_wrmsr_try(IA32_DEBUGCTL, old | DEBUGCTL_FREEZE_PERFMON_ON_PMI, !hypervisor) ||
	    pmu_rdmsr_try(IA32_DEBUGCTL, &v, !hypervisor))
		return 0;
	pmu_wrmsr(IA32_DEBUGCTL, old & ~DEBUGCTL_FREEZE_PERFMON_ON_PMI);
	return (v & DEBUGCTL_FREEZE_PERFMON_ON_PMI) != 0;
}

/* Everything stopped, configuration and overflow status cleared. */
static void reset(struct intel *in)
{
	for (unsigned i = 0; i < in->ngp; i++)
		pmu_wrmsr(IA32_PERFEVTSEL0 + i, 0);
	if (in->version < 2)
		return;
	pmu_wrmsr(IA32_PERF_GLOBAL_CTRL, 0);
	if (in->nfixed)
		pmu_wrmsr(IA32_FIXED_CTR_CTRL, 0);
	pmu_wrmsr(IA32_PERF_GLOBAL_OVF_CTRL,
		  in->hw | in->ovf_buf | (in->version >= 4 ? GLOBAL_STATUS_CTR_FRZ : 0));
}

/* Fixed counters (version 2 up): EDX[4:0] contiguous ones, EDX[12:5] their width, and on
 * version 5 ECX a bitmap of more. Adds them to in->exists; returns the width (0: none). */
static unsigned find_fixed(struct intel *in, const uint32_t r[4], unsigned gp_width, int hypervisor)
{
	unsigned n = r[3] & 0x1F, width = r[3] >> 5 & 0xFF;
	uint32_t bitmap = in->version >= 5 ? r[2] : 0;

	/* Before version 5 there are at least three; early version 2 parts report fewer (a
	 * hypervisor's number is believed). */
	if (in->version < 5 && n < 3 && !hypervisor) {
		n = 3;
		if (!width)
			width = gp_width;
	}
	if (width < 32 || width > 64)
		return 0;
	for (unsigned i = 0; i < NREAL_FIXED; i++)
		if (i < n || bitmap >> i & 1) {
			in->exists |= 1ull << (BMPROF_PMU_FIXED_BASE + i);
			in->nfixed = (uint8_t)(i + 1);
		}
	return in->nfixed ? width : 0;
}

static int intel_probe(struct bmprof_pmu_caps *caps)
{
	struct intel *in = this_cpu();
	uint32_t r[4];
	unsigned gp_width, fixed_width = 0;
	int hypervisor, perf_metrics = 0;

	*in = (struct intel){ 0 };
	if (pmu_x86_vendor() != BMPROF_VENDOR_INTEL)
		return -1;
	pmu_cpuid(0, 0, r);
	if (r[0] < 0xA)
		return -1;
	pmu_cpuid(1, 0, r);
	hypervisor = (int)(r[2] >> 31);
	if (r[2] >> 15 & 1) {
		uint64_t cap;
		int ok = !pmu_rdmsr_try(IA32_PERF_CAPABILITIES, &cap, 1);
		in->full_width = ok && (cap & PERF_CAP_FW_WRITE);
		perf_metrics = ok && (cap & PERF_CAP_PERF_METRICS);
	}
	pmu_cpuid(0xA, 0, r);
	in->version = (uint8_t)r[0];
	in->ngp = (uint8_t)(r[0] >> 8);
	gp_width = r[0] >> 16 & 0xFF;
	if (!in->version || !in->ngp || gp_width < 32 || gp_width > 64)
		return -1;
	if (in->ngp > BMPROF_PMU_MAX_GP)
		in->ngp = BMPROF_PMU_MAX_GP;
	/* EBX bits past the length in EAX[31:24] are events the CPU says nothing about */
	in->unavailable = r[1] | (r[0] >> 24 < 32 ? ~0u << (r[0] >> 24) : 0);
	in->any_thread = in->version >= 3 && !(r[3] >> 15 & 1);
	in->gp_mask = x86_width_mask(gp_width);
	in->exists = x86_width_mask(in->ngp);
	if (in->version >= 2)
		fixed_width = find_fixed(in, r, gp_width, hypervisor);
	in->fixed_mask = x86_width_mask(fixed_width);
	in->hw = in->exists;
	/* PERF_METRICS is relative to fixed counter 3 (SDM: IA32_PERF_CAPABILITIES[15]
	 * enumerates it; it needs TOPDOWN.SLOTS, CPUID.0AH:EDX[4:0] >= 4 or ECX[3]) */
	if (perf_metrics && exists(in, SLOTS_CTR) &&
	    !pmu_rdmsr_try(IA32_PERF_METRICS, &(uint64_t){ 0 }, 1)) {
		in->nmetrics = metric_fields();
		in->metrics = x86_width_mask(in->nmetrics) << (BMPROF_PMU_FIXED_BASE + METRIC_BASE);
		in->exists |= in->metrics;
	}
	if (!counter_works())
		return -1;
	in->can_freeze = (uint8_t)freeze_works(in, hypervisor);
	if (pebs_probe(in->version) == BMPROF_PRECISE_PEBS)
		in->ovf_buf = GLOBAL_STATUS_OVF_BUF;
	reset(in);
	*caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_INTEL,
		.version = in->version,
		.ngp = in->ngp,
		.nfixed = (uint8_t)(in->nmetrics ? METRIC_BASE + in->nmetrics : in->nfixed),
		.gp_width = (uint8_t)gp_width,
		.fixed_width = (uint8_t)fixed_width,
		.can_interrupt = 1,
		/* half the width: version 1 tells an overflow by the top bit */
		.max_period = in->full_width ? in->gp_mask >> 1 : 0x7FFFFFFF,
		.no_irq_mask = in->metrics,
	};
	for (unsigned i = 0; i < in->nfixed && i < 4; i++)
		if (exists(in, BMPROF_PMU_FIXED_BASE + i))
			caps->fixed_kind[i] = fixed_kind[i];
	for (unsigned k = 0; k < in->nmetrics; k++)
		caps->fixed_kind[METRIC_BASE + k] = (uint8_t)(BMPROF_FIXED_TD_RETIRING + k);
	return 0;
}

/* Whether a general-purpose counter can count encoding on this CPU. */
static int intel_event_ok(uint64_t encoding)
{
	struct intel *in = this_cpu();
	/* MEM_TRANS_RETIRED.LOAD_LATENCY carries its threshold above the EVTSEL bits */
	uint64_t ldlat = (encoding & 0xFFFF) == PEBS_LOAD_LATENCY ? 0xFFFFull << 32 : 0;

	if (encoding & ~(INTEL_ENC_MASK | INTEL_CTL_BITS | ldlat))
		return 0;
	if (encoding & EVTSEL_ANY && !in->any_thread)
		return 0;
	for (unsigned i = 0; i < NARCH; i++)
		if ((encoding & 0xFFFF) == arch_event[i] && in->unavailable >> i & 1)
			return 0;
	return 1;
}

/* A started PERF_METRICS field starts fixed counter 3 and PERF_METRICS. */
static uint64_t global_value(const struct intel *in)
{
	uint64_t v = in->on & in->hw;

	if (in->on & in->metrics)
		v |= 1ull << SLOTS_CTR | GLOBAL_CTRL_METRICS_EN;
	return v;
}

static void write_global(struct intel *in)
{
	if (in->version >= 2)
		pmu_wrmsr(IA32_PERF_GLOBAL_CTRL, global_value(in));
}

/* Freeze on PMI while a started counter interrupts. */
static void update_freeze(struct intel *in)
{
	uint8_t want = in->can_freeze && (in->irq & in->on) != 0;
	uint64_t v;

	if (want == in->freeze)
		return;
	v = pmu_rdmsr(IA32_DEBUGCTL) & ~DEBUGCTL_FREEZE_PERFMON_ON_PMI;
	pmu_wrmsr(IA32_DEBUGCTL, v | (want ? DEBUGCTL_FREEZE_PERFMON_ON_PMI : 0));
	in->freeze = want;
}

static void write_fixed_field(struct intel *in, unsigned i, uint64_t field)
{
	if (i == 3) {   /* shared by TOPDOWN.SLOTS and the PERF_METRICS fields */
		in->slots_field = field;
		if (in->metric_prog)
			field |= FIXED_OS | FIXED_USR;
	}
	in->fixed_ctrl = (in->fixed_ctrl & ~(0xFull << 4 * i)) | field << 4 * i;
	pmu_wrmsr(IA32_FIXED_CTR_CTRL, in->fixed_ctrl);
}

static void intel_program(unsigned ctr, uint64_t encoding, int irq)
{
	struct intel *in = this_cpu();
	uint64_t bit = 1ull << ctr;

	if (!exists(in, ctr))
		return;
	if (in->on & bit) {
		in->on &= ~bit;
		write_global(in);
	}
	if (is_metric(in, ctr)) {
		/* the first field zeroes SLOTS and PERF_METRICS together (SDM: software
		 * writes 0 to both to restart the fractions), then counts on fixed counter 3 */
		if (!in->metric_prog) {
			pmu_wrmsr(IA32_FIXED_CTR0 + 3, 0);
			pmu_wrmsr(IA32_PERF_METRICS, 0);
			for (unsigned k = 0; k < 8; k++)
				in->metric_last[k] = 0;
		}
		in->metric_prog |= bit;
		write_fixed_field(in, 3, in->slots_field);
		return;
	}
	if (in->pebs & bit) {
		pebs_disarm(ctr);
		in->pebs &= ~bit;
	}
	if (irq == BMPROF_PMU_IRQ_PEBS && ctr < PEBS_MAX_GP && in->ovf_buf) {
		irq = 0;
		in->pebs |= bit;
		pebs_arm(ctr, encoding);
	}
	in->irq = irq ? in->irq | bit : in->irq & ~bit;
	if (is_fixed(ctr)) {
		write_fixed_field(in, ctr - BMPROF_PMU_FIXED_BASE,
				  FIXED_OS | FIXED_USR | (irq ? FIXED_PMI : 0));
		return;
	}
	/* version 2 up: IA32_PERF_GLOBAL_CTRL holds the counter until enable() */
	in->evtsel[ctr] = (encoding & INTEL_ENC_MASK) | EVTSEL_USR | EVTSEL_OS |
			  (irq ? EVTSEL_INT : 0) | (in->version >= 2 ? EVTSEL_EN : 0);
	pmu_wrmsr(IA32_PERFEVTSEL0 + ctr, in->evtsel[ctr]);
}

static void intel_clear(unsigned ctr)
{
	struct intel *in = this_cpu();
	uint64_t bit = 1ull << ctr;

	if (!exists(in, ctr))
		return;
	in->on &= ~bit;
	in->irq &= ~bit;
	write_global(in);
	update_freeze(in);
	if (in->pebs & bit) {
		pebs_disarm(ctr);
		in->pebs &= ~bit;
	}
	if (is_metric(in, ctr)) {
		in->metric_prog &= ~bit;
		write_fixed_field(in, 3, in->slots_field);
		return;
	}
	if (is_fixed(ctr)) {
		write_fixed_field(in, ctr - BMPROF_PMU_FIXED_BASE, 0);
		return;
	}
	in->evtsel[ctr] = 0;
	pmu_wrmsr(IA32_PERFEVTSEL0 + ctr, 0);
}

/* PERF_METRICS byte k as slots: SLOTS x byte / 255. */
static uint64_t read_metric(struct intel *in, unsigned k)
{
	uint64_t slots = pmu_rdmsr(IA32_FIXED_CTR0 + 3) & in->fixed_mask;
	uint64_t byte = pmu_rdmsr(IA32_PERF_METRICS) >> 8 * k & 0xFF;
	uint64_t v = slots > UINT64_MAX / 255 ? slots / 255 * byte : slots * byte / 255;

	if (v > in->metric_last[k])
		in->metric_last[k] = v;
	return in->metric_last[k] & in->fixed_mask;
}

static uint64_t intel_read(unsigned ctr)
{
	struct intel *in = this_cpu();

	if (!exists(in, ctr))
		return 0;
	if (is_metric(in, ctr))
		return read_metric(in, ctr - BMPROF_PMU_FIXED_BASE - METRIC_BASE);
	if (is_fixed(ctr))
		return pmu_rdmsr(IA32_FIXED_CTR0 + ctr - BMPROF_PMU_FIXED_BASE) & in->fixed_mask;
	return (pmu_rdmsr(IA32_PMC0 + ctr) + in->offset[ctr]) & in->gp_mask;
}

static void intel_write(unsigned ctr, uint64_t v)
{
	struct intel *in = this_cpu();
	uint64_t w;

	if (!exists(in, ctr))
		return;
	if (is_metric(in, ctr)) {   /* what read() gives until the field passes it */
		in->metric_last[ctr - BMPROF_PMU_FIXED_BASE - METRIC_BASE] = v & in->fixed_mask;
		return;
	}
	if (is_fixed(ctr)) {
		pmu_wrmsr(IA32_FIXED_CTR0 + ctr - BMPROF_PMU_FIXED_BASE, v & in->fixed_mask);
		return;
	}
	v &= in->gp_mask;
	if (in->full_width) {
		pmu_wrmsr(IA32_A_PMC0 + ctr, v);
		return;
	}
	/* what IA32_PMCx holds after a write of v's low 32 bits */
	w = (uint64_t)(int64_t)(int32_t)(uint32_t)v & in->gp_mask;
	if (w != v)
		w = 0;
	in->offset[ctr] = (v - w) & in->gp_mask;
	pmu_wrmsr(IA32_PMC0 + ctr, w & 0xFFFFFFFFu);
}

static void intel_enable(uint64_t mask)
{
	struct intel *in = this_cpu();

	mask &= in->exists;
	in->on |= mask;
	if (in->version < 2) {
		for (unsigned i = 0; i < in->ngp; i++)
			if (mask >> i & 1)
				pmu_wrmsr(IA32_PERFEVTSEL0 + i, in->evtsel[i] | EVTSEL_EN);
		return;
	}
	update_freeze(in);
	write_global(in);
}

static void intel_disable(uint64_t mask)
{
	struct intel *in = this_cpu();

	mask &= in->exists;
	in->on &= ~mask;
	if (in->version < 2) {
		for (unsigned i = 0; i < in->ngp; i++)
			if (mask >> i & 1)
				pmu_wrmsr(IA32_PERFEVTSEL0 + i, in->evtsel[i]);
		return;
	}
	write_global(in);
	update_freeze(in);
}

static void unfreeze(struct intel *in, uint64_t bits)
{
	if (in->version >= 4) {
		pmu_wrmsr(IA32_PERF_GLOBAL_OVF_CTRL,
			  bits | (in->freeze ? GLOBAL_STATUS_CTR_FRZ : 0));
		return;
	}
	if (bits)
		pmu_wrmsr(IA32_PERF_GLOBAL_OVF_CTRL, bits);
	if (in->freeze)
		write_global(in);
}

static uint64_t intel_overflow(void)
{
	struct intel *in = this_cpu();
	uint64_t m = 0, top = (in->gp_mask >> 1) + 1;

	if (in->version >= 2) {
		uint64_t st = pmu_rdmsr(IA32_PERF_GLOBAL_STATUS);
		m = st & in->irq;
		if (in->pebs && (st & GLOBAL_STATUS_OVF_BUF))
			m |= 1ull << BMPROF_PMU_PEBS_BIT;
		/* a PMI whose overflow was already handled (its counter was folded and
		 * acknowledged meanwhile) still froze the counters: lift that at once */
		if (!m && in->freeze)
			unfreeze(in, 0);
		return m;
	}
	/* version 1: armed at minus the period, a counter that wrapped has its top bit clear */
	for (unsigned i = 0; i < in->ngp; i++)
		if ((in->irq & in->on) >> i & 1 && !(pmu_rdmsr(IA32_PMC0 + i) & top))
			m |= 1ull << i;
	return m;
}

/* Clears the overflow bits in mask and those of counters that do not interrupt (a
 * counting counter that wrapped), then lifts the freeze. */
static void intel_ack(uint64_t mask)
{
	struct intel *in = this_cpu();

	if (in->version >= 2)
		unfreeze(in, ((mask | ~in->irq) & in->hw) |
			     (mask >> BMPROF_PMU_PEBS_BIT & 1 ? in->ovf_buf : 0));
}

/* PEBS: a memory event with a data address, on a GP counter the DS area has a reset value
 * for, on a CPU whose PEBS this driver reads. */
static int intel_pebs_ok(unsigned ctr, uint64_t encoding)
{
	uint8_t st = pebs_status();

	if (!pebs_event(encoding) || ctr >= PEBS_MAX_GP)
		return -1;
	return st == BMPROF_PRECISE_PEBS ? 0 : st;
}

/* The PEBS counters stop while their buffer is read and its index set back, so that no
 * record is written meanwhile and lost. */
static unsigned intel_pebs_drain(struct bmprof_raw *out, unsigned max)
{
	struct intel *in = this_cpu();
	uint64_t stop = in->on & in->pebs;
	unsigned n;

	if (stop)
		pmu_wrmsr(IA32_PERF_GLOBAL_CTRL, global_value(in) & ~stop);
	n = pebs_drain(out, max);
	if (stop)
		write_global(in);
	return n;
}

const struct bmprof_pmu_ops bmprof_pmu_intel = {
	.name = "intel",
	.probe = intel_probe,
	.program = intel_program,
	.clear = intel_clear,
	.read = intel_read,
	.write = intel_write,
	.enable = intel_enable,
	.disable = intel_disable,
	.overflow = intel_overflow,
	.ack = intel_ack,
	.event_ok = intel_event_ok,
	.pebs_ok = intel_pebs_ok,
	.pebs_reload = pebs_reload,
	.pebs_drain = intel_pebs_drain,
};
