/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading bmprof bhive's results (docs/bmprof-bhive.md) as the measured best case of the
 * CPI analysis (--measured FILE). */
#ifndef BMPROF_MEASURED_H
#define BMPROF_MEASURED_H

#include <stddef.h>
#include "blocks.h"

/* The blocks of path with a measurement: lines "hex,cycles[,...]" (an optional header
 * line starting "hex"); a line with an empty cycles column is a block that was not
 * measured and is skipped. 0, or -1 with a one-line reason naming the file and line. */
int measured_load(const char *path, struct block_times *t, char *err, size_t errlen);

#endif
