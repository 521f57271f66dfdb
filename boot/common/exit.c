/* SPDX-License-Identifier: BSD-2-Clause */
/* bm_exit: the end of the run as if main returned code, from any CPU; bmrt_panic: the end
 * of a run that cannot sample. */
#include "bmrt.h"
#include "rt_common.h"

/* A C library's end of the program (boot/common/newlib/: atexit handlers, stdio
 * flushed), run first; it returns, or ends the run itself by calling bm_exit again. Weak:
 * an image without a C library has none. */
__attribute__((weak)) void bmrt_libc_exit(int code)
{
	(void)code;
}

_Noreturn void bm_exit(int code)
{
	struct bmprof_end e = { .exit_code = code, .reason = BMPROF_END_EXIT };

	bmrt_libc_exit(code);
	bmrt_finish(&e, code >= 0 && code <= BMRT_EXIT_MAX_CODE ? (uint8_t)(1 + code) :
		    BMRT_EXIT_OTHER);
}

_Noreturn void bmrt_panic(const char *why)
{
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_PANIC };

	bmrt_log(BMRT_ERR, "cannot sample: %s", why);
	bmprof_emit_end(&bmrt_out, &e);
	bmrt_poweroff(BMRT_EXIT_PANIC);
}
