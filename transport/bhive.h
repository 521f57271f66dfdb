/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive: what the host hands the harness image (the QEMU fw_cfg file
 * BHIVE_FWCFG_NAME) and the result lines the harness prints on its console.
 *
 * Input, little-endian: struct bhive_in_header, then count blocks, each a struct
 * bhive_in_block followed by len bytes of machine code, padded to 4 bytes, then nrip
 * struct bhive_in_rip: the block's rip-relative operands, which the harness makes every
 * copy of the block reach at one address, BHIVE_RIP_BASE + rip_align + end + disp32 (end:
 * the instruction's end in the block; disp32: the displacement as given), as the block
 * run in place in a loop would; rip_align (0-63) is the host's choice of the block's
 * address modulo 64 that aligns the operands to their size (bhive_rip.c); then nacc
 * struct bhive_in_access (bhive_access.h): the instructions whose misaligned access the
 * harness may step over when it stays inside a cache line, in the order of their offsets.
 *
 * Output, one console line per block (fields separated by one space, numbers in decimal
 * unless 0x-prefixed):
 *   @bhive-clock CLOCK                 the clock: pmc (core cycles) or tsc
 *   @bhive-frames N                    written pages a block may have (a frame each)
 *   @bhive INDEX STATUS T_LO T_HI C_LO C_HI FAULTS PAGES WRITTEN KEPT_LO KEPT_HI TRIES
 *          VECTOR ERROR OFFSET ADDR [R0..R15]
 * T_LO and T_HI are the kept timings of the block unrolled u_lo and u_hi times (0 when not
 * measured); C_LO, C_HI those of the calibration block (BHIVE_CAL_ADDS dependent register
 * adds an iteration, unrolled BHIVE_CAL_LO and _HI times) timed beside it (tsc only);
 * KEPT_* how many of the BHIVE_TIMINGS timings were clean and agreed on it;
 * TRIES the rounds of BHIVE_TIMINGS taken; VECTOR, ERROR the exception that ended it
 * (-1 none), OFFSET its RIP's offset in the block, ADDR CR2 for a page fault (for a
 * misaligned access, the address the harness computed, 0 when it could not). After a #GP
 * the general registers at the fault follow (rax rcx rdx rbx rsp rbp rsi rdi r8..r15, hex),
 * so the host can tell a non-canonical address from a privileged instruction. */
#ifndef BMPROF_BHIVE_H
#define BMPROF_BHIVE_H

#include <stdint.h>
#include "bhive_access.h"

#define BHIVE_FWCFG_NAME "opt/bmprof/bhive"
#define BHIVE_MAGIC 0x32564842u          /* "BHV2" */
#define BHIVE_INIT 0x12345600ull         /* every register, lane and memory word */
#define BHIVE_MAX_BLOCK 8192u            /* bytes of one block */
#define BHIVE_CODE_MAX (64u * 1024)      /* the code: both factors, the calibration */
#define BHIVE_CODE_BUDGET 16384u         /* u_hi copies of a block fit in this (L1I) */
#define BHIVE_UNROLL_HI 200u
#define BHIVE_TIMINGS 16u                /* timings of each unrolled block per round */
#define BHIVE_KEEP 8u                    /* clean identical timings needed */
#define BHIVE_TSC_TOL_TICKS 4u           /* TSC timings this close agree (or 1%) */
#define BHIVE_ROUNDS 16u                 /* rounds before giving up (status unstable) */
#define BHIVE_MAX_FAULTS 32u             /* page faults mapped per block */
#define BHIVE_CAL_ADDS 16u               /* the calibration block: add %rbx,%rax x 16 */
#define BHIVE_CAL_LO 100u
#define BHIVE_CAL_HI 200u
#define BHIVE_IN_MAX (1024u * 1024)      /* one input file; the host sends batches */

/* Result statuses the harness sends (the host's names: host/bhive/bhive_status.c) */
enum bhive_status {
	BHIVE_OK, BHIVE_UNMAPPABLE, BHIVE_NONCANONICAL, BHIVE_TOO_MANY_FAULTS,
	BHIVE_CONTROL_FLOW, BHIVE_MISALIGNED, BHIVE_ALIASING, BHIVE_UNSTABLE,
	BHIVE_DIVIDE_ERROR, BHIVE_INVALID_OPCODE, BHIVE_GENERAL_PROTECTION, BHIVE_FAULT,
	BHIVE_TOO_LONG, BHIVE_NSTATUS
};

#define BHIVE_IN_TIMINGS 1u   /* print each round's clean timings: @bhive-timings N T... */
#define BHIVE_IN_UNSTABLE 2u  /* judge a block whose timings agree unstable all the same
			       * (tests the host's retries of unstable blocks) */

struct bhive_in_header {
	uint32_t magic;
	uint32_t count;
	uint32_t flags;                  /* BHIVE_IN_* */
	uint32_t max_faults;             /* 0: BHIVE_MAX_FAULTS */
};

struct bhive_in_block {
	uint32_t index;                  /* echoed in the result line */
	uint16_t len;
	uint16_t u_lo, u_hi;
	uint8_t nrip;                    /* struct bhive_in_rip after the code */
	uint8_t rip_align;               /* 0-63 */
	uint16_t nacc;                   /* struct bhive_in_access after the rip operands */
	uint16_t flags;                  /* BHIVE_BLK_* */
};

/* bhive_in_block.flags: every described access reaches one address in every copy (the
 * block writes none of their registers; rip-relative ones are made to reach one) */
#define BHIVE_BLK_FIXED_ADDR 1u

struct bhive_in_rip {
	uint16_t disp_at;                /* the disp32's offset in the block */
	uint16_t end_at;                 /* the end of its instruction */
};

#define BHIVE_MAX_RIP 64u                /* more: the copies are left as they are */
/* where rip-relative operands point (plus rip_align, end, disp32): far from the code and
 * the harness's pages below it, so a displacement of a few MiB either way reaches neither */
#define BHIVE_RIP_BASE (0x7f0000000000ull + (1ull << 30))

#endif
