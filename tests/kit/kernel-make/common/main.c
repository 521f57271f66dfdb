/* SPDX-License-Identifier: BSD-2-Clause */
/* The test kernel: its own console and interrupts, bmprof started and ended by the docs'
 * example (profiling_begin, profiling_end), a workload of known shares in between. */
#include "doc_env.h"
#include "kernel.h"

void kmain(void)
{
	uint64_t x;

	arch_init();
	printk("kernel-make (%s): up\n", arch_name);
	profiling_begin();
	arch_ticks_start();
	irq_enable();
	x = work_a(1);
	x = work_b(x);
	x = work_c(x);
	irq_disable();
	arch_ticks_stop();
	printk("kernel-make: work done, result %llx; interrupt text dropped %lu\n",
	       (unsigned long long)x, console_dropped);
	profiling_end(0);
	machine_exit(0);
}
