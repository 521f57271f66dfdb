/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime runs on hart 0 alone (the others wait in entry.S): one CPU, no bm_run_on. */
#include "bmrt.h"
#include "rt.h"

unsigned bm_ncpus(void) { return 1; }
unsigned bm_cpu_id(void) { return 0; }

int bm_run_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	(void)cpu;
	(void)fn;
	(void)arg;
	return -1;
}

void bm_wait(unsigned cpu) { (void)cpu; }
