/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the recovery reader (recover.c, recover_stacks.c): reads of the target's memory
 * under the reader's limits, and fields of the target's structs as the descriptor lays
 * them out. */
#ifndef BMPROF_RECOVER_INTERNAL_H
#define BMPROF_RECOVER_INTERNAL_H

#include "run/recover.h"

typedef int (*recover_emit_fn)(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len);

/* len bytes at addr into buf, counted against r's limit; what names them in an error. */
int recover_rd(struct recover *r, const struct recover_mem *m, uint64_t addr, void *buf,
	       size_t len, const char *what, char *err, size_t errlen);
/* n little-endian bytes */
uint64_t recover_le(const uint8_t *p, unsigned n);
/* Field f of the struct at base (checked to lie inside it); 0 when the layout has none. */
uint64_t recover_get(const struct recover *r, const uint8_t *base, enum bmprof_desc_field f);

/* recover_stacks.c. The chains (ids 1 .. stk_n) the entries name, into c->chains, each read
 * from the CPU's stack table; 0, or -1 with a reason (a read failed, out of memory). */
int recover_read_chains(struct recover *r, const struct recover_mem *m, struct recover_cpu *c,
			const struct recover_entry *held, size_t nheld,
			const struct recover_entry *flying, size_t nflying, char *err,
			size_t errlen);
/* Samples of the entries whose chain p will not know: neither arrived nor read. */
uint64_t recover_unchained(const struct recover_cpu *c, unsigned cpu, const struct profile *p,
			   const struct recover_entry *e, size_t n);
/* STACKS frames defining the chains read that p lacks. */
int recover_send_chains(const struct recover_cpu *c, unsigned cpu, const struct profile *p,
			recover_emit_fn emit, void *ctx, struct recover_result *res);

/* recover_raw.c. The CPU's raw ring from its state b (version 3): bounds checked, counts
 * checked (a ring that does not add up gets a problem and is not read); 0, or -1 with a
 * reason when the descriptor's layout cannot be believed. */
int recover_parse_raw(struct recover *r, struct recover_cpu *c, unsigned idx, const uint8_t *b,
		      char *err, size_t errlen);
/* Its records tail .. head - 1, into c->raw; 0, or -1 with a reason. */
int recover_read_raw(struct recover *r, const struct recover_mem *m, struct recover_cpu *c,
		     char *err, size_t errlen);
/* RAW_SAMPLES frames with the records p has not received; the raw TOTALS fields into v. */
int recover_send_raw(const struct recover_cpu *c, unsigned cpu, const struct profile *p,
		     uint64_t *v, recover_emit_fn emit, void *ctx, struct recover_result *res);

#endif
