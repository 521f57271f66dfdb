/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V unwind's first step (unwind.c), the sampler's leaf_caller op. Private to
 * target/arch/riscv64; free of machine-mode code, so the unit tests build it natively. */
#ifndef BMPROF_ARCH_RV_UNWIND_H
#define BMPROF_ARCH_RV_UNWIND_H

#include <stdint.h>
#include "bmprof.h"

int rv_leaf_caller(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		   uint64_t *caller, uint64_t *fp);

#endif
