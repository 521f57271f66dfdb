/* SPDX-License-Identifier: BSD-2-Clause */
/* What bmprof topdown analyses: counter totals with the CPU they came from, read from a
 * counts file (JSON, docs/bmprof-topdown.md "Counts files") or from a recorded profile's
 * COUNTS records. */
#ifndef BMPROF_TOPDOWN_INPUT_H
#define BMPROF_TOPDOWN_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "topdown.h"

/* The profile meta key that maps a run's event ids to Top-Down events and groups:
 * "ID:GROUP:NAME ID:GROUP:NAME ..." */
#define TD_META_KEY "topdown_events"

struct td_input {
	char arch[16];              /* "x86_64", "aarch64", or "" */
	char vendor[32];
	uint32_t family, model;
	char family_name[32];       /* a Top-Down family named by the input, or "" */
	unsigned gp;                /* general-purpose counters it says the CPU has; 0: not said */
	struct td_counts counts;
};

/* A counts file's text (name for messages). 0, or -1 with one line in err. */
int td_input_json(const char *name, const char *text, size_t len, struct td_input *in,
		  char *err, size_t n);
/* A profile's COUNTS: the events named in its TD_META_KEY meta key (or, without it, events
 * whose names are Top-Down event names, ungrouped), summed over CPUs. 0, or -1 with one line
 * in err. */
int td_input_profile(const struct profile *p, struct td_input *in, char *err, size_t n);
/* A file: JSON when it starts with '{', else a profile. 0, or -1 with one line in err. */
int td_input_load(const char *path, struct td_input *in, char *err, size_t n);

#endif
