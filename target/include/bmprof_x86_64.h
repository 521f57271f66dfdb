/* bmprof on x86-64: the LAPIC timer as the sampling source, for one CPU.
 *
 * The timer runs in TSC-deadline mode where CPUID.1:ECX[24] offers it, else in one-shot
 * mode with the initial count re-written on every interrupt; either way each period is
 * drawn by bmprof_next_period() (uniform in [period - period/16, period], in TSC ticks)
 * and counted from the previous deadline, so interrupt latency does not lower the rate.
 * The TSC and the LAPIC timer are calibrated against PIT channel 2 (CPUID leaf 0x15 gives
 * the TSC rate where it is complete); the TSC rate is the HELLO timebase.
 *
 * Two ways to take the interrupt:
 *   - put bmprof_x86_timer_entry in the IDT at the configured vector (interrupt gate): it
 *     saves the scratch registers, calls bmprof_x86_tick() and bmprof_x86_irq_exit();
 *   - or call bmprof_x86_tick(rip) from a handler of your own, then bmprof_x86_irq_exit()
 *     with interrupts disabled just before returning from the interrupt.
 * Compile this library and the handler path with -mgeneral-regs-only -mno-red-zone: the
 * interrupt path never saves SSE state. docs/integration-x86_64.md has an example.
 *
 * Memory: static .bss arrays of BMPROF_X86_TABLE_ENTRIES hash entries and two overflow
 * buffers of BMPROF_X86_OVF_ENTRIES each (DCPI's sizes); override both with -D.
 */
#ifndef BMPROF_X86_64_H
#define BMPROF_X86_64_H

#include <stdint.h>
#include "bmprof.h"

#ifndef BMPROF_X86_TABLE_ENTRIES
#define BMPROF_X86_TABLE_ENTRIES 16384
#endif
#ifndef BMPROF_X86_OVF_ENTRIES
#define BMPROF_X86_OVF_ENTRIES 8192
#endif

#define BMPROF_X86_DEFAULT_HZ 4000u
#define BMPROF_X86_MAX_HZ 100000u
#define BMPROF_X86_DEFAULT_VECTOR 0x40u
#define BMPROF_X86_TIMER_EVENT 0      /* event id of the timer in SAMPLES */

enum bmprof_x86_timer {
	BMPROF_X86_TIMER_AUTO = 0,      /* TSC deadline if the CPU has it, else one-shot */
	BMPROF_X86_TIMER_DEADLINE = 1,  /* TSC-deadline mode (falls back to one-shot if absent) */
	BMPROF_X86_TIMER_ONESHOT = 2,   /* one-shot mode, LAPIC ticks */
};

enum bmprof_x86_error {
	BMPROF_X86_OK = 0,
	BMPROF_X86_E_NOAPIC = -1,      /* CPUID.1:EDX[9]: no local APIC */
	BMPROF_X86_E_CALIBRATE = -2,   /* the PIT did not tick or the timer did not count */
	BMPROF_X86_E_CONFIG = -3,      /* hz above BMPROF_X86_MAX_HZ, vector below 32 or 255 */
	BMPROF_X86_E_MEMORY = -4,      /* the core refused the table sizes */
};

struct bmprof_x86_config {
	uint32_t hz;                    /* samples per second; 0: calibrate but never sample */
	uint8_t vector;                 /* IDT vector of the timer, 32..254 */
	uint8_t timer;                  /* enum bmprof_x86_timer */
	const struct bmprof_out *out;   /* the stream: drains, HELLO, flush */
	uintptr_t lapic_va;             /* where the xAPIC page is mapped; 0: identity-mapped */
};

struct bmprof_x86_info {
	uint64_t tsc_hz;                /* the timebase */
	uint64_t lapic_hz;              /* LAPIC timer input clock (divide by 1) */
	uint64_t period_tsc;            /* nominal period in TSC ticks (0: not sampling) */
	uint64_t jitter_tsc;            /* randomization window in TSC ticks */
	uint32_t hz;
	uint8_t timer;                  /* mode in use: BMPROF_X86_TIMER_DEADLINE or _ONESHOT */
	uint8_t x2apic;                 /* the firmware left the APIC in x2APIC mode */
	uint8_t tsc_from_cpuid;         /* tsc_hz came from CPUID leaf 0x15, not the PIT */
};

/* Calibrate, set up the LAPIC (timer masked) and the core's per-CPU state. Call once,
 * with interrupts disabled. Returns BMPROF_X86_OK or a negative enum bmprof_x86_error. */
int bmprof_x86_init(const struct bmprof_x86_config *cfg);
const char *bmprof_x86_strerror(int err);
const struct bmprof_x86_info *bmprof_x86_info(void);
struct bmprof_cpu *bmprof_x86_cpu(void);

/* Send HELLO (CPU identity, timebase, build-id) and the timer's EVENT frame. */
int bmprof_x86_announce(const uint8_t *build_id, uint8_t build_id_len);

/* Arm the timer / mask it. After bmprof_x86_stop() returns no sample is recorded. */
void bmprof_x86_start(void);
void bmprof_x86_stop(void);

/* From the timer vector, interrupts disabled: record rip as a sample of event 0, re-arm
 * with the next randomized period, EOI. */
void bmprof_x86_tick(uint64_t rip);

/* Interrupt exit ("bottom half"), interrupts disabled on entry and on return: if a full
 * overflow buffer waits and no drain runs on this CPU, enable interrupts, drain, disable. */
void bmprof_x86_irq_exit(void);

/* The ready-made IDT handler for the timer vector (an address, not a C function). */
void bmprof_x86_timer_entry(void);

/* For idle loops, with interrupts enabled: send full overflow buffers if any. */
void bmprof_x86_poll(void);

/* Stop sampling, send every remaining sample and this CPU's TOTALS. */
void bmprof_x86_flush(void);

#endif
