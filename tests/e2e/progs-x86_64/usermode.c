/* SPDX-License-Identifier: BSD-2-Clause */
/* main in ring 3 (bmprof qemu --user), chosen by the run-time parameter "mode":
 *   0  work_a, work_b and work_c run the same loop for 50, 30 and 20 units (shares.c's
 *      shares); prints the privilege level main runs at and the parameter "answer"
 *      (default 7), and returns the parameter "ret" (default 0)
 *   1  executes hlt (privileged: #GP in ring 3) in fault_hlt
 *   2  reads CR3 (privileged) in fault_cr3
 *   3  the same number of instructions in a chain of dependent imul (3 cycles each) in
 *      chain_imul and of dependent add (1 cycle) in chain_add: natively timed, imul gets
 *      about three times the samples; with every instruction costing the same (TCG
 *      -icount), the same number
 * "units" scales the work (default 100). */
#include <bmrt.h>

#define UNIT 1000000ull

#define BODY(n)                                                       \
	uint64_t x = seed;                                            \
	for (uint64_t i = 0; i < (n); i++) {                          \
		x = x * 6364136223846793005ull + 1442695040888963407ull; \
		__asm__ volatile("" : "+r"(x));                        \
	}                                                             \
	return x

static uint64_t units;

__attribute__((noinline)) uint64_t work_a(uint64_t seed) { BODY(units * 50 / 100 * UNIT); }
__attribute__((noinline)) uint64_t work_b(uint64_t seed) { BODY(units * 30 / 100 * UNIT); }
__attribute__((noinline)) uint64_t work_c(uint64_t seed) { BODY(units * 20 / 100 * UNIT); }

/* 100 dependent instructions per iteration, plus the loop's two */
__attribute__((noinline)) uint64_t chain_imul(uint64_t n)
{
	uint64_t x = 3;

	__asm__ volatile("1:\n\t.rept 100\n\timulq %0, %0\n\t.endr\n\tdecq %1\n\tjnz 1b"
			 : "+r"(x), "+r"(n) : : "cc");
	return x;
}

__attribute__((noinline)) uint64_t chain_add(uint64_t n)
{
	uint64_t x = 3;

	__asm__ volatile("1:\n\t.rept 100\n\taddq %0, %0\n\t.endr\n\tdecq %1\n\tjnz 1b"
			 : "+r"(x), "+r"(n) : : "cc");
	return x;
}

__attribute__((noinline)) void fault_hlt(void)
{
	__asm__ volatile(".globl usermode_hlt\nusermode_hlt:\n\thlt");
}

__attribute__((noinline)) uint64_t fault_cr3(void)
{
	uint64_t v;

	__asm__ volatile(".globl usermode_cr3\nusermode_cr3:\n\tmov %%cr3, %0" : "=r"(v));
	return v;
}

int main(void)
{
	uint64_t mode = bm_param("mode", 0), x, t0 = bm_cycles();
	uint16_t cs;

	units = bm_param("units", 100);
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	bm_printf("usermode: mode %llu, ring %u, answer %llu\n", (unsigned long long)mode,
		  cs & 3, (unsigned long long)bm_param("answer", 7));
	switch (mode) {
	case 0:
		x = work_c(work_b(work_a(1)));
		break;
	case 1:
		fault_hlt();
		return 1;
	case 2:
		return (int)fault_cr3();
	case 3:
		x = chain_imul(units * UNIT / 100) ^ chain_add(units * UNIT / 100);
		break;
	default:
		return 1;
	}
	bm_printf("usermode: result %llx, %llu ms\n", (unsigned long long)x,
		  (unsigned long long)((bm_cycles() - t0) / (bm_cycles_hz() / 1000)));
	return (int)bm_param("ret", 0);
}
