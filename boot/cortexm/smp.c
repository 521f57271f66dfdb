/* SPDX-License-Identifier: BSD-2-Clause */
/* One CPU: bm_run_on has no other CPU to start work on. */
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
