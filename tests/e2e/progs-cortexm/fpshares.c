/* SPDX-License-Identifier: BSD-2-Clause */
/* Known shares with the FPU busy: fp_a and fp_b iterate the same single-precision logistic
 * map for 60 and 40 units, so SysTick interrupts them with the FP state live (the extended
 * exception frame, EXC_RETURN bit 4 clear, where there is an FPU). The map is chaotic: a
 * handler that changed an FP register by one bit would change the printed results, which
 * must be the same with sampling as without. */
#include <bmrt.h>

#define FP_UNIT 100000u
#ifdef __ARM_FP
#define FREG "+t"   /* in FP registers */
#else
#define FREG "+r"   /* soft float (Cortex-M3) */
#endif

#define BODY(n)                                                       \
	float x = seed;                                               \
	for (uint32_t i = 0; i < (n); i++) {                          \
		x = 3.9f * x * (1.0f - x);                            \
		__asm__ volatile("" : FREG(x));                       \
	}                                                             \
	return x

__attribute__((noinline)) float fp_a(float seed) { BODY(60 * FP_UNIT); }
__attribute__((noinline)) float fp_b(float seed) { BODY(40 * FP_UNIT); }

int main(void)
{
	float a = fp_a(0.3f), b = fp_b(0.6f);

	bm_printf("fpshares: a:b = 60:40, %.6f %.6f\n", (double)a, (double)b);
	return 0;
}
