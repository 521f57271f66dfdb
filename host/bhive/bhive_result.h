/* SPDX-License-Identifier: BSD-2-Clause */
/* The harness's result lines (transport/bhive.h) into results, the statuses' names, and
 * what the host tells about a block before and after it ran: code capstone cannot decode
 * or that leaves the block (never run), and what a #GP was (a privileged instruction or a
 * non-canonical address). */
#ifndef BMPROF_BHIVE_RESULT_H
#define BMPROF_BHIVE_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "bhive.h"

/* Statuses beyond the harness's own (enum bhive_status) */
enum { BHIVE_PRIVILEGED = BHIVE_NSTATUS, BHIVE_UNDECODABLE, BHIVE_NOT_RUN, BHIVE_NSTATUS_ALL };

struct bhive_result {
	int have;                        /* judged: by the host, or a line came */
	int ran;                         /* a line came from the harness */
	int status;
	uint64_t t_lo, t_hi;
	uint64_t cal_lo, cal_hi;         /* the calibration block's, beside it (tsc) */
	unsigned faults, pages, written, kept_lo, kept_hi, rounds;
	long vector, offset;
	uint64_t error, addr;
	int have_regs;
	uint64_t regs[16];               /* rax rcx rdx rbx rsp rbp rsi rdi r8..r15 */
	unsigned u_lo, u_hi;
	unsigned insns;                  /* instructions in the block (capstone) */
	/* BHIVE_MISALIGNED: enum bhive_misaligned, and the size of the access (0: not
	 * described) */
	int misaligned;
	unsigned acc_size;
	unsigned pass;                   /* the QEMU pass that judged it: 0, or a retry's */
};

/* Why a block is misaligned */
enum bhive_misaligned {
	BHIVE_MIS_SPLIT,                 /* an access crosses a cache line */
	BHIVE_MIS_UNDESCRIBED,           /* an access the harness cannot place (bhive_access.h) */
	BHIVE_MIS_STRICT,                /* inside a line, but it faults with the checks off
					  * too (AArch64 exclusive, atomic, acquire/release) */
	BHIVE_MIS_SP,                    /* AArch64: a misaligned SP as a base */
};
const char *bhive_misaligned_name(int why);
/* r (a misaligned block of code[0 .. len), x86-64 or AArch64 when a64) gets its reason and
 * the described access's size */
void bhive_misaligned_reason(int a64, const uint8_t *code, size_t len, struct bhive_result *r);

const char *bhive_status_name(int status);

/* The unstable blocks of res[0 .. n) judged again: not judged any more (their unroll
 * factors and instruction counts kept). Returns how many. */
size_t bhive_again_unstable(struct bhive_result *res, size_t n);

/* "@bhive ..." into r (index in *index): 0, or -1 when the line is not one. */
int bhive_parse_line(const char *line, uint32_t *index, struct bhive_result *r);
/* "@bhive-clock CLOCK": 0 with the clock's name ("pmc", "tsc") in clock. */
int bhive_parse_clock(const char *line, char *clock, size_t n);

/* Before running: instructions decoded into *insns; BHIVE_OK, BHIVE_UNDECODABLE (with the
 * offset of the bytes capstone rejects) or BHIVE_CONTROL_FLOW (a jump, call, return or
 * interrupt instruction: the block would leave its copies). */
int bhive_precheck(const uint8_t *code, size_t len, unsigned *insns, size_t *bad_offset);
/* The AArch64 precheck: the block is little-endian 4-byte instructions (*insns of them);
 * BHIVE_OK, BHIVE_UNDECODABLE (a length that is not a multiple of 4: the offset of the
 * trailing bytes) or BHIVE_CONTROL_FLOW (a branch, a branch to a register, a return or an
 * exception-generating instruction: SVC, HVC, SMC, BRK, HLT), told by their encodings.
 * Instructions the CPU does not implement are run and reported by the harness. */
int bhive_precheck_a64(const uint8_t *code, size_t len, unsigned *insns, size_t *bad_offset);
/* After a #GP at offset: BHIVE_PRIVILEGED, BHIVE_NONCANONICAL (a memory operand's address,
 * from the registers at the fault) or BHIVE_GENERAL_PROTECTION. */
int bhive_refine_gp(const uint8_t *code, size_t len, long offset, const uint64_t regs[16]);

#endif
