/* SPDX-License-Identifier: BSD-2-Clause */
/* TSC and LAPIC timer rates, measured against PIT channel 2 (1.193182 MHz; gated by bit 0
 * of port 0x61, so no interrupt is involved). CPUID leaf 0x15 (crystal ratio), where all
 * three values are given, is the TSC rate the vendor states and wins over the measurement.
 *
 * The window is bounded by two readings of the PIT's counter, each taken together with the
 * TSC and the LAPIC count. A reading whose two TSC reads are far apart (the CPU was held up
 * between them, as an emulator's thread can be) would skew the window, so each reading is
 * the tightest of a few tries. The counter wraps every 55 ms: a CPU held up for longer
 * inside the window (an emulator's thread on a busy host) sees it wrap, and the window is
 * measured again, up to ATTEMPTS times. */
#include "x86.h"

#define PIT_HZ 1193182ull
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_GATE 0x61
#define PIT_WINDOW 23864u           /* 20 ms */
#define TRIES 5
#define SPIN_MAX 10000000ul         /* counter reads before giving up on a dead PIT */
#define ATTEMPTS 16

struct point {
	uint64_t tsc;
	uint32_t pit;
	uint32_t lapic;
};

static uint64_t tsc_hz_from_cpuid(void)
{
	uint32_t r[4];

	x86_cpuid(0, 0, r);
	if (r[0] < 0x15)
		return 0;
	x86_cpuid(0x15, 0, r);
	if (!r[0] || !r[1] || !r[2])
		return 0;
	return (uint64_t)r[2] * r[1] / r[0];
}

/* Channel 2, mode 0, counting down from 0xFFFF with the speaker off. */
static void pit_start(void)
{
	x86_outb(PIT_GATE, (uint8_t)((x86_inb(PIT_GATE) & ~0x02) | 0x01));
	x86_outb(PIT_CMD, 0xB0);         /* channel 2, lobyte/hibyte, mode 0, binary */
	x86_outb(PIT_CH2, 0xFF);
	x86_outb(PIT_CH2, 0xFF);
}

static uint32_t pit_count(void)
{
	uint32_t lo;

	x86_outb(PIT_CMD, 0x80);         /* latch channel 2 */
	lo = x86_inb(PIT_CH2);
	return lo | (uint32_t)x86_inb(PIT_CH2) << 8;
}

static struct point reading(int lapic)
{
	struct point best = { 0, 0, 0 };
	uint64_t best_gap = ~0ull;

	for (int i = 0; i < TRIES; i++) {
		uint64_t t0 = x86_rdtsc();
		uint32_t pit = pit_count();
		uint32_t cur = lapic ? lapic_read(LAPIC_TIMER_CUR) : 0;
		uint64_t t1 = x86_rdtsc();
		if (t1 - t0 < best_gap) {
			best_gap = t1 - t0;
			best = (struct point){ t0 + (t1 - t0) / 2, pit, cur };
		}
	}
	return best;
}

/* One 20 ms window: 0 with both points, 1 when the counter wrapped (try again), -1 when
 * the PIT or the LAPIC timer does not count. */
static int window(int lapic, struct point *pa, struct point *pb)
{
	struct point a, b;
	unsigned long spins = 0;

	if (lapic) {
		lapic_write(LAPIC_TIMER_DIV, 0xB);   /* divide by 1 */
		lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | LAPIC_LVT_ONESHOT);
		lapic_write(LAPIC_TIMER_INIT, 0xFFFFFFFFu);
	}
	pit_start();
	a = reading(lapic);
	while (a.pit - pit_count() < PIT_WINDOW)
		if (++spins > SPIN_MAX)
			return -1;
	b = reading(lapic);
	if (lapic)
		lapic_write(LAPIC_TIMER_INIT, 0);
	if (b.pit > a.pit || a.pit - b.pit < PIT_WINDOW)
		return 1;
	if (b.tsc <= a.tsc || (lapic && a.lapic <= b.lapic))
		return -1;
	*pa = a;
	*pb = b;
	return 0;
}

int calibrate(uint64_t *tsc_hz, uint64_t *lapic_hz, int *tsc_from_cpuid, int lapic)
{
	struct point a, b;
	uint32_t ticks;
	int rc = 1;

	for (int i = 0; i < ATTEMPTS && rc == 1; i++)
		rc = window(lapic, &a, &b);
	if (rc)
		return -1;
	ticks = a.pit - b.pit;
	*lapic_hz = (uint64_t)(a.lapic - b.lapic) * PIT_HZ / ticks;
	*tsc_hz = tsc_hz_from_cpuid();
	*tsc_from_cpuid = *tsc_hz != 0;
	if (!*tsc_hz)
		*tsc_hz = (b.tsc - a.tsc) * PIT_HZ / ticks;
	return 0;
}
