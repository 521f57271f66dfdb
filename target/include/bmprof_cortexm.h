/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof on Cortex-M (Armv7-M, Armv8-M Mainline, Armv8.1-M): SysTick as the sampling
 * timer and the timebase, one CPU.
 *
 * The timebase: SysTick counts down at the processor clock (CLKSOURCE = 1, sysclk_hz
 * ticks per second); the library extends it to 64 bits by counting its wraps (COUNTFLAG),
 * so SysTick must be the library's alone. While nothing is armed it runs free over its
 * full 24 bits, its interrupt only keeping the count of wraps; while sampling it is
 * reloaded for each period so it interrupts at the sampler's deadline (periods drawn
 * uniform in [period - period/16, period] ticks and counted from the previous deadline).
 * A deadline further than 2^24 ticks away is reached in several SysTick periods; only the
 * last one samples.
 *
 * Taking the interrupt: put bmprof_cm_systick_entry in the SysTick slot (15) of the
 * vector table. It finds the exception frame on MSP or PSP (EXC_RETURN bit 2) and passes
 * it to bmprof_cm_systick(frame, exc_return), which takes the interrupted pc from the
 * frame (its word 6) and lr (word 5); the interrupted sp is above the frame, 8 words or,
 * with the floating-point state stacked (EXC_RETURN bit 4 clear), 26 words, plus the
 * alignment word that xPSR bit 9 marks; r7 (the frame pointer, for call stacks) is passed
 * as it was. A handler of your own may call bmprof_cm_systick itself with the same
 * arguments (r7 0 when it has no call stacks).
 *
 * A PMU driver (the Armv8.1-M PMU, or DWT counters) plugs in through config.pmu (NULL: no
 * PMU, the timer samples); its overflow interrupt's vector is bmprof_cm_overflow_entry,
 * which finds the frame the same way and calls bmprof_cm_overflow(frame, exc_return, r7).
 *
 * Memory: static .bss, BMPROF_CM_TABLE_ENTRIES hash entries and two overflow buffers of
 * BMPROF_CM_OVF_ENTRIES (16 bytes each); override with -D. Call stacks (stack_depth) need
 * BMPROF_CM_STACK_ENTRIES chains of BMPROF_CM_STACK_FRAMES frames in all (0 by default:
 * no memory, stack_depth must be 0) and the code built for target/arch/cortexm/unwind.c
 * (-fno-omit-frame-pointer -funwind-tables -fno-shrink-wrap) with its .ARM.exidx table in
 * config.exidx. Raw samples are not built in: the config's raw must be 0.
 *
 * Build with -mgeneral-regs-only: the interrupt path never touches the FP registers, so
 * lazy FP state preservation is never triggered by the sampler.
 */
#ifndef BMPROF_CORTEXM_H
#define BMPROF_CORTEXM_H

#include <stdint.h>
#include "bmprof.h"
#include "bmprof_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BMPROF_CM_TABLE_ENTRIES
#define BMPROF_CM_TABLE_ENTRIES 256
#endif
#ifndef BMPROF_CM_OVF_ENTRIES
#define BMPROF_CM_OVF_ENTRIES 64
#endif

#ifndef BMPROF_CM_STACK_ENTRIES
#define BMPROF_CM_STACK_ENTRIES 0
#endif
#ifndef BMPROF_CM_STACK_FRAMES
#define BMPROF_CM_STACK_FRAMES (8 * BMPROF_CM_STACK_ENTRIES)
#endif

#define BMPROF_CM_DEFAULT_HZ 1000u
#define BMPROF_CM_MAX_HZ 100000u
#define BMPROF_CM_MAX_EVENTS BMPROF_PMU_MAX_EVENTS

/* The exception frame, in 32-bit words from its start: r0-r3, r12, lr, pc, xPSR; then
 * s0-s15, FPSCR and a reserved word when the FP state was stacked (EXC_RETURN bit 4 0). */
#define BMPROF_CM_FRAME_R0 0
#define BMPROF_CM_FRAME_R12 4
#define BMPROF_CM_FRAME_LR 5
#define BMPROF_CM_FRAME_PC 6
#define BMPROF_CM_FRAME_XPSR 7
#define BMPROF_CM_FRAME_WORDS 8
#define BMPROF_CM_FRAME_FP_WORDS 26
#define BMPROF_CM_EXC_RETURN_PSP (1u << 2)     /* the frame is on PSP */
#define BMPROF_CM_EXC_RETURN_NOFP (1u << 4)    /* the basic frame, no FP state */
#define BMPROF_CM_XPSR_ALIGN (1u << 9)         /* a word of padding above the frame */
#define BMPROF_CM_XPSR_IT 0x0600FC00u          /* ICI/IT: in an IT block or an ldm/stm */

enum bmprof_cm_error {
	BMPROF_CM_OK = 0,
	BMPROF_CM_E_CONFIG = -1,    /* hz too high or too low for SysTick, a bad mode or event */
	BMPROF_CM_E_TIMER = -5,     /* sysclk_hz is 0 */
	BMPROF_CM_E_MEMORY = -6,    /* the core refused the table sizes */
};

enum bmprof_cm_mode { BMPROF_CM_SAMPLE = BMPROF_PMU_SAMPLE, BMPROF_CM_COUNT = BMPROF_PMU_COUNT };

struct bmprof_cm_config {
	uint32_t hz;              /* SysTick samples per second; 0: the timer never samples */
	uint32_t sysclk_hz;       /* SysTick's clock (the processor clock, CLKSOURCE 1) */
	uint8_t mode;             /* enum bmprof_cm_mode */
	uint8_t nevents;          /* up to BMPROF_CM_MAX_EVENTS, for config.pmu */
	const char *const *events;  /* event specs ID:ENC:PERIOD[:NAME[:GROUP]] */
	/* A PMU driver under the neutral PMU layer (bmprof_pmu.h); NULL: none. */
	const struct bmprof_pmu_ops *pmu;
	const struct bmprof_out *out;           /* the stream: drains, HELLO, flush */
	uint32_t flush_ms;        /* the periodic flush (0: off) */
	int (*out_begin)(void);   /* around each drain bmprof starts by itself; may be NULL */
	void (*out_end)(void);
	/* Call stacks: at most stack_depth frames (0: off; 1 to BMPROF_STACK_DEPTH_MAX with
	 * stack memory), unwound by reading the code in code (the functions' starts from the
	 * .ARM.exidx table [exidx.lo, exidx.hi)) and the stack in ram. */
	uint32_t stack_depth;
	uint8_t raw;              /* must be 0: no raw samples on Cortex-M yet */
	struct bmprof_range ram, code, exidx;
};

struct bmprof_cm_info {
	uint64_t timebase_hz;     /* sysclk_hz */
	uint64_t period_ticks;    /* timer: nominal period in SysTick ticks (0: not running) */
	uint64_t jitter_ticks;
	uint32_t hz;
	uint32_t cpuid;           /* SCB->CPUID */
	uint8_t source;           /* BMPROF_SOURCE_TIMER or BMPROF_SOURCE_PMU */
	uint8_t mode;
	uint8_t timer_samples, timer_runs;
	uint8_t bad_event;        /* E_CONFIG for an event: its index; 0xFF otherwise */
};

int bmprof_cm_init(const struct bmprof_cm_config *cfg);
const char *bmprof_cm_strerror(int err);
const struct bmprof_cm_info *bmprof_cm_info(void);
const struct bmprof_pmu *bmprof_cm_pmu(void);
struct bmprof_cpu *bmprof_cm_cpu(void);
int bmprof_cm_announce(const uint8_t *build_id, uint8_t build_id_len);
void bmprof_cm_start(void);
void bmprof_cm_stop(void);
void bmprof_cm_flush(void);
void bmprof_cm_poll(void);
int bmprof_cm_probe(int on);
void bmprof_cm_irq_stats(uint64_t *irqs, uint64_t *last_ticks);
void bmprof_cm_set_untimed_fine(int64_t untimed);

/* The 64-bit timebase (SysTick extended), monotonic; any context. */
uint64_t bmprof_cm_now(void);

/* The vector table's SysTick entry, and its C half (frame, EXC_RETURN, the interrupted
 * r7). */
void bmprof_cm_systick_entry(void);
/* A PMU overflow interrupt's vector entry (calls bmprof_cm_overflow). */
void bmprof_cm_overflow_entry(void);
void bmprof_cm_systick(const uint32_t *frame, uint32_t exc_return, uint32_t r7);
/* A PMU overflow interrupt's C half: record, then drain at its exit. */
void bmprof_cm_overflow(const uint32_t *frame, uint32_t exc_return, uint32_t r7);

#ifdef __cplusplus
}
#endif

#endif
