/* SPDX-License-Identifier: BSD-2-Clause */
/* Executions of one x86 rep string instruction, told apart from its iterations as QEMU TCG
 * enters it: TCG runs one iteration per entry and jumps back to the instruction itself, so
 * an execution of `rep movsb` with RCX = n enters it about n times (n + 1, or 1 when RCX
 * is 0); an interrupt or a fault in the middle resumes it at the same address, still the
 * same execution. An execution ends when the instruction after it (its fall-through: a rep
 * string instruction never jumps) starts. So at each entry the caller passes how many
 * times that next instruction has started so far: an entry that finds the count unchanged
 * since the running execution began continues it; any other entry starts a new one.
 *
 * What this gets right: the iterations (counted once), RCX = 0 (one entry, one execution),
 * an interrupt or fault in the middle (the handler runs elsewhere and returns to the same
 * instruction), a handler that itself runs another rep instruction (each has its own
 * state), and a handler that runs this same instruction while it was interrupted (the
 * handler's entry continues the interrupted execution and the resumption, after the
 * handler's run reached the next instruction, starts one: the total is right). What it
 * cannot see: an interrupt taken between the last iteration and the next instruction
 * whose handler runs this same instruction (one execution too few), and a fault that the
 * handler resolves by skipping the instruction (counted as an execution). Both need the
 * guest's RCX, which the version-1 plugin API cannot read. Pure; no I/O. */
#ifndef BMPROF_REP_COUNT_H
#define BMPROF_REP_COUNT_H

#include <stdint.h>

struct rep_count {
	uint64_t execs;      /* executions so far */
	uint64_t follow_at;  /* starts of the next instruction when the running one began */
	int running;
};

/* An entry of the instruction; follow: the starts so far of the instruction after it.
 * 1 when the entry starts an execution, 0 when it continues one. */
static inline int rep_count_enter(struct rep_count *r, uint64_t follow)
{
	if (r->running && r->follow_at == follow)
		return 0;
	r->running = 1;
	r->follow_at = follow;
	r->execs++;
	return 1;
}

/* 1 if the n bytes at b are one x86 string instruction (ins, outs, movs, cmps, stos, lods,
 * scas) with a rep, repe or repne prefix: legacy prefixes, an optional REX byte, and the
 * one-byte opcode last. */
static inline int rep_count_is_x86_rep(const uint8_t *b, unsigned long n)
{
	int rep = 0;
	unsigned long i = 0;

	for (; i + 1 < n; i++) {
		switch (b[i]) {
		case 0xf2: case 0xf3:
			rep = 1;
			continue;
		case 0xf0: case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
		case 0x66: case 0x67:
			continue;
		}
		break;
	}
	if (i + 2 == n && (b[i] & 0xf0) == 0x40)    /* REX */
		i++;
	if (!rep || i + 1 != n)
		return 0;
	return (b[i] >= 0xa4 && b[i] <= 0xa7) || (b[i] >= 0xaa && b[i] <= 0xaf) ||
	       (b[i] >= 0x6c && b[i] <= 0x6f);
}

#endif
