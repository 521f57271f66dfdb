/* SPDX-License-Identifier: BSD-2-Clause */
/* The UEFI runtimes run the application on the boot processor only. */
#include "bmrt.h"

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
