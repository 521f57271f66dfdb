/* SPDX-License-Identifier: BSD-2-Clause */
/* Stack sizes and the CPU limit, shared by entry.S and the C runtime. Every stack sits
 * above an unmapped guard page (mmu.c), so an overflow faults and is reported.
 *
 * CPU 0:       [guard][exception stack][guard][program stack]   bmrt_exc_stack_guard ...
 * CPU i >= 1:  the same with the smaller sizes, at bmrt_cpu_stacks + (i - 1) * CPU_STACKS */
#ifndef BMRT_LAYOUT_H
#define BMRT_LAYOUT_H

#ifndef BMPROF_A64_MAX_CPUS             /* as bmprof_aarch64.h: override with -D for both */
#define BMPROF_A64_MAX_CPUS 8
#endif
#define BMRT_MAX_CPUS BMPROF_A64_MAX_CPUS
#define GUARD_SIZE 4096
#define STACK_SIZE (256 * 1024)         /* CPU 0: main */
#define EXC_STACK_SIZE (64 * 1024)
#define CPU_STACK_SIZE (64 * 1024)      /* the other CPUs: the functions bm_run_on runs */
#define CPU_EXC_STACK_SIZE (32 * 1024)
#define CPU_STACKS (2 * GUARD_SIZE + CPU_EXC_STACK_SIZE + CPU_STACK_SIZE)

#endif
