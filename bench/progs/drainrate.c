/* SPDX-License-Identifier: BSD-2-Clause */
/* How many samples per second the sample path carries out of the guest when every sample
 * is a new pc (the stream's worst case: each sample becomes an entry of its own), with no
 * interrupt involved: the sampling timer is stopped and samples are recorded by direct
 * calls, each full overflow buffer drained at once. Two kinds of phase, interleaved:
 *   null       a CPU state of this program's own, drained into a sink that only counts
 *              bytes: record, evict, sort, encode, CRC
 *   transport  the runtime's CPU 0 drained through the run's transport (serial or shm):
 *              the same, plus the transport
 * Each phase prints its samples, TSC ticks, stream bytes and the samples the transport
 * lost (a full shared-memory ring refuses a frame). Used by bench/transport.sh. Parameters:
 * samples (per phase), rounds. */
#include <bmrt.h>
#include "bmprof.h"
#include "bmprof_x86_64.h"

#define TABLE BMPROF_X86_TABLE_ENTRIES
#define OVF BMPROF_X86_OVF_ENTRIES
#define PC_BASE 0x40000000ull
#define PC_SPAN_MASK 0xFFFFFFull   /* pcs spread over 16 MiB, as over a large text */

extern const struct bmprof_out bmrt_out;

/* the runtime's table sizes are powers of two: no rounding up */
static uint8_t own_mem[(TABLE + 2ul * OVF) * sizeof(struct bmprof_entry)]
	__attribute__((aligned(64)));
static struct bmprof_cpu own;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

struct counted {
	const struct bmprof_out *to;   /* 0: count only */
	uint64_t bytes;
};

static int counted_write(void *ctx, const void *buf, size_t len)
{
	struct counted *c = ctx;

	c->bytes += len;
	return c->to ? c->to->write(c->to->ctx, buf, len) : 0;
}

static uint64_t next_pc(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return PC_BASE + (rng & PC_SPAN_MASK & ~3ull);
}

static void run(struct bmprof_cpu *c, const struct bmprof_out *out, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		bmprof_record(c, next_pc(), BMPROF_X86_TIMER_EVENT);
		if (bmprof_drain_pending(c))
			bmprof_drain(c, out);
	}
}

static void phase(int transport, unsigned round, uint64_t n, int report)
{
	struct bmprof_cpu *c = transport ? bmprof_x86_cpu() : &own;
	struct counted k = { transport ? &bmrt_out : 0, 0 };
	struct bmprof_out out = { counted_write, &k };
	struct bmprof_counters a, b;
	uint64_t t0, t1;

	bmprof_get_counters(c, &a);
	t0 = bm_cycles();
	run(c, &out, n);
	t1 = bm_cycles();
	bmprof_get_counters(c, &b);
	if (report)
		bm_printf("drainrate: phase=%s round=%u samples=%llu ticks=%llu bytes=%llu "
			  "lost=%llu\n", transport ? "transport" : "null", round,
			  (unsigned long long)n, (unsigned long long)(t1 - t0),
			  (unsigned long long)k.bytes,
			  (unsigned long long)(b.lost_full + b.lost_transport - a.lost_full -
					       a.lost_transport));
}

int main(void)
{
	uint64_t n = bm_param("samples", 100000), rounds = bm_param("rounds", 5);

	bmprof_x86_stop();
	if (bmprof_cpu_init(&own, 0, own_mem, sizeof own_mem, TABLE, OVF, 1)) {
		bm_puts("drainrate: cannot set up the null CPU state");
		return 1;
	}
	bm_printf("drainrate: hz=%llu samples=%llu rounds=%llu table=%u ovf=%u\n",
		  (unsigned long long)bm_cycles_hz(), (unsigned long long)n,
		  (unsigned long long)rounds, TABLE, OVF);
	/* fill both tables so that every sample measured evicts */
	phase(0, 0, 2 * TABLE, 0);
	phase(1, 0, 2 * TABLE, 0);
	for (unsigned r = 1; r <= rounds; r++) {
		phase(r & 1, r, n, 1);
		phase(!(r & 1), r, n, 1);
	}
	return 0;
}
