// SPDX-License-Identifier: BSD-2-Clause
// A C++ program for the bmprof runtime that includes every public header and calls into
// each: the headers must be C++ (extern "C", no _Noreturn), and every call must reach the C
// library unmangled (tests/e2e/test_cxx.sh).
#include <bmrt.h>

#include "bmprof.h"
#include "bmprof_desc.h"
#include "bmprof_pmu.h"
#include "bmprof_ring.h"
#include "wire.h"
#if defined(__x86_64__)
#include "bmprof_x86_64.h"
#else
#include "bmprof_aarch64.h"
#endif

namespace {

template <typename T> constexpr T square(T v) { return v * v; }

class Sum {
public:
	explicit Sum(uint64_t seed) : x_(seed) {}
	__attribute__((noinline)) uint64_t run(uint64_t n)
	{
		for (uint64_t i = 0; i < n; i++) {
			x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
			__asm__ volatile("" : "+r"(x_));
		}
		return x_;
	}

private:
	uint64_t x_;
};

alignas(64) unsigned char ring_mem[2 * BMPROF_RING_MIN_DATA];
bmprof_rings rings;

} // namespace

int main(void)
{
	Sum s(square<uint64_t>(3));
	uint64_t r = s.run(bm_param("n", 2000000));
#if defined(__x86_64__)
	const bmprof_cpu *c = bmprof_x86_cpu();
	unsigned ncpus = bmprof_x86_ncpus();
#else
	const bmprof_cpu *c = bmprof_a64_cpu();
	unsigned ncpus = bmprof_a64_ncpus();
#endif
	bmprof_counters k;
	uint8_t le[4];

	bmprof_get_counters(c, &k);
	bmprof_put32(le, BMPROF_WIRE_VERSION);
	int ring = bmprof_ring_init(&rings, ring_mem, sizeof ring_mem, 1);
	bm_printf("c++: cpus %u, sampling %s, descriptor %s, wire %u, ring %d, mem %s, due %d, "
		  "end %d, result %llx\n", ncpus, k.taken > 0 ? "yes" : "no",
		  bmprof_descriptor.magic == BMPROF_DESC_MAGIC ? "ok" : "bad",
		  (unsigned)bmprof_get32(le), ring, bmprof_cpu_mem_size(16, 8) ? "ok" : "bad",
		  bmprof_flush_due(c, 0), (int)BMPROF_END_EXIT, (unsigned long long)r);
	bm_exit(0);
}
