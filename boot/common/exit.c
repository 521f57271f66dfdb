/* SPDX-License-Identifier: BSD-2-Clause */
/* bm_exit: the end of the run as if main returned code, from any CPU. */
#include "bmrt.h"
#include "rt_common.h"

_Noreturn void bm_exit(int code)
{
	struct bmprof_end e = { .exit_code = code, .reason = BMPROF_END_EXIT };

	bmrt_finish(&e, code >= 0 && code <= BMRT_EXIT_MAX_CODE ? (uint8_t)(1 + code) :
		    BMRT_EXIT_OTHER);
}
