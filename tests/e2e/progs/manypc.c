/* SPDX-License-Identifier: BSD-2-Clause */
/* Many distinct PCs: every CPU runs a chain of 16384 jumps, each to the next (under TCG
 * an interrupt is taken only where a translated block starts, so every jump target is a
 * PC the timer can sample), for about a second of guest time, so nearly every sample misses the hash table and is evicted, and the stream
 * carries a SAMPLES frame for every few hundred samples. It stresses the transport
 * (docs/transport-shm.md, tests/e2e/test_shm.sh). MANYPC_MS sets the duration. */
#include <bmrt.h>

#ifndef MANYPC_MS
#define MANYPC_MS 1000
#endif

__attribute__((noinline)) static void sled(void)
{
#if defined(__aarch64__)
	__asm__ volatile(".rept 16384\n\tb 1f\n1:\n\t.endr" ::: "memory");
#elif defined(__riscv)
	__asm__ volatile(".rept 16384\n\tj 1f\n1:\n\t.endr" ::: "memory");
#else
	__asm__ volatile(".rept 16384\n\tjmp 1f\n1:\n\t.endr" ::: "memory");
#endif
}

static void spin(void *arg)
{
	uint64_t end = *(const uint64_t *)arg;

	while (bm_cycles() < end)
		sled();
}

int main(void)
{
	uint64_t end = bm_cycles() + bm_cycles_hz() / 1000 * MANYPC_MS;
	unsigned n = bm_ncpus();

	for (unsigned c = 1; c < n; c++)
		bm_run_on(c, spin, &end);
	spin(&end);
	for (unsigned c = 1; c < n; c++)
		bm_wait(c);
	bm_printf("manypc: %u cpus, ok\n", n);
	return 0;
}
