/* SPDX-License-Identifier: BSD-2-Clause */
/* A block's memory accesses for the harness (transport/bhive_access.h): the instructions
 * whose misaligned access it may step over when the access stays inside one cache line. */
#ifndef BMPROF_BHIVE_ACCESS_HOST_H
#define BMPROF_BHIVE_ACCESS_HOST_H

#include <stddef.h>
#include <stdint.h>
#include "bhive.h"

/* The accesses of code[0 .. len) (x86-64, or AArch64 when a64) into out (at most max),
 * in the order of their offsets: one for each instruction whose data access capstone
 * describes as one address (a load, a store, or both at one address), with its size.
 * Left out, so that a misaligned access there excludes the block: string instructions
 * that read or write two addresses or repeat, push and pop of memory, gathers and
 * scatters, bt* with a register bit offset, accesses larger than a line or that capstone
 * gives no size for. Returns how many (0 without capstone). */
unsigned bhive_accesses(int a64, const uint8_t *code, size_t len, struct bhive_in_access *out,
			unsigned max);
/* 1 when no instruction of the x86-64 code[0 .. len) writes a base or index register of
 * the n accesses acc (so each reaches one address in every copy of the block, but a
 * rip-relative one, which the harness must make so) */
int bhive_accesses_fixed(const uint8_t *code, size_t len, const struct bhive_in_access *acc,
			 unsigned n);

/* The access of the instruction at offset in code, or 0 (NULL when none is described) */
const struct bhive_in_access *bhive_access_at(const struct bhive_in_access *acc, unsigned n,
					      long offset);

#endif
