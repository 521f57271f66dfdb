/* SPDX-License-Identifier: BSD-2-Clause */
/* The run options of bmprof qemu and bmprof stat (run_opts.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/vendor.h"
#include "run/run_opts.h"
#include "run/shm.h"
#include "util/util.h"

#define DEFAULT_TIMEOUT 600

const char *const run_opts_accels[] = { "auto", "kvm", "tcg", NULL };
const char *const run_opts_transports[] = { "serial", "shm", NULL };

void run_opts_init(struct run_opts *o, const char *cmd, struct events_opts ev_opts)
{
	memset(o, 0, sizeof *o);
	o->cmd = cmd;
	o->ev_opts = ev_opts;
	if (!o->ev_opts.resolve)
		o->ev_opts.resolve = vendor_events_resolve;
	o->accel = QEMU_ACCEL_AUTO;
	o->timeout = DEFAULT_TIMEOUT;
}

void run_opts_free(struct run_opts *o)
{
	free(o->command);
	o->command = NULL;
	opt_args_free(&o->args);
	o->extra = NULL;
	o->nextra = 0;
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

/* ---- the shared options' callbacks (opt_cb: o->value is the struct run_opts) ---- */

int run_opts_cb_events(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	return run_opts_add_events(o->value, arg);
}

int run_opts_cb_smp(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct run_opts *ro = o->value;
	char err[128];

	if (qemu_parse_smp(arg, &ro->smp, err, sizeof err)) {
		bm_err("%s: %s", ro->cmd, err);
		return -1;
	}
	return 0;
}

int run_opts_cb_call_graph(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct run_opts *ro = o->value;

	(void)arg, (void)c;
	if (!ro->stack_depth)
		ro->stack_depth = RUN_OPTS_CALL_DEPTH_DEFAULT;
	return 0;
}

int run_opts_cb_call_depth(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct run_opts *ro = o->value;
	char *end;
	unsigned long v;

	(void)c;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v < 1 || v > RUN_OPTS_CALL_DEPTH_MAX) {
		bm_err("%s: --call-depth takes 1 to %d frames, not '%s'", ro->cmd,
		       RUN_OPTS_CALL_DEPTH_MAX, arg);
		return -1;
	}
	ro->stack_depth = (unsigned)v;
	return 0;
}

int run_opts_cb_output(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct run_opts *ro = o->value;

	if (!*arg) {
		bm_err("%s: -o needs a file name", ro->cmd);
		return -1;
	}
	ro->out = arg;
	return 0;
}

int run_opts_cb_shm_size(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct run_opts *ro = o->value;
	char err[128];

	if (shm_parse_size(arg, &ro->shm_size, err, sizeof err)) {
		bm_err("%s: %s", ro->cmd, err);
		return -1;
	}
	return 0;
}

int run_opts_cb_firmware_log(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct run_opts *ro = o->value;

	return absolute(ro, "--firmware-log", arg, ro->firmware_log);
}

int run_opts_cb_firmware_debug(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	return firmware_debug_dir(o->value, arg);
}

int run_opts_cb_param(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	return run_opts_add_param(o->value, arg);
}

int run_opts_cb_param_line(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	char err[256], *params = o->value;
	unsigned long long x;
	size_t len = strlen(params);

	if (run_opts_check_param(arg, &x, err, sizeof err)) {
		bm_err("%s: %s", c->name, err);
		return -1;
	}
	if (len + strlen(arg) + 8 > RUN_OPTS_PARAMS_MAX) {
		bm_err("%s: too many --param settings", c->name);
		return -1;
	}
	snprintf(params + len, RUN_OPTS_PARAMS_MAX - len, " param=%s", arg);
	return 0;
}

/* ---- after parsing ---- */

static int image(struct run_opts *o)
{
	if (o->args.n < 1) {
		bm_err("%s: no IMAGE given (see bmprof %s --help)", o->cmd, o->cmd);
		return -1;
	}
	if (o->args.n > 1) {
		bm_err("%s: one IMAGE only; '%s' is extra (QEMU's own arguments go after --)",
		       o->cmd, o->args.v[1]);
		return -1;
	}
	o->image = o->args.v[0];
	return 0;
}

int run_opts_parse(struct run_opts *o, const struct opt_cmd *c, int argc, char **argv)
{
	int rc = opt_parse(c, argc, argv, &o->args);

	return rc >= 0 ? rc : run_opts_check(o, argc, argv);
}

int run_opts_check(struct run_opts *o, int argc, char **argv)
{
	o->extra = o->args.dash;
	o->nextra = o->args.ndash;
	if (o->firmware_debug[0] && !o->firmware_log[0]) {
		bm_err("%s: --firmware-debug needs --firmware-log: the firmware's log says where each "
		       "module was loaded", o->cmd);
		return EXIT_USAGE;
	}
	if (image(o))
		return EXIT_USAGE;
	if (o->icount && o->nextra && qemu_argv_icount(o->extra)) {
		bm_err("%s: --icount and QEMU's own -icount after -- both given: keep one (--icount "
		       "is -icount %s)", o->cmd, QEMU_ICOUNT_ARGS);
		return EXIT_USAGE;
	}
	return command_line(o, argc, argv) ? EXIT_FAILED : -1;
}
