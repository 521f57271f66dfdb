/* SPDX-License-Identifier: BSD-2-Clause */
/* The DWT cycle counter (Armv7-M ARM C1.8, Armv8-M ARM D1.2: DWT_CTRL, DWT_CYCCNT). */
#include "cm_mmio.h"
#include "cm_pmu.h"

#define DWT_CTRL 0xE0001000u
#define DWT_CYCCNT 0xE0001004u
#define CTRL_CYCCNTENA (1u << 0)
#define CTRL_NOCYCCNT (1u << 25)
#define PROBE_VALUE 0x5A5A0000u   /* written to CYCCNT: the read back must be at or past it */
#define PROBE_SLACK 0x00010000u   /* cycles the few accesses between may take */
#define MOVE_READS 64u            /* reads for the counter to show it advances */

enum bmprof_cyccnt bmprof_cyccnt_start(void)
{
	uint32_t ctrl, v, first;

	mmio_wr32(CM_DEMCR, mmio_rd32(CM_DEMCR) | CM_DEMCR_TRCENA);
	ctrl = mmio_rd32(DWT_CTRL);
	if (ctrl & CTRL_NOCYCCNT)
		return BMPROF_CYCCNT_NONE;
	mmio_wr32(DWT_CYCCNT, PROBE_VALUE);
	mmio_wr32(DWT_CTRL, ctrl | CTRL_CYCCNTENA);
	v = mmio_rd32(DWT_CYCCNT);
	if (!(mmio_rd32(DWT_CTRL) & CTRL_CYCCNTENA) || v - PROBE_VALUE >= PROBE_SLACK)
		return BMPROF_CYCCNT_NO_DWT;
	first = v;
	for (unsigned i = 0; i < MOVE_READS; i++)
		if (mmio_rd32(DWT_CYCCNT) != first)
			return BMPROF_CYCCNT_OK;
	mmio_wr32(DWT_CTRL, ctrl & ~CTRL_CYCCNTENA);
	return BMPROF_CYCCNT_STOPPED;
}

const char *bmprof_cyccnt_text(enum bmprof_cyccnt r)
{
	switch (r) {
	case BMPROF_CYCCNT_OK: return "DWT cycle counter running";
	case BMPROF_CYCCNT_NONE: return "no DWT cycle counter (DWT_CTRL.NOCYCCNT is set)";
	case BMPROF_CYCCNT_NO_DWT: return "no DWT: its registers do not keep what is written "
					  "(QEMU implements no DWT)";
	default: return "the DWT cycle counter does not advance";
	}
}

uint32_t bmprof_cyccnt_read(void)
{
	return mmio_rd32(DWT_CYCCNT);
}
