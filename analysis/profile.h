/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model: everything a recorded run says, in memory. No I/O here: frames come in
 * through profile_apply_frame() (from a live stream or a profile file, both read by
 * host/ code), and analyses read the model.
 *
 * Repeated frames: the first HELLO wins (a target that restarts says HELLO again; a later
 * one is counted in hellos, and in hello_mismatch if its build-id or arch differs). An
 * EVENT for an id already known replaces its description. A later TOTALS for a CPU
 * replaces the earlier one; a later END replaces the earlier one; a later COUNTS record for
 * a (cpu, event) replaces the earlier one. HOST_STREAM counters add up. LOG messages are
 * kept in order, the first PROFILE_MAX_LOGS of them (the rest are counted). A frame is
 * applied whole or not at all.
 */
#ifndef BMPROF_PROFILE_H
#define BMPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include "wire.h"
#include "regfile.h"

#define PROFILE_MAX_EVENTS 64
#define PROFILE_MAX_CPUS 256
/* Bounds that keep a crafted file from making loading quadratic: distinct HOST_META keys,
 * and (cpu, event) COUNTS records (a frame that would exceed them is rejected as malformed). */
#define PROFILE_MAX_META 256
#define PROFILE_MAX_COUNTS 4096
/* LOG messages kept, and the bytes kept of each (a longer one is cut there) */
#define PROFILE_MAX_LOGS 100
#define PROFILE_LOG_TEXT_MAX 1024

struct profile_hello {
	uint16_t version;
	uint8_t arch, source;
	uint16_t ncpus;
	uint64_t timebase_hz;
	uint64_t load_bias;
	char vendor[17];
	uint32_t family, model, stepping, signature;
	uint8_t build_id_len;
	uint8_t build_id[BMPROF_BUILD_ID_MAX];
	uint64_t core_hz;          /* appended in wire 1.2: the core clock measured; 0 unknown */
};

struct profile_event {
	uint16_t id;
	uint8_t source, flags;
	uint64_t encoding, period, jitter;
	char name[256];
	/* The fields appended in wire version 1.1. An older EVENT frame has none
	 * (have_status 0): status ACTIVE, reason NONE, counter_kind from source, counter
	 * and group 0xff, ngroups 1. */
	int have_status;
	uint8_t status;            /* enum bmprof_event_status */
	uint8_t reason;            /* enum bmprof_event_reason */
	uint8_t counter_kind;      /* enum bmprof_counter_kind */
	uint8_t counter;           /* index within the kind; 0xff: none */
	uint8_t group;             /* multiplexing group; 0xff: not multiplexed */
	uint8_t ngroups;           /* groups the PMU rotates through (1: none) */
	uint8_t precise;           /* enum bmprof_precise: PEBS, or why not (0 if not sent) */
};

/* One COUNTS record: the latest totals of an event on a CPU. */
struct profile_count {
	uint16_t cpu, event, flags;
	uint64_t value;            /* events counted while on the PMU */
	uint64_t enabled, running; /* timebase ticks enabled, and actually on a counter */
};

/* Counts of one event summed over CPUs (or of one CPU). */
struct profile_count_sum {
	uint64_t value, enabled, running;
	unsigned ncpus;            /* records summed */
};

struct profile_cpu {
	int seen;                  /* any frame named this CPU */
	int have_totals;
	uint64_t totals[BMPROF_TOTAL_NFIELDS];  /* as the target reported them */
	uint64_t received;         /* samples (sum of counts) in SAMPLES frames that arrived */
	uint64_t frames;           /* SAMPLES frames that arrived */
	uint64_t seq_gaps;         /* SAMPLES frames missing by sequence number */
	uint64_t seq_repeats;      /* SAMPLES frames whose seq went backwards (a restart?) */
	uint32_t next_seq;
	unsigned ntotals;          /* fields the TOTALS frame carried (may exceed the known ones) */
	/* raw samples (wire version 3): records in RAW_SAMPLES frames that arrived (kept or
	 * not), those frames, and their sequence gaps and repeats */
	uint64_t raw_received, raw_frames, raw_seq_gaps, raw_seq_repeats;
	uint32_t raw_next_seq;
};

/* One aggregated sample: count samples of event at pc on cpu. Packed (20 bytes): a profile
 * may hold tens of millions. */
struct profile_sample {
	uint64_t pc;
	uint64_t count;
	uint16_t event;
	uint16_t cpu;
} __attribute__((packed, aligned(4)));

struct profile_meta_kv { char *key, *value; };

/* Call stacks (wire version 2). A chain as the target defined it: the return addresses
 * from the leaf's caller to the outermost frame, frames[off .. off + depth) of
 * profile.stack_frames (runtime addresses), and its BMPROF_STACKF_* flags. Chain 0 is the
 * empty one (the leaf is the outermost function). */
struct profile_stack {
	uint32_t off;
	uint8_t depth, flags;
};
#define PROFILE_STACK_EMPTY 0u
#define PROFILE_STACK_NONE UINT32_MAX   /* a sample whose chain is not known */

/* A sample with its chain: count samples of event at pc on cpu under chain stack (an index
 * into profile.stacks, or PROFILE_STACK_NONE). As received, not merged. */
struct profile_stack_sample {
	uint64_t pc;
	uint64_t count;
	uint32_t stack;
	uint16_t event, cpu;
	uint16_t phase;            /* the phase it was taken in (0: the start) */
};

/* Phases (wire version 3, profile_phase.h): the names a PHASE frame gave (phases[id], for
 * ids 1 .. PROFILE_MAX_PHASES), and the samples taken in a phase other than 0 (the start):
 * as received, not merged; they are in samples too. */
#define PROFILE_MAX_PHASES BMPROF_PHASE_ID_MAX
#define PROFILE_PHASE_NAME_MAX 255
struct profile_phase {
	int named;                 /* a PHASE frame named it */
	uint64_t at;               /* timebase ticks when it began (0: unknown) */
	char name[PROFILE_PHASE_NAME_MAX + 1];
};
struct profile_phase_sample {
	uint64_t pc;
	uint64_t count;
	uint16_t event, cpu, phase;
};

/* A raw sample (RAW_SAMPLES, wire version 3): one sample as taken, with the registers it
 * interrupted in regs (arch, slots, valid mask, pc, values by DWARF number), and the data
 * address the hardware gave when flags has BMPROF_RAWF_DATA_ADDR. In the order received. */
struct profile_raw {
	struct regfile regs;
	uint64_t data_addr;
	uint16_t cpu, event;
	uint8_t flags;
};

/* A message from the runtime (LOG frame): text as sent, not terminated, possibly with any
 * byte in it (escape it before showing it). */
struct profile_log {
	uint8_t level;             /* enum bmprof_log_level (another value: as sent) */
	int cut;                   /* the text was longer than PROFILE_LOG_TEXT_MAX */
	size_t len;
	char *text;
};

struct profile {
	int have_hello, have_end;
	struct profile_hello hello;
	struct bmprof_end_info {
		int32_t exit_code;
		uint8_t reason;
		uint32_t vector;
		uint64_t fault_pc, fault_addr;
	} end;
	struct profile_event events[PROFILE_MAX_EVENTS];
	unsigned nevents;
	struct profile_cpu cpus[PROFILE_MAX_CPUS];
	unsigned ncpus_seen;       /* highest cpu index seen + 1 */
	/* Every sample received, as entries: after profile_settle() sorted by (pc, event, cpu)
	 * and unique on it; before, the counts are all there but a key may have several
	 * entries. profile_load and capture settle the profiles they give out. */
	struct profile_sample *samples;
	size_t nsamples;
	int first_event;           /* event of the first sample received; -1: none */
	/* Call stacks: the chains (stacks[0] the empty one), their frames, and the samples
	 * that came with a chain id (STACK_SAMPLES; they are in samples too). stack_lost:
	 * samples the target kept no chain for (its stack table was full); stack_unknown:
	 * samples naming a chain no STACKS frame defined (one lost on the way). */
	struct profile_stack *stacks;
	size_t nstacks, stacks_cap;
	uint64_t *stack_frames;
	size_t nstack_frames, stack_frames_cap;
	struct profile_stack_sample *stack_samples;
	size_t nstack_samples, stack_samples_cap;
	uint64_t stack_lost, stack_unknown;
	uint32_t *stack_ids[PROFILE_MAX_CPUS];    /* per CPU: target id - 1 -> index (0: none) */
	uint32_t stack_ids_n[PROFILE_MAX_CPUS];
	/* Phases: phases[0 .. PROFILE_MAX_PHASES] (NULL until a PHASE frame or a sample in a
	 * phase arrives), the highest phase id seen, and the samples of phases other than 0 */
	struct profile_phase *phases;
	unsigned max_phase;
	struct profile_phase_sample *phase_samples;
	size_t nphase_samples, phase_samples_cap, phase_samples_merged;
	/* Raw samples, in the order they came: at most max_entries of them are kept (0: no
	 * bound), the rest counted in raw_over_cap (they are in the CPUs' raw_received). */
	struct profile_raw *raw;
	size_t nraw, raw_cap;
	uint64_t raw_over_cap;
	/* The memory bound: at most max_entries distinct (pc, event, cpu) are kept (0: no
	 * bound). A profile with more sets over_cap and keeps no further samples (its samples
	 * and total are then incomplete: it must not be reported). */
	size_t max_entries;
	int over_cap;
	uint64_t total;            /* sum of all sample counts */
	struct profile_count *counts;   /* COUNTS records, unique on (cpu, event) */
	size_t ncounts;
	struct profile_meta_kv *meta;   /* HOST_META, in order; later keys override earlier */
	size_t nmeta;
	struct profile_log *logs;       /* LOG messages, in the order they came */
	size_t nlogs;
	uint64_t logs_dropped;          /* LOG messages past PROFILE_MAX_LOGS, not kept */
	/* stream health: from HOST_STREAM frames (what the capturing reader saw on the wire)
	 * and from decoding */
	uint64_t frames_ok, frames_bad_crc, frames_unknown, bytes_skipped, frames_malformed;
	int truncated;             /* the stream ended inside a frame */
	int have_stream;           /* a HOST_STREAM frame was applied */
	uint64_t hellos;           /* HELLO frames received (the first one is kept) */
	uint64_t hello_mismatch;   /* later HELLOs whose build-id or arch differ from the first */
	/* set by profile_load: the file itself was cut short (it ended inside a frame or
	 * without its HOST_STREAM trailer); what was intact is loaded */
	int file_truncated;
	/* private: the sample store (profile_store.c): samples[0..nsorted) sorted and unique,
	 * the rest pending */
	size_t samples_cap, nsorted, counts_cap;
};

void profile_init(struct profile *p);
void profile_free(struct profile *p);
/* Decode one frame into the model. Returns 0; 1 if the frame type is unknown (skipped);
 * -1 if the payload is malformed (counted in frames_malformed, model unchanged for it). */
int profile_apply_frame(struct profile *p, uint8_t type, const uint8_t *payload, uint16_t len);
/* The profile has raw samples (kept or not). */
static inline int profile_has_raw(const struct profile *p) { return p->nraw || p->raw_over_cap; }
/* The profile has samples with call chains. */
static inline int profile_has_stacks(const struct profile *p) { return p->nstack_samples != 0; }
/* Add count samples; returns 0, or -1 on out of memory or if a count would overflow. */
int profile_add(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc, uint64_t count);
/* A LOG payload's fields (text points into the payload): 0, or -1 if it is shorter than
 * its fixed part and text_len say. */
int profile_log_decode(const uint8_t *payload, uint16_t len, uint8_t *level,
		       const char **text, size_t *n);
/* Sort the samples by (pc, event, cpu) and add up repeated keys, so each is one entry, and
 * check the bound (over_cap). 0, or -1 when out of memory. */
int profile_settle(struct profile *p);
/* The samples sorted by (pc, event, cpu), one entry per key: p->samples itself when
 * settled, else a sorted copy in *copy (the caller frees it; *n entries). NULL when out of
 * memory. */
const struct profile_sample *profile_ordered(const struct profile *p, size_t *n,
					     struct profile_sample **copy);
const char *profile_meta(const struct profile *p, const char *key);   /* NULL if absent */
int profile_set_meta(struct profile *p, const char *key, const char *value);
const struct profile_event *profile_event(const struct profile *p, uint16_t id);
/* Per CPU: samples lost in transit = delivered (target) - received (host), when TOTALS came
 * (0 without TOTALS, or if more arrived than were delivered). */
uint64_t profile_cpu_lost_in_transit(const struct profile_cpu *c);

/* The latest counts of event id, summed over every CPU (cpu < 0) or of one CPU. 0 with s
 * filled, or -1 (s zeroed) when no COUNTS record names it. */
int profile_event_count(const struct profile *p, uint16_t id, int cpu,
			struct profile_count_sum *s);
/* value scaled to the time the event was enabled, value * enabled / running, as an
 * estimate of what it would have counted had it never been multiplexed; value itself when
 * running is 0 or not below enabled. */
double profile_count_scaled(const struct profile_count_sum *s);
/* The factor samples of event id are scaled by: enabled / running from its counts when it
 * was multiplexed (running < enabled), else 1. */
double profile_event_scale(const struct profile *p, uint16_t id);
/* Samples of event id, summed over every CPU and pc. */
uint64_t profile_event_samples(const struct profile *p, uint16_t id);
/* The mean sampling period of event id in core cycles (DCPI's P): the event's own period
 * for a cycles event counted by the PMU; for a timer event, the timebase ticks the CPUs
 * spent outside the sampling handler (TOTALS) per sample, converted with the core clock the
 * target measured (HELLO), or under QEMU -icount with a known shift, in instructions (one
 * cycle each: the instructions the program ran per sample, exactly). <= 0 when it cannot
 * be known. */
double profile_cycles_per_sample(const struct profile *p, uint16_t id);
/* Samples of event id that arrived against those its period asked for: for the timer,
 * the ticks every CPU sampled (TOTALS, wire 1.3) over the mean period; for a PMU event,
 * its count (COUNTS) over the mean period. The ratio, with the samples asked for in
 * *expected; -1 when either is unknown. */
double profile_sample_rate(const struct profile *p, uint16_t id, double *expected);

#endif
