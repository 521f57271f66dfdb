/* SPDX-License-Identifier: BSD-2-Clause */
/* The UART lock: the CPUs share COM1 for console text and the profile stream, and a frame
 * or a console call must reach it whole. A ticket lock (first come, first served, so a
 * CPU that drains often cannot starve another one's console).
 *
 * It is taken and held with interrupts enabled, so the time spent writing is sampled like
 * any other. That makes two things to watch on one CPU: the timer's interrupt-exit drain
 * may come while this CPU's program waits for the lock or holds it (the drain must then
 * not wait: bmrt_uart_out_begin refuses and the full buffers wait for a later tick), and
 * a stop request may come meanwhile (smp.c parks the CPU only after it lets go, through
 * bmrt_smp_after_unlock). The owner may take the lock again: an exception while it writes
 * still prints its line. */
#include "bmprof_x86_64.h"
#include "rt.h"

#define NOBODY 0xFFFFFFFFu

static struct {
	volatile uint32_t next;      /* the next ticket to hand out */
	volatile uint32_t serving;   /* the ticket that holds the lock */
	volatile uint32_t owner;     /* the CPU that holds it, or NOBODY */
	uint32_t depth;              /* times the owner took it again */
} lk = { .owner = NOBODY };

/* busy[cpu]: that CPU waits for the lock or holds it. Only that CPU writes it. */
static volatile uint8_t busy[BMPROF_X86_MAX_CPUS];

static inline void fence(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

int bmrt_uart_busy(unsigned cpu) { return busy[cpu]; }

/* owner reads as this CPU only if this CPU holds the lock: no other CPU writes that. */
void bmrt_uart_lock(void)
{
	unsigned me = bmrt_cpu();
	uint32_t t;

	if (lk.owner == me) {
		lk.depth++;
		return;
	}
	busy[me] = 1;
	fence();
	t = __atomic_fetch_add(&lk.next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lk.serving, __ATOMIC_ACQUIRE) != t)
		cpu_relax();
	lk.owner = me;
}

static void release(unsigned me)
{
	lk.depth = 0;
	lk.owner = NOBODY;
	__atomic_store_n(&lk.serving, lk.serving + 1, __ATOMIC_RELEASE);
	fence();
	busy[me] = 0;
	fence();
}

void bmrt_uart_unlock(void)
{
	unsigned me = bmrt_cpu();

	if (lk.depth) {
		lk.depth--;
		return;
	}
	release(me);
	bmrt_smp_after_unlock(me);
}

void bmrt_uart_force_unlock(void)
{
	unsigned me = bmrt_cpu();

	if (lk.owner == me)
		release(me);
}

/* With the shared-memory rings a drain writes this CPU's own ring: no lock, but busy[] is
 * still set around it, so a stop request waits for the drain to finish (smp.c). */
int bmrt_uart_out_begin(void)
{
	unsigned me = bmrt_cpu();

	if (busy[me])
		return -1;
	if (!bmrt_stream_ring()) {
		bmrt_uart_lock();
		return 0;
	}
	busy[me] = 1;
	fence();
	return 0;
}

void bmrt_uart_out_end(void)
{
	unsigned me = bmrt_cpu();

	if (!bmrt_stream_ring()) {
		bmrt_uart_unlock();
		return;
	}
	fence();
	busy[me] = 0;
	fence();
	bmrt_smp_after_unlock(me);
}

int bmrt_console_begin(void)
{
	bmrt_uart_lock();
	return 0;
}

void bmrt_console_end(int token)
{
	(void)token;
	bmrt_uart_user_flush();
	bmrt_uart_unlock();
}
