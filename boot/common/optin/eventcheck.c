/* SPDX-License-Identifier: BSD-2-Clause */
/* event= checked where it is read (AArch64, RISC-V): against a PMU table of its own, so a
 * bad one is named with its setting; the sampler's init parses the kept text again. Not in
 * boot/common itself: the table takes RAM that Cortex-M does not spare (each runtime that
 * uses it names it, mk/core.mk). */
#include "bmprof_pmu.h"
#include "bmrt.h"
#include "../rt_common.h"

int bmrt_event_check(const char *v, size_t vn, size_t spec_max, unsigned n, unsigned max,
		     uint8_t vendor)
{
	static struct bmprof_pmu check;

	if (!bmrt_event_fits(v, vn, spec_max, n, max))
		return 0;
	if (bmprof_pmu_parse_event(&check, v, (unsigned)vn, vendor)) {
		bmrt_log(BMRT_WARN, "config: event=%.*s: %s; ignored", (int)vn, v, check.error);
		return 0;
	}
	return 1;
}
