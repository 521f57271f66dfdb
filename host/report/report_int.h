/* SPDX-License-Identifier: BSD-2-Clause */
/* What the text and JSON forms of a report share (report.c, report_json.c). */
#ifndef BMPROF_REPORT_INT_H
#define BMPROF_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>
#include "report/report.h"

#define WARN_LEN 600

struct totals {
	uint64_t taken, delivered, lost_full, lost_transport, received, in_transit;
	uint64_t received_untold;    /* received from CPUs without TOTALS */
	unsigned with_totals, seen;
};
void sum_cpus(const struct profile *p, struct totals *t);
/* Everything that makes the numbers less than the whole truth, one line each. */
unsigned warnings(const struct report *rp, char out[][WARN_LEN], unsigned max);
const char *arch_name(uint8_t arch);
const char *source_name(uint8_t src);
const char *sort_name(enum flat_sort s);
const char *end_reason(uint8_t reason);
/* Timer periods are in timebase ticks, so they have a rate; PMU periods count events. */
double event_hz(const struct profile *p, const struct profile_event *e);
int is_unknown(const struct flat_row *r, enum flat_sort sort);
int is_region(const struct flat_row *r);
const char *region_name(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort);
const char *row_name(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort);
const char *row_detail(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort);
const char *where(char *buf, size_t n, const struct flat_row *r);
double share(const struct flat_row *r);

/* Which rows are printed: those at min_percent or above (of their CPU, for cpu rows), at
 * most limit of them (-1: all; per CPU, for cpu rows). Rows are offered in order. */
struct picker {
	long limit;
	double min_percent;
	size_t n;
	int cpu;
};
int pick(struct picker *k, const struct flat_row *r);

/* report_phase.c: the table split by phase (rp->by_phase), and the header's phase lines. */
int report_split_phases(struct report *rp, enum flat_sort sort);
void report_print_phases(FILE *f, const struct report *rp);

#endif
