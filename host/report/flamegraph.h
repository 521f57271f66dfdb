/* SPDX-License-Identifier: BSD-2-Clause */
/* A flame graph of a stack list as an interactive SVG (docs/bmprof-flamegraph.md): one
 * rectangle per frame, as wide as its samples, callers below callees; hovering shows the
 * frame's name, samples and share, a click zooms into it, a search (a regular expression)
 * highlights the frames that match and says what share of the samples they hold. The SVG
 * is self-contained (inline style and script, nothing fetched). */
#ifndef BMPROF_FLAMEGRAPH_H
#define BMPROF_FLAMEGRAPH_H

#include <stdio.h>
#include "report/stacks.h"

struct flame_opts {
	const char *title;
	const char *subtitle;    /* a line under the title (the profile, the event), or NULL */
	int width;               /* of the frames, in pixels; 0: FLAME_WIDTH */
	int in_html;             /* inside an HTML page: no XML declaration */
};

#define FLAME_WIDTH 1200
/* Frames narrower than this many pixels are left out (their callees are narrower still). */
#define FLAME_MIN_PX 0.1

/* Write the flame graph of sl (merged: stacks_merge) to f. 0, or -1 if writing failed. */
int flamegraph_svg(FILE *f, const struct stack_list *sl, const struct flame_opts *o);

#endif
