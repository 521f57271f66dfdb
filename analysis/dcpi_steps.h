/* SPDX-License-Identifier: BSD-2-Clause */
/* The steps of dcpi_analyze (dcpi.h), one file each; shared by those files only. */
#ifndef BMPROF_DCPI_STEPS_H
#define BMPROF_DCPI_STEPS_H

#include "dcpi.h"

/* F per class from the cycles samples (cluster or sum), else from retired samples. */
int dcpi_estimate_classes(const struct dcpi_input *in, struct dcpi_result *r);
/* Local propagation of class estimates through the CFG's flow equations. */
int dcpi_propagate(const struct dcpi_input *in, struct dcpi_result *r);
/* Per instruction: execs, cpe, dyn_stall, retired_execs, culprits and bounds. 0, or -1 out
 * of memory. */
int dcpi_explain(const struct dcpi_input *in, struct dcpi_result *r);
/* Per block counts and CPIs, per edge counts, and the procedure's summary. */
void dcpi_summarize(const struct dcpi_input *in, struct dcpi_result *r);

#endif
