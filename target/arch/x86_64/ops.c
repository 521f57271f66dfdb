/* SPDX-License-Identifier: BSD-2-Clause */
/* x86-64 under the arch-neutral sampler (target/core/sampler.h): the TSC as the timebase,
 * RFLAGS.IF, the LAPIC ID, the LAPIC timer (TSC-deadline or one-shot mode, or none when
 * another's periodic interrupt calls the tick), the PMI's LVT entry and KVM steal time.
 * Three ops tables, one per timer mode; x86_ops() picks one at init. */
#include "bmprof_x86_64.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "x86.h"

#define MSR_TSC_DEADLINE 0x6E0

/* Set by x86_ops(), read-only afterwards. */
static struct {
	uint32_t lvt;            /* LVT timer value when armed: mode | vector */
	uint32_t lvtpc;          /* LVT performance counter value when armed */
	uint32_t div;            /* divide configuration (one-shot) */
	uint64_t tsc_to_lapic;   /* LAPIC ticks per TSC tick, 32.32 fixed point (one-shot) */
} x;

static uint64_t now(void) { return x86_rdtsc(); }
static uint64_t irq_save(void) { return x86_save_flags_cli(); }
static void irq_restore(uint64_t f) { x86_restore_flags(f); }
static void irq_enable(void) { x86_sti(); }
static void irq_disable(void) { x86_cli(); }
static uint64_t hwid(void) { return lapic_id(); }

static void timer_start(struct bmprof_scpu *c)
{
	(void)c;
	lapic_write(LAPIC_TIMER_DIV, x.div);
	lapic_write(LAPIC_LVT_TIMER, x.lvt);
	/* The SDM orders an xAPIC LVT write before a TSC_DEADLINE write with MFENCE. */
	__asm__ volatile("mfence" : : : "memory");
}

static void arm_deadline(struct bmprof_scpu *c, uint64_t deadline)
{
	(void)c;
	x86_wrmsr(MSR_TSC_DEADLINE, deadline);
}

/* One-shot mode gets TSC-deadline behaviour by converting the time left. */
static void arm_oneshot(struct bmprof_scpu *c, uint64_t deadline)
{
	uint64_t t = x86_rdtsc(), n;

	(void)c;
	n = (int64_t)(deadline - t) <= 0 ? 1 :
	    (uint64_t)(((unsigned __int128)(deadline - t) * x.tsc_to_lapic) >> 32);
	lapic_write(LAPIC_TIMER_INIT, n > 0xFFFFFFFFull ? 0xFFFFFFFFu : n ? (uint32_t)n : 1);
}

static void stop_deadline(struct bmprof_scpu *c)
{
	(void)c;
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | x.lvt);
	x86_wrmsr(MSR_TSC_DEADLINE, 0);
}

static void stop_oneshot(struct bmprof_scpu *c)
{
	(void)c;
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | x.lvt);
	lapic_write(LAPIC_TIMER_INIT, 0);
}

/* The CPU masks the LVT entry when it delivers a PMI. */
static void pmi_enable(struct bmprof_scpu *c, int on)
{
	(void)c;
	lapic_write(LAPIC_LVT_PERF, on ? x.lvtpc : LAPIC_LVT_MASKED | x.lvtpc);
}

static void pmi_rearm(void) { lapic_write(LAPIC_LVT_PERF, x.lvtpc); }

/* KVM's steal-time area: u64 steal (ns) at 0, u32 version at 8, odd while the
 * hypervisor writes (it writes while the vCPU does not run, so a retry is rare) */
static uint64_t steal_ns(const struct bmprof_scpu *c)
{
	const volatile uint8_t *a = c->steal;
	const volatile uint32_t *version = (const volatile uint32_t *)(a + 8);
	uint64_t ns = 0;

	for (int i = 0; i < 100; i++) {
		uint32_t v = *version;
		__asm__ volatile("" : : : "memory");
		ns = *(const volatile uint64_t *)a;
		__asm__ volatile("" : : : "memory");
		if (!(v & 1) && v == *version)
			break;
	}
	return ns;
}

static int leaf_caller(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		       uint64_t *caller, uint64_t *fp);

/* The entry's saved registers (irq_save.inc, save_frame), from the lowest address, by
 * DWARF number: r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rdi rsi rdx rcx rax. */
static const uint8_t frame_dwarf[15] = { 15, 14, 13, 12, 6, 3, 11, 10, 9, 8, 5, 4, 1, 2, 0 };
#define DWARF_RBP 6
#define DWARF_RSP 7

static void raw_regs(const struct bmprof_regs *r, struct bmprof_raw *s)
{
	uint32_t valid = 0;

	if (r->frame) {
		for (unsigned i = 0; i < 15; i++)
			s->r[frame_dwarf[i]] = r->frame[i];
		valid = 0xffffu & ~(1u << DWARF_RSP);
	} else if (r->fp) {
		s->r[DWARF_RBP] = r->fp;
		valid = 1u << DWARF_RBP;
	}
	if (r->sp) {
		s->r[DWARF_RSP] = r->sp;
		valid |= 1u << DWARF_RSP;
	}
	s->valid = valid;
}

#define X86_COMMON \
	.arch = BMPROF_ARCH_X86_64, .timer_drains_pmi = 1, .now = now, \
	.irq_save = irq_save, .irq_restore = irq_restore, .irq_enable = irq_enable, \
	.irq_disable = irq_disable, .hwid = hwid, .cpuinfo = cpuinfo_fill, \
	.pmi_enable = pmi_enable, .pmi_rearm = pmi_rearm, .steal_ns = steal_ns, \
	.leaf_caller = leaf_caller, .raw_regs = raw_regs, .raw_nregs = 16

static const struct bmprof_sampler_ops deadline_ops = {
	.name = "x86_64 tsc-deadline", X86_COMMON, .timer_start = timer_start,
	.timer_arm = arm_deadline, .timer_stop = stop_deadline, .timer_ack = lapic_eoi,
};

static const struct bmprof_sampler_ops oneshot_ops = {
	.name = "x86_64 one-shot", X86_COMMON, .timer_start = timer_start,
	.timer_arm = arm_oneshot, .timer_stop = stop_oneshot, .timer_ack = lapic_eoi,
};

/* another's periodic interrupt calls the tick, and its owner sends the EOI */
static const struct bmprof_sampler_ops external_ops = { .name = "x86_64 external", X86_COMMON };

/* (a << 32) / b, modulo 2^64, by long division: a 128-bit division would be a call into
 * libgcc. */
static uint64_t div_shl32(uint64_t a, uint64_t b)
{
	uint64_t q = a / b, r = a % b;

	for (int n = 0; n < 32; n++) {
		q <<= 1;
		if (r >= b - r) {       /* 2r >= b, without overflowing 2r */
			r -= b - r;
			q |= 1;
		} else {
			r <<= 1;
		}
	}
	return q;
}

/* One-shot mode draws periods in TSC ticks too and converts each to LAPIC ticks with a
 * 32.32 fixed-point ratio, after picking the smallest divider that keeps a period within
 * the 32-bit initial count. -1 if none does. */
static int oneshot_rate(uint64_t tsc_hz, uint64_t lapic_hz, uint32_t hz)
{
	static const uint8_t code[8] = { 0xB, 0x0, 0x1, 0x2, 0x3, 0x8, 0x9, 0xA };
	unsigned shift = 0;

	if (!hz)
		return 0;
	while (shift < 7 && (lapic_hz >> shift) / hz > 0xFFFFFFFFull)
		shift++;
	if ((lapic_hz >> shift) / hz > 0xFFFFFFFFull ||
	    (lapic_hz >> shift) / hz < BMPROF_SAMPLER_MIN_PERIOD)
		return -1;
	x.div = code[shift];
	x.tsc_to_lapic = div_shl32(lapic_hz >> shift, tsc_hz);
	return 0;
}

const struct bmprof_sampler_ops *x86_ops(uint8_t timer, uint8_t vector, uint32_t lvtpc,
					 uint64_t tsc_hz, uint64_t lapic_hz, uint32_t hz)
{
	x.lvt = vector | (timer == BMPROF_X86_TIMER_DEADLINE ? LAPIC_LVT_DEADLINE :
			  LAPIC_LVT_ONESHOT);
	x.lvtpc = lvtpc;
	if (timer == BMPROF_X86_TIMER_EXTERNAL)
		return &external_ops;
	if (timer == BMPROF_X86_TIMER_DEADLINE)
		return &deadline_ops;
	return oneshot_rate(tsc_hz, lapic_hz, hz) ? 0 : &oneshot_ops;
}

/* The timer masked until start, on this CPU. */
void x86_timer_mask(void)
{
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | x.lvt);
}

/* ---- the unwind's first step ---- */

static int read_code(const struct bmprof_unwind_env *e, uint64_t pc, uint8_t *b, unsigned n)
{
	if (!bmprof_in_range(&e->code, pc, n))
		return 0;
	for (unsigned i = 0; i < n; i++)
		b[i] = ((const volatile uint8_t *)(uintptr_t)pc)[i];
	return 1;
}

static int read_stack(const struct bmprof_unwind_env *e, uint64_t a, uint64_t *v)
{
	if ((a & 7) || (!bmprof_in_range(&e->stack, a, 8) && !bmprof_in_range(&e->ram, a, 8)))
		return 0;
	*v = *(const volatile uint64_t *)(uintptr_t)a;
	return 1;
}

/* ret is a return address whose call (e8 rel32) went to code within 1 MiB of pc: the call
 * that entered the function pc is in, as far as can be told. Within, either way: a
 * function that the called one entered by a tail call (a jmp) may lie below or above it. */
static int called_before(const struct bmprof_unwind_env *e, uint64_t ret, uint64_t pc)
{
	uint8_t b[5];
	uint64_t target;

	if (!read_code(e, ret - 5, b, 5) || b[0] != 0xE8)
		return 0;
	target = ret + (uint64_t)(int64_t)(int32_t)((uint32_t)b[1] | (uint32_t)b[2] << 8 |
						      (uint32_t)b[3] << 16 | (uint32_t)b[4] << 24);
	return (target <= pc ? pc - target : target - pc) < (1u << 20);
}

/* With frame pointers a function starts `push %rbp; mov %rsp, %rbp` (after an endbr64
 * where that is built in) and ends `pop %rbp; ret` or `leave; ret`. At its first
 * instruction and at the ret, %rbp is the caller's and the return address is at [%rsp];
 * at the mov it is at [%rsp + 8], above the caller's %rbp just pushed (which is checked). Anywhere else %rbp is the function's
 * own frame record, except in a leaf that needs no stack frame: GCC makes none there even
 * with -fno-omit-frame-pointer, so %rbp is its caller's and [%rsp] its return address. That
 * cannot be told from the pc, so a word at [%rsp] that returns from a call to code near pc
 * (at or below it, or above it after a tail call) goes in as a candidate the host keeps
 * only when it is not in the leaf's own function (BMPROF_STACKF_LR_MAYBE). A frameless function that pushed registers or code
 * built without frame pointers is not recognized: its chain misses a caller or stops. */
static int leaf_caller(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		       uint64_t *caller, uint64_t *fp)
{
	uint8_t b[4];
	uint64_t slot, saved;

	(void)fp;
	if (!read_code(e, r->pc, b, 1))
		return 0;
	if (b[0] == 0x55 || b[0] == 0xC3)                     /* push %rbp, ret */
		slot = r->sp;
	else if (read_code(e, r->pc, b, 4) && b[0] == 0xF3 && b[1] == 0x0F && b[2] == 0x1E &&
		 b[3] == 0xFA)                                 /* endbr64 */
		slot = r->sp;
	else if (read_code(e, r->pc, b, 3) && b[0] == 0x48 && b[1] == 0x89 && b[2] == 0xE5 &&
		 read_stack(e, r->sp, &saved) && saved == r->fp)   /* mov %rsp,%rbp after the push */
		slot = r->sp + 8;
	else if (read_stack(e, r->sp, caller) && called_before(e, *caller, r->pc))
		return 2;
	else
		return 0;
	return read_stack(e, slot, caller) && *caller ? 1 : 0;
}
