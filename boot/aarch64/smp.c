/* SPDX-License-Identifier: BSD-2-Clause */
/* The other CPUs.
 *
 * Boot: the boot CPU (index 0) starts the others one at a time with PSCI CPU_ON, trying
 * MPIDR Aff0 = 0, 1, 2, ... (its own Aff1-3) until PSCI answers INVALID_PARAMETERS (no
 * such CPU: QEMU virt numbers its CPUs so), or BMRT_MAX_CPUS run. Each enters at
 * bmrt_secondary_entry (entry.S) with the next index, sets up its own sampler
 * (bmprof_a64_cpu_init: its GIC CPU interface or redistributor, timer, PMU and core
 * state) and enables the runtime's SGI, says so (booted), and sleeps until go, which the
 * boot CPU gives, with the SGI, after HELLO. It then starts sampling and waits for work in
 * WFI with IRQs unmasked, so its interrupts, and the drains at their exit, run. A CPU
 * whose set-up fails turns itself off and the next one takes its index; one that does not
 * come up within the CPU wait (config cpu_wait_ms) ends the bring-up (should it come up
 * later, on that index's stack, it is not counted and nothing wakes it). Waits for
 * another CPU's flag use WFE (the other CPU sends SEV); sleeps that can be long use WFI,
 * which under TCG frees the host core (WFE only yields).
 *
 * Work: bm_run_on() claims an idle CPU (busy 0 -> 1), publishes the function and its
 * argument with a release store of posted, and sends that CPU the SGI; the CPU runs it
 * and clears busy. bm_wait() sleeps in WFI until busy is clear: a waiter sets its bit in
 * `waiting` before it looks at busy, and a CPU that finishes a job clears busy before it
 * looks at `waiting` and sends each waiter the SGI (both sides sequentially consistent,
 * so one of them sees the other and no wake-up is lost). Idle loops and waiters check
 * with IRQs masked and sleep in WFI, which an interrupt pending but masked still ends.
 *
 * The end (bmrt_finish): the CPU that ends the run stops its own sampling, sets every
 * other CPU's stop_req and sends it the SGI. Each stops its own timer and PMU in the SGI
 * handler (bmrt_sgi) and parks (bmrt_park: IRQs masked, parked set) at the end of the
 * interrupt, or after the console output or the drain it interrupted (irq.c), so a
 * parked CPU runs no handler, no drain and holds no lock. The ending CPU waits for every
 * parked flag (for the CPU wait at most), then flushes every parked CPU's state. */
#include "bmrt.h"
#include "rt.h"

extern char bmrt_cpu_stacks[];   /* entry.S: each CPU's guard, exception stack, guard, stack */

#define AFFINITY_MASK 0xFF00FFFFFFull
#define EVENT_STREAM (1u << 2 | 15u << 4)   /* CNTKCTL_EL1: a WFE wake-up every 2^16 ticks */

/* SGI target lists reach Aff0 0..15 (GICv3; GICv2 has 8 CPU interfaces); `waiting` has
 * a bit per CPU */
_Static_assert(BMRT_MAX_CPUS >= 1 && BMRT_MAX_CPUS <= 16, "BMPROF_A64_MAX_CPUS: 1 .. 16");

struct bmrt_cpu bmrt_cpus[BMRT_MAX_CPUS];
static volatile uint32_t ncpus = 1;
static volatile uint32_t go;
static volatile uint32_t waiting;            /* CPUs in bm_wait(), a bit each */
static uint32_t wait_ms = BMRT_CPU_WAIT_MS_DEFAULT;

extern char bmrt_secondary_entry[];
_Noreturn void bmrt_secondary_start(unsigned idx);

static uint64_t mpidr(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(v));
	return v & AFFINITY_MASK;
}

static uint64_t deadline(uint32_t ms)
{
	uint64_t hz;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	return bm_cycles() + (hz & 0xFFFFFFFFu) / 1000 * ms;
}

static int passed(uint64_t end) { return (int64_t)(bm_cycles() - end) >= 0; }

/* WFE wakes on another CPU's SEV, and at the latest on the timer's event stream (~1 ms at
 * QEMU's 62.5 MHz), so a flag that is never set ends in a timeout, not a hang. */
static void event_stream_on(void)
{
	__asm__ volatile("msr cntkctl_el1, %0; isb" : : "r"((uint64_t)EVENT_STREAM));
}

static void sev(void) { __asm__ volatile("dsb ish; sev" : : : "memory"); }

static int wait_flag(volatile uint32_t *flag, uint64_t end)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		if (passed(end))
			return 0;
		__asm__ volatile("wfe");
	}
	return 1;
}

unsigned bm_ncpus(void) { return ncpus; }
unsigned bm_cpu_id(void) { return bmrt_cpu(); }

int bmrt_cpu_parked(unsigned cpu)
{
	return __atomic_load_n(&bmrt_cpus[cpu].parked, __ATOMIC_ACQUIRE);
}

/* A CPU whose sampler set-up failed turns itself off (PSCI CPU_OFF) after saying so; once
 * it is off, its index (and stack) can go to the next CPU. */
static int turned_off(uint64_t target)
{
	uint64_t end = deadline(wait_ms);

	while (bmrt_psci(PSCI_AFFINITY_INFO, target, 0, 0) != PSCI_AFFINITY_OFF)
		if (passed(end))
			return 0;
	return 1;
}

/* Start the CPU with this MPIDR as index idx: 1 if it runs, 0 if not (it is not ours, or
 * its set-up failed and it is off again), -1 if bring-up ends here. */
static int start_cpu(uint64_t target, unsigned idx)
{
	struct bmrt_cpu *c = &bmrt_cpus[idx];
	int64_t r = bmrt_psci(PSCI_CPU_ON, target, (uintptr_t)bmrt_secondary_entry, idx);

	if (r == PSCI_INVALID_PARAMETERS || r == -1)     /* no such CPU, or no PSCI */
		return -1;
	if (r == PSCI_ALREADY_ON)   /* not ours to use */
		return 0;
	if (r) {
		bmrt_log(BMRT_WARN, "PSCI CPU_ON for MPIDR 0x%lx failed (%ld); using %u CPUs",
			 (unsigned long)target, (long)r, idx);
		return -1;
	}
	if (!wait_flag(&c->booted, deadline(wait_ms))) {
		bmrt_log(BMRT_WARN, "the CPU with MPIDR 0x%lx did not come up within %u ms; using "
			 "%u CPUs", (unsigned long)target, (unsigned)wait_ms, idx);
		return -1;
	}
	if (c->init_err) {
		bmrt_log(BMRT_ERR, "the CPU with MPIDR 0x%lx cannot sample (%s); left out",
			 (unsigned long)target, bmprof_a64_strerror(c->init_err));
		*c = (struct bmrt_cpu){ 0 };
		return turned_off(target) ? 0 : -1;
	}
	return 1;
}

/* Whether a CPU beyond the n in use exists (PSCI AFFINITY_INFO knows it). */
static int more_cpus(uint64_t me, unsigned n)
{
	for (uint64_t aff0 = n; aff0 < 16; aff0++) {
		uint64_t target = (me & ~0xFFull) | aff0;
		if (target != me && bmrt_psci(PSCI_AFFINITY_INFO, target, 0, 0) >= 0)
			return 1;
	}
	return 0;
}

void bmrt_smp_boot(uint32_t cpu_wait_ms)
{
	uint64_t me = mpidr();
	unsigned n = 1;

	wait_ms = cpu_wait_ms;
	event_stream_on();
	bmprof_a64_sgi_enable(BMRT_SGI, 1);
	for (uint64_t aff0 = 0; aff0 < 16 && n < BMRT_MAX_CPUS; aff0++) {
		uint64_t target = (me & ~0xFFull) | aff0;
		int r;

		if (target == me)
			continue;
		r = start_cpu(target, n);
		if (r < 0)
			break;
		n += (unsigned)r;
	}
	if (n == BMRT_MAX_CPUS && more_cpus(me, n))
		bmrt_log(BMRT_WARN, "the image supports %u CPUs (BMPROF_A64_MAX_CPUS); the others "
			 "stay off", n);
	ncpus = n;
}

void bmrt_smp_go(void)
{
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (unsigned i = 1; i < ncpus; i++)
		bmprof_a64_sgi_send(i, BMRT_SGI);
}

static void finished(struct bmrt_cpu *c)
{
	uint32_t w;

	__atomic_store_n(&c->busy, 0, __ATOMIC_SEQ_CST);
	w = __atomic_load_n(&waiting, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; w; i++, w >>= 1)
		if (w & 1)
			bmprof_a64_sgi_send(i, BMRT_SGI);
}

/* Touches no memory once CPU_OFF fails: another CPU may own this stack. */
static _Noreturn void turn_off(void)
{
	bmrt_psci(PSCI_CPU_OFF, 0, 0, 0);
	for (;;)
		__asm__ volatile("wfi");
}

/* Where the other CPUs wait for work, and are sampled waiting. */
static __attribute__((noinline)) _Noreturn void bmrt_idle(struct bmrt_cpu *c)
{
	for (;;) {
		irq_off();
		if (c->started != __atomic_load_n(&c->posted, __ATOMIC_ACQUIRE)) {
			c->started++;
			irq_on();
			c->fn(c->arg);
			finished(c);
			continue;
		}
		__asm__ volatile("wfi");
		irq_on();
		__asm__ volatile("isb");
	}
}

_Noreturn void bmrt_secondary_start(unsigned idx)
{
	struct bmrt_cpu *c = &bmrt_cpus[idx];
	int err;

	event_stream_on();
	err = bmprof_a64_cpu_init(idx);
	if (!err) {
		uintptr_t top = (uintptr_t)bmrt_cpu_stacks + (idx - 1) * CPU_STACKS + CPU_STACKS;
		bmprof_a64_sgi_enable(BMRT_SGI, 1);
		bmprof_a64_set_stack(top - CPU_STACK_SIZE, top);
	}
	c->init_err = err;
	__atomic_store_n(&c->booted, 1, __ATOMIC_RELEASE);
	sev();
	if (err)   /* the boot CPU reuses c and this stack once this CPU is off */
		turn_off();
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE) &&   /* SGI 1 (masked) ends the WFI */
	       !__atomic_load_n(&c->stop_req, __ATOMIC_ACQUIRE))
		__asm__ volatile("wfi");
	if (idx >= ncpus)   /* came up too late: not counted, not used */
		turn_off();
	if (c->stop_req)
		bmrt_park();
	bmprof_a64_start();
	bmrt_idle(c);
}

int bm_run_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct bmrt_cpu *c;
	uint32_t free = 0;

	if (cpu == 0 || cpu >= ncpus || !fn)
		return -1;
	c = &bmrt_cpus[cpu];
	if (!__atomic_compare_exchange_n(&c->busy, &free, 1, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return -1;
	c->fn = fn;
	c->arg = arg;
	__atomic_store_n(&c->posted, c->posted + 1, __ATOMIC_RELEASE);
	bmprof_a64_sgi_send(cpu, BMRT_SGI);
	return 0;
}

void bm_wait(unsigned cpu)
{
	struct bmrt_cpu *c;
	uint32_t bit = 1u << bmrt_cpu();
	uint64_t daif;

	if (cpu >= ncpus || cpu == bmrt_cpu())
		return;
	c = &bmrt_cpus[cpu];
	__asm__ volatile("mrs %0, daif" : "=r"(daif));
	irq_off();
	__atomic_fetch_or(&waiting, bit, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&c->busy, __ATOMIC_SEQ_CST)) {
		__asm__ volatile("wfi");
		__asm__ volatile("msr daif, %0; isb" : : "r"(daif) : "memory");
		irq_off();
	}
	__atomic_fetch_and(&waiting, ~bit, __ATOMIC_SEQ_CST);
	__asm__ volatile("msr daif, %0" : : "r"(daif) : "memory");
}

/* The sampler's other_irq: the runtime's SGI. A wake-up needs nothing more than the
 * interrupt; a stop request stops this CPU's sampling here, and irq.c parks it. */
void bmrt_sgi(uint32_t intid)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];

	if (intid == BMRT_SGI && !c->stopped &&
	    __atomic_load_n(&c->stop_req, __ATOMIC_ACQUIRE)) {
		bmprof_a64_stop();
		c->stopped = 1;
	}
}

_Noreturn void bmrt_park(void)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];

	irq_off();
	uart_unlock_mine();
	__atomic_store_n(&c->parked, 1, __ATOMIC_RELEASE);
	sev();
	for (;;)
		__asm__ volatile("wfi");
}

void bmrt_smp_stop(void)
{
	unsigned me = bmrt_cpu();
	uint64_t end;

	bmprof_a64_stop();
	for (unsigned i = 0; i < ncpus; i++) {
		if (i == me)
			continue;
		__atomic_store_n(&bmrt_cpus[i].stop_req, 1, __ATOMIC_RELEASE);
		bmprof_a64_sgi_send(i, BMRT_SGI);
	}
	sev();
	end = deadline(wait_ms);
	for (unsigned i = 0; i < ncpus; i++)
		if (i != me && !wait_flag(&bmrt_cpus[i].parked, end))
			bmrt_log(BMRT_WARN, "CPU %u did not stop within %u ms (IRQs masked?); its "
				 "samples are not sent", i, (unsigned)wait_ms);
}
