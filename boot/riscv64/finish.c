/* SPDX-License-Identifier: BSD-2-Clause */
/* The end of a run, on whichever hart ends it (main returned, bm_exit, an exception):
 * stop sampling on every hart and wait until the others parked (smp.c), send every
 * parked hart's state (COUNTS, SAMPLES, TOTALS, hart by hart), the END frame, and power
 * off. A second hart that tries to end the run meanwhile stops its own sampling and parks
 * instead. Entered a second time on the ending hart (a fault inside the flush), it skips
 * the flush so it cannot loop. */
#include "bmrt.h"
#include "rt.h"

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static int ender = -1;
	int me = (int)bmrt_cpu(), was = -1;

	irq_off();
	if (__atomic_compare_exchange_n(&ender, &was, me, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		uart_unlock_mine();   /* output a fault cut short: others may wait for it */
		bmprof_rv_stop();
		bmrt_smp_stop(bmrt_cpu_wait_ms);
		bmrt_stream_final();
		for (unsigned i = 0; i < bm_ncpus(); i++)
			if ((int)i == me || bmrt_cpu_parked(i)) {
				bmrt_stream_as(i);
				bmprof_rv_flush_cpu(i);
			}
	} else if (was != me) {
		bmprof_rv_stop();
		bmrt_park();
	}
	bmrt_stream_as((unsigned)me);
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}
