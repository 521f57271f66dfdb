/* SPDX-License-Identifier: BSD-2-Clause */
/* Cost of the sampling body (bmprof_record) measured natively: the target core compiles for
 * the host unchanged. The figure that leads is the net cost: each sample is timed on its
 * own (lfence; rdtsc; call; rdtscp; lfence), as an interrupt handler would run it, right
 * after an empty function call timed the same way with the same preparation, and the
 * pair's difference is the sampling body's own cost, with the timing harness's taken
 * off. Also: calls back to back (no fences), eviction rates, the SAMPLES encoding
 * (bytes per entry, sorted as the drain sends them vs the order the buffer holds them), and
 * with call stacks: the handler's added cost (frame-pointer walk, stack-table lookup) per
 * frame, and the wire bytes per sample with stacks on against off; with raw samples: the
 * handler's added cost (the register file copied in DWARF order, appended to the ring), the
 * drain's cost per record (encoding, CRC, frame) and the wire bytes per record. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bmprof.h"
#include "wire.h"
#include "../target/core/core.h"

#if defined(__x86_64__)
#include <x86intrin.h>

#define SAMPLES 200000u
#define BASE_PC 0xffffffff81000000ull

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

/* small_pages: the memory on 4 KiB pages (no transparent huge pages), so that keys spread
 * over a large table miss the TLB whatever the system's huge-page setting. */
static struct bmprof_cpu *cpu_new(uint32_t table_entries, uint32_t ovf_entries, int small_pages)
{
	static struct bmprof_cpu cpus[16];
	static unsigned ncpus;
	struct bmprof_cpu *c = &cpus[ncpus++];
	size_t n = bmprof_cpu_mem_size(table_entries, ovf_entries);
	void *mem = small_pages ? mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				       -1, 0) : aligned_alloc(64, n);
	if (mem == MAP_FAILED)
		mem = 0;
	if (mem && small_pages)
		madvise(mem, n, MADV_NOHUGEPAGE);
	if (!mem || bmprof_cpu_init(c, 0, mem, n, table_entries, ovf_entries, 1) != 0) {
		fprintf(stderr, "core_bench: cannot set up a %u-entry table\n", table_entries);
		exit(1);
	}
	return c;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t *net_ticks, *call_ticks, *empty_ticks;

static int64_t pct(int64_t *v, unsigned n, unsigned p)
{
	qsort(v, n, sizeof *v, cmp_i64);
	return v[(uint64_t)n * p / 100 - (p == 100)];
}

struct result {
	double net;                          /* mean of the middle 90% of the differences */
	int64_t net_med, net_p90, call, empty;   /* medians (and the net's 90th percentile) */
	double evict_rate;
};

/* The mean of v[n/20 .. n-n/20) after sorting: the average cost, without the samples an
 * interrupt or a preemption of this thread landed in. */
static double trimmed_mean(int64_t *v, unsigned n)
{
	double sum = 0;
	unsigned lo = n / 20, hi = n - n / 20;
	qsort(v, n, sizeof *v, cmp_i64);
	for (unsigned i = lo; i < hi; i++)
		sum += (double)v[i];
	return sum / (double)(hi - lo);
}

enum cold { WARM, FLUSH_LINE };

static inline void prepare(struct bmprof_cpu *c, uint64_t pc, uint16_t ev, enum cold cold)
{
	if (cold == FLUSH_LINE) {
		_mm_clflush(&c->table[bmprof_bucket_index(c, pc, ev, 0)]);
		_mm_mfence();
	}
}

/* Time n samples (pcs[i], events[i]) one at a time, each paired with an empty call timed
 * just before it after the same preparation. With FLUSH_LINE the sample's bucket line is
 * flushed from every cache level first (outside the timed region). */
static struct result run(struct bmprof_cpu *c, const uint64_t *pcs, const uint16_t *evs,
			 unsigned n, enum cold cold)
{
	uint64_t out_bytes = 0;
	struct bmprof_out out = { null_write, &out_bytes };
	uint64_t ev0 = c->evictions, taken0 = c->taken;
	for (unsigned i = 0; i < n; i++) {
		prepare(c, pcs[i], evs[i], cold);
		uint64_t t0 = t_begin();
		empty_record(c, pcs[i], evs[i]);
		uint64_t t1 = t_end();
		prepare(c, pcs[i], evs[i], cold);
		uint64_t t2 = t_begin();
		bmprof_record(c, pcs[i], evs[i]);
		uint64_t t3 = t_end();
		empty_ticks[i] = (int64_t)(t1 - t0);
		call_ticks[i] = (int64_t)(t3 - t2);
		net_ticks[i] = call_ticks[i] - empty_ticks[i];
		if (bmprof_drain_pending(c))
			bmprof_drain(c, &out);
	}
	struct result r = { trimmed_mean(net_ticks, n), pct(net_ticks, n, 50), pct(net_ticks, n, 90),
			    pct(call_ticks, n, 50), pct(empty_ticks, n, 50), 0 };
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
		call_ticks[b] = (int64_t)(t_end() - t0);
		if (bmprof_drain_pending(c))
			bmprof_drain(c, &out);
	}
	return (double)pct(call_ticks, nb, 50) / 1000.0;
}

/* TSC ticks per second, against CLOCK_MONOTONIC over 100 ms. */
static double tsc_hz(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	uint64_t t0 = __rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec) < 100000000ll);
	uint64_t t1 = __rdtsc();
	return (double)(t1 - t0) * 1e9 /
	       (double)((b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec));
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

enum row { HIT_ONE, HIT_RANDOM, MISS_L1, HIT_TLB, HIT_FLUSHED, MISS_FLUSHED, ROWS };
enum col { NET, NET_MED, NET_P90, CALL, EMPTY, EVICT, COLS };
#define REPS 5

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median, lowest and highest of n values (sorts them). */
struct spread {
	double med, lo, hi;
};

static struct spread spread_of(double *v, unsigned n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return (struct spread){ n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1] };
}

static void fresh_pcs(uint64_t *pcs, uint16_t *evs, uint64_t *fresh)
{
	for (unsigned i = 0; i < SAMPLES; i++) {
		pcs[i] = (*fresh)++;
		evs[i] = 0;
	}
}

static void keep(double v[COLS][REPS], unsigned k, struct result r)
{
	v[NET][k] = r.net;
	v[NET_MED][k] = (double)r.net_med;
	v[NET_P90][k] = (double)r.net_p90;
	v[CALL][k] = (double)r.call;
	v[EMPTY][k] = (double)r.empty;
	v[EVICT][k] = r.evict_rate;
}

static const char *const row_name[ROWS] = {
	[HIT_ONE] = "hit, table in L1, one key repeated",
	[HIT_RANDOM] = "hit, table in L1, 255 keys drawn at random",
	[MISS_L1] = "miss + eviction, table in L1 (new pcs)",
	[HIT_TLB] = "hit, 64 MiB table, random keys: TLB miss + line",
	[HIT_FLUSHED] = "hit, 64 MiB table, line flushed: TLB warm",
	[MISS_FLUSHED] = "miss + eviction, 64 MiB table, line flushed",
};

static void print_spread(const char *what, double *v, const char *how)
{
	struct spread s = spread_of(v, REPS);
	printf("  %-34s %6.1f [%.1f .. %.1f] TSC ticks, %s\n", what, s.med, s.lo, s.hi, how);
}

static void record_cost(void)
{
	uint64_t *pcs = malloc(SAMPLES * sizeof *pcs);
	uint16_t *evs = calloc(SAMPLES, sizeof *evs);
	uint64_t fresh = BASE_PC + (1ull << 32);
	net_ticks = malloc(SAMPLES * sizeof *net_ticks);
	call_ticks = malloc(SAMPLES * sizeof *call_ticks);
	empty_ticks = malloc(SAMPLES * sizeof *empty_ticks);
	if (!pcs || !evs || !net_ticks || !call_ticks || !empty_ticks)
		exit(1);
	static double v[ROWS][COLS][REPS];
	double b_empty[REPS], b_hit[REPS], b_miss[REPS], hz = tsc_hz();
	uint64_t missed = 0;

	/* hot: a 16 KiB table (fits L1d), the ~256 keys it holds repeating */
	struct bmprof_cpu *hot = cpu_new(1024, 4096, 0);
	uint64_t keys[256];
	uint16_t kev[256];
	for (unsigned i = 0; i < 256; i++)
		bmprof_record(hot, BASE_PC + rnd() % (1u << 20), 0);
	unsigned nkeys = present_keys(hot, keys, kev, 256, 0);

	/* cold: 64 MiB (4M entries) on 4 KiB pages, filled twice over so buckets are full */
	uint32_t big = 1u << 22;
	struct bmprof_cpu *cold = cpu_new(big, 4096, 1);
	uint64_t bytes = 0;
	struct bmprof_out out = { null_write, &bytes };
	for (uint64_t i = 0; i < 2ull * big; i++) {
		bmprof_record(cold, BASE_PC + rnd() % (1ull << 30), 0);
		if (bmprof_drain_pending(cold))
			bmprof_drain(cold, &out);
	}

	/* the rows take turns, repetition after repetition */
	for (unsigned k = 0; k < REPS; k++) {
		uint64_t hits0 = hot->hits;
		for (unsigned i = 0; i < SAMPLES; i++) {
			pcs[i] = keys[0];
			evs[i] = kev[0];
		}
		keep(v[HIT_ONE], k, run(hot, pcs, evs, SAMPLES, WARM));
		for (unsigned i = 0; i < SAMPLES; i++) {
			unsigned j = (unsigned)(rnd() % nkeys);
			pcs[i] = keys[j];
			evs[i] = kev[j];
		}
		keep(v[HIT_RANDOM], k, run(hot, pcs, evs, SAMPLES, WARM));
		missed += 2 * SAMPLES - (hot->hits - hits0);
		b_empty[k] = run_batched(empty_record, hot, pcs, evs, SAMPLES);
		b_hit[k] = run_batched(bmprof_record, hot, pcs, evs, SAMPLES);
		fresh_pcs(pcs, evs, &fresh);
		keep(v[MISS_L1], k, run(hot, pcs, evs, SAMPLES, WARM));
		fresh_pcs(pcs, evs, &fresh);
		b_miss[k] = run_batched(bmprof_record, hot, pcs, evs, SAMPLES);
		for (unsigned i = 0; i < nkeys; i++)   /* the hot table back to its keys */
			bmprof_record(hot, keys[i], kev[i]);
		unsigned n = present_keys(cold, pcs, evs, SAMPLES, 1);
		keep(v[HIT_TLB], k, run(cold, pcs, evs, n, WARM));
		n = present_keys(cold, pcs, evs, SAMPLES, 1);
		keep(v[HIT_FLUSHED], k, run(cold, pcs, evs, n, FLUSH_LINE));
		fresh_pcs(pcs, evs, &fresh);
		keep(v[MISS_FLUSHED], k, run(cold, pcs, evs, SAMPLES, FLUSH_LINE));
	}

	double net_hit[REPS], net_miss[REPS];
	for (unsigned k = 0; k < REPS; k++) {
		net_hit[k] = b_hit[k] - b_empty[k];
		net_miss[k] = b_miss[k] - b_empty[k];
	}
	printf("bmprof_record, the sampling body, compiled for this host; TSC at %.2f GHz.\n"
	       "Each figure: the median of %u repetitions [lowest .. highest].\n\n", hz / 1e9, REPS);
	printf("net cost per sample, the timing harness taken off (table in L1):\n");
	print_spread("hit, one key repeated", v[HIT_ONE][NET], "timed alone");
	print_spread("hit, 255 keys at random", v[HIT_RANDOM][NET], "timed alone");
	print_spread("", net_hit, "back to back");
	print_spread("miss + eviction", v[MISS_L1][NET], "timed alone");
	print_spread("", net_miss, "back to back");
	printf("\ntimed alone: each sample timed as a handler runs it (lfence; rdtsc; call; rdtscp;\n"
	       "lfence) right after an empty call timed the same way with the same preparation; the\n"
	       "pair's difference is the net; net = its mean over the middle 90%% of %u samples (the\n"
	       "rest: interrupts, preemption), med/p90 its median and 90th percentile; call and empty\n"
	       "are the two medians (empty: the harness alone); evict = evictions per sample:\n\n",
	       SAMPLES);
	printf("  %-48s %6s %5s %5s %6s %6s %6s\n", "case", "net", "med", "p90", "call", "empty",
	       "evict");
	for (unsigned i = 0; i < ROWS; i++) {
		double c[COLS];
		for (unsigned j = 0; j < COLS; j++)
			c[j] = spread_of(v[i][j], REPS).med;
		printf("  %-48s %6.1f %5.0f %5.0f %6.0f %6.0f %6.3f\n", row_name[i], c[NET], c[NET_MED],
		       c[NET_P90], c[CALL], c[EMPTY], c[EVICT]);
	}
	if (missed)
		printf("  (%llu of the L1 hit rows' samples missed)\n", (unsigned long long)missed);
	printf("\n  one key repeated: a hot loop; every branch predicted.\n"
	       "  255 keys at random: which way of the bucket matches is unpredictable, so some\n"
	       "    samples pay a branch misprediction (the net is bimodal: its median moves).\n"
	       "  TLB miss + line: keys spread over the 64 MiB table, so the bucket's line is not in\n"
	       "    L1/L2 and its page's translation is not in the TLB (a page walk, 4 KiB pages).\n"
	       "  line flushed: the bucket's line clflushed just before, so it comes from memory, but\n"
	       "    the flush loaded the page's translation: no TLB miss (hence below the row above).\n");
	struct spread e = spread_of(b_empty, REPS);
	printf("\nback to back: batches of 1000 calls timed together (no fences; the out-of-order core\n"
	       "overlaps calls), 255 keys at random or new pcs; net = the batch's ticks per call less\n"
	       "an empty call's (%.1f ticks per call)\n", e.med);
	free(pcs);
	free(evs);
	free(net_ticks);
	free(call_ticks);
	free(empty_ticks);
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
	struct bmprof_cpu *c = cpu_new(4096, 2048, 0);
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

/* ---- call stacks ---- */

#define STACK_WORDS 4096
#define CHAINS 256

/* CHAINS chains of depth frames each in a stack of frame records: chain k's records at
 * stk[k * 2 * (depth + 1)], its return addresses all distinct from the other chains' in
 * the leaf's caller. Returns the first record of each chain in fp[]. */
static void build_chains(uint64_t *stk, unsigned depth, uint64_t *fp)
{
	for (unsigned k = 0; k < CHAINS; k++) {
		uint64_t *r = stk + (uint64_t)k * 2 * (depth + 1);
		fp[k] = (uint64_t)(uintptr_t)r;
		for (unsigned d = 0; d < depth; d++) {
			r[2 * d] = d + 1 < depth ? (uint64_t)(uintptr_t)&r[2 * (d + 1)] : 0;
			r[2 * d + 1] = BASE_PC + 0x1000 * d + (d == 0 ? k * 16 : 0);
		}
	}
}

__attribute__((noipa)) static void empty_stack_sample(struct bmprof_cpu *c, uint64_t pc,
						      uint64_t fp, const struct bmprof_range *r)
{
	(void)c;
	(void)pc;
	(void)fp;
	(void)r;
	__asm__ volatile("" ::: "memory");
}

/* What the handler adds with stacks on: the walk, the chain's id, the record under it. */
__attribute__((noipa)) static void stack_sample(struct bmprof_cpu *c, uint64_t pc, uint64_t fp,
						const struct bmprof_range *r)
{
	uint64_t f[BMPROF_STACK_DEPTH_MAX];
	int more;
	unsigned n = bmprof_walk_fp(fp, 0, r, 1, f, c->stacks.depth, &more);

	bmprof_record_stack(c, pc, 0, bmprof_stack_id(c, f, n, more ? BMPROF_STACKF_CUT : 0));
}

/* Mean net ticks (middle 90%) of a stacked sample at depth, over SAMPLES/10 samples. */
static double stack_cost_at(struct bmprof_cpu *c, uint64_t *stk, unsigned depth, int many)
{
	uint64_t fp[CHAINS];
	unsigned n = SAMPLES / 10;
	struct bmprof_range r = { (uintptr_t)stk, (uintptr_t)(stk + STACK_WORDS * 20) };

	build_chains(stk, depth, fp);
	for (unsigned i = 0; i < n; i++) {
		uint64_t f = fp[many ? rnd() % CHAINS : 0], pc = BASE_PC + 64 * (i % 64);
		uint64_t t0 = t_begin();
		empty_stack_sample(c, pc, f, &r);
		uint64_t t1 = t_end();
		uint64_t t2 = t_begin();
		stack_sample(c, pc, f, &r);
		uint64_t t3 = t_end();
		net_ticks[i] = (int64_t)(t3 - t2) - (int64_t)(t1 - t0);
	}
	return trimmed_mean(net_ticks, n);
}

static void stack_cost(void)
{
	static const unsigned depths[] = { 1, 4, 8, 16, 32, 64 };
	uint64_t *stk = aligned_alloc(64, STACK_WORDS * 20 * sizeof *stk);
	double v[6][2][REPS];

	net_ticks = malloc(SAMPLES * sizeof *net_ticks);
	call_ticks = malloc(SAMPLES * sizeof *call_ticks);
	empty_ticks = malloc(SAMPLES * sizeof *empty_ticks);
	if (!stk || !net_ticks || !call_ticks || !empty_ticks)
		exit(1);
	for (unsigned k = 0; k < REPS; k++) {
		struct bmprof_cpu *c = cpu_new(1 << 14, 4096, 0);
		static uint8_t smem[1 << 22] __attribute__((aligned(64)));
		if (bmprof_stacks_init(c, smem, sizeof smem, 8 * CHAINS, 64 * 8 * CHAINS,
				       BMPROF_STACK_DEPTH_MAX)) {
			fprintf(stderr, "core_bench: cannot set up the stack table\n");
			exit(1);
		}
		for (unsigned d = 0; d < 6; d++)
			for (int many = 0; many < 2; many++)
				v[d][many][k] = stack_cost_at(c, stk, depths[d], many);
	}
	printf("\ncall stacks: what the handler adds per sample (frame-pointer walk, stack-table\n"
	       "lookup, record under the chain's id), net TSC ticks timed alone as above, stack and\n"
	       "tables in cache; median of %u repetitions [lowest .. highest]:\n", REPS);
	for (unsigned d = 0; d < 6; d++) {
		char what[64];
		snprintf(what, sizeof what, "depth %2u, one chain", depths[d]);
		print_spread(what, v[d][0], "walk + id + record");
		snprintf(what, sizeof what, "depth %2u, %u chains at random", depths[d], CHAINS);
		print_spread(what, v[d][1], "walk + id + record");
	}
	double slope[REPS], slope_many[REPS];
	for (unsigned k = 0; k < REPS; k++) {
		slope[k] = (v[4][0][k] - v[0][0][k]) / 31.0;
		slope_many[k] = (v[4][1][k] - v[0][1][k]) / 31.0;
	}
	print_spread("per frame (depth 1 -> 32), one chain", slope, "added per frame");
	print_spread("per frame, 256 chains", slope_many, "added per frame");
	free(stk);
	free(net_ticks);
	free(call_ticks);
	free(empty_ticks);
}

struct wire_count {
	uint64_t bytes, stacks_bytes;
};

static int count_write(void *ctx, const void *buf, size_t len)
{
	struct wire_count *w = ctx;

	w->bytes += len;
	if (((const uint8_t *)buf)[4] == BMPROF_FRAME_STACKS)
		w->stacks_bytes += len;
	return 0;
}

/* The frame_sizes workload with a chain per pc (each pc's function has 1 to 4 call sites,
 * chains 6 to 20 deep over 400 functions), drained and flushed: wire bytes per sample with
 * stacks off and on. */
static void stack_wire_bytes(void)
{
	static uint8_t smem[1 << 24] __attribute__((aligned(64)));
	enum { PCS = 20000, FUNCS = 400, TAKEN = 2000000 };
	uint64_t *text = malloc(PCS * sizeof *text), (*chain)[20] = malloc(4 * PCS * sizeof *chain);
	unsigned *len = malloc(4 * PCS * sizeof *len);
	struct wire_count w[2] = { { 0, 0 }, { 0, 0 } };
	uint64_t funcs[FUNCS];

	if (!text || !chain || !len)
		exit(1);
	for (unsigned i = 0; i < FUNCS; i++)
		funcs[i] = BASE_PC + rnd() % (4u << 20);
	for (unsigned i = 0; i < PCS; i++) {
		text[i] = BASE_PC + rnd() % (4u << 20);
		for (unsigned j = 0; j < 4; j++) {
			unsigned k = 4 * i + j;
			len[k] = 6 + (unsigned)(rnd() % 15);
			for (unsigned d = 0; d < len[k]; d++)
				chain[k][d] = funcs[(i / 50 + d * 7 + (d == 0) * j) % FUNCS] + 0x40;
		}
	}
	for (int on = 0; on < 2; on++) {
		struct bmprof_cpu *c = cpu_new(4096, 2048, 0);
		struct bmprof_out out = { count_write, &w[on] };
		if (on && bmprof_stacks_init(c, smem, sizeof smem, 65000, 1500000, 32)) {
			fprintf(stderr, "core_bench: cannot set up the stack table\n");
			exit(1);
		}
		rng_state = 0x243f6a8885a308d3ull;
		for (unsigned i = 0; i < TAKEN; i++) {
			double u = (double)(rnd() >> 11) / 9007199254740992.0;
			unsigned k = (unsigned)(u * u * u * PCS), site = 4 * k + (unsigned)(rnd() % 4);
			uint16_t id = on ? bmprof_stack_id(c, chain[site], len[site], 0) : 0;
			bmprof_record_stack(c, text[k], 0, id);
			if (bmprof_drain_pending(c))
				bmprof_drain(c, &out);
		}
		bmprof_flush(c, &out);
		if (on)
			printf("  stacks on:  %.2f bytes/sample (%llu chains, %.1f%% of the bytes "
			       "their definitions; %llu samples without a chain)\n",
			       (double)w[1].bytes / TAKEN, (unsigned long long)c->stacks.n,
			       100.0 * (double)w[1].stacks_bytes / (double)w[1].bytes,
			       (unsigned long long)c->stacks.full);
		else
			printf("\nwire bytes per sample, %u samples of %u pcs (u^3) in a 4096-entry table,\n"
			       "each pc reached by 4 chains 6..20 deep over %u functions, drained and "
			       "flushed:\n  stacks off: %.2f bytes/sample\n", TAKEN, PCS, FUNCS,
			       (double)w[0].bytes / TAKEN);
	}
	printf("  ratio on/off %.2f\n", (double)w[1].bytes / (double)w[0].bytes);
	free(text);
	free(chain);
	free(len);
}

/* ---- raw samples ---- */

/* An interrupt entry's 15 saved registers (x86-64 save_frame order) by DWARF number. */
static const uint8_t frame_dwarf[15] = { 15, 14, 13, 12, 6, 3, 11, 10, 9, 8, 5, 4, 1, 2, 0 };

__attribute__((noipa)) static void empty_raw_sample(struct bmprof_cpu *c, uint64_t pc,
						    const uint64_t *frame)
{
	(void)c;
	(void)pc;
	(void)frame;
	__asm__ volatile("" ::: "memory");
}

/* What raw mode adds to the handler: the sample's register file (as the x86-64 op builds
 * it from the entry's frame) and its copy into the ring. */
__attribute__((noipa)) static void raw_sample(struct bmprof_cpu *c, uint64_t pc,
					      const uint64_t *frame)
{
	struct bmprof_raw s;

	s.pc = pc;
	s.flags = 0;
	s.event = 0;
	for (unsigned i = 0; i < 15; i++)
		s.r[frame_dwarf[i]] = frame[i];
	s.r[7] = frame[15];
	s.valid = 0xffff;
	bmprof_record_raw(c, &s);
}

static uint64_t raw_bytes;

static int raw_count_write(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	raw_bytes += len;
	return 0;
}

static void raw_cost(void)
{
	enum { RING = 64, N = SAMPLES / 10 };
	static struct bmprof_raw ring[RING];
	/* registers as a bare-metal loop holds them: pointers into a small image, counters */
	uint64_t frame[16] = { 0x40, 0x3ff, 0x263000, 0x2620a0, 0x102a40, 0x2630a0, 0x11fe80, 3,
			       0x1234, 0x8000000000000000ull, 0x263008, 0, 7, 0x101100, 0x262ff8,
			       0x11fe40 };
	double add[REPS], drain[REPS], bytes[REPS];

	net_ticks = malloc(SAMPLES * sizeof *net_ticks);
	if (!net_ticks)
		exit(1);
	static struct bmprof_cpu cpu;
	static uint8_t mem[1 << 16] __attribute__((aligned(64)));
	struct bmprof_cpu *c = &cpu;

	for (unsigned k = 0; k < REPS; k++) {
		struct bmprof_out out = { raw_count_write, 0 };
		uint64_t drained = 0, ticks = 0;
		if (bmprof_cpu_init(c, 0, mem, sizeof mem, 1024, 256, 1) ||
		    bmprof_raw_init(c, ring, sizeof ring, RING, BMPROF_ARCH_X86_64, 16))
			exit(1);
		for (unsigned i = 0; i < N; i++) {
			uint64_t pc = BASE_PC + 64 * (i % 64);
			frame[0] = i;
			uint64_t t0 = t_begin();
			empty_raw_sample(c, pc, frame);
			uint64_t t1 = t_end();
			uint64_t t2 = t_begin();
			raw_sample(c, pc, frame);
			uint64_t t3 = t_end();
			net_ticks[i] = (int64_t)(t3 - t2) - (int64_t)(t1 - t0);
			if (bmprof_raw_pending(c) == RING) {
				raw_bytes = 0;
				uint64_t t4 = t_begin();
				bmprof_drain(c, &out);
				ticks += t_end() - t4;
				drained += RING;
			}
		}
		add[k] = trimmed_mean(net_ticks, N);
		drain[k] = (double)ticks / (double)drained;
		bytes[k] = (double)raw_bytes / RING;
	}
	printf("\nraw samples (x86-64, 16 registers): what the handler adds per sample (register\n"
	       "file in DWARF order, copy into the ring), net TSC ticks timed alone as above; the\n"
	       "drain per record (encode, CRC-32, frame to a null sink); median of %u repetitions\n"
	       "[lowest .. highest]:\n", REPS);
	print_spread("handler, ring in cache", add, "regs + record_raw");
	print_spread("drain, per record", drain, "encode + crc + frame");
	struct spread b = spread_of(bytes, REPS);
	printf("  %-34s %6.1f bytes, frame header and CRC included\n", "wire bytes per record",
	       b.med);
	free(net_ticks);
}

int main(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof one, &one); /* best effort: fewer migrations */
	record_cost();
	frame_sizes();
	stack_cost();
	stack_wire_bytes();
	raw_cost();
	return 0;
}

#else
int main(void)
{
	puts("core_bench: skipped: the cycle counts need an x86-64 host (rdtsc)");
	return 0;
}
#endif
