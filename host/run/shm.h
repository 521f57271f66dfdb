/* SPDX-License-Identifier: BSD-2-Clause */
/* Host side of the shared-memory transport (docs/transport-shm.md): the file QEMU maps as
 * an ivshmem device, and the consumer of the rings the target's CPUs write in it.
 *
 *   struct shm_file f;  shm_file_create(&f, 4 << 20, err, n);   before QEMU starts
 *   struct shm_consumer c;  shm_consumer_init(&c, f.base, f.size, push, ctx);
 *   shm_consumer_start(&c);       a thread polls every ring while QEMU runs
 *   ... QEMU exits ...
 *   shm_consumer_stop(&c);        joins it and takes what is left
 *   shm_consumer_totals(&c, &t);  what arrived, what the producers dropped
 *   shm_file_destroy(&f);         unmaps and removes the file
 *
 * Each record (whole wire frames) is handed to push() in ring order; records of different
 * rings interleave at record boundaries. push() is called from the consumer's thread
 * between start and stop, so the caller serializes it with its other input. */
#ifndef BMPROF_SHM_H
#define BMPROF_SHM_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "bmprof_ring.h"
#include "wire.h"

#define SHM_DEFAULT_SIZE (4u << 20)
#define SHM_MIN_SIZE (16u << 10)
#define SHM_MAX_SIZE (1u << 30)

struct shm_file {
	char path[PATH_MAX];
	void *base;
	size_t size;
};

/* A new zeroed file of size bytes (a power of two) under /dev/shm, or $TMPDIR when that
 * is set, mapped shared, with the "attached" word set. 0, or -1 with the reason in err. */
int shm_file_create(struct shm_file *f, size_t size, char *err, size_t errlen);
/* Unmap and remove; safe on a file not created or destroyed already. */
void shm_file_destroy(struct shm_file *f);

/* The --shm-size value: a power of two from SHM_MIN_SIZE to SHM_MAX_SIZE, with an optional
 * K or M suffix. 0, or -1 with the reason in err. */
int shm_parse_size(const char *s, size_t *out, char *err, size_t errlen);

struct shm_ring_stats {
	uint64_t records;           /* records consumed */
	uint64_t bytes;             /* frame bytes in them */
	uint64_t gaps;              /* records missing between consumed ones (seq gaps) */
	uint64_t seq;               /* the producer's record count, read at the end */
	uint64_t dropped_records;   /* the producer's counters, read at the end */
	uint64_t dropped_bytes;
	uint64_t lost;              /* by sequence numbers: gaps + drops after the last record */
	int corrupt;                /* a record header made no sense: the ring was abandoned */
};

struct shm_totals {
	unsigned nrings;            /* 0: the target never laid out the rings */
	int final;                  /* the producers reached their final flush */
	uint64_t records, bytes, dropped_records, dropped_bytes;
	uint64_t lost_records;      /* by sequence numbers: gaps + drops after the last record */
	int agree;                  /* lost_records == dropped_records, ring by ring */
	int corrupt;
	struct shm_ring_stats ring[BMPROF_RING_MAX];
};

struct shm_consumer {
	uint8_t *base;
	size_t size;
	void (*push)(void *ctx, const void *buf, size_t n);
	void *ctx;
	unsigned delay_us;          /* testing knob: sleep this long after each record */
	int hold;                   /* testing knob: the thread consumes nothing until the
				     * producers' final flush (BMPROF_RING_F_FINAL) */
	/* private */
	unsigned nrings;
	uint32_t data_size, data_off;
	uint64_t expect[BMPROF_RING_MAX];
	struct shm_ring_stats st[BMPROF_RING_MAX];
	uint8_t rec[BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD + BMPROF_FRAME_CRC + 8];
	pthread_t thread;
	int running;
	volatile int stop;
};

void shm_consumer_init(struct shm_consumer *c, void *base, size_t size,
		       void (*push)(void *ctx, const void *buf, size_t n), void *ctx);
/* One pass over every ring: consume what is published. Returns the records consumed. */
size_t shm_consumer_poll(struct shm_consumer *c);
/* The polling thread. 0, or -1 if it could not be started (then poll by hand). */
int shm_consumer_start(struct shm_consumer *c);
/* Stop the thread (if any) and consume whatever is left. */
void shm_consumer_stop(struct shm_consumer *c);
void shm_consumer_totals(const struct shm_consumer *c, struct shm_totals *t);

#endif
