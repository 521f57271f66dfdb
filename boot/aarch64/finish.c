/* The end of a run: stop sampling, send what was sampled and the END frame, power off.
 * Entered a second time (a fault inside the flush lands here again through
 * bmrt_exception), it skips the flush so it cannot loop. */
#include "bmrt.h"
#include "rt.h"

_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static volatile int entered;

	irq_off();
	if (!entered++)
		bmprof_a64_flush();
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}

_Noreturn void bm_exit(int code)
{
	struct bmprof_end e = { .exit_code = code, .reason = BMPROF_END_EXIT };

	bmrt_finish(&e, code >= 0 && code <= BMRT_EXIT_MAX_CODE ? (uint8_t)(1 + code) :
		    BMRT_EXIT_OTHER);
}
