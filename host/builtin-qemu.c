/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof qemu: boot an image in QEMU, show its console, record its profile, print a
 * summary and the hottest functions. docs/bmprof-qemu.md is its manual. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "report/report.h"
#include "run/image_run.h"
#include "symbol/elf_symbol.h"
#include "events.h"
#include "run/qemu_uefi.h"
#include "run/recover_qemu.h"
#include "run/run_opts.h"
#include "run/shm_qemu.h"
#include "report/data_space.h"
#include "report/summary.h"
#include "profile/target_log.h"
#include "util/util.h"

#define FLUSH_NOT_GIVEN ((unsigned long)-1)   /* --flush-interval left out */
#define DEFAULT_FREQ 1000
#define TOP_FUNCTIONS 10
#define MAX_FLUSH_MS 3600000      /* the runtimes' limit (boot/common/rt_common.h) */
#define MAX_STALL (24 * 3600)
#define MAX_CPU_WAIT_MS 3600000   /* the runtimes' limit (BMRT_CPU_WAIT_MS_MAX) */
/* QEMU's PMU cycle counter (AArch64 virt) counts virtual nanoseconds: 1 GHz. */
#define QEMU_CYCLES_HZ 1000000000ull

struct qemu_cmd {
	struct run_opts run;
	unsigned long freq, flush_ms, stall, cpu_wait_ms;
};

static const char description[] =
	"Boot IMAGE (an x86-64 or AArch64 ELF built with bmprof) in QEMU and profile it. A UEFI "
	"application (NAME.efi, or NAME.elf with NAME.efi beside it) boots under the firmware "
	"(docs/uefi.md). The image's console goes to stdout as it arrives; bmprof's own "
	"messages, the summary and the hottest functions go to stderr. The exit status is the "
	"image's main() return value. QEMU's own arguments go after \"--\".";

static const char tail[] =
	"Exit status: main()'s return value (low 8 bits) when the image exits normally;\n"
	"124 timeout or stall; 125 bmprof failed (no QEMU, not an ELF, no bmprof stream);\n"
	"126 the image crashed or stopped without an END frame; 130 interrupted; 2 usage.\n";

/* -1 when parsed, else the exit status (0 for --help). */
static int parse_opts(int argc, char **argv, struct qemu_cmd *c)
{
	const struct opt opts[] = {
		OPT_ULONG('f', "freq", &c->freq, "HZ", "timer sampling frequency (default 1000); "
			  "with --event, the rate the PMU rotates multiplexed events at, and the "
			  "timer's rate if the CPU has no PMU", 1, 100000),
		OPT_ULONG(0, "flush-interval", &c->flush_ms, "MS", "the image sends what it "
			  "sampled every MS milliseconds (default 0: only when a buffer fills and at "
			  "the end; 1000 on a terminal, for the status line)", 0, MAX_FLUSH_MS),
		OPT_ULONG(0, "stall", &c->stall, "SEC", "stop QEMU (and read its memory) when no "
			  "frame came for SEC seconds: a hang, with --flush-interval (default 0: "
			  "never)", 0, MAX_STALL),
		OPT_ULONG(0, "cpu-wait", &c->cpu_wait_ms, "MS", "the image waits up to MS "
			  "milliseconds for another CPU to start and to stop (default: the image's "
			  "own, 2000)", 1, MAX_CPU_WAIT_MS),
		RUN_OPTS_STACKS_TABLE(&c->run),
		RUN_OPTS_DATA_SPACE_TABLE(&c->run),
		RUN_OPTS_TABLE(&c->run, "profile file (default " PROFILE_DEFAULT_PATH "; an "
			       "existing one is renamed to FILE.old)"),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "qemu", .args = "IMAGE [-- QEMU-ARGS...]",
				     .description = description, .opts = opts, .tail = tail };

	return run_opts_parse(&c->run, &cmd, argc, argv);
}

/* ---- bmprof qemu ---- */

/* After QEMU is gone: save, summarize, pick the exit status. */
static int conclude(const struct qemu_cmd *c, struct image_run *r)
{
	const struct profile *p = capture_profile(r->cap);
	char err[PATH_MAX + 256];

	if (!p->have_hello) {
		if (r->res.how != QEMU_EXITED)
			image_say_how_it_ended(r);
		bm_err("no bmprof stream from %s: it sent no HELLO frame (did it crash at boot? is "
		       "it built with bmprof?)", c->run.image);
		if (!r->res.bytes && r->res.how == QEMU_EXITED)
			bm_err("QEMU exited with status %d and nothing came out of the serial port: "
			       "if QEMU printed an error above, that is the cause", r->res.status);
		return EXIT_FAILED;
	}
	if (c->run.data_space) {
		char name[256], line[512];
		struct bm_kv kv = { "data_space_source", name };

		data_space_source(p, name, sizeof name, line, sizeof line);
		fprintf(stderr, "bmprof: data space: %s\n", line);
		capture_meta(r->cap, &kv, 1);
	}
	if (capture_save(r->cap, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	image_say_how_it_ended(r);
	summary_print(stderr, p, r->shm && !r->shm_unused ? "QEMU shared memory" : "QEMU serial",
		      r->abs_image);
	fprintf(stderr, "bmprof: wrote %s (%.1f s); hottest functions (bmprof report -i %s for "
		"more):\n", c->run.out, r->res.seconds, c->run.out);
	report_top_functions(stderr, p, c->run.out, r->abs_image, TOP_FUNCTIONS);
	return r->shm_unused ? EXIT_FAILED : image_exit_status(r);
}

static int run(struct qemu_cmd *c)
{
	char config[EVENTS_CONFIG_MAX + 1], events[EVENTS_CONFIG_MAX + 1];
	struct run_opts *o = &c->run;
	struct bm_kv meta[] = { { "events", o->specs }, { "mode", "sample" } };
	struct image_run r = {
		.image = o->image, .qemu = o->qemu, .out = o->out, .accel = o->accel,
		.icount = o->icount, .smp = o->smp, .timeout = o->timeout, .freq = c->freq,
		.extra = o->extra, .nextra = o->nextra, .command = o->command, .meta = meta,
		.nmeta = o->events.n ? 2 : 0, .shm = o->shm, .shm_size = o->shm_size,
		.shm_delay_us = o->shm_delay_us, .shm_at_end = o->shm_at_end,
		.firmware_log = o->firmware_log,
		.firmware_debug = o->firmware_debug, .params = o->params, .user = o->user,
		.flush_ms = c->flush_ms == FLUSH_NOT_GIVEN ? 0 : (unsigned)c->flush_ms,
		.progress_flush = c->flush_ms == FLUSH_NOT_GIVEN,
		.stall = (double)c->stall, .recover = 1,
		.cpu_wait_ms = (unsigned)c->cpu_wait_ms, .stack_depth = o->stack_depth,
		.raw = o->data_space,
	};
	int rc;

	if (o->data_space && !o->events.n) {
		if (run_opts_add_events(o, DATA_SPACE_DEFAULT_EVENT))
			return EXIT_USAGE;
		fprintf(stderr, "bmprof: data space: asking for %s (loads that miss the level 1 "
			"data cache; by PEBS where the CPU has it); the timer samples where the "
			"CPU does not count it\n",
			DATA_SPACE_DEFAULT_EVENT);
		r.nmeta = 2;
	}
	if (o->events.n) {
		if (events_config(&o->events, 0, c->freq, events, sizeof events) < 0) {
			bm_err("qemu: the events do not fit the runtime's %d-byte configuration: "
			       "ask for fewer, or give them shorter names", EVENTS_CONFIG_MAX);
			return EXIT_USAGE;
		}
		r.config = events;
	}
	if (o->nparams || o->user) {
		if (run_opts_config(o, r.config, c->freq, config, sizeof config) < 0)
			return EXIT_USAGE;
		r.config = config;
	}
	if (image_run(&r))
		return EXIT_FAILED;
	rc = conclude(c, &r);
	image_run_free(&r);
	return rc;
}

int cmd_qemu(int argc, char **argv)
{
	static struct qemu_cmd c;
	int rc;

	memset(&c, 0, sizeof c);
	run_opts_init(&c.run, "qemu", (struct events_opts){ .cycles_hz = QEMU_CYCLES_HZ });
	c.run.out = PROFILE_DEFAULT_PATH;
	c.freq = DEFAULT_FREQ;
	c.flush_ms = FLUSH_NOT_GIVEN;
	rc = parse_opts(argc, argv, &c);
	if (rc < 0)
		rc = run(&c);
	run_opts_free(&c.run);
	return rc;
}
