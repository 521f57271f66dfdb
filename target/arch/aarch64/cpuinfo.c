/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU identity for HELLO from MIDR_EL1: vendor from the implementer code, family =
 * implementer, model = part number, stepping = revision, signature = the whole MIDR. */
#include "bmprof.h"
#include "a64.h"

static const struct {
	uint8_t code;
	const char *name;
} implementers[] = {
	{ 0x00, "software" },   /* reserved for software use: QEMU's -cpu max */
	{ 0x41, "ARM" },        { 0x42, "Broadcom" },  { 0x43, "Cavium" },
	{ 0x46, "Fujitsu" },    { 0x48, "HiSilicon" }, { 0x4E, "NVIDIA" },
	{ 0x50, "APM" },        { 0x51, "Qualcomm" },  { 0x53, "Samsung" },
	{ 0x61, "Apple" },      { 0x6D, "Microsoft" }, { 0xC0, "Ampere" },
};

static void vendor_name(char out[16], uint32_t impl)
{
	static const char hex[] = "0123456789abcdef";
	const char *s = 0;
	unsigned i = 0;

	for (unsigned k = 0; k < sizeof implementers / sizeof implementers[0]; k++)
		if (implementers[k].code == impl)
			s = implementers[k].name;
	if (s) {
		for (; s[i] && i < 15; i++)
			out[i] = s[i];
	} else {
		const char *p = "impl-0x";
		for (; p[i]; i++)
			out[i] = p[i];
		out[i++] = hex[impl >> 4 & 0xF];
		out[i++] = hex[impl & 0xF];
	}
	for (; i < 16; i++)
		out[i] = 0;
}

void cpuinfo_fill(struct bmprof_hello *h)
{
	uint32_t midr = (uint32_t)a64_read(midr_el1);

	vendor_name(h->vendor, midr >> 24);
	h->family = midr >> 24;
	h->model = midr >> 4 & 0xFFF;
	h->stepping = midr & 0xF;
	h->signature = midr;
}
