/* SPDX-License-Identifier: BSD-2-Clause */
/* The end of a run (main returned, bm_exit, a fault): stop sampling, send what was
 * sampled (COUNTS, SAMPLES, TOTALS), the END frame, and power off. Entered again (a fault
 * inside the flush), it skips the flush so it cannot loop. */
#include "bmrt.h"
#include "rt.h"

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static int entered;

	irq_off();
	if (!entered++)
		bmprof_cm_flush();
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}
