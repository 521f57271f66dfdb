/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof in-image component: the only header an integrating image includes (with its
 * architecture's, bmprof_x86_64.h or bmprof_aarch64.h, which include it). It includes the
 * wire format's constants (wire.h, from transport/ in the source tree).
 *
 * Freestanding C11: no libc, no allocator, no locks on the interrupt path. The integrator
 * hands bmprof its memory (bmprof_cpu_mem_size() bytes per CPU, 64-byte aligned) and a
 * byte sink for the stream (struct bmprof_out).
 *
 * Per CPU, the sample path is:
 *
 *   interrupt ─► bmprof_record(cpu, pc, event)
 *                  hash hit  ─► count++
 *                  hash miss ─► evict one entry of the 4-way bucket (round robin) into the
 *                               active overflow buffer, insert (pc, event, 1)
 *                               both overflow buffers full ─► the evicted count is lost
 *   outside the interrupt path (idle, poll, after the handler with interrupts enabled):
 *              bmprof_drain(cpu, out)   full overflow buffers ─► SAMPLES frames
 *   periodically, outside the interrupt path, with sampling running (optional):
 *              bmprof_flush_delta(cpu, out)  full buffers, the table (then emptied) and the
 *                               filling buffer ─► SAMPLES frames: a hang loses one interval
 *   at the end, with sampling stopped on that CPU:
 *              bmprof_flush(cpu, out)   hash table + buffers ─► SAMPLES frames, then TOTALS
 *
 * Invariant, per CPU, after bmprof_flush: taken == delivered + lost_full + lost_transport.
 * At any moment, taken == delivered + lost_full + lost_transport + the counts still held in
 * the table and the overflow buffers, which is what lets a host that stops a run that never
 * ends read them back from memory (bmprof_desc.h).
 */
#ifndef BMPROF_H
#define BMPROF_H

#include <stddef.h>
#include <stdint.h>
#include "wire.h"   /* frame types, enum bmprof_end_reason (BMPROF_END_EXIT), ... */

#ifdef __cplusplus
extern "C" {
#endif

#define BMPROF_WAYS 4
#define BMPROF_CACHE_LINE 64

/* One aggregated sample: 16 bytes, four to a 64-byte bucket. count == 0 marks a free slot.
 * stack: the call chain's id in the CPU's stack table (struct bmprof_stacks), 0 when the
 * sample has no chain recorded (stacks off, or an empty chain: pc is in the outermost
 * function), BMPROF_STACK_LOST when the stack table had no room for it. */
struct bmprof_entry {
	uint64_t pc;
	uint32_t count;
	uint16_t event;          /* the key: event id and phase (bmprof_event_key) */
	uint16_t stack;
};

/* ---- call stacks (stack.c, unwind.c) ----
 *
 * With stacks on, the handler walks the interrupted code's frame-pointer chain (bounded
 * depth, every frame pointer checked against the ranges below before it is read), finds
 * the chain's id in the CPU's stack table (a new chain gets the next id), and aggregates the
 * sample under (pc, event, stack id). The drain sends each new chain once, in a STACKS
 * frame, before the STACK_SAMPLES frames that use it. A chain that finds the table full is
 * recorded with BMPROF_STACK_LOST and counted (TOTALS stack_full): the sample still counts. */
#define BMPROF_STACK_LOST 0xFFFFu
#define BMPROF_STACK_IDS_MAX 0xFFFEu
#define BMPROF_STACK_DEPTH_MAX BMPROF_STACK_DEPTH_WIRE_MAX  /* frames a chain keeps at most */
#define BMPROF_STACK_DEPTH_DEFAULT 32u

/* The interrupted code's registers an unwind starts from. lr: AArch64's x30 (0 on x86-64).
 * frame: where an entry saved the rest of them, in its architecture's layout (the
 * ready-made entries' frames, bmprof_x86_64.h / bmprof_aarch64.h), for raw samples; NULL:
 * not saved. */
struct bmprof_regs {
	uint64_t pc, sp, fp, lr;
	const uint64_t *frame;
};

/* An address range [lo, hi); lo == hi: none. */
struct bmprof_range {
	uint64_t lo, hi;
};

/* Where an unwind may read: frame records only inside the interrupted CPU's stack or the
 * RAM range, instructions only inside the code range. */
struct bmprof_unwind_env {
	struct bmprof_range stack, ram, code;
};

/* A chain's flags are BMPROF_STACKF_* (wire.h, STACKS). */
struct bmprof_stack_def {
	uint32_t off;            /* first frame in frames[] */
	uint32_t hash;
	uint8_t depth, flags;
	uint16_t reserved;
};

/* One CPU's stack table: a hash index of ids over the definitions, and the frames. Ids are
 * handed out in order from 1; the handler writes, the drain side only reads definitions
 * below n (acquire), which never change once published. */
struct bmprof_stacks {
	uint16_t *index;          /* mask + 1 slots of ids, 0: free */
	struct bmprof_stack_def *def;   /* def[id - 1] */
	uint64_t *frames;
	uint32_t mask, max_ids, frames_cap, frames_used;
	volatile uint32_t n;      /* ids 1 .. n are defined */
	uint32_t sent;            /* ids 1 .. sent went out in STACKS frames */
	uint32_t depth;           /* the run-time bound on frames; 0: stacks off */
	uint32_t reserved;
	uint64_t full;            /* samples recorded as BMPROF_STACK_LOST */
};

/* ---- raw samples (raw.c) ----
 *
 * In raw mode each sample also goes, whole, into the CPU's raw ring: the delivered pc, the
 * event and the interrupted general registers, numbered as DWARF numbers them (wire.h,
 * RAW_SAMPLES), with a mask of the ones captured, and room for a data address the
 * hardware gives. The handler appends at head unless the ring is full (the sample is then
 * counted in lost_full); the drain side sends records from tail in RAW_SAMPLES frames and
 * moves tail. Per CPU: raw taken == raw delivered + lost_full + lost_transport + the
 * records still in the ring. */
#define BMPROF_RAW_REGS BMPROF_RAW_REGS_MAX

struct bmprof_raw {
	uint64_t pc;
	uint64_t data_addr;       /* with BMPROF_RAWF_DATA_ADDR in flags */
	uint32_t valid;           /* bit i: r[i] was captured */
	uint16_t event;
	uint8_t flags;            /* BMPROF_RAWF_* (wire.h) */
	uint8_t reserved;
	uint64_t r[BMPROF_RAW_REGS];
};

struct bmprof_raw_ring {
	struct bmprof_raw *slot;  /* cap records; cap 0: raw mode off */
	uint32_t cap;
	uint8_t arch, nregs;      /* RAW_SAMPLES header: enum bmprof_arch, register slots */
	volatile uint16_t sending;  /* records from tail in the frame being written */
	volatile uint32_t head;   /* records written, modulo 2^32 (the handler's) */
	volatile uint32_t tail;   /* records consumed, modulo 2^32 (the drain side's) */
	uint32_t frames;          /* RAW_SAMPLES sequence number */
	uint64_t taken, delivered, lost_full, lost_transport;
};

struct bmprof_bucket {
	struct bmprof_entry way[BMPROF_WAYS];
} __attribute__((aligned(BMPROF_CACHE_LINE)));

/* ---- phases (phase.c) ----
 *
 * A phase names a stretch of the run: a boot stage, a test case. bmprof_set_phase(id)
 * makes every sample taken after it, on every CPU, belong to phase id (1 ..
 * BMPROF_PHASE_MAX; 0, the start: no phase). The table keeps phases apart: an entry's event
 * field holds the event id in its low BMPROF_EVENT_BITS bits and the phase above them, and
 * the wire carries event_id + (phase << 16) (SAMPLES, wire version 3). The name goes to the
 * host once, in a PHASE frame (bmprof_emit_phase), from outside the interrupt path. */
#define BMPROF_EVENT_BITS BMPROF_KEY_EVENT_BITS
#define BMPROF_EVENT_MASK ((1u << BMPROF_EVENT_BITS) - 1u)
#define BMPROF_PHASE_MAX BMPROF_PHASE_ID_MAX
#define BMPROF_PHASE_NAME_MAX 63u

extern volatile uint16_t bmprof_phase_now;

/* Start phase id (taken modulo BMPROF_PHASE_MAX + 1) on every CPU: samples taken after the
 * store is seen go to it. */
void bmprof_set_phase(uint16_t id);
/* The key an entry holds for event (its low BMPROF_EVENT_BITS bits) in the current phase. */
static inline uint16_t bmprof_event_key(uint16_t event)
{
	return (uint16_t)((event & BMPROF_EVENT_MASK) |
			  (uint16_t)(bmprof_phase_now << BMPROF_EVENT_BITS));
}
/* The event id and the phase of an entry's key. */
static inline uint16_t bmprof_key_event(uint16_t key) { return key & BMPROF_EVENT_MASK; }
static inline uint16_t bmprof_key_phase(uint16_t key) { return key >> BMPROF_EVENT_BITS; }

/* Overflow buffer states. The handler fills the FILLING one; when it is full the handler
 * marks it FULL and switches to the other if that one is EMPTY. The drain side only
 * touches FULL buffers and hands them back as EMPTY. */
enum { BMPROF_OVF_EMPTY = 0, BMPROF_OVF_FILLING = 1, BMPROF_OVF_FULL = 2 };

struct bmprof_ovf {
	struct bmprof_entry *slot;
	uint32_t cap;
	volatile uint32_t fill;
	volatile uint32_t state;
};

/* The entries the drain side is handing to the transport, for a host reading memory
 * (bmprof_desc.h): entries [0, done) of src are counted in delivered or lost_transport,
 * and the SAMPLES frame seq holding [done, end) is being written. src NONE: no transfer. */
enum { BMPROF_XFER_NONE = 0, BMPROF_XFER_OVF0 = 1, BMPROF_XFER_OVF1 = 2, BMPROF_XFER_TABLE = 3 };

struct bmprof_xfer {
	volatile uint32_t src;    /* BMPROF_XFER_*; TABLE: the table, its used entries moved
				   * to the front, n of them */
	volatile uint32_t n;      /* entries being sent: [0, n) of src */
	volatile uint32_t done;
	volatile uint32_t end;
	volatile uint32_t seq;
	uint32_t reserved;
	volatile uint64_t samples; /* counts in [done, end) */
};

struct bmprof_counters {
	uint64_t taken;          /* samples the handler took */
	uint64_t hits;           /* hash hits */
	uint64_t misses;         /* hash misses */
	uint64_t evictions;      /* entries moved to an overflow buffer */
	uint64_t delivered;      /* samples (sum of counts) handed to the transport */
	uint64_t lost_full;      /* samples dropped because both overflow buffers were full */
	uint64_t lost_transport; /* samples dropped because the transport failed */
	uint64_t frames;         /* SAMPLES sequence numbers used: frames sent, refused ones too */
	/* raw samples (raw mode) */
	uint64_t raw_taken, raw_delivered, raw_lost_full, raw_lost_transport, raw_frames;
};

/* Per-CPU state. The first cache line holds everything a hash hit touches. */
struct bmprof_cpu {
	/* line 0: the hit path */
	struct bmprof_bucket *table;
	uint32_t mask;            /* buckets - 1 (a power of two) */
	uint32_t rr;              /* round-robin way for the next eviction ("mod counter") */
	uint64_t taken;
	uint64_t hits;
	uint16_t active;          /* index of the overflow buffer being filled */
	volatile uint16_t in_record; /* set while bmprof_record runs (bmprof_desc.h) */
	volatile uint32_t flushing; /* set: the handler writes straight to the overflow buffer */
	uint64_t rng;             /* xorshift state for period randomization */
	uint64_t period;          /* nominal period */
	uint64_t jitter;          /* randomization window below the nominal period */
	/* line 1+: the miss path and the drain side */
	struct bmprof_ovf ovf[2] __attribute__((aligned(BMPROF_CACHE_LINE)));
	uint64_t misses;
	uint64_t evictions;
	uint64_t lost_full;
	uint64_t delivered;
	uint64_t lost_transport;
	uint32_t frames;          /* SAMPLES frame sequence number */
	uint16_t cpu_id;
	volatile uint16_t draining; /* a drain is running on this CPU: do not start another */
	/* Timebase ticks this CPU ran outside the sampling timer's handler while sampling,
	 * and ticks it sampled in all, sent in TOTALS (0: unknown). The architecture layer
	 * sets them before bmprof_flush (struct bmprof_timing). */
	uint64_t sampled_ticks;
	uint64_t enabled_ticks;
	/* For a host reading memory (bmprof_desc.h): set while the drain side rearranges the
	 * table or a buffer or updates its counters (it is clear while a frame is written) */
	volatile uint32_t in_drain;
	uint32_t reserved;
	struct bmprof_xfer xfer;
	/* The periodic flush (bmprof_set_flush_interval): its interval and next due time in the
	 * caller's clock (0: off), and how many ran. */
	uint64_t flush_every;
	uint64_t flush_next;
	uint64_t flushes;
	/* Call stacks (bmprof_stacks_init); depth 0: off */
	struct bmprof_stacks stacks;
	/* Raw samples (bmprof_raw_init); cap 0: off */
	struct bmprof_raw_ring raw;
} __attribute__((aligned(BMPROF_CACHE_LINE)));

/* What the workload ran while a sampling timer interrupted it, in timebase ticks: enabled
 * from start to stop, less each outermost handler's own time (timed from the deadline it
 * answers: delivery is not the workload's time either), less irqs times what an interrupt
 * costs beyond what its handler can time (untimed: delivery before a handler that cannot
 * see its deadline, the return after its last clock read; measured by a gap probe, see
 * boot/common/gapprobe.c), less what a hypervisor stole. Per CPU, touched only by that
 * CPU; irqs and last_handler are read by the gap probe. untimed is in 1/BMPROF_UNTIMED_ONE
 * ticks: a probe averages it finer than the timebase ticks (AArch64's generic timer
 * ticks every 16 instructions under QEMU -icount). */
#define BMPROF_UNTIMED_ONE 256
struct bmprof_timing {
	uint64_t started, enabled, handler;
	volatile uint64_t irqs, last_handler;
	int64_t untimed;
	int running;
};

void bmprof_timing_start(struct bmprof_timing *t, uint64_t now);
void bmprof_timing_stop(struct bmprof_timing *t, uint64_t now);
/* Where a handler entered at now times itself from: due, the deadline it answers, when that
 * is within a period before now; else now. */
uint64_t bmprof_timing_from(uint64_t due, uint64_t now, uint64_t period);
/* An outermost handler took ticks; counted as an interrupt while running. */
void bmprof_timing_handled(struct bmprof_timing *t, uint64_t ticks);
/* Forget the times (after a probe), keep untimed. */
void bmprof_timing_reset(struct bmprof_timing *t);
/* enabled - handler - untimed * irqs / BMPROF_UNTIMED_ONE - stolen, at least 0 */
uint64_t bmprof_timing_sampled(const struct bmprof_timing *t, uint64_t stolen);

/* The stream sink. write() must not fail silently: it returns 0 on success, non-zero if the
 * bytes could not be sent (the samples in them are then counted as lost_transport). */
struct bmprof_out {
	int (*write)(void *ctx, const void *buf, size_t len);
	void *ctx;
};

/* Memory a CPU needs for a table of table_entries entries (rounded up to a power of two
 * number of 4-way buckets) and two overflow buffers of ovf_entries each. 0 if a size is
 * invalid: table_entries must be 1 .. 2^30 and ovf_entries 1 .. 2^26. */
size_t bmprof_cpu_mem_size(uint32_t table_entries, uint32_t ovf_entries);

/* Set up one CPU's state in mem (64-byte aligned, bmprof_cpu_mem_size() bytes).
 * Returns 0, or -1 if the sizes are invalid or mem is too small or misaligned. */
int bmprof_cpu_init(struct bmprof_cpu *c, uint16_t cpu_id, void *mem, size_t len,
		    uint32_t table_entries, uint32_t ovf_entries, uint64_t seed);

/* Sampling period: each call to bmprof_next_period() returns a value uniform in
 * [nominal - jitter, nominal] (DCPI: [60K, 64K]). jitter may be 0; it is capped at nominal-1. */
void bmprof_set_period(struct bmprof_cpu *c, uint64_t nominal, uint64_t jitter);
uint64_t bmprof_next_period(struct bmprof_cpu *c);
/* The same draw for a period of one's own (one per PMU event), from the CPU's random
 * state: uniform in [nominal - jitter, nominal], jitter capped at nominal - 1. */
uint64_t bmprof_random_period(struct bmprof_cpu *c, uint64_t nominal, uint64_t jitter);

/* The interrupt path: record one sample of event (0 .. BMPROF_EVENT_MASK) in the current
 * phase. Never blocks, never allocates. */
void bmprof_record(struct bmprof_cpu *c, uint64_t pc, uint16_t event);
/* The same with the id of its call chain (bmprof_stack_id). */
void bmprof_record_stack(struct bmprof_cpu *c, uint64_t pc, uint16_t event, uint16_t stack);

/* Memory one CPU's stack table needs for `entries` distinct chains (1 .. 65534) holding
 * `frames` frames in all (at least 1); 0 if a size is invalid. */
size_t bmprof_stacks_mem_size(uint32_t entries, uint32_t frames);
/* Turn stacks on for c with chains of at most depth frames (1 .. BMPROF_STACK_DEPTH_MAX) in
 * mem (8-byte aligned, bmprof_stacks_mem_size() bytes). 0, or -1 if a size is invalid. */
int bmprof_stacks_init(struct bmprof_cpu *c, void *mem, size_t len, uint32_t entries,
		       uint32_t frames, uint32_t depth);
/* The interrupt path: the id of the chain frames[0..n) with flags (new ones are added),
 * or BMPROF_STACK_LOST, counted in c->stacks.full, when the table has no room. 0 for an
 * empty chain without flags. */
uint16_t bmprof_stack_id(struct bmprof_cpu *c, const uint64_t *frames, unsigned n,
			 uint8_t flags);
/* Follow the frame-pointer chain from fp: frame records { next fp, return address } of 16
 * bytes at fp + rec_off: at the frame pointer (rec_off 0) as x86-64 (rbp) and AArch64
 * (x29) lay them out, just below it (rec_off -16) on RISC-V (s0). Each record must be
 * 8-byte aligned, lie wholly inside one of the ranges (the one the first record is in),
 * and each frame pointer be above the previous one; the walk stops at the first that is
 * not, at a zero return address, or after max frames. The return addresses go to out;
 * returns how many. *more is set when max stopped a chain that went on. Never reads
 * outside the ranges. */
unsigned bmprof_walk_fp(uint64_t fp, int rec_off, const struct bmprof_range *ranges,
			unsigned nranges, uint64_t *out, unsigned max, int *more);
/* addr .. addr + len - 1 is inside r (no wrap-around). */
static inline int bmprof_in_range(const struct bmprof_range *r, uint64_t addr, uint64_t len)
{
	return addr >= r->lo && addr + len >= addr && addr + len <= r->hi;
}

/* Memory one CPU's raw ring needs for `entries` records (1 .. 2^20); 0 if invalid. */
size_t bmprof_raw_mem_size(uint32_t entries);
/* Turn raw mode on for c: a ring of `entries` records in mem (8-byte aligned,
 * bmprof_raw_mem_size() bytes) for registers numbered for arch (enum bmprof_arch) with
 * nregs slots (1 .. BMPROF_RAW_REGS). 0, or -1 if a size is invalid. */
int bmprof_raw_init(struct bmprof_cpu *c, void *mem, size_t len, uint32_t entries,
		    uint8_t arch, uint8_t nregs);
/* The interrupt path: append one raw sample (copied), or count it lost when the ring is
 * full. Never blocks; a no-op with raw mode off. Not re-entrant on one CPU (as
 * bmprof_record). */
void bmprof_record_raw(struct bmprof_cpu *c, const struct bmprof_raw *s);
/* Raw records waiting in the ring. */
static inline uint32_t bmprof_raw_pending(const struct bmprof_cpu *c)
{
	return c->raw.head - c->raw.tail;
}

/* Non-zero when a full overflow buffer (or a half-full raw ring) waits for bmprof_drain(). */
int bmprof_drain_pending(const struct bmprof_cpu *c);

/* Outside the interrupt path: send every FULL overflow buffer as SAMPLES frames (and,
 * in raw mode, the raw ring once it is half full as RAW_SAMPLES frames).
 * Safe against the handler interrupting it on the same CPU. Not re-entrant: a call made
 * while a drain runs on this CPU returns at once. */
void bmprof_drain(struct bmprof_cpu *c, const struct bmprof_out *out);

/* Sampling must be stopped on this CPU. Sends every overflow buffer and every hash entry
 * as SAMPLES frames, leaves the table empty, then sends this CPU's TOTALS frame. Like
 * bmprof_drain, returns at once if a drain or flush is already running on this CPU. */
void bmprof_flush(struct bmprof_cpu *c, const struct bmprof_out *out);

/* With sampling running, outside the sampling handler, on the CPU c samples on (or on any
 * CPU while c's sampling is stopped): send what c holds so far as SAMPLES frames, the full
 * overflow buffers, the table's entries (the table is emptied: meanwhile the handler puts
 * samples straight into an overflow buffer, c->flushing), then the filling buffer. The
 * deltas add up: the samples of every delta and of the final bmprof_flush are what one
 * final flush would have sent. No TOTALS. Returns at once if a drain or flush is already
 * running on this CPU. */
void bmprof_flush_delta(struct bmprof_cpu *c, const struct bmprof_out *out);

/* A periodic flush: every `every` ticks of a clock of the caller's (0: never), the first
 * one `every` after now. bmprof_service() runs it when due. */
void bmprof_set_flush_interval(struct bmprof_cpu *c, uint64_t every, uint64_t now);
static inline int bmprof_flush_due(const struct bmprof_cpu *c, uint64_t now)
{
	return c->flush_every && (int64_t)(now - c->flush_next) >= 0;
}
/* Outside the interrupt path: bmprof_flush_delta() when the interval is due (the next one
 * then falls an interval after now), else bmprof_drain(). */
void bmprof_service(struct bmprof_cpu *c, const struct bmprof_out *out, uint64_t now);

/* A snapshot of the counters. */
void bmprof_get_counters(const struct bmprof_cpu *c, struct bmprof_counters *k);

/* ---- stream frames (transport/target): build one frame and hand it to out ---- */

struct bmprof_hello {
	uint8_t arch;            /* enum bmprof_arch (transport/wire.h) */
	uint8_t source;          /* enum bmprof_source */
	uint16_t ncpus;
	uint64_t timebase_hz;
	uint64_t load_bias;
	char vendor[16];
	uint32_t family, model, stepping, signature;
	uint8_t build_id_len;
	const uint8_t *build_id;
	uint64_t core_hz;        /* the core clock measured at boot; 0: unknown */
};

/* An EVENT frame (transport/wire.h). counter is sent only for counter_kind GP or FIXED
 * (else 0xff), group only when ngroups > 1 (else 0xff), ngroups as at least 1, so a
 * zero-initialized tail describes an active, unmultiplexed event on no counter. */
struct bmprof_event_desc {
	uint16_t id;
	uint8_t source;
	uint8_t flags;
	uint64_t encoding;
	uint64_t period;
	uint64_t jitter;
	const char *name;
	uint8_t status;          /* enum bmprof_event_status */
	uint8_t reason;          /* enum bmprof_event_reason */
	uint8_t counter_kind;    /* enum bmprof_counter_kind */
	uint8_t counter;
	uint8_t group;
	uint8_t ngroups;
	uint8_t precise;         /* enum bmprof_precise */
};

/* One COUNTS record (transport/wire.h). */
struct bmprof_count {
	uint16_t event;
	uint16_t flags;          /* bit 0: the counter wrapped and was extended by software */
	uint64_t value;
	uint64_t enabled;        /* timebase ticks */
	uint64_t running;
};

struct bmprof_end {
	int32_t exit_code;
	uint8_t reason;          /* enum bmprof_end_reason */
	uint32_t vector;
	uint64_t fault_pc;
	uint64_t fault_addr;
};

/* Each returns out->write()'s result. type is a BMPROF_FRAME_*; len <= 65535. */
int bmprof_emit_frame(const struct bmprof_out *out, uint8_t type, const void *payload, uint16_t len);
int bmprof_emit_hello(const struct bmprof_out *out, const struct bmprof_hello *h);
int bmprof_emit_event(const struct bmprof_out *out, const struct bmprof_event_desc *e);
int bmprof_emit_end(const struct bmprof_out *out, const struct bmprof_end *e);
/* A PHASE frame: phase id began at time at (timebase ticks; 0: unknown) with name (at most
 * BMPROF_PHASE_NAME_MAX bytes are sent). */
int bmprof_emit_phase(const struct bmprof_out *out, uint16_t id, uint64_t at, const char *name);
/* COUNTS for cpu: n records in as many frames as 1024-byte payloads need (31 records each),
 * at least one frame. Stops at the first write() that fails and returns its result. */
int bmprof_emit_counts(const struct bmprof_out *out, uint16_t cpu, const struct bmprof_count *r,
		       unsigned n);

#ifdef __cplusplus
}
#endif

#endif
