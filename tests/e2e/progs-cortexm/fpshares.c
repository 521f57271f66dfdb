/* SPDX-License-Identifier: BSD-2-Clause */
/* Known shares with the FPU busy: fp_a and fp_b run the same single-precision loop for 60
 * and 40 units, so SysTick interrupts them with the FP state live (the extended exception
 * frame, EXC_RETURN bit 4 clear, where there is an FPU). The sums must come out the same
 * as without sampling: a handler that clobbered an FP register would change them. */
#include <bmrt.h>

#define FP_UNIT 100000u
#ifdef __ARM_FP
#define FREG "+t"   /* in FP registers */
#else
#define FREG "+r"   /* soft float (Cortex-M3) */
#endif

#define BODY(n)                                                       \
	float x = seed, y = 0.5f;                                     \
	for (uint32_t i = 0; i < (n); i++) {                          \
		x = x * 0.999f + y;                                   \
		y = y * 1.0001f - 0.00001f;                           \
		__asm__ volatile("" : FREG(x), FREG(y));               \
	}                                                             \
	return x + y

__attribute__((noinline)) float fp_a(float seed) { BODY(60 * FP_UNIT); }
__attribute__((noinline)) float fp_b(float seed) { BODY(40 * FP_UNIT); }

int main(void)
{
	float a = fp_a(1.0f), b = fp_b(2.0f);

	bm_printf("fpshares: a:b = 60:40, %.6f %.6f\n", (double)a, (double)b);
	return 0;
}
