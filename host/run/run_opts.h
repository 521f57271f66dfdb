/* The options bmprof qemu and bmprof stat share: how to run QEMU, which events, where the
 * output goes, and the one IMAGE with QEMU's own arguments after "--". Each command embeds
 * a struct run_opts, sets it up with run_opts_init, and parses with run_opts_parse, which
 * hands the options that are not shared to the command's own function. */
#ifndef BMPROF_RUN_OPTS_H
#define BMPROF_RUN_OPTS_H

#include <getopt.h>
#include <limits.h>

#include "events.h"
#include "run/qemu.h"

/* Run-time parameters: what the runtimes keep (boot/common/param.c) */
#define RUN_OPTS_MAX_PARAMS 32
#define RUN_OPTS_PARAM_NAME_MAX 31
#define RUN_OPTS_PARAMS_MAX 1024

struct run_opts {
	const char *cmd;               /* "qemu", "stat": the prefix of messages */
	const char *usage;             /* --help prints it */
	struct events_opts ev_opts;    /* how --event specs are parsed */
	const char *image, *out, *qemu;
	enum qemu_accel accel;
	int icount;
	unsigned smp, timeout;
	char **extra;                  /* QEMU arguments after -- */
	int nextra;
	struct event_list events;
	char specs[1024];              /* the --event arguments, space-separated, for the meta */
	char *command;                 /* "bmprof ARGS", the meta key "command" */
	int shm;                       /* --transport shm */
	size_t shm_size;               /* --shm-size (0: SHM_DEFAULT_SIZE) */
	unsigned shm_delay_us;         /* --shm-consume-delay-us: slow the consumer (testing) */
	int shm_at_end;                /* --shm-consume-at-end: hold the consumer (testing) */
	/* --firmware-log FILE, --firmware-debug DIR as absolute paths (meta firmware_log,
	 * firmware_debug); "" when not given */
	char firmware_log[PATH_MAX], firmware_debug[PATH_MAX];
	/* --param NAME=VALUE, as given, comma-separated (meta "params"; config param= lines) */
	char params[RUN_OPTS_PARAMS_MAX];
	unsigned nparams;
	int user;                      /* --user: main in ring 3 (meta "user_mode") */
	unsigned stack_depth;          /* -g (--call-graph): call stacks of at most this many
					* frames (--call-depth); 0: off */
};

#define RUN_OPTS_CALL_DEPTH_MAX 64   /* BMPROF_STACK_DEPTH_MAX */
#define RUN_OPTS_CALL_DEPTH_DEFAULT 32

/* getopt codes of the long-only shared options */
enum {
	RUN_OPT_TRANSPORT = 0x100, RUN_OPT_SHM_SIZE, RUN_OPT_SHM_DELAY, RUN_OPT_FIRMWARE_LOG,
	RUN_OPT_FIRMWARE_DEBUG, RUN_OPT_PARAM, RUN_OPT_USER, RUN_OPT_SHM_AT_END, RUN_OPT_CALL_DEPTH
};

/* The end of a getopt_long table: the shared options (short letters a, I, e, S, t, o, Q, g),
 * --help (h) and the terminator. A command's table is its own entries, then this. */
#define RUN_OPTS_LONGOPTS \
	{ "accel", required_argument, NULL, 'a' }, \
	{ "icount", no_argument, NULL, 'I' }, \
	{ "event", required_argument, NULL, 'e' }, \
	{ "smp", required_argument, NULL, 'S' }, \
	{ "timeout", required_argument, NULL, 't' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "qemu", required_argument, NULL, 'Q' }, \
	{ "transport", required_argument, NULL, RUN_OPT_TRANSPORT }, \
	{ "shm-size", required_argument, NULL, RUN_OPT_SHM_SIZE }, \
	{ "shm-consume-delay-us", required_argument, NULL, RUN_OPT_SHM_DELAY }, \
	{ "shm-consume-at-end", no_argument, NULL, RUN_OPT_SHM_AT_END }, \
	{ "firmware-log", required_argument, NULL, RUN_OPT_FIRMWARE_LOG }, \
	{ "firmware-debug", required_argument, NULL, RUN_OPT_FIRMWARE_DEBUG }, \
	{ "param", required_argument, NULL, RUN_OPT_PARAM }, \
	{ "user", no_argument, NULL, RUN_OPT_USER }, \
	{ "call-graph", no_argument, NULL, 'g' }, \
	{ "call-depth", required_argument, NULL, RUN_OPT_CALL_DEPTH }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ NULL, 0, NULL, 0 }

/* o emptied, then the defaults: accel auto, a 600 s timeout. usage is the --help text. */
void run_opts_init(struct run_opts *o, const char *cmd, const char *usage,
		   struct events_opts ev_opts);

/* A command's own option ch (with optarg): -1 to go on, else the exit status to stop
 * with (EXIT_USAGE with the reason printed). */
typedef int run_opts_own_fn(void *cmd, int ch);

/* Parse argv (argv[0] is the subcommand) into o, and the command's own options through
 * own(cmd, ch); shortopts starts with ':'. Everything after "--" goes to o->extra; exactly
 * one IMAGE must stand before it; o->command is set. -1 when parsed, else the exit status
 * (0 for --help, EXIT_USAGE, EXIT_FAILED when out of memory), with the reason printed. */
int run_opts_parse(struct run_opts *o, int argc, char **argv, const char *shortopts,
		   const struct option *longopts, run_opts_own_fn *own, void *cmd);
/* Frees o->command. */
void run_opts_free(struct run_opts *o);
/* s as a number from 0 to max for option opt. 0, or -1 (reported). */
int run_opts_ulong(const struct run_opts *o, const char *opt, const char *s,
		   unsigned long max, unsigned long *out);
/* One --event argument into o->events and o->specs. 0, or -1 (reported). */
int run_opts_add_events(struct run_opts *o, const char *spec);
/* s is NAME=VALUE: NAME of letters, digits and '_' (not a digit first, up to 31), VALUE a
 * decimal or 0x hex number below 2^64. 0 with the value, or -1 with one line in err. */
int run_opts_check_param(const char *s, unsigned long long *value, char *err, size_t n);
/* One --param argument into o->params. 0, or -1 (reported). */
int run_opts_add_param(struct run_opts *o, const char *s);
/* The config text for the run: base (the events' config, or NULL for "freq=FREQ"), then a
 * param= line per --param and user=1 for --user. Its length, or -1 if it does not fit n
 * bytes or EVENTS_CONFIG_MAX (reported). */
int run_opts_config(const struct run_opts *o, const char *base, unsigned long freq, char *buf,
		    size_t n);

#endif
