/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V steps of the end of a run (boot/common/optin/finish.c). */
#include "bmrt.h"
#include "rt.h"

void bmrt_end_irq_off(void) { irq_off(); }
void bmrt_end_stop_mine(void) { bmprof_rv_stop(); }
void bmrt_end_flush_cpu(unsigned cpu) { bmprof_rv_flush_cpu(cpu); }

void bmrt_end_stop_all(void)
{
	bmprof_rv_stop();
	bmrt_smp_stop(bmrt_cpu_wait_ms);
}
