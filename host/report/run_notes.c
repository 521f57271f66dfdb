/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's conditions in words: see run_notes.h. */
#include "report/run_notes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_mode.h"

#define RATE_WARN 0.9   /* below this share of the samples asked for, say so */

void run_notes_clock(char *buf, size_t n, const struct profile *p)
{
	struct run_mode m;
	double ghz = p->have_hello ? (double)p->hello.core_hz / 1e9 : 0;

	run_mode_of(p, &m);
	buf[0] = 0;
	if (m.icount && m.icount_shift >= 0)
		snprintf(buf, n, "-icount: guest time counts instructions (%u ns each), so cycles "
			 "here are instructions", 1u << m.icount_shift);
	else if (m.icount)
		snprintf(buf, n, "-icount with an automatic shift: guest time follows "
			 "instructions at a varying rate; cycles are not known");
	else if (run_mode_emulated_time(&m) && ghz > 0)
		snprintf(buf, n, "emulated: QEMU ran the target's chain of adds at %.4g G adds/s "
			 "(the emulator's speed, not a CPU clock)", ghz);
	else if (ghz > 0)
		snprintf(buf, n, "core %.4g GHz (measured by the target)", ghz);
}

static void rate_warning(char *buf, const struct profile *p, const struct profile_event *e,
			 double ratio, double expected, const struct run_mode *m)
{
	const char *why = run_mode_emulated_time(m) ?
		"under TCG without --icount an interrupt costs tens of microseconds of host "
		"time, so the timer falls behind: lower --freq, or use --icount" :
		"the handler, the drain or the transport cannot keep up at this rate: lower the "
		"rate";

	snprintf(buf, RUN_NOTE_LEN, "event %u (%s) delivered %.0f%% of the samples its period "
		 "asks for (%.0f of %.0f): %s", e->id, e->name[0] ? e->name : "?", 100 * ratio,
		 ratio * expected, expected, why);
	(void)p;
}

#define FREQ_SLACK 0.02   /* timer rates this close to --freq are the rate asked for */

/* A sampling timer whose rate is not the --freq the run asked for: an image that does not
 * read bmprof's run configuration (a kernel of one's own that links the library) keeps the
 * rate it was built with. 1 with the rate it ran at and the one asked for. */
static int freq_ignored(const struct profile *p, double *ran, double *asked)
{
	const char *f = profile_meta(p, "freq");
	char *end;

	if (!f || !p->have_hello || !p->hello.timebase_hz)
		return 0;
	*asked = strtod(f, &end);
	if (end == f || *end || *asked <= 0)
		return 0;
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];

		if (e->source != BMPROF_SOURCE_TIMER || !e->period ||
		    (e->flags & BMPROF_EVENT_COUNTING) || e->status == BMPROF_EVST_UNAVAILABLE)
			continue;
		*ran = (double)p->hello.timebase_hz / (double)e->period;
		return fabs(*ran - *asked) > FREQ_SLACK * *asked;
	}
	return 0;
}

unsigned run_notes(const struct profile *p, char (*warn)[RUN_NOTE_LEN],
		   char (*note)[RUN_NOTE_LEN], unsigned max, unsigned *nnotes)
{
	struct run_mode m;
	unsigned nw = 0;

	double ran, asked;

	run_mode_of(p, &m);
	*nnotes = 0;
	if (max && freq_ignored(p, &ran, &asked))
		snprintf(warn[nw++], RUN_NOTE_LEN, "the image's timer sampled at %.6g Hz, not at "
			 "the %.6g Hz of --freq: it does not read bmprof's run configuration (fw_cfg "
			 "opt/bmprof/config), so its rate is its own", ran, asked);
	for (unsigned i = 0; i < p->nevents && nw < max; i++) {
		double expected, ratio = profile_sample_rate(p, p->events[i].id, &expected);

		if (ratio >= 0 && ratio < RATE_WARN)
			rate_warning(warn[nw++], p, &p->events[i], ratio, expected, &m);
	}
	if (run_mode_emulated_time(&m) && *nnotes < max)
		snprintf(note[(*nnotes)++], RUN_NOTE_LEN, "recorded under TCG without --icount: "
			 "time is the emulator's, so shares follow QEMU's cost per instruction "
			 "(on a real benchmark up to 10 points off its instruction shares), not any "
			 "real CPU's; --icount gives instruction shares%s",
			 run_mode_block_starts(&m) ? ", and samples land on translation-block "
			 "starts" : "");
	return nw;
}

const char *run_notes_block_starts(const struct profile *p)
{
	struct run_mode m;

	run_mode_of(p, &m);
	if (!run_mode_block_starts(&m))
		return NULL;
	return "recorded under TCG without --icount or -singlestep: interrupts are taken at "
	       "translation-block starts, so samples land on block starts and say little about "
	       "the instructions inside a block (record with --icount)";
}
