/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU identity for HELLO, and the CPUID feature bits the sampler needs. */
#include "bmprof.h"
#include "x86.h"

void cpuinfo_fill(struct bmprof_hello *h)
{
	uint32_t r[4], sig, fam, model;

	x86_cpuid(0, 0, r);
	for (int i = 0; i < 4; i++) {
		h->vendor[i] = (char)(r[1] >> 8 * i);
		h->vendor[4 + i] = (char)(r[3] >> 8 * i);
		h->vendor[8 + i] = (char)(r[2] >> 8 * i);
	}
	for (int i = 12; i < 16; i++)
		h->vendor[i] = 0;
	x86_cpuid(1, 0, r);
	sig = r[0];
	fam = sig >> 8 & 0xF;
	model = sig >> 4 & 0xF;
	/* The display family and model, as the SDM defines them. */
	if (fam == 0xF)
		fam += sig >> 20 & 0xFF;
	if (fam == 0x6 || fam >= 0xF)
		model += (sig >> 16 & 0xF) << 4;
	h->family = fam;
	h->model = model;
	h->stepping = sig & 0xF;
	h->signature = sig;
}

int cpu_has_apic(void)
{
	uint32_t r[4];

	x86_cpuid(1, 0, r);
	return (r[3] >> 9) & 1;
}

int cpu_has_tsc_deadline(void)
{
	uint32_t r[4];

	x86_cpuid(1, 0, r);
	return (r[2] >> 24) & 1;
}
