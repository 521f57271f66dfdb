/* SPDX-License-Identifier: BSD-2-Clause */
/* A flat report of a profile, as bmprof report prints it (docs/bmprof-report.md) and as
 * other verbs reuse it: the end of a run (bmprof qemu's hottest functions), the JSON that
 * bmprof export writes. */
#ifndef BMPROF_REPORT_H
#define BMPROF_REPORT_H

#include <stdio.h>
#include "flat.h"
#include "report/firmware.h"
#include "report/resolve.h"

/* The firmware modules samples outside the image are symbolized with. */
struct report_fw_opts {
	const char *log, *debug;
	char **syms;             /* --firmware-sym specs */
	size_t nsyms;
};

/* Everything a report is made from. */
struct report {
	const char *input;
	const struct profile *p;
	struct resolved r;
	int event;               /* id or FLAT_ALL_EVENTS */
	struct flat_result flat;
	char load_warning[512];  /* the profile file is damaged but usable */
	const struct report_fw_opts *fwo;   /* NULL: none */
	struct firmware fw;
	/* Phases (report_phase.c): the one kept (report_keep_phase; NULL: all), and for a
	 * profile with phases reported whole, the table again with each row's samples split by
	 * phase instead of CPU (its rows are flat's, in flat's order; nrows 0: none). */
	const char *phase;
	uint64_t phase_of;       /* samples of the whole run, before the phase was kept */
	struct flat_result by_phase;
};

/* The event a report is about: name (an event's name, an alias of one, or its id) or, when
 * NULL, flat_default_event's choice. 0 with *event set (an id or FLAT_ALL_EVENTS), or -1
 * with the reason in err. */
int report_event(const struct profile *p, const char *name, int *event, char *err, size_t n);
/* Resolve rp->p against its ELF (elf, or the one the profile names) and compute the table
 * of *sort (by address when the ELF has no symbols). 0, or -1 with the reason printed. */
int report_build(struct report *rp, const char *elf, const char *event, enum flat_sort *sort);
void report_free(struct report *rp);
/* Keep only the samples of the phase named name (or numbered so) in the profile rp->p
 * points to (p, writable). 0, or -1 with the reason printed (no such phase: the names it
 * has). */
int report_keep_phase(struct report *rp, struct profile *p, const char *name);
/* The header: the profile, the image, the target, events, samples taken, delivered and lost
 * (per CPU), how the run ended, warnings and notes; "# "-prefixed lines. */
void report_print_header(FILE *f, const struct report *rp);
/* The header, the title and at most limit rows (-1: all) at min_percent or above. 0, or -1
 * if writing failed. */
int report_print_text(FILE *f, const struct report *rp, enum flat_sort sort, long limit,
		      double min_percent);
/* The same as JSON (docs/report-json.md). 0, or -1 (reported). */
int report_print_json(FILE *f, const struct report *rp, enum flat_sort sort, long limit,
		      double min_percent);
/* One self-contained HTML page (docs/bmprof-report.md, "The HTML report"): the header, the
 * loss accounting per CPU, the function table (sortable), the flame graph, the per-CPU
 * split and the annotated listings of the top_functions hottest functions. rp built by
 * function. 0, or -1 if writing failed. */
int report_print_html(FILE *f, const struct report *rp, unsigned top_functions);
/* The flat table by function, at most limit rows, with the resolver's notes: the end of a
 * run. 0, or -1 if the ELF could not be used (the reason is printed). */
int report_top_functions(FILE *f, const struct profile *p, const char *profile_path,
			 const char *elf, long limit);

#endif
