/* SPDX-License-Identifier: BSD-2-Clause */
/* Cycle equivalence classes of a built CFG; used by cfg_build only. */
#ifndef BMPROF_CFG_CLASSES_H
#define BMPROF_CFG_CLASSES_H

#include <stdint.h>
#include "cfg.h"

/* Sets the cls of every block and edge from a live (reachable) block, and nclasses.
 * live[b]: block b is reachable (EXIT included); dead[b]: b is a dead end (a stop) that
 * leaves without passing EXIT. 0, or -1 on out of memory. */
int cfg_classify(struct cfg *g, const uint8_t *live, const uint8_t *dead);

#endif
