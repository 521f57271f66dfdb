/* SPDX-License-Identifier: BSD-2-Clause */
/* What `bmprof record --itm-port` says about an SWO capture. */
#ifndef BMPROF_SWO_ITM_REPORT_H
#define BMPROF_SWO_ITM_REPORT_H

#include <stdio.h>
#include "itm.h"

/* The summary's itm line(s): the port's bytes, other ports, what was skipped and why. */
void itm_summary(FILE *f, const struct itm_stats *st, unsigned port);
/* The counts as one line for the profile's meta data: "delivered=N other=N hw=N ts=N
 * sync=N overflow=N errors=N skipped=N truncated=0|1". */
void itm_counts(char *buf, size_t len, const struct itm_stats *st);
/* The error when the port carried nothing: which ports did, or that no ITM packet was
 * found at all. */
void itm_no_port(const struct itm_stats *st, unsigned port, const char *path);

#endif
