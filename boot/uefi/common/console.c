/* SPDX-License-Identifier: BSD-2-Clause */
/* One CPU, so no lock: console calls mark the UART busy, and a drain that an interrupt
 * starts inside one waits for a later tick (the table keeps aggregating meanwhile). */
#include "uefi_rt.h"
#include "../../common/rt_common.h"

static volatile int busy;

int bmrt_console_begin(void)
{
	busy++;
	return 0;
}

void bmrt_console_end(int token)
{
	(void)token;
	busy--;
}

int bmrt_uefi_out_begin(void)
{
	if (busy)
		return 1;
	busy++;
	return 0;
}

void bmrt_uefi_out_end(void) { busy--; }
