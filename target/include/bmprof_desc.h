/* SPDX-License-Identifier: BSD-2-Clause */
/* The recovery descriptor: one object, the symbol bmprof_descriptor, that tells a host
 * which can read the target's memory (a debugger, or `bmprof qemu` through QEMU's monitor
 * after stopping a run that never ends) where every CPU's samples are and how they are
 * laid out, so it can turn them into a profile without knowing this build's structs.
 *
 * It is self-describing and versioned: a magic, the layout version, the sizes of the
 * structs, and per field its offset and size inside its struct (struct bmprof_cpu,
 * struct bmprof_ovf, struct bmprof_entry, struct bmprof_stack_def), then one pointer per
 * CPU to its struct bmprof_cpu. bmprof_cpu_init() fills the pointer in. Everything is in the target's byte
 * order (little-endian on every architecture bmprof supports) and its pointers are run-time
 * addresses; `self` is the descriptor's own run-time address, so a host that found it at
 * link address + load bias can check the bias.
 *
 * Layout (docs/wire-format.md, "Recovery descriptor"):
 *
 *   off  size  field
 *   0    8     magic         BMPROF_DESC_MAGIC
 *   8    2     version       BMPROF_DESC_VERSION
 *   10   2     nfields       entries in field[]
 *   12   2     max_cpus      slots in the CPU pointer array
 *   14   2     ptr_size      8
 *   16   4     ncpus         highest CPU index set up + 1
 *   20   4     unregistered  CPUs set up with an index of max_cpus or more (not listed)
 *   24   8     self          run-time address of this descriptor
 *   32   4     cpu_size      sizeof(struct bmprof_cpu)
 *   36   4     ovf_size      sizeof(struct bmprof_ovf): ovf[1] is ovf_size after ovf[0]
 *   40   2     entry_size    sizeof(struct bmprof_entry)
 *   42   2     ways          entries per bucket: the table has (mask + 1) * ways entries
 *   44   4     cpus_off      offset of the CPU pointer array from the descriptor's start
 *   48   4*n   field[i]      offset (bits 0-15) and size in bytes (bits 16-23) of field i
 *                            (enum bmprof_desc_field) in its struct; 0: this build has none
 *   cpus_off  8*max_cpus     run-time address of CPU i's struct bmprof_cpu, 0: not set up
 *
 * A later version appends fields (nfields grows) and keeps every offset above: a host
 * reads the fields it knows and ignores the others. Version 2 appended the entries' stack
 * id and each CPU's stack table (struct bmprof_stacks): a version-1 reader would read
 * the samples without their chains, so it is told to update instead. The table's
 * definitions def[0 .. n) never change once published; frames are 8-byte return
 * addresses; the size of struct bmprof_stack_def (the stride of def[]) is the size of its
 * field BMPROF_DF_SDEF (offset 0).
 *
 * Version 3 appended each CPU's raw-sample ring (struct bmprof_raw_ring, bmprof.h) and
 * the layout of its records (struct bmprof_raw): records tail .. head - 1 (modulo 2^32)
 * are in slot[i % cap], not sent; `sending` non-zero says the first `sending` of them are
 * in the RAW_SAMPLES frame numbered frames - 1 being written. A record is larger than a
 * field's 8-bit size holds, so BMPROF_DF_RAWREC gives the record's size (the stride of
 * slot[]) in its offset bits, with a size of 1; BMPROF_DF_RAWREC_R gives r[0] and the
 * size of one register, r[i] following at that stride. A version-2 reader would leave the
 * undrained raw samples out, so it is told to update. Freestanding.
 */
#ifndef BMPROF_DESC_H
#define BMPROF_DESC_H

#include <stdint.h>
#include "bmprof.h"   /* BMPROF_OVF_* states, BMPROF_XFER_* sources */

#ifdef __cplusplus
extern "C" {
#endif

#define BMPROF_DESC_MAGIC 0x3143534544504d42ull   /* "BMPDESC1", little-endian */
#define BMPROF_DESC_VERSION 3
#define BMPROF_DESC_HDR 48u
#ifndef BMPROF_DESC_MAX_CPUS
#define BMPROF_DESC_MAX_CPUS 64
#endif

enum bmprof_desc_field {
	/* struct bmprof_cpu */
	BMPROF_DF_TABLE,            /* pointer to the buckets */
	BMPROF_DF_MASK,             /* buckets - 1 */
	BMPROF_DF_TAKEN,
	BMPROF_DF_HITS,
	BMPROF_DF_IN_RECORD,        /* non-zero: the handler is between two of its stores */
	BMPROF_DF_FLUSHING,
	BMPROF_DF_OVF,              /* struct bmprof_ovf ovf[2] */
	BMPROF_DF_MISSES,
	BMPROF_DF_EVICTIONS,
	BMPROF_DF_LOST_FULL,
	BMPROF_DF_DELIVERED,
	BMPROF_DF_LOST_TRANSPORT,
	BMPROF_DF_FRAMES,
	BMPROF_DF_CPU_ID,
	BMPROF_DF_SAMPLED_TICKS,
	BMPROF_DF_IN_DRAIN,         /* non-zero: the drain side is between two of its stores */
	BMPROF_DF_XFER_SRC,         /* struct bmprof_xfer, bmprof.h */
	BMPROF_DF_XFER_N,
	BMPROF_DF_XFER_DONE,
	BMPROF_DF_XFER_END,
	BMPROF_DF_XFER_SEQ,
	BMPROF_DF_XFER_SAMPLES,
	BMPROF_DF_FLUSHES,
	/* struct bmprof_ovf */
	BMPROF_DF_OVF_SLOT,         /* pointer to the entries */
	BMPROF_DF_OVF_CAP,
	BMPROF_DF_OVF_FILL,
	BMPROF_DF_OVF_STATE,
	/* struct bmprof_entry */
	BMPROF_DF_ENTRY_PC,
	BMPROF_DF_ENTRY_COUNT,
	BMPROF_DF_ENTRY_EVENT,
	BMPROF_DF_V1_COUNT,         /* fields of a version-1 descriptor */
	/* version 2: struct bmprof_entry */
	BMPROF_DF_ENTRY_STACK = BMPROF_DF_V1_COUNT,
	/* version 2: struct bmprof_cpu, its struct bmprof_stacks */
	BMPROF_DF_STK_INDEX,        /* pointer to the hash index of ids (uint16_t) */
	BMPROF_DF_STK_DEF,          /* pointer to def[]: struct bmprof_stack_def */
	BMPROF_DF_STK_FRAMES,       /* pointer to the frames (uint64_t) */
	BMPROF_DF_STK_MASK,         /* index slots - 1 */
	BMPROF_DF_STK_MAX_IDS,      /* slots in def[] */
	BMPROF_DF_STK_FRAMES_CAP,   /* slots in frames[] */
	BMPROF_DF_STK_FRAMES_USED,
	BMPROF_DF_STK_N,            /* ids 1 .. n are defined: def[0 .. n) */
	BMPROF_DF_STK_SENT,         /* ids 1 .. sent went out in STACKS frames */
	BMPROF_DF_STK_DEPTH,        /* 0: stacks off on this CPU */
	BMPROF_DF_STK_FULL,
	/* version 2: struct bmprof_stack_def */
	BMPROF_DF_SDEF,             /* the struct itself: offset 0, its size */
	BMPROF_DF_SDEF_OFF,         /* its first frame in frames[] */
	BMPROF_DF_SDEF_DEPTH,
	BMPROF_DF_SDEF_FLAGS,       /* BMPROF_STACKF_* */
	BMPROF_DF_V2_COUNT,         /* fields of a version-2 descriptor */
	/* version 3: struct bmprof_cpu, its struct bmprof_raw_ring */
	BMPROF_DF_RAW_SLOT = BMPROF_DF_V2_COUNT,   /* pointer to the records */
	BMPROF_DF_RAW_CAP,          /* records in slot[]; 0: raw mode off */
	BMPROF_DF_RAW_ARCH,         /* enum bmprof_arch of the registers */
	BMPROF_DF_RAW_NREGS,        /* register slots a record sends */
	BMPROF_DF_RAW_HEAD,
	BMPROF_DF_RAW_TAIL,
	BMPROF_DF_RAW_SENDING,
	BMPROF_DF_RAW_FRAMES,
	BMPROF_DF_RAW_TAKEN,
	BMPROF_DF_RAW_DELIVERED,
	BMPROF_DF_RAW_LOST_FULL,
	BMPROF_DF_RAW_LOST_TRANSPORT,
	/* version 3: struct bmprof_raw */
	BMPROF_DF_RAWREC,           /* the struct itself: its size in bits 0-15, size 1 */
	BMPROF_DF_RAWREC_PC,
	BMPROF_DF_RAWREC_DATA_ADDR,
	BMPROF_DF_RAWREC_VALID,
	BMPROF_DF_RAWREC_EVENT,
	BMPROF_DF_RAWREC_FLAGS,
	BMPROF_DF_RAWREC_R,         /* r[0]: its offset, one register's size */
	BMPROF_DF_COUNT
};

struct bmprof_desc {
	uint64_t magic;
	uint16_t version;
	uint16_t nfields;
	uint16_t max_cpus;
	uint16_t ptr_size;
	volatile uint32_t ncpus;
	volatile uint32_t unregistered;
	uint64_t self;
	uint32_t cpu_size, ovf_size;
	uint16_t entry_size, ways;
	uint32_t cpus_off;
	uint32_t field[BMPROF_DF_COUNT];
	volatile uint64_t cpu[BMPROF_DESC_MAX_CPUS];
};

/* The one descriptor of the image. */
extern struct bmprof_desc bmprof_descriptor;

/* List c under its cpu_id (bmprof_cpu_init does it). */
void bmprof_desc_register(struct bmprof_cpu *c);

#ifdef __cplusplus
}
#endif

#endif
