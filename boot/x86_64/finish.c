/* SPDX-License-Identifier: BSD-2-Clause */
/* The end of a run, on whichever CPU ends it (main returning on CPU 0, bm_exit or an
 * exception anywhere): stop this CPU's sampling, stop and park every other CPU
 * (smp.c), then, holding the UART lock, flush each CPU's quiescent state in turn (COUNTS,
 * SAMPLES, TOTALS), send the END frame and power off.
 *
 * A second CPU that ends the run meanwhile parks instead. The finishing CPU entered a
 * second time (a fault inside the flush lands here again through bmrt_exception) skips
 * the flush, so it cannot loop. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#define NOBODY 0xFFFFFFFFu

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static volatile uint32_t finisher = NOBODY;
	uint32_t nobody = NOBODY;
	unsigned me, n;
	uint64_t quiet;

	if (bmrt_in_user()) {   /* main in ring 3: the end of the run is ring 0's */
		bmrt_user_call(BMRT_UCALL_FINISH, (uintptr_t)end, exit_value);
		__builtin_unreachable();
	}
	cli();
	me = bmrt_cpu();
	if (!__atomic_compare_exchange_n(&finisher, &nobody, me, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (finisher != me)
			bmrt_smp_park();
		bmprof_emit_end(&bmrt_out, end);
		bmrt_poweroff(exit_value);
	}
	bmprof_x86_stop();
	bmrt_uart_force_unlock();   /* an exception may have come while this CPU wrote */
	quiet = bmrt_smp_stop_others();
	n = bm_ncpus();
	bmrt_uart_lock();
	for (unsigned i = 0; i < n; i++)
		if (!(quiet >> i & 1))
			bmrt_log(BMRT_WARN, "CPU %u did not stop within %u ms (interrupts disabled?); "
				 "its samples are not sent", i, (unsigned)bmrt_smp_wait_ms());
	bmrt_stream_final();
	for (unsigned i = 0; i < n; i++)
		if (quiet >> i & 1) {
			bmrt_stream_as(i);
			bmprof_x86_flush_cpu(i);
		}
	bmrt_stream_as(me);
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}
