/* SPDX-License-Identifier: BSD-2-Clause */
/* A known number of instructions: `iters` turns of a loop of 200 register adds and its
 * two loop instructions, 202 instructions a turn, plus main's few dozen around it. Under
 * -icount the profile's cycles per sample times its samples must come to that. */
#include <stdint.h>
#include "bmrt.h"

static void work(uint64_t n)
{
	uint64_t x = 0, y = 1;

	if (!n)
		return;
#if defined(__x86_64__)
	__asm__ volatile("1:\n\t"
			 ".rept 200\n\t"
			 "addq %2, %0\n\t"
			 ".endr\n\t"
			 "decq %1\n\t"
			 "jnz 1b"
			 : "+r"(x), "+r"(n) : "r"(y) : "cc");
#elif defined(__aarch64__)
	__asm__ volatile("1:\n\t"
			 ".rept 200\n\t"
			 "add %0, %0, %2\n\t"
			 ".endr\n\t"
			 "subs %1, %1, #1\n\t"
			 "b.ne 1b"
			 : "+r"(x), "+r"(n) : "r"(y) : "cc");
#endif
}

int main(void)
{
	work(bm_param("iters", 100000));
	return 0;
}
