/* SPDX-License-Identifier: BSD-2-Clause */
/* bm_phase (bmrt.h): the next phase id, its PHASE frame on the profile stream, then every
 * CPU's samples go to it. */
#include "bmprof.h"
#include "bmrt.h"
#include "rt_common.h"

static uint16_t phases;
static int told;

void bmrt_phase_emit(uint16_t id, const char *name)
{
	int t = bmrt_console_begin();

	bmprof_emit_phase(&bmrt_out, id, bm_cycles(), name);
	bmrt_console_end(t);
}

__attribute__((weak)) int bmrt_phase_user(uint16_t id, const char *name)
{
	(void)id;
	(void)name;
	return 0;
}

int bm_phase(const char *name)
{
	uint16_t id = __atomic_add_fetch(&phases, 1, __ATOMIC_RELAXED);

	if (id > BMPROF_PHASE_MAX) {
		if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
			bm_printf("bm_phase: more than %u phases; \"%s\" and later ones go to the "
				  "last\n", BMPROF_PHASE_MAX, name ? name : "");
		return -1;
	}
	if (!bmrt_phase_user(id, name))
		bmrt_phase_emit(id, name);
	bmprof_set_phase(id);
	return id;
}
