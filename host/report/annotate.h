/* SPDX-License-Identifier: BSD-2-Clause */
/* One function's disassembly with the samples of each instruction and their share of the
 * function, interleaved with the source lines they came from (and the lines' text when the
 * source file is there), in the manner of perf annotate and DCPI's dcpilist: what bmprof
 * annotate prints (docs/bmprof-annotate.md) and the HTML report shows for its top
 * functions. */
#ifndef BMPROF_ANNOTATE_H
#define BMPROF_ANNOTATE_H

#include <stdio.h>
#include "profile.h"
#include "report/firmware.h"
#include "report/resolve.h"

/* Annotate name (a function symbol; the sole compiler-made copy of it, NAME.constprop.0
 * and the like; 0xADDR, the function holding that link-time address; MODULE!FUNCTION, a
 * firmware module's function) with p's samples of event (an id or FLAT_ALL_EVENTS), r
 * resolved (resolve_pcs) with fw as its firmware. color: ANSI colours for a terminal.
 * 0, or -1 with the reason printed (an unknown name, with the sampled names close to it). */
int annotate_print(FILE *f, const struct profile *p, const struct resolved *r,
		   const struct firmware *fw, int event, const char *name, int color);

#endif
