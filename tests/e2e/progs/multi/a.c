/* SPDX-License-Identifier: BSD-2-Clause */
/* An image from two sources: main here, the hot function in b.c. */
#include <bmrt.h>

uint64_t hot_in_b(uint64_t n);

int main(void)
{
	bm_printf("multi: %llx\n", (unsigned long long)hot_in_b(40000000));
	return 0;
}
