/* SPDX-License-Identifier: BSD-2-Clause */
/* A block's rip-relative operands, which the harness makes every unrolled copy reach at
 * one address, as the block run in place would (transport/bhive.h, struct bhive_in_rip). */
#ifndef BMPROF_BHIVE_RIP_H
#define BMPROF_BHIVE_RIP_H

#include <stddef.h>
#include <stdint.h>
#include "bhive.h"

/* The rip-relative operands of code[0 .. len) into out (at most BHIVE_MAX_RIP), and in
 * *align the block's address modulo 64 that aligns the most of them, weighed by size, to
 * their size (a load or store of N bytes to N, capped at 64; lea to 8), as a compiler
 * lays out the data they name. Returns how many; 0 when there are none, more than
 * BHIVE_MAX_RIP, one whose displacement is not 32 bits or does not fit beside
 * BHIVE_RIP_BASE, or no capstone: then the copies are left as they are. */
unsigned bhive_rip_operands(const uint8_t *code, size_t len, struct bhive_in_rip *out,
			    unsigned *align);

#endif
