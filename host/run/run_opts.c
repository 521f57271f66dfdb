/* The run options of bmprof qemu and bmprof stat (run_opts.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "run/run_opts.h"
#include "run/shm.h"
#include "util/util.h"

#define DEFAULT_TIMEOUT 600
#define MAX_TIMEOUT (30 * 24 * 3600)

void run_opts_init(struct run_opts *o, const char *cmd, const char *usage,
		   struct events_opts ev_opts)
{
	memset(o, 0, sizeof *o);
	o->cmd = cmd;
	o->usage = usage;
	o->ev_opts = ev_opts;
	o->accel = QEMU_ACCEL_AUTO;
	o->timeout = DEFAULT_TIMEOUT;
}

void run_opts_free(struct run_opts *o)
{
	free(o->command);
	o->command = NULL;
}

/* o->command from argv. 0, or -1 (reported). */
static int command_line(struct run_opts *o, int argc, char **argv)
{
	char *args = bm_join_args(argc, argv);
	int rc = args ? asprintf(&o->command, "bmprof %s", args) : -1;

	free(args);
	if (rc < 0) {
		o->command = NULL;
		bm_err("out of memory");
		return -1;
	}
	return 0;
}

static int split(struct run_opts *o, int argc, char **argv)
{
	/* Everything after "--" belongs to QEMU. */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			o->extra = argv + i + 1;
			o->nextra = argc - i - 1;
			return i;
		}
	}
	return argc;
}

int run_opts_ulong(const struct run_opts *o, const char *opt, const char *s,
		   unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || *out > max) {
		bm_err("%s: %s takes a number from 0 to %lu, not '%s'", o->cmd, opt, max, s);
		return -1;
	}
	return 0;
}

int run_opts_add_events(struct run_opts *o, const char *spec)
{
	char err[1024];
	size_t len = strlen(o->specs);

	if (events_parse(&o->events, spec, &o->ev_opts, err, sizeof err)) {
		bm_err("%s: %s", o->cmd, err);
		return -1;
	}
	snprintf(o->specs + len, sizeof o->specs - len, "%s%s", len ? " " : "", spec);
	return 0;
}

int run_opts_check_param(const char *s, unsigned long long *value, char *err, size_t n)
{
	const char *eq = strchr(s, '='), *v;
	size_t kn = eq ? (size_t)(eq - s) : 0;
	char *end;
	int base = 10;

	for (size_t i = 0; i < kn; i++)
		if (!(s[i] == '_' || isalpha((unsigned char)s[i]) ||
		      (i && isdigit((unsigned char)s[i]))))
			kn = 0;
	if (!kn || kn > RUN_OPTS_PARAM_NAME_MAX) {
		snprintf(err, n, "--param %s: want NAME=VALUE, NAME of letters, digits and '_' (not "
			 "a digit first, up to %d)", s, RUN_OPTS_PARAM_NAME_MAX);
		return -1;
	}
	v = eq + 1;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		v += 2;
	}
	errno = 0;
	*value = strtoull(v, &end, base);
	if (!isxdigit((unsigned char)*v) || *end || errno) {
		snprintf(err, n, "--param %s: VALUE must be a number below 2^64, decimal or 0x hex",
			 s);
		return -1;
	}
	return 0;
}

int run_opts_add_param(struct run_opts *o, const char *s)
{
	char err[256];
	unsigned long long v;
	size_t len = strlen(o->params);

	if (run_opts_check_param(s, &v, err, sizeof err)) {
		bm_err("%s: %s", o->cmd, err);
		return -1;
	}
	if (o->nparams == RUN_OPTS_MAX_PARAMS ||
	    len + strlen(s) + 2 > sizeof o->params) {
		bm_err("%s: --param %s: too many parameters (at most %d, %zu bytes in all)", o->cmd,
		       s, RUN_OPTS_MAX_PARAMS, sizeof o->params - 1);
		return -1;
	}
	snprintf(o->params + len, sizeof o->params - len, "%s%s", len ? "," : "", s);
	o->nparams++;
	return 0;
}

int run_opts_config(const struct run_opts *o, const char *base, unsigned long freq, char *buf,
		    size_t n)
{
	size_t cap = n < EVENTS_CONFIG_MAX + 1 ? n : EVENTS_CONFIG_MAX + 1, len;
	const char *p = o->params;
	int k = base ? snprintf(buf, cap, "%s", base) : snprintf(buf, cap, "freq=%lu\n", freq);

	for (len = (size_t)k; len < cap && *p;) {
		size_t pn = strcspn(p, ",");
		k = snprintf(buf + len, cap - len, "%sparam=%.*s\n",
			     len && buf[len - 1] != '\n' ? "\n" : "", (int)pn, p);
		len += (size_t)k;
		p += pn + (p[pn] == ',');
	}
	if (len < cap && o->user)
		len += (size_t)snprintf(buf + len, cap - len, "%suser=1\n",
					len && buf[len - 1] != '\n' ? "\n" : "");
	if (len >= cap) {
		bm_err("%s: the events and parameters do not fit the runtime's %d-byte "
		       "configuration: ask for fewer, or give them shorter names", o->cmd,
		       EVENTS_CONFIG_MAX);
		return -1;
	}
	return (int)len;
}

static int parse_accel(struct run_opts *o, const char *s)
{
	if (!strcmp(s, "auto"))
		o->accel = QEMU_ACCEL_AUTO;
	else if (!strcmp(s, "kvm"))
		o->accel = QEMU_ACCEL_KVM;
	else if (!strcmp(s, "tcg"))
		o->accel = QEMU_ACCEL_TCG;
	else {
		bm_err("%s: --accel takes auto, kvm or tcg, not '%s'", o->cmd, s);
		return -1;
	}
	return 0;
}

/* path made absolute into out (PATH_MAX bytes) without needing it to exist: QEMU creates
 * the log. 0, or -1 (reported). */
static int absolute(struct run_opts *o, const char *opt, const char *path, char *out)
{
	char cwd[PATH_MAX];

	if (!*path) {
		bm_err("%s: %s needs a file name", o->cmd, opt);
		return -1;
	}
	if (*path != '/' && !getcwd(cwd, sizeof cwd)) {
		bm_err("%s: %s %s: the current directory: %s", o->cmd, opt, path, strerror(errno));
		return -1;
	}
	if (snprintf(out, PATH_MAX, "%s%s%s", *path == '/' ? "" : cwd, *path == '/' ? "" : "/",
		     path) >= PATH_MAX) {
		bm_err("%s: %s %s: the path is too long", o->cmd, opt, path);
		return -1;
	}
	return 0;
}

/* --firmware-debug DIR: an existing directory, absolute. 0, or -1 (reported). */
static int firmware_debug_dir(struct run_opts *o, const char *dir)
{
	struct stat st;

	if (!realpath(dir, o->firmware_debug) || stat(o->firmware_debug, &st)) {
		bm_err("%s: --firmware-debug %s: %s", o->cmd, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		bm_err("%s: --firmware-debug %s is not a directory (it takes the directory of the "
		       "modules' debug ELFs)", o->cmd, dir);
		return -1;
	}
	return 0;
}

/* A shared option or a getopt error: 0, 1 when ch is not one, or -1 (reported). */
static int shared_option(struct run_opts *o, int ch, char **argv)
{
	unsigned long v;
	char err[128];

	switch (ch) {
	case 'a':
		return parse_accel(o, optarg);
	case 'I':
		o->icount = 1;
		return 0;
	case 'e':
		return run_opts_add_events(o, optarg);
	case 'S':
		if (qemu_parse_smp(optarg, &o->smp, err, sizeof err)) {
			bm_err("%s: %s", o->cmd, err);
			return -1;
		}
		return 0;
	case 't':
		if (run_opts_ulong(o, "--timeout", optarg, MAX_TIMEOUT, &v))
			return -1;
		o->timeout = (unsigned)v;
		return 0;
	case 'o':
		if (!*optarg) {
			bm_err("%s: -o needs a file name", o->cmd);
			return -1;
		}
		o->out = optarg;
		return 0;
	case 'Q':
		o->qemu = optarg;
		return 0;
	case RUN_OPT_TRANSPORT:
		if (strcmp(optarg, "serial") && strcmp(optarg, "shm")) {
			bm_err("%s: --transport takes serial or shm, not '%s'", o->cmd, optarg);
			return -1;
		}
		o->shm = !strcmp(optarg, "shm");
		return 0;
	case RUN_OPT_SHM_SIZE:
		if (shm_parse_size(optarg, &o->shm_size, err, sizeof err)) {
			bm_err("%s: %s", o->cmd, err);
			return -1;
		}
		return 0;
	case RUN_OPT_SHM_DELAY:
		if (run_opts_ulong(o, "--shm-consume-delay-us", optarg, 1000000, &v))
			return -1;
		o->shm_delay_us = (unsigned)v;
		return 0;
	case RUN_OPT_SHM_AT_END:
		o->shm_at_end = 1;
		return 0;
	case RUN_OPT_FIRMWARE_LOG:
		return absolute(o, "--firmware-log", optarg, o->firmware_log);
	case RUN_OPT_FIRMWARE_DEBUG:
		return firmware_debug_dir(o, optarg);
	case RUN_OPT_PARAM:
		return run_opts_add_param(o, optarg);
	case RUN_OPT_USER:
		o->user = 1;
		return 0;
	case 'g':
		if (!o->stack_depth)
			o->stack_depth = RUN_OPTS_CALL_DEPTH_DEFAULT;
		return 0;
	case RUN_OPT_CALL_DEPTH:
		if (run_opts_ulong(o, "--call-depth", optarg, RUN_OPTS_CALL_DEPTH_MAX, &v))
			return -1;
		if (!v) {
			bm_err("%s: --call-depth must be 1 to %d frames", o->cmd,
			       RUN_OPTS_CALL_DEPTH_MAX);
			return -1;
		}
		o->stack_depth = (unsigned)v;
		return 0;
	case ':':
		bm_err("%s: %s needs an argument (see bmprof %s --help)", o->cmd, argv[optind - 1],
		       o->cmd);
		return -1;
	case '?':
		bm_err("%s: unknown option %s (see bmprof %s --help; QEMU's own options go after "
		       "--)", o->cmd, argv[optind - 1], o->cmd);
		return -1;
	default:
		return 1;
	}
}

static int image(struct run_opts *o, int nargs, char **argv)
{
	if (optind >= nargs) {
		bm_err("%s: no IMAGE given (see bmprof %s --help)", o->cmd, o->cmd);
		return -1;
	}
	if (optind + 1 < nargs) {
		bm_err("%s: one IMAGE only; '%s' is extra (QEMU's own arguments go after --)",
		       o->cmd, argv[optind + 1]);
		return -1;
	}
	o->image = argv[optind];
	return 0;
}

int run_opts_parse(struct run_opts *o, int argc, char **argv, const char *shortopts,
		   const struct option *longopts, run_opts_own_fn *own, void *cmd)
{
	int ch, rc, nargs = split(o, argc, argv);

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(nargs, argv, shortopts, longopts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(o->usage, stdout);
			return 0;
		}
		rc = shared_option(o, ch, argv);
		if (rc < 0)
			return EXIT_USAGE;
		if (rc > 0 && (rc = own(cmd, ch)) >= 0)
			return rc;
	}
	if (o->firmware_debug[0] && !o->firmware_log[0]) {
		bm_err("%s: --firmware-debug needs --firmware-log: the firmware's log says where each "
		       "module was loaded", o->cmd);
		return EXIT_USAGE;
	}
	if (image(o, nargs, argv))
		return EXIT_USAGE;
	if (o->icount && o->nextra && qemu_argv_icount(o->extra)) {
		bm_err("%s: --icount and QEMU's own -icount after -- both given: keep one (--icount "
		       "is -icount %s)", o->cmd, QEMU_ICOUNT_ARGS);
		return EXIT_USAGE;
	}
	return command_line(o, argc, argv) ? EXIT_FAILED : -1;
}
