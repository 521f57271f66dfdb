/* SPDX-License-Identifier: BSD-2-Clause */
/* What report, annotate and cpi share about the terminal: --stdio, --color=WHEN with
 * perf's colours for hot percentages, and a pager on a terminal as git and perf run one
 * ($BMPROF_PAGER, then $PAGER, else "less -FRX"; --no-pager). */
#ifndef BMPROF_TERM_H
#define BMPROF_TERM_H

#include <stdio.h>
#include "util/options.h"

enum { TERM_COLOR_AUTO, TERM_COLOR_ALWAYS, TERM_COLOR_NEVER };

struct term_opts {
	int stdio;               /* --stdio: accepted (text on standard output is all there is) */
	int color;               /* TERM_COLOR_* */
	int no_pager;
};

extern const char *const term_color_choices[];

#define TERM_OPTS_TABLE(t) \
	OPT_BOOL(0, "stdio", &(t)->stdio, "text on standard output (the only interface; " \
		 "accepted as perf takes it)"), \
	OPT_CHOICE(0, "color", &(t)->color, "WHEN", "colour hot percentages (red at 5% and " \
		   "above, green at 0.5%): auto (default: on a terminal, when NO_COLOR is not " \
		   "set), always or never", term_color_choices), \
	{ .type = OPT_T_BOOL, .long_name = "no-pager", .value = &(t)->no_pager, \
	  .flags = OPT_NONEG, .help = "do not page the output (a terminal's output goes through " \
	  "$BMPROF_PAGER, then $PAGER, else less -FRX)" }

/* Whether to colour what goes to standard output (to_file: -o was given). Decide before
 * term_pager_start, which makes standard output a pipe. */
int term_color(const struct term_opts *t, int to_file);
/* The colour of a percentage as perf gives it: red >= 5, green >= 0.5; NULL: none. */
const char *term_pct_color(double pct);
/* Print pct with fmt ("%7.2f%%"), coloured when color is set. */
void term_pct(FILE *f, int color, const char *fmt, double pct);
#define TERM_RESET "\033[0m"

/* Start the pager when standard output is a terminal, no -o was given (to_file) and
 * --no-pager was not; standard output then goes to it. 0 (started or not needed), or -1
 * when it could not be started (standard output is then as it was). */
int term_pager_start(const struct term_opts *t, int to_file);
/* Flush standard output to the pager, close it and wait for it to end. */
void term_pager_end(void);

#endif
