/* SPDX-License-Identifier: BSD-2-Clause */
/* Phases in a report: keeping one phase's samples (--phase), the table split by phase, and
 * the header's phase lines. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile_phase.h"
#include "report/report.h"
#include "report/report_int.h"
#include "util/util.h"

#define PHASE_LINES 16           /* header lines naming phases before "... more" */

/* "boot, test1, (start)": the phase names, for an error message. */
static void phase_names(const struct profile *p, char *buf, size_t n)
{
	char name[PROFILE_PHASE_NAME_MAX + 16];
	size_t len = 0;

	buf[0] = 0;
	for (unsigned id = 0; id <= p->max_phase && len + 8 < n; id++) {
		if (id == 6 && p->max_phase > 6) {
			snprintf(buf + len, n - len, ", ... (%u more)", p->max_phase - 5);
			return;
		}
		len += (size_t)snprintf(buf + len, n - len, "%s%s", id ? ", " : "",
					profile_phase_name(p, id, name, sizeof name));
	}
}

int report_keep_phase(struct report *rp, struct profile *p, const char *name)
{
	uint16_t ids[PROFILE_MAX_PHASES + 1];
	char names[512], safe[600];
	size_t n;

	if (!profile_has_phases(p)) {
		bm_err("%s: the profile has no phases (the program calls bm_phase(\"name\") to "
		       "start one): leave out --phase", rp->input);
		return -1;
	}
	n = profile_phase_find(p, name, ids, sizeof ids / sizeof ids[0]);
	if (!n) {
		phase_names(p, names, sizeof names);
		bm_err("%s: no phase '%s'; its phases: %s", rp->input,
		       bm_safe(safe, sizeof safe, name), names);
		return -1;
	}
	rp->phase_of = p->total;
	if (profile_keep_phases(p, ids, n)) {
		bm_err("out of memory");
		return -1;
	}
	rp->phase = name;
	return 0;
}

/* The same table by phase: rows in flat's order with each one's samples split by phase.
 * Left empty when the profile has no phases, a phase is kept, or the rows differ. */
int report_split_phases(struct report *rp, enum flat_sort sort)
{
	struct profile bp;
	int rc = 0;

	if (!profile_has_phases(rp->p) || rp->phase || sort == FLAT_BY_CPU)
		return 0;
	if (profile_by_phase(rp->p, &bp) ||
	    flat_compute(&bp, rp->event, rp->r.info, rp->r.ninfo, sort, &rp->by_phase))
		rc = -1;
	profile_free(&bp);
	if (rc)
		return -1;
	int same = rp->by_phase.nrows == rp->flat.nrows;
	for (size_t i = 0; same && i < rp->flat.nrows; i++)
		same = rp->by_phase.rows[i].samples == rp->flat.rows[i].samples &&
		       rp->by_phase.rows[i].addr_lo == rp->flat.rows[i].addr_lo &&
		       rp->by_phase.rows[i].line == rp->flat.rows[i].line;
	if (!same) {
		flat_free(&rp->by_phase);
		memset(&rp->by_phase, 0, sizeof rp->by_phase);
	}
	return 0;
}

/* "# phase     boot: 1200 samples (40.00%)" for each phase (of the event reported), or the
 * one kept. */
void report_print_phases(FILE *f, const struct report *rp)
{
	const struct profile *p = rp->p;
	const struct flat_result *b = &rp->by_phase;
	char name[PROFILE_PHASE_NAME_MAX + 16], safe[2 * PROFILE_PHASE_NAME_MAX + 32];

	if (rp->phase) {
		fprintf(f, "# phase     %s: %" PRIu64 " of the run's %" PRIu64 " samples (--phase; the "
			"accounting above is the whole run's)\n", bm_safe(safe, sizeof safe, rp->phase),
			p->total, rp->phase_of);
		return;
	}
	if (!b->nrows)
		return;
	for (size_t i = 0; i < b->ncpus; i++) {
		if (i == PHASE_LINES) {
			fprintf(f, "# phase     ... and %zu more\n", b->ncpus - i);
			break;
		}
		fprintf(f, "# phase     %s: %" PRIu64 " samples (%.2f%%)\n",
			bm_safe(safe, sizeof safe, profile_phase_name(p, b->cpus[i].cpu, name,
								       sizeof name)),
			b->cpus[i].samples, b->total ? 100.0 * (double)b->cpus[i].samples /
			(double)b->total : 0.0);
	}
}
