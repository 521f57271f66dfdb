/* SPDX-License-Identifier: BSD-2-Clause */
/* The hpm counters as a driver of the neutral PMU layer (bmprof_pmu.h): GP counter i is
 * mhpmcounter(3 + i), 64-bit, with its event in mhpmevent(3 + i); there are no fixed
 * counters (mcycle and minstret cannot interrupt), so `cycles` and `instructions` go on GP
 * counters with the SBI PMU's codes. Counters stop and start through mcountinhibit.
 *
 * Overflow (Sscofpmf): a counter that wraps while its mhpmevent.OF is clear sets OF and
 * raises the local counter-overflow interrupt (LCOFI, mip bit 13); one whose OF is set
 * raises nothing. A counting counter is programmed with OF set, so only sampling
 * counters interrupt; the handler clears OF (and LCOFIP) to re-arm. The counters' set
 * is the runtime's probe's (rv_pmu_set), the same on every hart. */
#include "bmprof_riscv64.h"
#include "bmprof_pmu.h"
#include "rv.h"

#define OF (1ull << 63)
#define LCOFIP (1ull << 13)

static struct {
	unsigned n;          /* counters mhpmcounter3 .. 3+n-1 */
	int ovf;             /* Sscofpmf */
	uint64_t irq_mask;   /* GP counters programmed to interrupt */
} s;

void rv_pmu_set(unsigned n, int ovf)
{
	s.n = n > BMPROF_PMU_MAX_GP ? BMPROF_PMU_MAX_GP : n;
	s.ovf = ovf;
}

/* CSR numbers are part of the instruction: one case per counter. */
#define CASES(X) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) \
	X(15) X(16) X(17) X(18)

static uint64_t ctr_read(unsigned i)
{
	switch (i + 3) {
#define R(k) case k: return rv_csr_read(mhpmcounter##k);
	CASES(R)
#undef R
	}
	return 0;
}

static void ctr_write(unsigned i, uint64_t v)
{
	switch (i + 3) {
#define W(k) case k: rv_csr_write(mhpmcounter##k, v); break;
	CASES(W)
#undef W
	}
}

static uint64_t evt_read(unsigned i)
{
	switch (i + 3) {
#define R(k) case k: return rv_csr_read(mhpmevent##k);
	CASES(R)
#undef R
	}
	return 0;
}

static void evt_write(unsigned i, uint64_t v)
{
	switch (i + 3) {
#define W(k) case k: rv_csr_write(mhpmevent##k, v); break;
	CASES(W)
#undef W
	}
}

static void evt_clear_of(unsigned i)
{
	switch (i + 3) {
#define C(k) case k: rv_csr_clear(mhpmevent##k, OF); break;
	CASES(C)
#undef C
	}
}

static uint64_t inhibit_bits(uint64_t mask)
{
	return (mask & ((1ull << BMPROF_PMU_MAX_GP) - 1)) << 3;
}

static int probe(struct bmprof_pmu_caps *caps)
{
	if (!s.n)
		return -1;
	*caps = (struct bmprof_pmu_caps){
		.vendor = BMPROF_VENDOR_RISCV, .version = (uint8_t)s.ovf,
		.ngp = (uint8_t)s.n, .gp_width = 64, .can_interrupt = (uint8_t)s.ovf,
	};
	return 0;
}

static void program(unsigned ctr, uint64_t encoding, int irq)
{
	if (ctr >= s.n)
		return;
	rv_csr_set(mcountinhibit, inhibit_bits(1ull << ctr));
	evt_write(ctr, (encoding & ~OF) | (irq ? 0 : OF));
	if (irq)
		__atomic_or_fetch(&s.irq_mask, 1ull << ctr, __ATOMIC_RELAXED);
	else
		__atomic_and_fetch(&s.irq_mask, ~(1ull << ctr), __ATOMIC_RELAXED);
}

static void clear(unsigned ctr)
{
	if (ctr >= s.n)
		return;
	rv_csr_set(mcountinhibit, inhibit_bits(1ull << ctr));
	evt_write(ctr, OF);
}

static uint64_t read(unsigned ctr) { return ctr < s.n ? ctr_read(ctr) : 0; }
static void write(unsigned ctr, uint64_t v) { if (ctr < s.n) ctr_write(ctr, v); }
static void enable(uint64_t mask) { rv_csr_clear(mcountinhibit, inhibit_bits(mask)); }
static void disable(uint64_t mask) { rv_csr_set(mcountinhibit, inhibit_bits(mask)); }

static uint64_t overflow(void)
{
	uint64_t m = 0, want = __atomic_load_n(&s.irq_mask, __ATOMIC_RELAXED);

	for (; want; want &= want - 1) {
		unsigned i = (unsigned)__builtin_ctzll(want);
		if (evt_read(i) & OF)
			m |= 1ull << i;
	}
	return m;
}

static void ack(uint64_t mask)
{
	rv_csr_clear(mip, LCOFIP);
	for (; mask; mask &= mask - 1)
		evt_clear_of((unsigned)__builtin_ctzll(mask));
}

const struct bmprof_pmu_ops bmprof_pmu_sscof = {
	.name = "riscv sscofpmf", .probe = probe, .program = program, .clear = clear,
	.read = read, .write = write, .enable = enable, .disable = disable,
	.overflow = overflow, .ack = ack,
};
