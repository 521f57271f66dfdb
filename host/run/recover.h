/* SPDX-License-Identifier: BSD-2-Clause */
/* Recovering the samples of a run that never ended from the target's memory: the target's
 * recovery descriptor (target/include/bmprof_desc.h) is read through a callback, every
 * size and count in it is checked against hard limits, and each CPU's counters, table,
 * overflow buffers and transfer record become the entries it still held. Then, against
 * what the host received, the SAMPLES and TOTALS frames the target would have sent at its
 * final flush are built, so the profile's accounting stays exact:
 *
 *   taken = delivered + lost_full + lost_transport + held + in flight
 *
 * where held is what the table and buffers hold and in flight is the SAMPLES frame being
 * written when the machine stopped (xfer): if it arrived it counts as delivered, else its
 * entries are sent again under its sequence number. A CPU stopped inside the sampler
 * (in_record, in_drain) cannot be read exactly; the caller lets it run a little and reads
 * again (recover_busy()).
 *
 * A CPU recording call stacks (descriptor version 2, its stack table's depth non-zero)
 * gets STACK_SAMPLES frames, preceded by STACKS frames defining the chains its held
 * entries name that the host has not received: the definitions are read from the CPU's
 * stack table (ids 1 .. n only, each checked against the table's bounds). A chain that
 * cannot be read leaves its samples counted, with no chain (profile stack_unknown). A
 * version-1 descriptor is read as before: samples without chains.
 *
 * A CPU in raw mode (descriptor version 3, its raw ring's cap non-zero) also gets
 * RAW_SAMPLES frames with the records its ring still held (tail .. head), numbered on from
 * its own, and the raw counters in its TOTALS frame, so raw taken = raw delivered + raw
 * lost stays exact. A ring whose counts do not add up is not read: its records are counted
 * lost (transport) and the CPU is flagged (recover_cpu.problem).
 *
 *   struct recover r;
 *   recover_read(&r, &mem, addr, err, n);      descriptor and CPU states
 *   ... recover_busy(&r)? let the machine run, stop it, recover_free, read again ...
 *   recover_read_entries(&r, &mem, err, n);    tables and buffers
 *   ... the rest of the stream arrives ...
 *   recover_frames(&r, profile, emit, ctx, &res);
 *   recover_free(&r);
 *
 * No I/O of its own. */
#ifndef BMPROF_RECOVER_H
#define BMPROF_RECOVER_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof_desc.h"
#include "profile.h"

/* Hard limits on what a descriptor may make the host read: a hostile or corrupted guest
 * gets a clear error, never an allocation or a read of its choosing. */
#define RECOVER_MAX_CPUS PROFILE_MAX_CPUS          /* CPU slots looked at */
#define RECOVER_MAX_FIELDS 1024u                   /* descriptor fields */
#define RECOVER_MAX_STRUCT 65536u                  /* bytes of struct bmprof_cpu */
#define RECOVER_MAX_REGION (256ull << 20)          /* bytes of one table or buffer */
#define RECOVER_MAX_TOTAL (1ull << 30)             /* bytes read in all */
#define RECOVER_CHUNK (1u << 20)                   /* bytes per read */
#define RECOVER_MAX_RAW (1u << 20)                 /* records of one raw ring */

/* Reading the target: len bytes at run-time address addr into buf; 0, or -1 with a
 * reason in err. */
struct recover_mem {
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len, char *err, size_t errlen);
	void *ctx;
};

struct recover_entry {
	uint64_t pc;
	uint32_t count;
	uint16_t event;
	uint16_t stack;             /* chain id in the CPU's stack table (0: none) */
};

/* A chain a held or in-flight entry names, read from the CPU's stack table. */
struct recover_chain {
	uint16_t id;
	uint8_t depth, flags;
	int ok;                     /* read and within the table's bounds */
	uint32_t off;               /* in the stack table's frames[] */
	uint64_t frame[BMPROF_STACK_DEPTH_WIRE_MAX];
};

struct recover_ovf {
	uint64_t slot;
	uint32_t cap, fill, state;
};

/* A raw sample read from a CPU's raw ring. */
struct recover_raw {
	uint64_t pc, data_addr;
	uint32_t valid;
	uint16_t event;
	uint8_t flags;
	uint64_t r[BMPROF_RAW_REGS_MAX];
};

struct recover_cpu {
	int present;                /* the descriptor lists a state for this index */
	uint64_t addr;              /* its struct bmprof_cpu */
	uint64_t taken, hits, misses, evictions, delivered, lost_full, lost_transport;
	uint64_t frames, sampled_ticks, flushes;
	uint32_t in_record, in_drain;
	uint64_t table;             /* run-time address of the entries */
	uint64_t table_entries;
	struct recover_ovf ovf[2];
	uint32_t xsrc, xn, xdone, xend, xseq;
	uint64_t xsamples;
	int inflight;               /* a SAMPLES frame (xseq: xdone .. xend of xsrc) was being
				       written */
	/* its stack table (version 2); stk_depth 0: no call stacks */
	uint32_t stk_depth, stk_n, stk_max_ids, stk_frames_cap, stk_frames_used;
	uint64_t stk_def, stk_frames, stk_full;
	/* recover_read_entries: what the table and buffers hold, not counted anywhere, and the
	 * in-flight frame's entries */
	struct recover_entry *held, *flying;
	size_t nheld, nflying;
	uint64_t held_samples, flying_samples;
	int have_entries;
	/* the chains those entries name, ids 1 .. stk_n, by id */
	struct recover_chain *chains;
	size_t nchains;
	/* its raw ring (version 3); raw_cap 0: not in raw mode */
	uint32_t raw_cap, raw_head, raw_tail, raw_sending, raw_frames;
	uint8_t raw_arch, raw_nregs;
	uint64_t raw_slot, raw_taken, raw_delivered, raw_lost_full, raw_lost_transport;
	int raw_ok;                 /* its counts add up: the records are read */
	struct recover_raw *raw;    /* records tail .. head - 1, read */
	size_t nraw;
	char problem[200];          /* why this CPU's state does not add up; "" when it does */
};

struct recover {
	uint16_t version, nfields, ways;
	uint16_t ptr_size;          /* the target's pointers: 4 or 8 bytes */
	uint32_t max_cpus, ncpus, unregistered;
	uint64_t addr, self;
	uint32_t cpu_size, ovf_size, entry_size, cpus_off, def_size, rawrec_size;
	uint32_t field[BMPROF_DF_COUNT];
	unsigned ncpu;              /* slots read: ncpus, at most RECOVER_MAX_CPUS */
	struct recover_cpu *cpu;
	uint64_t bytes, limit;      /* read so far, and the most allowed (RECOVER_MAX_TOTAL) */
};

/* The descriptor at run-time address addr and each CPU's state. 0, or -1 with one line in
 * err naming what is wrong (no descriptor there, a version this host does not read, a size
 * or count beyond the limits, a read that failed). r is to be freed either way. */
int recover_read(struct recover *r, const struct recover_mem *m, uint64_t addr, char *err,
		 size_t errlen);
/* CPUs stopped inside the sampler, whose state cannot be read exactly. */
unsigned recover_busy(const struct recover *r);
/* Each present CPU's table and buffers: the held and in-flight entries. 0, or -1 with a
 * reason (a read failed, a size beyond the limits). */
int recover_read_entries(struct recover *r, const struct recover_mem *m, char *err,
			 size_t errlen);
void recover_free(struct recover *r);

struct recover_result {
	unsigned cpus;              /* CPUs whose frames were built */
	uint64_t samples;           /* samples sent from memory (held, and in-flight resent) */
	unsigned arrived;           /* in-flight frames that had arrived (counted delivered) */
	unsigned resent;            /* in-flight frames that had not (their entries sent) */
	unsigned inexact;           /* CPUs with a problem (recover_cpu.problem) */
	unsigned stack_cpus;        /* CPUs whose samples were sent with their chains */
	uint64_t chains_read;       /* chains defined from memory (STACKS frames built) */
	uint64_t chains_known;      /* chains named that had arrived on the wire */
	uint64_t unchained;         /* samples sent whose chain could be neither read nor
				       found among those that arrived (stack_unknown) */
	unsigned raw_cpus;          /* CPUs in raw mode */
	uint64_t raw_samples;       /* raw samples sent from memory */
	uint64_t raw_unread;        /* raw samples counted lost: their ring did not add up */
	unsigned raw_arrived;       /* raw frames being written that had arrived */
};

/* For every present CPU, after the last byte of the stream was received into p: SAMPLES
 * frames with what it held (sequence numbers continuing its own), or with call stacks
 * the STACKS frames of the chains p lacks and STACK_SAMPLES frames, and a TOTALS frame
 * with its counters as its final flush would have sent them, each handed to emit (a wire
 * payload). 0, or the first non-zero emit() result. */
int recover_frames(struct recover *r, const struct profile *p,
		   int (*emit)(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len),
		   void *ctx, struct recover_result *res);

#endif
