/* SPDX-License-Identifier: BSD-2-Clause */
/* The other harts. QEMU virt starts every hart at _start; hart i (1 .. BMRT_MAX_CPUS-1)
 * waits in entry.S with only the machine software interrupt enabled until hart 0 has
 * cleared .bss and releases it (bmrt_release, then its msip), and runs
 * bmrt_secondary_start(i) on its own stack; CPU index = mhartid. Hart 0 starts as many as
 * the device tree lists, one at a time, each setting up its sampler; bring-up ends at the
 * first that does not come up within cpu_wait_ms.
 *
 * A started hart waits in wfi for work (bm_run_on posts fn/arg and sets its msip) and runs
 * it with interrupts on. The end of the run (finish.c) sets each one's stop_req and its
 * msip: its software interrupt stops its sampling, and it parks (interrupts off, wfi)
 * where it holds no lock and runs no drain, so the ending hart can flush its state. */
#include "bmrt.h"
#include "rt.h"

#define MSIP(h) ((volatile uint32_t *)(uintptr_t)(0x02000000u + 4u * (h)))

extern char bmrt_cpu_stacks[];   /* entry.S: hart i's is the (i - 1)th of 1 << CPU_STACK_SHIFT */

struct bmrt_cpu bmrt_cpus[BMRT_MAX_CPUS];
volatile uint64_t bmrt_release __attribute__((section(".data")));
static unsigned ncpus = 1;
static volatile uint32_t go;

unsigned bm_ncpus(void) { return ncpus; }
unsigned bm_cpu_id(void) { return bmrt_cpu(); }

void bmrt_msip(unsigned hart, int on) { *MSIP(hart) = (uint32_t)on; }

/* Wait for *f, ms milliseconds at most, on a hart whose sampling timer is not running
 * (before the start, after the stop): its mtimecmp (MTIE off, so it
 * never interrupts) is kept a millisecond ahead meanwhile. Under QEMU -icount the harts
 * take turns on one thread, each for as long as until the next timer deadline: with no
 * timer armed anywhere, this hart's spin would run for seconds before the hart it waits
 * for gets a turn. */
static int wait_flag(volatile uint32_t *f, uint32_t ms)
{
	volatile uint64_t *cmp = (volatile uint64_t *)(uintptr_t)(0x02004000u + 8u * bmrt_cpu());
	uint64_t tick = bmprof_rv_info()->timebase_hz / 1000;
	uint64_t t0 = bm_cycles(), limit = tick * ms, now;

	while (!__atomic_load_n(f, __ATOMIC_ACQUIRE)) {
		now = bm_cycles();
		if (now - t0 > limit)
			return -1;
		if (*cmp < now || *cmp > now + tick)
			*cmp = now + tick;
	}
	return 0;
}

void bmrt_smp_boot(uint32_t cpu_wait_ms)
{
	unsigned want = bmrt_fdt_harts((const void *)(uintptr_t)bmrt_dtb);

	if (want > BMRT_MAX_CPUS) {
		bmrt_log(BMRT_WARN, "%u harts; the image runs on the first %u (BMPROF_RV_MAX_CPUS)",
			 want, BMRT_MAX_CPUS);
		want = BMRT_MAX_CPUS;
	}
	__atomic_store_n(&bmrt_release, 1, __ATOMIC_RELEASE);
	for (unsigned i = 1; i < want; i++) {
		struct bmrt_cpu *c = &bmrt_cpus[i];

		bmrt_msip(i, 1);
		if (wait_flag(&c->booted, cpu_wait_ms)) {
			bmrt_log(BMRT_WARN, "hart %u did not start within %u ms; running on %u", i,
				 cpu_wait_ms, ncpus);
			break;
		}
		if (c->init_err) {
			bmrt_log(BMRT_WARN, "hart %u: %s; running on %u", i,
				 bmprof_rv_strerror(c->init_err), ncpus);
			break;
		}
		ncpus = i + 1;
	}
}

void bmrt_smp_go(void)
{
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (unsigned i = 1; i < ncpus; i++)
		bmrt_msip(i, 1);
}

_Noreturn void bmrt_park(void)
{
	irq_off();
	__asm__ volatile("csrw mie, zero" : : : "memory");
	__atomic_store_n(&bmrt_cpus[bmrt_cpu()].parked, 1, __ATOMIC_RELEASE);
	for (;;)
		__asm__ volatile("wfi");
}

int bmrt_cpu_parked(unsigned cpu)
{
	return cpu < ncpus && __atomic_load_n(&bmrt_cpus[cpu].parked, __ATOMIC_ACQUIRE);
}

/* The software interrupt: work was posted (the idle loop sees it), or stop. */
void bmrt_soft_irq(void)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];

	bmrt_msip(bmrt_cpu(), 0);
	if (__atomic_load_n(&c->stop_req, __ATOMIC_ACQUIRE) && !c->stopped) {
		bmprof_rv_stop();
		c->stopped = 1;
	}
}

/* Stop sampling on every other hart and wait (cpu_wait_ms at most) until each parked;
 * this hart's sampling is stopped already. */
void bmrt_smp_stop(uint32_t cpu_wait_ms)
{
	unsigned me = bmrt_cpu();

	for (unsigned i = 0; i < ncpus; i++)
		if (i != me) {
			__atomic_store_n(&bmrt_cpus[i].stop_req, 1, __ATOMIC_RELEASE);
			bmrt_msip(i, 1);
		}
	for (unsigned i = 0; i < ncpus; i++)
		if (i != me && wait_flag(&bmrt_cpus[i].parked, cpu_wait_ms))
			bmrt_log(BMRT_WARN, "hart %u did not stop within %u ms: its samples are lost",
				 i, cpu_wait_ms);
}

int bm_run_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct bmrt_cpu *c;
	uint32_t idle = 0;

	if (cpu == 0 || cpu >= ncpus || cpu == bmrt_cpu())
		return -1;
	c = &bmrt_cpus[cpu];
	if (!__atomic_compare_exchange_n(&c->busy, &idle, 1, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return -1;
	c->fn = fn;
	c->arg = arg;
	__atomic_store_n(&c->posted, c->posted + 1, __ATOMIC_RELEASE);
	bmrt_msip(cpu, 1);
	return 0;
}

void bm_wait(unsigned cpu)
{
	if (cpu == 0 || cpu >= ncpus || cpu == bmrt_cpu())
		return;
	while (__atomic_load_n(&bmrt_cpus[cpu].busy, __ATOMIC_ACQUIRE))
		__asm__ volatile("nop");
}

/* entry.S, on hart `hart` once released, with only MSIE enabled and interrupts off. */
_Noreturn void bmrt_secondary_start(unsigned hart)
{
	struct bmrt_cpu *c = &bmrt_cpus[hart];

	bmrt_msip(hart, 0);
	c->init_err = bmprof_rv_cpu_init(hart);
	if (!c->init_err) {
		uintptr_t lo = (uintptr_t)bmrt_cpu_stacks + ((uintptr_t)(hart - 1) << CPU_STACK_SHIFT);
		bmprof_rv_set_stack(lo, lo + (1ul << CPU_STACK_SHIFT));
	}
	__atomic_store_n(&c->booted, 1, __ATOMIC_RELEASE);
	if (c->init_err)
		bmrt_park();
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		__asm__ volatile("wfi");
	bmrt_msip(hart, 0);
	bmprof_rv_start();
	for (;;) {
		irq_off();
		if (c->stopped)
			bmrt_park();
		if (__atomic_load_n(&c->posted, __ATOMIC_ACQUIRE) != c->started) {
			c->started = c->posted;
			irq_on();
			c->fn(c->arg);
			__atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
			continue;
		}
		__asm__ volatile("wfi");
		irq_on();
	}
}
