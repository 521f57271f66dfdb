/* SPDX-License-Identifier: BSD-2-Clause */
/* The data-space section of the HTML report: raw samples by data type, by type and member,
 * and the hottest struct's layout with per-member samples and cache-line boundaries. */
#ifndef BMPROF_REPORT_DATA_HTML_H
#define BMPROF_REPORT_DATA_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "profile.h"

/* The section for p's raw samples against the image elf (NULL: not found), or a line
 * saying why there is none. */
void report_data_html(FILE *f, const struct profile *p, const char *elf, uint64_t load_bias);

#endif
