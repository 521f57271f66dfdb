/* SPDX-License-Identifier: BSD-2-Clause */
/* The end of a run on the AArch64 and RISC-V runtimes, on whichever CPU ends it (main
 * returned, bm_exit, an exception): stop sampling on every CPU and wait until the others
 * parked (bmrt_end_stop_all), send every parked CPU's state (COUNTS, SAMPLES, TOTALS, CPU
 * by CPU), the END frame, and power off. A second CPU that tries to end the run meanwhile
 * stops its own sampling and parks instead. Entered a second time on the ending CPU (a
 * fault inside the flush lands here again through the exception handler), it skips the
 * flush so it cannot loop. The architecture's steps are the bmrt_end_* functions
 * (rt_common.h). Not in boot/common itself: each runtime that uses it names it
 * (mk/core.mk). */
#include "bmrt.h"
#include "../rt_common.h"

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static int ender = -1;
	int me = (int)bm_cpu_id(), was = -1;

	bmrt_end_irq_off();
	if (__atomic_compare_exchange_n(&ender, &was, me, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		uart_unlock_mine();   /* output a fault cut short: others may wait for it */
		bmrt_end_stop_all();
		bmrt_stream_final();
		for (unsigned i = 0; i < bm_ncpus(); i++)
			if ((int)i == me || bmrt_cpu_parked(i)) {
				bmrt_stream_as(i);
				bmrt_end_flush_cpu(i);
			}
	} else if (was != me) {
		bmrt_end_stop_mine();
		bmrt_park();
	}
	bmrt_stream_as((unsigned)me);
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}
