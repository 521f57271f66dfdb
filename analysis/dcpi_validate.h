/* SPDX-License-Identifier: BSD-2-Clause */
/* DCPI's accuracy measure (SOSP 1997, §6.2) of one function's estimates against exact
 * execution counts: instruction frequencies weighted by their samples, CFG edges between
 * real blocks weighted by their true executions, each with its sampling-noise floor. */
#ifndef BMPROF_DCPI_VALIDATE_H
#define BMPROF_DCPI_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include "cfg.h"
#include "dcpi.h"
#include "truth.h"

/* Add the estimates res made on g, measured against t, to insn and edge (the function's)
 * and to all_insn and all_edge (the image's). */
void dcpi_validate(const struct cfg *g, const struct dcpi_result *res, const struct truth *t,
		   struct dcpi_accuracy *insn, struct dcpi_accuracy *edge,
		   struct dcpi_accuracy *all_insn, struct dcpi_accuracy *all_edge);

/* Counts that differ between a and b for instructions and edges from [lo, hi): a count of
 * one that the other lacks or gives otherwise. */
size_t truth_mismatches(const struct truth *a, const struct truth *b, uint64_t lo, uint64_t hi);

#endif
