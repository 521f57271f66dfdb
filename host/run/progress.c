/* SPDX-License-Identifier: BSD-2-Clause */
/* The status line of a run on a terminal (progress.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "run/progress.h"

int progress_terminal(void)
{
	const char *term = getenv("TERM");

	return isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
}

void progress_init(struct progress *pg, double now, unsigned long freq, int guest_clock)
{
	memset(pg, 0, sizeof *pg);
	pg->on = progress_terminal();
	pg->start = now;
	pg->freq = freq;
	pg->guest_clock = guest_clock;
}

void progress_show(struct progress *pg, double now, uint64_t samples, unsigned ncpus,
		   uint64_t frames_lost)
{
	double t = now - pg->start;

	if (!pg->on)
		return;
	if (samples && !pg->first)
		pg->first = now;
	fprintf(stderr, "\r\033[Kbmprof: %s%s%.1f s, %" PRIu64 " samples", pg->step,
		*pg->step ? ": " : "", t, samples);
	/* the rate since samples began to arrive (drains come in bursts: not per tick) */
	if (!pg->guest_clock && pg->first && now - pg->first >= 1)
		fprintf(stderr, ", %.0f/s", (double)samples / (now - pg->first));
	if (pg->freq)
		fprintf(stderr, " (asked %lu/s%s%s)", pg->freq * (ncpus ? ncpus : 1),
			ncpus > 1 ? " on all CPUs" : "", pg->guest_clock ? " of guest time" : "");
	if (frames_lost)
		fprintf(stderr, ", %" PRIu64 " frames lost", frames_lost);
	fflush(stderr);
	pg->shown = 1;
}

void progress_show_profile(struct progress *pg, double now, const struct profile *p)
{
	uint64_t lost = 0;

	for (unsigned i = 0; i < p->ncpus_seen; i++)
		lost += p->cpus[i].seq_gaps;
	progress_show(pg, now, p->total, p->have_hello ? p->hello.ncpus : 0, lost);
}

void progress_clear(struct progress *pg)
{
	if (!pg->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pg->shown = 0;
}
