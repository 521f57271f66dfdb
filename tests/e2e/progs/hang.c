/* SPDX-License-Identifier: BSD-2-Clause */
/* A program that never ends, for bmprof qemu's recovery of what the image still holds.
 * Parameters (bm_param):
 *   mode=0  hot_work, then spin_forever in phase "spin" with interrupts enabled (it is
 *           sampled: the hot function of the run)
 *   mode=1  hot_work, then hang_masked: interrupts disabled, spinning (nothing more is
 *           sampled: hot_work is the hot function, and the stop finds the CPU in
 *           hang_masked)
 *   mode=2  as 1 on CPU 0, while CPU 1 runs spin_other with interrupts enabled
 *   work=N  hot_work's length: N million iterations of a 16-way switch (about 10
 *           instructions each), spread over many addresses so small tables evict
 * One console line says when hot_work is done, so a test can interrupt the run then. */
#include <bmrt.h>

#ifndef UNIT
#define UNIT 1000000ull
#endif

static inline void irq_off(void)
{
#if defined(__x86_64__)
	__asm__ volatile("cli" : : : "memory");
#elif defined(__aarch64__)
	__asm__ volatile("msr daifset, #3" : : : "memory");
#elif defined(__arm__)
	__asm__ volatile("cpsid i" : : : "memory");
#elif defined(__riscv)
	__asm__ volatile("csrci mstatus, 8" : : : "memory");
#endif
}

#define CASE(i)                                                        \
	case i:                                                        \
		x = x * (6364136223846793005ull + 2 * (i)) + (i);     \
		__asm__ volatile("" : "+r"(x));                        \
		break;
#define SWITCH(x)                                                      \
	switch ((x) >> 60) {                                           \
	CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)        \
	CASE(7) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13)    \
	CASE(14) CASE(15)                                              \
	}

__attribute__((noinline)) uint64_t hot_work(uint64_t x, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		SWITCH(x)
	return x;
}

__attribute__((noinline, noreturn)) void spin_forever(uint64_t x)
{
	for (;;)
		SWITCH(x)
}

__attribute__((noinline, noreturn)) void spin_other(uint64_t x)
{
	for (;;)
		SWITCH(x)
}

__attribute__((noinline, noreturn)) void hang_masked(void)
{
	irq_off();
	for (;;)
		__asm__ volatile("" : : : "memory");
}

static void other(void *arg)
{
	spin_other((uint64_t)(uintptr_t)arg);
}

int main(void)
{
	uint64_t mode = bm_param("mode", 0), work = bm_param("work", 20), x;

	if (mode == 2 && bm_ncpus() > 1)
		bm_run_on(1, other, (void *)7);
	x = hot_work(1, work * UNIT);
	bm_printf("hang: work done (%llx); %s\n", (unsigned long long)x,
		  mode ? "hanging with interrupts disabled" : "spinning");
	if (mode == 0) {
		bm_phase("spin");   /* what memory recovery finds keeps its phase */
		spin_forever(x);
	}
	hang_masked();
}
