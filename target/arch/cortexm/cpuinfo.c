/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU identity for HELLO from SCB->CPUID: vendor from the implementer code, family =
 * implementer, model = part number (0xC23 Cortex-M3, 0xC24 M4, 0xD21 M33, 0xD22 M55),
 * stepping = revision, signature = the whole CPUID. */
#include "bmprof.h"
#include "cm.h"

void cm_cpuinfo(struct bmprof_hello *h)
{
	uint32_t id = cm_read(CM_CPUID), impl = id >> 24;
	const char *name = impl == 0x41 ? "ARM" : "unknown";
	unsigned i = 0;

	for (; name[i] && i < 15; i++)
		h->vendor[i] = name[i];
	for (; i < 16; i++)
		h->vendor[i] = 0;
	h->family = impl;
	h->model = id >> 4 & 0xFFF;
	h->stepping = id & 0xF;
	h->signature = id;
}
