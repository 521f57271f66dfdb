/* SPDX-License-Identifier: BSD-2-Clause */
/* The end of a run (main returning, bm_exit): stop sampling, give the firmware its timer
 * back, send what was sampled and the END frame, power off. Entered a second time (from
 * inside the flush) it only sends END. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "../../x86_64/rt.h"
#include "uefi_x86.h"

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static int finishing;

	cli();
	if (!finishing++) {
		bmrt_uefi_restore();
		bmrt_stream_final();
		bmprof_x86_flush_cpu(0);
	}
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}
