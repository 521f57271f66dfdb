/* SPDX-License-Identifier: BSD-2-Clause */
/* Vendor event names (skl::MEM_LOAD_RETIRED.L1_MISS, inst_retired.any) through libpfm4: the
 * resolver events_parse asks for names bmprof's own table does not have (events.h).
 *
 * A qualified name MODEL::EVENT[:UMASK...][:MOD...] is encoded for libpfm4's PMU model
 * MODEL, whether or not it is this host's CPU. An unqualified name is encoded for the model
 * BMPROF_PMU names if it is set, else for the core PMU libpfm4 detects on this host; with
 * neither the resolver says how to name one. Built without libpfm4, the resolver knows no
 * model and says to install libpfm4-dev. */
#ifndef BMPROF_HOST_EVENTS_VENDOR_H
#define BMPROF_HOST_EVENTS_VENDOR_H

#include <stddef.h>

#include "events.h"

/* The environment variable naming the default model of unqualified names. */
#define VENDOR_EVENTS_PMU_ENV "BMPROF_PMU"

/* events_resolve_fn over libpfm4. */
int vendor_events_resolve(const char *name, struct event_req *e, char *err, size_t errlen);

/* Whether this bmprof was built with libpfm4. */
int vendor_events_have_libpfm(void);

#endif
