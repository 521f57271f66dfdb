/* SPDX-License-Identifier: BSD-2-Clause */
/* Phases in the profile model (profile.h): PHASE frames name them, sample entries carry
 * their id (wire version 3), and a report can keep one phase's samples. */
#ifndef BMPROF_PROFILE_PHASE_H
#define BMPROF_PROFILE_PHASE_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

/* A PHASE payload: 0, or -1 if malformed or out of memory. */
int profile_apply_phase(struct profile *p, const uint8_t *b, uint16_t len);
/* Before a frame's phase samples: repeated keys are added up when the list has doubled
 * since the last time (which may find the profile over its cap). */
void profile_phase_room(struct profile *p);
/* A sample taken in phase (1 .. PROFILE_MAX_PHASES). 0, or -1 out of memory. */
int profile_add_phase_sample(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc,
			     uint64_t count, uint16_t phase);
void profile_phases_free(struct profile *p);

/* The profile has phases: a PHASE frame or a sample in a phase arrived. */
static inline int profile_has_phases(const struct profile *p) { return p->max_phase != 0; }
/* Phase id's name: as its PHASE frame gave it, "(start)" for 0, "phase N" when unnamed. */
const char *profile_phase_name(const struct profile *p, unsigned id, char *buf, size_t n);
/* The phase ids whose name is name (or whose number it is: "3"), ascending, in ids[0 ..
 * max) (phases may share a name); how many. "(start)" is phase 0. */
size_t profile_phase_find(const struct profile *p, const char *name, uint16_t *ids,
			  size_t max);
/* Keep only the samples (and the chains' samples) of the phases in[0 .. n): the flat
 * samples, the stack samples and the total; the phase samples themselves stay as they
 * were. The accounting (TOTALS, received) is the run's. 0, or -1 out of memory (p is
 * then unchanged). */
int profile_keep_phases(struct profile *p, const uint16_t *in, size_t n);
/* The samples as if each phase were a CPU: a profile whose samples are (pc, event,
 * cpu = phase), settled, for a table with a column per phase. out is initialized here;
 * profile_free it. 0, or -1 out of memory. */
int profile_by_phase(const struct profile *p, struct profile *out);

#endif
