/* SPDX-License-Identifier: BSD-2-Clause */
/* Console-heavy work on every CPU: each CPU spins, then prints a long line, LINES times,
 * so the drains' frames and every CPU's console text contend for the UART all the time,
 * and a CPU's own console output often holds off its drain (with small tables, samples
 * are then lost). Every line is "smp_chatty: cpu K line J <pattern> end" with the same
 * 124-character pattern, so a line broken by another CPU's text or by a frame shows. main
 * returns 0 when every CPU printed all its lines. With the run-time parameter drains=N,
 * each CPU runs a chain of jumps before its last line (every sample a new PC, so the
 * small table evicts and the buffers fill) until it has sent N SAMPLES frames, so frames
 * from drains come during the run however the host schedules the vCPUs. Portable. */
#include <bmrt.h>
#include "../progs/own_counters.h"

#define MAXCPU 8
#define LINES 24
#define SPIN 100000u
#define SLEDS_MAX 1000000u

static const char pattern[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	"ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba9876543210";
static unsigned printed[MAXCPU];
static uint64_t drains;

__attribute__((noinline)) static uint64_t spin(uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* 64 jumps, each to the next: under TCG each target starts a block, a PC to sample. */
__attribute__((noinline)) static void sled(void)
{
#if defined(__aarch64__)
	__asm__ volatile(".rept 64\n\tb 1f\n1:\n\t.endr" ::: "memory");
#else
	__asm__ volatile(".rept 64\n\tjmp 1f\n1:\n\t.endr" ::: "memory");
#endif
}

static void chat(void *arg)
{
	unsigned k = bm_cpu_id();
	uint64_t x = k + 1;
	uint32_t f0 = own_frames();

	(void)arg;
	for (unsigned j = 0; j < LINES; j++) {
		x = spin(x, SPIN);
		for (unsigned i = 0; j == LINES - 1 && i < SLEDS_MAX && own_frames() - f0 < drains; i++)
			sled();
		bm_printf("smp_chatty: cpu %u line %u %s end\n", k, j, pattern);
		__atomic_add_fetch(&printed[k], 1, __ATOMIC_RELEASE);
	}
}

int main(void)
{
	unsigned n = bm_ncpus(), bad = 0;

	if (n > MAXCPU)
		n = MAXCPU;
	drains = bm_param("drains", 0);
	for (unsigned k = 1; k < n; k++)
		bad |= bm_run_on(k, chat, 0) != 0;
	chat(0);
	for (unsigned k = 1; k < n; k++)
		bm_wait(k);
	for (unsigned k = 0; k < n; k++)
		bad |= __atomic_load_n(&printed[k], __ATOMIC_ACQUIRE) != LINES;
	bm_printf("smp_chatty: %u cpus, %s\n", n, bad ? "FAILED" : "ok");
	return (int)bad;
}
