/* Cost of the sampling body (bmprof_record) measured natively: the target core compiles for
 * the host unchanged. Each sample is timed on its own (lfence; rdtsc; call; rdtscp; lfence)
 * as an interrupt handler would run it, and every figure is set against an empty function
 * call timed the same way in the same run. Also: eviction rates, and the SAMPLES encoding
 * (bytes per entry, sorted as the drain sends them vs the order the buffer holds them). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmprof.h"
#include "wire.h"
#include "../target/core/core.h"

#if defined(__x86_64__)
#include <x86intrin.h>

#define SAMPLES 200000u
#define BASE_PC 0xffffffff81000000ull

static uint64_t *ticks;

static inline uint64_t t_begin(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}

static inline uint64_t t_end(void)
{
	unsigned aux;
	uint64_t t = __rdtscp(&aux);
	_mm_lfence();
	return t;
}

/* The baseline: a call the compiler can neither inline nor specialize. */
__attribute__((noipa)) static void empty_record(struct bmprof_cpu *c, uint64_t pc, uint16_t event)
{
	(void)c;
	(void)pc;
	(void)event;
	__asm__ volatile("" ::: "memory");
}

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static int null_write(void *ctx, const void *buf, size_t len)
{
	(void)buf;
	*(uint64_t *)ctx += len;
	return 0;
}

static struct bmprof_cpu *cpu_new(uint32_t table_entries, uint32_t ovf_entries)
{
	static struct bmprof_cpu cpus[8];
	static unsigned ncpus;
	struct bmprof_cpu *c = &cpus[ncpus++];
	size_t n = bmprof_cpu_mem_size(table_entries, ovf_entries);
	void *mem = aligned_alloc(64, n);
	if (!mem || bmprof_cpu_init(c, 0, mem, n, table_entries, ovf_entries, 1) != 0) {
		fprintf(stderr, "core_bench: cannot set up a %u-entry table\n", table_entries);
		exit(1);
	}
	return c;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

struct result {
	uint64_t median, p90;
	double evict_rate;
};

enum cold { WARM, FLUSH_LINE };

/* Time n samples (pcs[i], events[i]) one at a time. With FLUSH_LINE the sample's bucket line
 * is flushed from every cache level first (outside the timed region). */
static struct result run(void (*fn)(struct bmprof_cpu *, uint64_t, uint16_t), struct bmprof_cpu *c,
			 const uint64_t *pcs, const uint16_t *evs, unsigned n, enum cold cold)
{
	uint64_t out_bytes = 0;
	struct bmprof_out out = { null_write, &out_bytes };
	uint64_t ev0 = c->evictions, taken0 = c->taken;
	for (unsigned i = 0; i < n; i++) {
		if (cold == FLUSH_LINE) {
			_mm_clflush(&c->table[bmprof_bucket_index(c, pcs[i], evs[i])]);
			_mm_mfence();
		}
		uint64_t t0 = t_begin();
		fn(c, pcs[i], evs[i]);
		uint64_t t1 = t_end();
		ticks[i] = t1 - t0;
		if (bmprof_drain_pending(c))
			bmprof_drain(c, &out);
	}
	qsort(ticks, n, sizeof *ticks, cmp_u64);
	struct result r = { ticks[n / 2], ticks[n * 9 / 10], 0 };
	uint64_t taken = c->taken - taken0;
	r.evict_rate = taken ? (double)(c->evictions - ev0) / (double)taken : 0;
	return r;
}

/* Back to back: batches of 1000 calls timed together, so the fences' cost drops out and
 * calls overlap as the out-of-order core allows; median batch / 1000. */
static double run_batched(void (*fn)(struct bmprof_cpu *, uint64_t, uint16_t), struct bmprof_cpu *c,
			  const uint64_t *pcs, const uint16_t *evs, unsigned n)
{
	uint64_t out_bytes = 0;
	struct bmprof_out out = { null_write, &out_bytes };
	unsigned nb = n / 1000;
	for (unsigned b = 0; b < nb; b++) {
		const uint64_t *p = pcs + b * 1000;
		const uint16_t *e = evs + b * 1000;
		uint64_t t0 = t_begin();
		for (unsigned i = 0; i < 1000; i++)
			fn(c, p[i], e[i]);
		ticks[b] = t_end() - t0;
		if (bmprof_drain_pending(c))
			bmprof_drain(c, &out);
	}
	qsort(ticks, nb, sizeof *ticks, cmp_u64);
	return (double)ticks[nb / 2] / 1000.0;
}

static void row(const char *name, const char *table, struct result r, const struct result *base)
{
	printf("%-34s %8s %8llu %8llu %8lld %9.2fx %10.3f\n", name, table, (unsigned long long)r.median,
	       (unsigned long long)r.p90, (long long)r.median - (long long)base->median,
	       (double)r.median / (double)base->median, r.evict_rate);
}

/* Keys present in the table, in shuffled order: every one, or with sparse about max of
 * them spread over the whole table. */
static unsigned present_keys(const struct bmprof_cpu *c, uint64_t *pcs, uint16_t *evs, unsigned max,
			     int sparse)
{
	const struct bmprof_entry *t = bmprof_table_entries(c);
	uint64_t size = bmprof_table_size(c);
	unsigned n = 0;
	for (uint64_t i = 0; i < size && n < max; i += sparse ? 1 + rnd() % (2 * size / max + 1) : 1)
		if (t[i].count) {
			pcs[n] = t[i].pc;
			evs[n++] = t[i].event;
		}
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(rnd() % i);
		uint64_t tp = pcs[i - 1];
		uint16_t te = evs[i - 1];
		pcs[i - 1] = pcs[j];
		evs[i - 1] = evs[j];
		pcs[j] = tp;
		evs[j] = te;
	}
	return n;
}

static void record_cost(void)
{
	uint64_t *pcs = malloc(SAMPLES * sizeof *pcs);
	uint16_t *evs = calloc(SAMPLES, sizeof *evs);
	uint64_t fresh = BASE_PC + (1ull << 32);
	ticks = malloc(SAMPLES * sizeof *ticks);
	if (!pcs || !evs || !ticks)
		exit(1);

	printf("bmprof_record cost, TSC ticks per sample: each sample timed alone, %u samples per row\n",
	       SAMPLES);
	printf("(net = median minus the empty call's median; evict = evictions per sample)\n\n");
	printf("%-34s %8s %8s %8s %8s %10s %10s\n", "scenario", "table", "median", "p90", "net",
	       "vs empty", "evict");

	/* hot: a 16 KiB table (fits L1d), the ~256 keys it holds repeating */
	struct bmprof_cpu *hot = cpu_new(1024, 4096);
	uint64_t keys[256];
	uint16_t kev[256];
	for (unsigned i = 0; i < 256; i++)
		bmprof_record(hot, BASE_PC + rnd() % (1u << 20), 0);
	unsigned nkeys = present_keys(hot, keys, kev, 256, 0);
	for (unsigned i = 0; i < SAMPLES; i++)
		pcs[i] = keys[rnd() % nkeys];
	struct result base = run(empty_record, hot, pcs, evs, SAMPLES, WARM);
	row("empty call (baseline)", "-", base, &base);
	uint64_t hits0 = hot->hits;
	struct result r = run(bmprof_record, hot, pcs, evs, SAMPLES, WARM);
	char name[64];
	snprintf(name, sizeof name, "hit, hot (%u keys)", nkeys);
	row(name, "16 KiB", r, &base);
	if (hot->hits - hits0 != SAMPLES)
		printf("  (note: %llu of the samples missed)\n",
		       (unsigned long long)(SAMPLES - (hot->hits - hits0)));

	double b_empty = run_batched(empty_record, hot, pcs, evs, SAMPLES);
	double b_hit = run_batched(bmprof_record, hot, pcs, evs, SAMPLES);

	/* hot miss: every pc is new, the table is full, each miss evicts */
	for (unsigned i = 0; i < SAMPLES; i++)
		pcs[i] = fresh++;
	for (unsigned i = 0; i < 4096; i++)
		bmprof_record(hot, fresh++, 0);
	r = run(bmprof_record, hot, pcs, evs, SAMPLES, WARM);
	row("miss, hot (new pcs, evicting)", "16 KiB", r, &base);
	for (unsigned i = 0; i < SAMPLES; i++)
		pcs[i] = fresh++;
	double b_miss = run_batched(bmprof_record, hot, pcs, evs, SAMPLES);

	/* cold: 64 MiB (4M entries), filled twice over so buckets are full */
	uint32_t big = 1u << 22;
	struct bmprof_cpu *cold = cpu_new(big, 4096);
	uint64_t bytes = 0;
	struct bmprof_out out = { null_write, &bytes };
	for (uint64_t i = 0; i < 2ull * big; i++) {
		bmprof_record(cold, BASE_PC + rnd() % (1ull << 30), 0);
		if (bmprof_drain_pending(cold))
			bmprof_drain(cold, &out);
	}
	unsigned n = present_keys(cold, pcs, evs, SAMPLES, 1);
	r = run(bmprof_record, cold, pcs, evs, n, WARM);
	row("hit, random keys in 64 MiB", "64 MiB", r, &base);
	n = present_keys(cold, pcs, evs, SAMPLES, 1);
	r = run(bmprof_record, cold, pcs, evs, n, FLUSH_LINE);
	row("hit, bucket line flushed", "64 MiB", r, &base);
	for (unsigned i = 0; i < SAMPLES; i++) {
		pcs[i] = fresh++;
		evs[i] = 0;
	}
	r = run(bmprof_record, cold, pcs, evs, SAMPLES, FLUSH_LINE);
	row("miss, bucket line flushed", "64 MiB", r, &base);
	r = run(empty_record, cold, pcs, evs, SAMPLES, FLUSH_LINE);
	row("empty call, line flushed (check)", "64 MiB", r, &base);
	printf("\nback to back, hot table (batches of 1000 calls, no fences), TSC ticks per call:\n");
	printf("  empty call %.1f   hit %.1f (%.2fx)   miss+evict %.1f (%.2fx)\n", b_empty, b_hit,
	       b_hit / b_empty, b_miss, b_miss / b_empty);
	free(pcs);
	free(evs);
	free(ticks);
}

/* Bytes one SAMPLES frame sequence takes for entries in the given order. */
static uint64_t encoded_size(const struct bmprof_entry *e, uint32_t n)
{
	uint64_t total = 0, len = BMPROF_SAMPLES_FIXED, prev = 0;
	uint8_t tmp[3 * BMPROF_VARINT_MAX];
	for (uint32_t i = 0; i < n; i++) {
		for (int pass = 0; pass < 2; pass++) {
			unsigned k = bmprof_put_varint(tmp, e[i].event);
			k += bmprof_put_varint(tmp + k, bmprof_zigzag((int64_t)(e[i].pc - prev)));
			k += bmprof_put_varint(tmp + k, e[i].count);
			if (len + k <= BMPROF_SAMPLES_PAYLOAD) {
				len += k;
				break;
			}
			total += BMPROF_FRAME_HDR + len + BMPROF_FRAME_CRC;
			len = BMPROF_SAMPLES_FIXED;
			prev = 0;
		}
		prev = e[i].pc;
	}
	return total + BMPROF_FRAME_HDR + len + BMPROF_FRAME_CRC;
}

/* A profile-like stream: 20k pcs in a 4 MiB text, skewed (u^3), three events. */
static void frame_sizes(void)
{
	struct bmprof_cpu *c = cpu_new(4096, 2048);
	uint64_t bytes = 0, unsorted = 0, entries = 0, drain_ticks = 0, sort_ticks = 0;
	struct bmprof_entry *scratch = malloc(2048 * sizeof *scratch);
	struct bmprof_out out = { null_write, &bytes };
	uint64_t *text = malloc(20000 * sizeof *text);
	for (unsigned i = 0; i < 20000; i++)
		text[i] = BASE_PC + rnd() % (4u << 20);
	for (unsigned i = 0; i < 2000000; i++) {
		double u = (double)(rnd() >> 11) / 9007199254740992.0;
		unsigned k = (unsigned)(u * u * u * 20000);
		bmprof_record(c, text[k], (uint16_t)(k % 3));
		if (bmprof_drain_pending(c)) {
			for (int b = 0; b < 2; b++)
				if (c->ovf[b].state == BMPROF_OVF_FULL) {
					uint32_t n = c->ovf[b].fill;
					unsorted += encoded_size(c->ovf[b].slot, n);
					entries += n;
					memcpy(scratch, c->ovf[b].slot, n * sizeof *scratch);
					uint64_t t0 = t_begin();
					bmprof_sort_entries(scratch, n);
					sort_ticks += t_end() - t0;
				}
			uint64_t t0 = t_begin();
			bmprof_drain(c, &out);
			drain_ticks += t_end() - t0;
		}
	}
	printf("\nSAMPLES encoding of drained overflow buffers\n");
	printf("(2M samples, 20k pcs in 4 MiB, 4096-entry table)\n");
	printf("  evictions per sample %.3f, entries drained %llu\n",
	       (double)c->evictions / (double)c->taken, (unsigned long long)entries);
	printf("  sorted by pc (as sent)  %.2f bytes/entry\n", (double)bytes / (double)entries);
	printf("  buffer order            %.2f bytes/entry  (sorted is %.0f%% smaller)\n",
	       (double)unsorted / (double)entries, 100.0 * (1.0 - (double)bytes / (double)unsorted));
	printf("  drain cost (sort + encode + CRC) %.0f TSC ticks/entry, of which the sort %.0f\n",
	       (double)drain_ticks / (double)entries, (double)sort_ticks / (double)entries);
	free(scratch);
	free(text);
}

int main(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof one, &one); /* best effort: fewer migrations */
	record_cost();
	frame_sizes();
	return 0;
}

#else
int main(void)
{
	puts("core_bench: skipped: the cycle counts need an x86-64 host (rdtsc)");
	return 0;
}
#endif
