/* SPDX-License-Identifier: BSD-2-Clause */
/* The AArch64 steps of the end of a run (boot/common/optin/finish.c). */
#include "bmrt.h"
#include "rt.h"

void bmrt_end_irq_off(void) { irq_off(); }
void bmrt_end_stop_all(void) { bmrt_smp_stop(); }
void bmrt_end_stop_mine(void) { bmprof_a64_stop(); }
void bmrt_end_flush_cpu(unsigned cpu) { bmprof_a64_flush_cpu(cpu); }
