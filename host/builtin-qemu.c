/* bmprof qemu: boot an image in QEMU, show its console, record its profile, print a
 * summary and the hottest functions. docs/bmprof-qemu.md is its manual. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "capture.h"
#include "qemu.h"
#include "summary.h"
#include "util.h"

/* Exit statuses besides main's own return value (docs/bmprof.md). */
#define EXIT_USAGE 2
#define EXIT_TIMEOUT 124
#define EXIT_FAILED 125        /* bmprof could not do its job */
#define EXIT_CRASHED 126       /* the image did not end normally */
#define EXIT_INTERRUPTED 130

#define DEFAULT_FREQ 1000
#define DEFAULT_TIMEOUT 600
#define TOP_FUNCTIONS 10

static const char usage[] =
	"usage: bmprof qemu [--accel auto|kvm|tcg] [--icount] [--freq HZ] [--timeout SEC]\n"
	"                   [-o FILE] [--qemu PATH] IMAGE [-- QEMU-ARGS...]\n"
	"\n"
	"Boot IMAGE (an ELF built with bmprof) in QEMU and profile it. The image's console\n"
	"goes to stdout as it arrives; bmprof's own messages, the summary and the hottest\n"
	"functions go to stderr. The exit status is the image's main() return value.\n"
	"\n"
	"  -a, --accel A      auto (default): KVM when it is hardware-assisted, else TCG;\n"
	"                     kvm or tcg to choose\n"
	"      --icount       -icount shift=0: guest time follows instructions executed, so\n"
	"                     timer samples are deterministic\n"
	"  -f, --freq HZ      sampling frequency (default 1000)\n"
	"  -t, --timeout SEC  stop QEMU after SEC seconds, keeping what arrived (default 600;\n"
	"                     0: no timeout)\n"
	"  -o, --output FILE  profile file (default " PROFILE_DEFAULT_PATH "; an existing one is\n"
	"                     renamed to FILE.old)\n"
	"      --qemu PATH    the QEMU binary (default: qemu-system-x86_64 from $PATH)\n"
	"  -- QEMU-ARGS       passed to QEMU after bmprof's own arguments\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: main()'s return value (low 8 bits) when the image exits normally;\n"
	"124 timeout; 125 bmprof failed (no QEMU, not an ELF, no bmprof stream);\n"
	"126 the image crashed or stopped without an END frame; 130 interrupted; 2 usage.\n";

struct qemu_cmd {
	const char *image, *out, *qemu;
	enum qemu_accel accel;
	int icount;
	unsigned long freq;
	unsigned timeout;
	char **extra;
	int nextra;
};

static int parse_ulong(const char *opt, const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || *out > max) {
		bm_err("qemu: %s takes a number from 0 to %lu, not '%s'", opt, max, s);
		return -1;
	}
	return 0;
}

/* -1 when parsed, else the exit status (0 for --help). */
static int parse_opts(int argc, char **argv, struct qemu_cmd *c)
{
	static const struct option longopts[] = {
		{ "accel", required_argument, NULL, 'a' },
		{ "icount", no_argument, NULL, 'I' },
		{ "freq", required_argument, NULL, 'f' },
		{ "timeout", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "qemu", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int ch, nargs = argc;

	/* Everything after "--" belongs to QEMU. */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			nargs = i;
			c->extra = argv + i + 1;
			c->nextra = argc - i - 1;
			break;
		}
	}
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(nargs, argv, ":a:f:t:o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			if (!strcmp(optarg, "auto"))
				c->accel = QEMU_ACCEL_AUTO;
			else if (!strcmp(optarg, "kvm"))
				c->accel = QEMU_ACCEL_KVM;
			else if (!strcmp(optarg, "tcg"))
				c->accel = QEMU_ACCEL_TCG;
			else {
				bm_err("qemu: --accel takes auto, kvm or tcg, not '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'I': c->icount = 1; break;
		case 'f':
			if (parse_ulong("--freq", optarg, 100000, &c->freq))
				return EXIT_USAGE;
			if (!c->freq) {
				bm_err("qemu: --freq must be at least 1 Hz");
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (parse_ulong("--timeout", optarg, 30 * 24 * 3600, &v))
				return EXIT_USAGE;
			c->timeout = (unsigned)v;
			break;
		case 'o':
			if (!*optarg) {
				bm_err("qemu: -o needs a file name");
				return EXIT_USAGE;
			}
			c->out = optarg;
			break;
		case 'Q': c->qemu = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("qemu: %s needs an argument (see bmprof qemu --help)", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			bm_err("qemu: unknown option %s (see bmprof qemu --help; QEMU's own options go "
			       "after --)", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind >= nargs) {
		bm_err("qemu: no IMAGE given (see bmprof qemu --help)");
		return EXIT_USAGE;
	}
	if (optind + 1 < nargs) {
		bm_err("qemu: one IMAGE only; '%s' is extra (QEMU's own arguments go after --)",
		       argv[optind + 1]);
		return EXIT_USAGE;
	}
	c->image = argv[optind];
	return -1;
}

static void print_text(void *ctx, const char *text, size_t len)
{
	fwrite(text, 1, len, stdout);
}

static void on_serial(void *ctx, const void *buf, size_t n)
{
	static int reported;

	if (capture_push(ctx, buf, n) && !reported) {
		bm_err("writing the profile file failed; still running");
		reported = 1;
	}
	fflush(stdout);
}

/* QEMU binary for this image: 0 with the path, or -1 (reported). */
static int find_qemu(const struct qemu_cmd *c, const struct qemu_machine *m, char *path, size_t n)
{
	if (c->qemu) {
		if (qemu_find_binary(c->qemu, path, n) == 0)
			return 0;
		bm_err("--qemu %s: no such executable", c->qemu);
		return -1;
	}
	if (qemu_find_binary(m->binary, path, n) == 0)
		return 0;
	bm_err("%s not found: install %s (or pass --qemu PATH)", m->binary, m->package);
	return -1;
}

/* The checks before starting QEMU: a readable ELF of a machine bmprof can boot, a QEMU,
 * an accelerator. 0, or -1 (reported). */
static int prepare(const struct qemu_cmd *c, char *abs_image, const struct qemu_machine **m,
		   char *qemu_path, size_t qlen, int *accel)
{
	char err[PATH_MAX + 128], why[256];
	struct qemu_facts facts;
	int machine;

	if (qemu_elf_machine(c->image, &machine, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (!realpath(c->image, abs_image)) {
		bm_err("%s: %s", c->image, strerror(errno));
		return -1;
	}
	*m = qemu_machine_for(machine);
	if (!*m) {
		bm_err("%s is an ELF for machine %d, which bmprof qemu cannot boot (x86-64 only)",
		       c->image, machine);
		return -1;
	}
	if (!(*m)->ready) {
		bm_err("%s is an %s image: bmprof qemu cannot boot %s images yet", c->image,
		       (*m)->arch, (*m)->arch);
		return -1;
	}
	if (find_qemu(c, *m, qemu_path, qlen))
		return -1;
	qemu_probe(&facts);
	*accel = qemu_choose_accel(c->accel, &facts, why, sizeof why);
	if (*accel < 0) {
		bm_err("%s", why);
		return -1;
	}
	fprintf(stderr, "bmprof: accel %s (%s)\n", qemu_accel_name(*accel), why);
	return 0;
}

static int exit_status(const struct profile *p, const struct qemu_result *res)
{
	if (res->how == QEMU_INTERRUPTED)
		return EXIT_INTERRUPTED;
	if (res->how == QEMU_TIMEOUT)
		return EXIT_TIMEOUT;
	if (!p->have_end || p->end.reason != BMPROF_END_EXIT)
		return EXIT_CRASHED;
	return p->end.exit_code & 0xff;
}

static void say_how_it_ended(const struct qemu_cmd *c, const struct profile *p,
			     const struct qemu_result *res)
{
	switch (res->how) {
	case QEMU_TIMEOUT:
		bm_err("timeout after %u s: stopped QEMU; the profile keeps what arrived "
		       "(--timeout SEC to wait longer, 0 for no limit)", c->timeout);
		break;
	case QEMU_INTERRUPTED:
		bm_err("interrupted: stopped QEMU; the profile keeps what arrived");
		break;
	case QEMU_KILLED:
		bm_err("QEMU was killed by signal %d", res->status);
		break;
	case QEMU_EXITED:
		if (!p->have_end)
			bm_err("QEMU exited (status %d) without the image's END frame: it crashed, "
			       "reset or stopped without going through the bmprof runtime's exit",
			       res->status);
		break;
	}
}

/* After QEMU is gone: save, summarize, pick the exit status. */
static int conclude(const struct qemu_cmd *c, struct capture *cap, const char *abs_image,
		    const struct qemu_result *res)
{
	const struct profile *p;
	char err[PATH_MAX + 256];

	capture_finish(cap);
	p = capture_profile(cap);
	if (!p->have_hello) {
		if (res->how != QEMU_EXITED)
			say_how_it_ended(c, p, res);
		bm_err("no bmprof stream from %s: it sent no HELLO frame (did it crash at boot? is "
		       "it built with bmprof?)", c->image);
		if (!res->bytes && res->how == QEMU_EXITED)
			bm_err("QEMU exited with status %d and nothing came out of the serial port: "
			       "if QEMU printed an error above, that is the cause", res->status);
		return EXIT_FAILED;
	}
	if (capture_save(cap, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	fflush(stdout);
	say_how_it_ended(c, p, res);
	summary_print(stderr, p, "QEMU serial");
	fprintf(stderr, "bmprof: wrote %s (%.1f s); hottest functions (bmprof report -i %s for "
		"more):\n", c->out, res->seconds, c->out);
	report_top_functions(stderr, p, c->out, abs_image, TOP_FUNCTIONS);
	return exit_status(p, res);
}

static int run(const struct qemu_cmd *c, char *command)
{
	char abs_image[PATH_MAX], qemu_path[PATH_MAX], err[PATH_MAX + 256];
	char freq[32], timeout[32], *line = NULL, **qargv = NULL;
	const struct qemu_machine *m;
	struct capture *cap = NULL;
	struct qemu_result res;
	int accel, rc = EXIT_FAILED;

	if (prepare(c, abs_image, &m, qemu_path, sizeof qemu_path, &accel))
		return EXIT_FAILED;
	struct qemu_opts o = {
		.machine = m, .qemu = qemu_path, .image = abs_image, .accel = accel,
		.icount = c->icount, .freq = c->freq, .extra = c->extra, .nextra = c->nextra,
	};
	qargv = qemu_build_argv(&o);
	line = qargv ? qemu_argv_string(qargv) : NULL;
	if (!line) {
		bm_err("out of memory");
		goto out;
	}
	snprintf(freq, sizeof freq, "%lu", c->freq);
	snprintf(timeout, sizeof timeout, "%u", c->timeout);
	struct bm_kv meta[] = {
		{ "qemu", line }, { "icount", c->icount ? "1" : "0" }, { "freq", freq },
		{ "timeout", timeout },
	};
	struct capture_opts co = {
		.path = c->out, .elf = abs_image, .accel = qemu_accel_name(accel),
		.command = command, .meta = meta, .nmeta = sizeof meta / sizeof meta[0],
		.on_text = print_text,
	};
	cap = capture_open(&co, err, sizeof err);
	if (!cap) {
		bm_err("%s", err);
		goto out;
	}
	if (qemu_run(qargv, c->timeout, on_serial, cap, &res, err, sizeof err)) {
		bm_err("%s", err);
		goto out;
	}
	rc = conclude(c, cap, abs_image, &res);
out:
	if (cap)
		capture_free(cap);
	free(line);
	qemu_free_argv(qargv);
	return rc;
}

int cmd_qemu(int argc, char **argv)
{
	struct qemu_cmd c = {
		.out = PROFILE_DEFAULT_PATH, .accel = QEMU_ACCEL_AUTO, .freq = DEFAULT_FREQ,
		.timeout = DEFAULT_TIMEOUT,
	};
	int rc = parse_opts(argc, argv, &c);
	char *args, *command;

	if (rc >= 0)
		return rc;
	args = bm_join_args(argc, argv);
	if (!args || asprintf(&command, "bmprof %s", args) < 0) {
		free(args);
		bm_err("out of memory");
		return EXIT_FAILED;
	}
	/* A closed stdout (| head) loses console text, not the profile. */
	signal(SIGPIPE, SIG_IGN);
	rc = run(&c, command);
	free(command);
	free(args);
	return rc;
}
