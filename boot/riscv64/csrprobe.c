/* SPDX-License-Identifier: BSD-2-Clause */
/* Which hpm counters exist (mhpmcounter3 .. 18; a missing one is an illegal
 * instruction, which trap.c skips while probing) and whether Sscofpmf does (its
 * scountovf CSR, 0xDA0, exists). */
#include "rt.h"

/* Read CSR k; -1 if the read trapped (a0 is set to -1 and the csrr skipped). */
#define PROBE(k) ({ register uint64_t a0_ __asm__("a0") = 0; \
	__asm__ volatile("csrr a0, " #k : "+r"(a0_) : : "memory"); a0_; })

static int counter_exists(unsigned i)
{
	uint64_t v = 0;

	switch (i) {
#define C(k) case k: v = PROBE(mhpmcounter##k); break;
	C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14) C(15) C(16)
	C(17) C(18)
#undef C
	default: return 0;
	}
	return v != (uint64_t)-1;
}

void bmrt_probe_pmu(unsigned *counters, int *sscofpmf)
{
	unsigned n = 0;

	bmrt_probing = 1;
	while (counter_exists(3 + n))
		n++;
	*counters = n;
	*sscofpmf = n && PROBE(0xda0) != (uint64_t)-1;
	bmrt_probing = 0;
}
