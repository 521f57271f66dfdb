/* SPDX-License-Identifier: BSD-2-Clause */
/* The end of a run (main returned, bm_exit, an exception): stop sampling, send what was
 * sampled (COUNTS, SAMPLES, TOTALS), the END frame, and power off. Entered a second time
 * (a fault inside the flush) it skips the flush so it cannot loop. */
#include "bmrt.h"
#include "rt.h"

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static int entered;

	irq_off();
	if (!entered++) {
		bmrt_stream_final();
		bmprof_rv_flush();
	}
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}
