/* SPDX-License-Identifier: BSD-2-Clause */
/* The other CPUs: bring-up, their idle loop, the program's API (bm_ncpus, bm_cpu_id,
 * bm_run_on, bm_wait) and stopping them at the end of the run.
 *
 * Bring-up. bmrt_smp_find reads the APIC IDs of the enabled CPUs from the ACPI MADT.
 * bmrt_smp_start copies the trampoline (ap.S) below 1 MiB and starts the CPUs one at a
 * time with INIT, start-up, start-up (the SDM's MP initialization: 10 ms after INIT,
 * 200 us before the second start-up, which is sent only if the CPU has not checked in).
 * Each CPU loads the descriptor tables with its own TSS, sets itself up in the sampler as
 * the next index (its own timer, table, buffers and PMU), checks in and waits for
 * bmrt_smp_go; then it starts its own sampling and idles with `sti; hlt` (sampled as
 * idle) until bm_run_on hands it a function. A CPU that does not check in within the CPU
 * wait (config cpu_wait_ms), or whose sampler set-up fails, is sent INIT again (so it
 * cannot start late on the next CPU's stack) and left out; the next one takes its index.
 *
 * Stopping, by the CPU that ends the run (bmrt_finish): every other CPU gets a stop
 * request and the IPI. Its handler stops that CPU's sampling (its timer and counters:
 * only it can) and parks it (interrupts off, hlt for good), unless the CPU waits for or
 * holds the UART lock (console text, or a drain at interrupt exit): then it parks the
 * moment it lets go (bmrt_smp_after_unlock). So a parked CPU has stopped sampling, runs
 * no drain and holds no lock, and its state can be flushed from another CPU. A CPU that
 * keeps interrupts disabled for the CPU wait is not waited for longer. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#define MAX_LISTED 256         /* MADT entries read */
#define INIT_WAIT_US 10000
#define STARTUP_WAIT_US 200

enum { CPU_OFF, CPU_UP, CPU_FAILED, CPU_PARKED };
enum { JOB_IDLE, JOB_CLAIMED, JOB_RUN };

struct rtcpu {
	uint32_t apic_id;
	volatile uint32_t state;      /* CPU_* */
	volatile uint32_t job;        /* JOB_*: bm_run_on's mailbox */
	volatile uint32_t stop;       /* the run is ending: park */
	volatile uint32_t stop_wait;  /* park when the UART lock is let go */
	int err;                      /* bmprof_x86_init_cpu's result */
	void (*fn)(void *);
	void *arg;
} __attribute__((aligned(64)));

/* The parameter block inside the trampoline (ap.S). */
struct ap_params {
	uint64_t cr3, stack, entry;
	uint32_t cpu;
};

extern const char bmrt_ap_trampoline[], bmrt_ap_params[], bmrt_ap_trampoline_end[];

/* The other CPUs' stacks, each above a guard page that bmrt_paging_init unmaps. */
uint8_t bmrt_ap_stack[BMPROF_X86_MAX_CPUS > 1 ? BMPROF_X86_MAX_CPUS - 1 : 1]
		     [4096 + BMRT_AP_STACK] __attribute__((aligned(4096)));

static struct rtcpu cpus[BMPROF_X86_MAX_CPUS];
static unsigned ncpus = 1;
static volatile uint32_t go;
static uint32_t listed_id[MAX_LISTED];
static int listed = -1;
static uint32_t wait_ms = BMRT_CPU_WAIT_MS_DEFAULT;

/* Ring 3 runs on CPU 0 only, and cannot read the LAPIC. */
unsigned bmrt_cpu(void)
{
	unsigned i;

	if (bmrt_in_user())
		return 0;
	i = bmprof_x86_cpu_index();

	return i == BMPROF_X86_NO_CPU ? 0 : i;
}

unsigned bm_ncpus(void) { return ncpus; }
unsigned bm_cpu_id(void) { return bmrt_cpu(); }

static uint32_t load(const volatile uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store(volatile uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

static void delay_us(uint64_t us)
{
	uint64_t t = bm_cycles(), n = bm_cycles_hz() / 1000000 * us;

	while (bm_cycles() - t < n)
		cpu_relax();
}

/* Waits until the CPU wait after t0 for c to leave state from; returns its state. */
static uint32_t wait_state(const struct rtcpu *c, uint32_t from, uint64_t t0)
{
	uint64_t n = bm_cycles_hz() / 1000 * wait_ms;

	while (load(&c->state) == from && bm_cycles() - t0 < n)
		cpu_relax();
	return load(&c->state);
}

/* ---- the other CPUs' side ---- */

static _Noreturn void park(struct rtcpu *c)
{
	if (bmrt_in_user()) {
		bmrt_user_call(BMRT_UCALL_PARK, 0, 0);
		__builtin_unreachable();
	}
	cli();
	store(&c->state, CPU_PARKED);
	for (;;)
		__asm__ volatile("hlt");
}

/* A CPU with nothing to run waits here, interrupts enabled: timer ticks sample it (as
 * here) and drain its buffers at interrupt exit; the IPI wakes it for a job or a stop.
 * `sti; hlt` leaves no gap for an IPI to arrive unseen between the check and the halt. */
static __attribute__((noinline)) _Noreturn void bmrt_idle(struct rtcpu *c)
{
	for (;;) {
		cli();
		if (load(&c->job) == JOB_RUN) {
			sti();
			c->fn(c->arg);
			store(&c->job, JOB_IDLE);
			continue;
		}
		__asm__ volatile("sti; hlt" : : : "memory");
	}
}

static _Noreturn void ap_main(unsigned cpu)
{
	struct rtcpu *c = &cpus[cpu];

	bmrt_desc_load(cpu);
	c->err = bmprof_x86_init_cpu(cpu);
	if (c->err) {
		store(&c->state, CPU_FAILED);
		for (;;)
			__asm__ volatile("cli; hlt");
	}
	bmprof_x86_set_stack((uintptr_t)bmrt_ap_stack[cpu - 1] + 4096,
			     (uintptr_t)bmrt_ap_stack[cpu - 1] + sizeof bmrt_ap_stack[0]);
	store(&c->state, CPU_UP);
	sti();
	while (!load(&go))
		cpu_relax();
	bmprof_x86_start();
	bmrt_idle(c);
}

/* ---- the first CPU's side ---- */

void bmrt_smp_find(void)
{
	listed = bmrt_acpi_cpus(listed_id, MAX_LISTED);
}

/* Start the CPU with APIC ID id as CPU index; 0 once it is set up and waiting. */
static int start_one(uint32_t id, unsigned index)
{
	struct rtcpu *c = &cpus[index];
	struct ap_params *p = (struct ap_params *)(uintptr_t)(BMRT_AP_TRAMPOLINE +
		(uintptr_t)(bmrt_ap_params - bmrt_ap_trampoline));
	uint64_t cr3;

	*c = (struct rtcpu){ .apic_id = id };
	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	*p = (struct ap_params){
		.cr3 = cr3,
		.stack = (uintptr_t)bmrt_ap_stack[index - 1] + sizeof bmrt_ap_stack[0],
		.entry = (uintptr_t)ap_main,
		.cpu = index,
	};
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	bmrt_apic_send(id, BMRT_ICR_INIT);
	delay_us(INIT_WAIT_US);
	bmrt_apic_send(id, BMRT_ICR_STARTUP | BMRT_AP_TRAMPOLINE >> 12);
	delay_us(STARTUP_WAIT_US);
	if (load(&c->state) == CPU_OFF)
		bmrt_apic_send(id, BMRT_ICR_STARTUP | BMRT_AP_TRAMPOLINE >> 12);
	if (wait_state(c, CPU_OFF, bm_cycles()) == CPU_UP)
		return 0;
	bmrt_apic_send(id, BMRT_ICR_INIT);
	if (load(&c->state) == CPU_OFF)
		bmrt_log(BMRT_WARN, "the CPU with APIC ID %u did not start; left out", id);
	else
		bmrt_log(BMRT_ERR, "the CPU with APIC ID %u cannot sample: %s; left out", id,
			 bmprof_x86_strerror(c->err));
	return -1;
}

void bmrt_smp_start(uint32_t cpu_wait_ms)
{
	uint32_t self = bmrt_apic_id();
	unsigned n = listed < 0 ? 0 : listed > MAX_LISTED ? MAX_LISTED : (unsigned)listed;

	wait_ms = cpu_wait_ms;
	cpus[0] = (struct rtcpu){ .apic_id = self, .state = CPU_UP, .job = JOB_RUN };
	if (listed < 0) {
		bmrt_log(BMRT_WARN, "no ACPI MADT found: only the boot CPU runs");
		return;
	}
	memcpy((void *)(uintptr_t)BMRT_AP_TRAMPOLINE, bmrt_ap_trampoline,
	       (size_t)(bmrt_ap_trampoline_end - bmrt_ap_trampoline));
	for (unsigned i = 0; i < n && ncpus < BMPROF_X86_MAX_CPUS; i++)
		if (listed_id[i] != self && start_one(listed_id[i], ncpus) == 0)
			ncpus++;
	if ((unsigned)listed > BMPROF_X86_MAX_CPUS)
		bmrt_log(BMRT_WARN, "%d CPUs; this image samples on up to %u "
			 "(BMPROF_X86_MAX_CPUS)", listed, BMPROF_X86_MAX_CPUS);
}

void bmrt_smp_go(void) { store(&go, 1); }

uint32_t bmrt_smp_wait_ms(void) { return wait_ms; }

int bm_run_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct rtcpu *c;
	uint32_t idle = JOB_IDLE;

	if (cpu == 0 || cpu >= ncpus || !fn)
		return -1;
	c = &cpus[cpu];
	if (!__atomic_compare_exchange_n(&c->job, &idle, JOB_CLAIMED, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return -1;
	c->fn = fn;
	c->arg = arg;
	store(&c->job, JOB_RUN);
	bmrt_apic_send(c->apic_id, BMRT_ICR_FIXED | BMRT_IPI_VECTOR);
	return 0;
}

void bm_wait(unsigned cpu)
{
	if (cpu == 0 || cpu >= ncpus || cpu == bmrt_cpu())
		return;
	while (load(&cpus[cpu].job) != JOB_IDLE)
		cpu_relax();
}

/* ---- stopping ---- */

void bmrt_smp_ipi(void)
{
	unsigned me = bmrt_cpu();
	struct rtcpu *c = &cpus[me];

	bmrt_apic_eoi();
	if (!load(&c->stop))
		return;
	bmprof_x86_stop();
	if (bmrt_uart_busy(me)) {
		c->stop_wait = 1;
		return;
	}
	park(c);
}

void bmrt_smp_after_unlock(unsigned cpu)
{
	if (cpus[cpu].stop_wait)
		park(&cpus[cpu]);
}

_Noreturn void bmrt_smp_park(void)
{
	bmprof_x86_stop();
	bmrt_uart_force_unlock();
	park(&cpus[bmrt_cpu()]);
}

uint64_t bmrt_smp_stop_others(void)
{
	unsigned me = bmrt_cpu();
	uint64_t quiet = 1ull << me, t0;

	for (unsigned i = 0; i < ncpus; i++) {
		if (i == me)
			continue;
		store(&cpus[i].stop, 1);
		bmrt_apic_send(cpus[i].apic_id, BMRT_ICR_FIXED | BMRT_IPI_VECTOR);
	}
	t0 = bm_cycles();
	for (unsigned i = 0; i < ncpus; i++)
		if (i != me && wait_state(&cpus[i], CPU_UP, t0) == CPU_PARKED)
			quiet |= 1ull << i;
	return quiet;
}
