/* SPDX-License-Identifier: BSD-2-Clause */
/* The bmprof demo: four kernels doing clearly different amounts of work: count_primes
 * (naive trial division), matmul (double precision, so SSE), sort_ints (heap sort) and
 * checksum (Fletcher sums over a buffer). The program times each one with the TSC and
 * prints the shares the profile should show. Under plain QEMU TCG the order is the one
 * above; under -icount guest time counts instructions, and matmul's few but slowly
 * emulated floating-point instructions fall to last. */
#include <bmrt.h>

/* the amounts of work; -D overrides them (a shorter run for tests) */
#ifndef BUF_BYTES
#define BUF_BYTES (256 * 1024)
#endif
#ifndef SORT_N
#define SORT_N 60000
#endif
#ifndef SORT_ROUNDS
#define SORT_ROUNDS 9
#endif
#ifndef MAT_N
#define MAT_N 96
#endif
#ifndef PRIME_LIMIT
#define PRIME_LIMIT 2400000
#endif
#ifndef CHECKSUM_ROUNDS
#define CHECKSUM_ROUNDS 40
#endif
#ifndef MATMUL_ROUNDS
#define MATMUL_ROUNDS 20
#endif

static uint8_t buf[BUF_BYTES];
static uint32_t ints[SORT_N];
static double ma[MAT_N][MAT_N], mb[MAT_N][MAT_N], mc[MAT_N][MAT_N];

static uint32_t rng_state = 12345;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Fletcher-style sums over the whole buffer. */
__attribute__((noinline)) static uint32_t checksum(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static inline __attribute__((always_inline)) void sift_down(uint32_t *v, size_t root, size_t n)
{
	while (2 * root + 1 < n) {
		size_t child = 2 * root + 1;
		if (child + 1 < n && v[child] < v[child + 1])
			child++;
		if (v[root] >= v[child])
			return;
		uint32_t t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

__attribute__((noinline)) static void sort_ints(uint32_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (size_t end = n; end-- > 1;) {
		uint32_t t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

__attribute__((noinline)) static void matmul(void)
{
	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++) {
			double s = 0;
			for (int k = 0; k < MAT_N; k++)
				s += ma[i][k] * mb[k][j];
			mc[i][j] = s;
		}
}

/* Deliberately naive: trial division by every odd number up to sqrt(n). */
__attribute__((noinline)) static uint32_t count_primes(uint32_t limit)
{
	uint32_t count = limit >= 2;

	for (uint32_t n = 3; n <= limit; n += 2) {
		int prime = 1;
		for (uint32_t d = 3; d * d <= n; d += 2)
			if (n % d == 0) {
				prime = 0;
				break;
			}
		count += prime;
	}
	return count;
}

static uint64_t ms(uint64_t cycles) { return cycles / (bm_cycles_hz() / 1000); }

int main(void)
{
	static const char *const name[4] = { "checksum", "sort_ints", "matmul", "count_primes" };
	uint64_t t[4], t0, total = 0;
	uint32_t sum = 0, primes;
	double trace = 0;

	bm_puts("demo: four kernels; the time each takes is measured with the TSC, and the");
	bm_puts("      profile should split its samples between them in the same proportions");

	for (size_t i = 0; i < BUF_BYTES; i++)
		buf[i] = (uint8_t)rng();
	t0 = bm_cycles();
	for (int r = 0; r < CHECKSUM_ROUNDS; r++) {
		buf[r] ^= (uint8_t)r;
		sum += checksum(buf, BUF_BYTES);
	}
	t[0] = bm_cycles() - t0;
	bm_printf("checksum      %2d x %d KiB          -> %08x\n", CHECKSUM_ROUNDS,
		  BUF_BYTES / 1024, sum);

	t[1] = 0;
	for (int r = 0; r < SORT_ROUNDS; r++) {
		for (size_t i = 0; i < SORT_N; i++)
			ints[i] = rng();
		t0 = bm_cycles();
		sort_ints(ints, SORT_N);
		t[1] += bm_cycles() - t0;
	}
	bm_printf("sort_ints     %2d x %d ints        -> smallest %u\n", SORT_ROUNDS, SORT_N,
		  ints[0]);

	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++) {
			ma[i][j] = (double)(i + j) / MAT_N;
			mb[i][j] = i == j ? 2.0 : 0.0;
		}
	t0 = bm_cycles();
	for (int r = 0; r < MATMUL_ROUNDS; r++)
		matmul();
	t[2] = bm_cycles() - t0;
	for (int i = 0; i < MAT_N; i++)
		trace += mc[i][i];
	bm_printf("matmul        %2d x %dx%d doubles   -> trace %d\n", MATMUL_ROUNDS, MAT_N,
		  MAT_N, (int)trace);

	t0 = bm_cycles();
	primes = count_primes(PRIME_LIMIT);
	t[3] = bm_cycles() - t0;
	bm_printf("count_primes  up to %d         -> %u primes\n", PRIME_LIMIT, primes);

	for (int k = 0; k < 4; k++)
		total += t[k];
	bm_puts("expected profile (share of the kernels' time):");
	for (int k = 3; k >= 0; k--)
		bm_printf("  %-13s %5llu ms  %3llu%%\n", name[k], (unsigned long long)ms(t[k]),
			  (unsigned long long)((t[k] * 100 + total / 2) / total));
	return 0;
}
