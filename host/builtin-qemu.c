/* bmprof qemu: boot an image in QEMU, show its console, record its profile, print a
 * summary and the hottest functions. docs/bmprof-qemu.md is its manual. */
#include <errno.h>
#include <getopt.h>
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
#include "report/summary.h"
#include "profile/target_log.h"
#include "util/util.h"

#define DEFAULT_FREQ 1000
#define TOP_FUNCTIONS 10
#define MAX_FLUSH_MS 3600000      /* the runtimes' limit (boot/common/rt_common.h) */
#define MAX_STALL (24 * 3600)
#define MAX_CPU_WAIT_MS 3600000   /* the runtimes' limit (BMRT_CPU_WAIT_MS_MAX) */
/* QEMU's PMU cycle counter (AArch64 virt) counts virtual nanoseconds: 1 GHz. */
#define QEMU_CYCLES_HZ 1000000000ull

static const char usage[] =
	"usage: bmprof qemu [--accel auto|kvm|tcg] [--icount] [--freq HZ] [--event SPEC]...\n"
	"                   [--smp N] [--timeout SEC] [-o FILE] [--qemu PATH]\n"
	"                   [--firmware-log FILE [--firmware-debug DIR]]\n"
	"                   [--param NAME=VALUE]... [--user] [--flush-interval MS]\n"
	"                   [--stall SEC] [--cpu-wait MS] IMAGE [-- QEMU-ARGS...]\n"
	"\n"
	"Boot IMAGE (an x86-64 or AArch64 ELF built with bmprof) in QEMU and profile it. A\n"
	"UEFI application (NAME.efi, or NAME.elf with NAME.efi beside it) boots under the\n"
	"firmware (docs/uefi.md). The image's console goes to stdout as it arrives;\n"
	"bmprof's own messages, the summary and the hottest functions go to stderr. The exit\n"
	"status is the image's main() return value.\n"
	"\n"
	"  -a, --accel A      auto (default): KVM when it is hardware-assisted, else TCG;\n"
	"                     kvm or tcg to choose\n"
	"      --icount       -icount shift=0: guest time follows instructions executed, so\n"
	"                     timer samples are deterministic\n"
	"  -f, --freq HZ      timer sampling frequency (default 1000); with --event, the rate\n"
	"                     the PMU rotates multiplexed events at, and the timer's rate if\n"
	"                     the CPU has no PMU\n"
	"  -e, --event SPEC   sample on hardware events instead of the timer: NAME[:period=N|\n"
	"                     :freq=HZ], rHEX, x86/event=0x3c,umask=0x0/, arm/0x11/, or a group\n"
	"                     {A,B}; comma-separated, repeatable (docs/events.md)\n"
	"      --smp N        give QEMU N CPUs (1 to 8); each sends its own samples\n"
	"  -t, --timeout SEC  stop QEMU after SEC seconds (default 600; 0: no timeout); the\n"
	"                     samples the image still holds are read from its memory\n"
	"      --flush-interval MS  the image sends what it sampled every MS milliseconds\n"
	"                     (default 0: only when a buffer fills and at the end)\n"
	"      --stall SEC    stop QEMU (and read its memory) when no frame came for SEC\n"
	"                     seconds: a hang, with --flush-interval (default 0: never)\n"
	"      --cpu-wait MS  the image waits up to MS milliseconds for another CPU to start\n"
	"                     and to stop (default: the image's own, 2000)\n"
	"  -o, --output FILE  profile file (default " PROFILE_DEFAULT_PATH "; an existing one is\n"
	"                     renamed to FILE.old)\n"
	"      --qemu PATH    the QEMU binary (default: qemu-system-x86_64 or\n"
	"                     qemu-system-aarch64 from $PATH, after the ELF's machine)\n"
	"      --transport T  serial (default) or shm: the stream over shared-memory rings\n"
	"                     (an ivshmem device), one per CPU (docs/transport-shm.md)\n"
	"      --shm-size N   the shared memory, a power of two (default 4M)\n"
	"      --shm-consume-delay-us US  testing: the host sleeps US per ring record\n"
	"      --shm-consume-at-end  testing: the host reads the rings only from the\n"
	"                     image's final flush on, so small rings overrun\n"
	"      --firmware-log FILE  x86-64: the firmware's debug console (port 0x402) into\n"
	"                     FILE, named in the profile for bmprof report (an EDK2 DEBUG\n"
	"                     build logs where it loaded each module there)\n"
	"      --firmware-debug DIR  the firmware modules' debug ELFs, named in the profile\n"
	"                     (with --firmware-log)\n"
	"      --param NAME=VALUE  a run-time parameter the program reads with bm_param();\n"
	"                     VALUE decimal or 0x hex; repeatable\n"
	"  -g, --call-graph   record each sample's call stack (frame pointers; default off)\n"
	"      --call-depth N frames kept per stack, 1..64 (default 32; implies -g)\n"
	"      --user         x86-64: run main in ring 3 (natively timed under KVM where\n"
	"                     ring 0 is emulated; docs/image.md)\n"
	"  -- QEMU-ARGS       passed to QEMU after bmprof's own arguments\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: main()'s return value (low 8 bits) when the image exits normally;\n"
	"124 timeout or stall; 125 bmprof failed (no QEMU, not an ELF, no bmprof stream);\n"
	"126 the image crashed or stopped without an END frame; 130 interrupted; 2 usage.\n";

struct qemu_cmd {
	struct run_opts run;
	unsigned long freq, flush_ms, stall, cpu_wait_ms;
};

enum { OPT_FLUSH_INTERVAL = 0x200, OPT_STALL, OPT_CPU_WAIT };

/* bmprof qemu's own options, --freq, --flush-interval, --stall (run_opts_own_fn). */
static int own_option(void *cmd, int ch)
{
	struct qemu_cmd *c = cmd;

	switch (ch) {
	case 'f':
		if (run_opts_ulong(&c->run, "--freq", optarg, 100000, &c->freq))
			return EXIT_USAGE;
		if (!c->freq) {
			bm_err("qemu: --freq must be at least 1 Hz");
			return EXIT_USAGE;
		}
		return -1;
	case OPT_FLUSH_INTERVAL:
		return run_opts_ulong(&c->run, "--flush-interval", optarg, MAX_FLUSH_MS,
				      &c->flush_ms) ? EXIT_USAGE : -1;
	case OPT_STALL:
		return run_opts_ulong(&c->run, "--stall", optarg, MAX_STALL, &c->stall) ?
		       EXIT_USAGE : -1;
	case OPT_CPU_WAIT:
		if (run_opts_ulong(&c->run, "--cpu-wait", optarg, MAX_CPU_WAIT_MS, &c->cpu_wait_ms))
			return EXIT_USAGE;
		if (!c->cpu_wait_ms) {
			bm_err("qemu: --cpu-wait must be at least 1 ms");
			return EXIT_USAGE;
		}
		return -1;
	}
	return -1;
}

/* -1 when parsed, else the exit status (0 for --help). */
static int parse_opts(int argc, char **argv, struct qemu_cmd *c)
{
	static const struct option longopts[] = {
		{ "freq", required_argument, NULL, 'f' },
		{ "flush-interval", required_argument, NULL, OPT_FLUSH_INTERVAL },
		{ "stall", required_argument, NULL, OPT_STALL },
		{ "cpu-wait", required_argument, NULL, OPT_CPU_WAIT },
		RUN_OPTS_LONGOPTS,
	};

	return run_opts_parse(&c->run, argc, argv, ":a:f:e:t:o:hg", longopts, own_option, c);
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
	if (capture_save(r->cap, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	image_say_how_it_ended(r);
	summary_print(stderr, p, r->shm && !r->shm_unused ? "QEMU shared memory" : "QEMU serial");
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
		.flush_ms = (unsigned)c->flush_ms, .stall = (double)c->stall, .recover = 1,
		.cpu_wait_ms = (unsigned)c->cpu_wait_ms, .stack_depth = o->stack_depth,
	};
	int rc;

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

	run_opts_init(&c.run, "qemu", usage, (struct events_opts){ 0, QEMU_CYCLES_HZ });
	c.run.out = PROFILE_DEFAULT_PATH;
	c.freq = DEFAULT_FREQ;
	rc = parse_opts(argc, argv, &c);
	if (rc < 0)
		rc = run(&c);
	run_opts_free(&c.run);
	return rc;
}
