/* SPDX-License-Identifier: BSD-2-Clause */
/* Pipeline models: the per-microarchitecture facts the CPI analysis needs (issue width,
 * latencies and units per instruction class, penalties of the dynamic stall causes), kept
 * as data in analysis/uarch/NAME.tsv and compiled in by tools/gen_uarch.py
 * (docs/uarch-models.md says where each number comes from). */
#ifndef BMPROF_UARCH_H
#define BMPROF_UARCH_H

#include <stdint.h>
#include "insn.h"

struct uarch_class {
	uint8_t latency;      /* cycles from issue until a dependent instruction can issue */
	uint8_t units;        /* instructions of the class that can issue per cycle */
	uint8_t busy;         /* cycles a unit stays busy per instruction (1: fully pipelined;
			       * the divider: about its latency) */
};

struct uarch {
	const char *name;     /* "golden-cove", "neoverse-n1", "tcg", ... */
	const char *title;    /* one line: what it models */
	const char *source;   /* where the numbers come from */
	uint8_t arch;         /* enum bmprof_arch (transport/wire.h); 0: any (the tcg model) */
	uint8_t out_of_order; /* 1: samples land on the oldest unretired instruction; the
			       * schedule counts cycles at the head of retirement. 0: in order */
	uint8_t width;        /* instructions issued (in order) or retired (out of order) per cycle */
	uint8_t load_latency; /* load-to-use, L1 hit, added to a memory operand's class latency */
	uint16_t line_size;   /* instruction and data cache line, bytes */
	uint8_t alloc_width;  /* out of order: instructions entering the window (allocated,
			       * in order) per cycle; 0: same as width */
	uint8_t generic;      /* 1: the fallback model of its arch */
	uint8_t blocking;     /* in order: one execute stage, held busy cycles (of the class)
			       * by each instruction, stalling all behind it; a load or store
			       * right after a load or store holds it 1 cycle (Cortex-M) */
	/* dynamic stall costs, cycles per occurrence: the bounds of the culprit analysis */
	uint16_t icache_miss, dcache_miss, memory, itlb_miss, dtlb_miss, mispredict;
	struct uarch_class cls[IC__COUNT];
};

/* Every model, NULL-terminated. */
extern const struct uarch *const uarch_models[];

/* Which CPUs a model is for, as HELLO names them (aarch64: family = MIDR implementer,
 * model = part number); terminated by an entry with u == NULL. */
#define UARCH_ANY_MODEL 0xffffffffu
struct uarch_cpu {
	uint8_t arch;
	const char *vendor;
	uint32_t family, model;   /* model UARCH_ANY_MODEL: any */
	const struct uarch *u;
};
extern const struct uarch_cpu uarch_cpus[];

const struct uarch *uarch_find(const char *name);   /* by name; NULL if none */
/* The model for a CPU as HELLO names it (arch, vendor string, family, model): the closest
 * one known, else the architecture's generic model. NULL only for an unknown arch. */
const struct uarch *uarch_for_cpu(unsigned arch, const char *vendor, uint32_t family,
				  uint32_t model);
/* The model that lists this CPU (uarch_cpus), or NULL: uarch_for_cpu fell back to the
 * generic model (which may also list CPUs of its own, as sifive-u74 and cortex-m4 do). */
const struct uarch *uarch_listing_cpu(unsigned arch, const char *vendor, uint32_t family,
				      uint32_t model);

#endif
