/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: a block's result line (transport/bhive.h). */
#ifndef BHIVE_REPORT_H
#define BHIVE_REPORT_H

#include "measure.h"

void report(uint32_t index, unsigned len, const struct measure *m);

#endif
