/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared-memory transport: one single-producer/single-consumer byte ring per CPU in
 * memory the host can read (a QEMU ivshmem BAR, a PCIe BAR, RAM a debugger reads). The
 * byte-level layout is docs/transport-shm.md; the constants below are that layout.
 *
 * Each record in a ring is an 8-byte header {u32 seq, u32 len} and len bytes of whole wire
 * frames, padded to 8 bytes. seq counts every record the producer meant to write, written
 * or dropped, so the consumer sees each gap; the producer also counts the records and
 * bytes it dropped. A ring write never waits for the consumer: a frame that does not fit
 * is dropped, counted, and out->write() returns non-zero, so the core counts its samples
 * as lost_transport. Only in final mode (bmprof_ring_set_final: the end-of-run flush) does
 * a write wait for space, while the consumer keeps making progress.
 *
 * Discovery of the memory (PCI, firmware) is the integrator's: bmprof_ring_init() takes an
 * address and a size. Freestanding: no libc, no allocation. */
#ifndef BMPROF_RING_H
#define BMPROF_RING_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BMPROF_RING_MAGIC 0x474e5242u     /* "BRNG" little-endian */
#define BMPROF_RING_VERSION 1
#define BMPROF_RING_MAX 64                 /* rings (CPUs) */
#define BMPROF_RING_MIN_DATA 4096u         /* smallest data area of one ring */

/* Offsets in the header (little-endian) */
#define BMPROF_RING_H_MAGIC 0      /* u32 */
#define BMPROF_RING_H_VERSION 4    /* u16 */
#define BMPROF_RING_H_NRINGS 6     /* u16 */
#define BMPROF_RING_H_DATA_SIZE 8  /* u32: bytes of each ring's data area, a power of two */
#define BMPROF_RING_H_FLAGS 12     /* u32: BMPROF_RING_F_* (producer) */
#define BMPROF_RING_H_ATTACHED 16  /* u32: the host writes non-zero while it consumes */
#define BMPROF_RING_H_CTL_OFF 20   /* u32: offset of ring 0's control block */
#define BMPROF_RING_H_DATA_OFF 24  /* u32: offset of ring 0's data area */
#define BMPROF_RING_H_TOTAL 28     /* u32: bytes of shared memory in use */
#define BMPROF_RING_HDR_SIZE 64

/* A ring's control block: the producer's cache line, then the consumer's. */
#define BMPROF_RING_C_HEAD 0       /* u64: bytes the producer published */
#define BMPROF_RING_C_SEQ 8        /* u64: records the producer meant to write */
#define BMPROF_RING_C_DROP_REC 16  /* u64: records dropped for want of space */
#define BMPROF_RING_C_DROP_BYTES 24 /* u64: frame bytes in them */
#define BMPROF_RING_C_TAIL 64      /* u64: bytes the consumer has taken */
#define BMPROF_RING_CTL_SIZE 128

#define BMPROF_RING_REC_HDR 8
#define BMPROF_RING_F_FINAL 1u     /* the producers are in their final flush */

struct bmprof_ring_ctl {
	volatile uint64_t head;
	volatile uint64_t seq;
	volatile uint64_t dropped_records;
	volatile uint64_t dropped_bytes;
	uint64_t pad0[4];
	volatile uint64_t tail;
	uint64_t pad1[7];
};

/* One CPU's producer: private state beside the shared control block. */
struct bmprof_ring {
	struct bmprof_ring_ctl *ctl;
	uint8_t *data;
	uint32_t mask;             /* data size - 1 */
	volatile uint32_t *flags;  /* the header's flags word */
	volatile uint32_t *attached;
	uint64_t wpos;             /* where the frame being written goes (not yet published) */
	uint64_t rec;              /* its record header's position */
	uint32_t need;             /* bytes of the current frame still to come; 0: none */
	uint32_t have_hdr;         /* frame header bytes gathered so far */
	uint8_t hdr[8];
	uint32_t frame_len;
	uint64_t final_spins;      /* in final mode: spins without consumer progress allowed */
};

/* The producers of one shared region: a struct bmprof_out per ring. */
struct bmprof_rings {
	struct bmprof_ring ring[BMPROF_RING_MAX];
	struct bmprof_out out[BMPROF_RING_MAX];
	unsigned n;
};

/* Lay out nrings rings in size bytes at base (8-byte aligned) and write the header (the
 * magic last; the host's attached word is kept). Each ring gets the largest power-of-two
 * data area that fits. 0, or -1 if nrings is 0 or over BMPROF_RING_MAX, or a ring would
 * get less than BMPROF_RING_MIN_DATA bytes. */
int bmprof_ring_init(struct bmprof_rings *r, void *base, size_t size, unsigned nrings);

/* The sink for ring i (NULL if there is no such ring). Only one CPU may write a ring at a
 * time; each write() must hand over whole frames in order (bmprof_emit_* do). */
const struct bmprof_out *bmprof_ring_out(struct bmprof_rings *r, unsigned i);

/* The end-of-run flush: from now on a write that lacks space waits for the consumer, as
 * long as the host says it is attached and the tail moves at least once every spins
 * polls. spins 0 leaves final mode (drop at once again). */
void bmprof_ring_set_final(struct bmprof_rings *r, uint64_t spins);

/* The write behind bmprof_ring_out(): ctx is a struct bmprof_ring. */
int bmprof_ring_write(void *ctx, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
