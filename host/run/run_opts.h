/* SPDX-License-Identifier: BSD-2-Clause */
/* The options bmprof qemu, stat and topdown share: how to run QEMU, which events, where the
 * output goes, and the one IMAGE with QEMU's own arguments after "--". Each command embeds
 * a struct run_opts, sets it up with run_opts_init, puts RUN_OPTS_TABLE in its option table
 * and parses with run_opts_parse. */
#ifndef BMPROF_RUN_OPTS_H
#define BMPROF_RUN_OPTS_H

#include <limits.h>

#include "events.h"
#include "report/data_space.h"
#include "run/qemu.h"
#include "util/options.h"

/* Run-time parameters: what the runtimes keep (boot/common/param.c) */
#define RUN_OPTS_MAX_PARAMS 32
#define RUN_OPTS_PARAM_NAME_MAX 31
#define RUN_OPTS_PARAMS_MAX 1024
#define RUN_OPTS_MAX_TIMEOUT (30ul * 24 * 3600)

struct run_opts {
	const char *cmd;               /* "qemu", "stat": the prefix of messages */
	struct events_opts ev_opts;    /* how --event specs are parsed */
	const char *image, *out, *qemu;
	int accel;                     /* enum qemu_accel */
	int icount;
	unsigned smp;
	unsigned long timeout;
	char **extra;                  /* QEMU arguments after -- */
	int nextra;
	struct opt_args args;          /* what run_opts_parse parsed (extra is in it) */
	struct event_list events;
	char specs[1024];              /* the --event arguments, space-separated, for the meta */
	char *command;                 /* "bmprof ARGS", the meta key "command" */
	int shm;                       /* --transport shm */
	size_t shm_size;               /* --shm-size (0: SHM_DEFAULT_SIZE) */
	unsigned long shm_delay_us;    /* --shm-consume-delay-us: slow the consumer (testing) */
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
	int data_space;                /* --data-space: raw samples with the registers */
};

#define RUN_OPTS_CALL_DEPTH_MAX 64   /* BMPROF_STACK_DEPTH_MAX */
#define RUN_OPTS_CALL_DEPTH_DEFAULT 32

/* The shared options' callbacks (o->value is the struct run_opts). */
opt_cb run_opts_cb_events, run_opts_cb_smp, run_opts_cb_output, run_opts_cb_shm_size,
	run_opts_cb_firmware_log, run_opts_cb_firmware_debug, run_opts_cb_param,
	run_opts_cb_call_graph, run_opts_cb_call_depth;
extern const char *const run_opts_accels[];     /* auto, kvm, tcg: enum qemu_accel */
extern const char *const run_opts_transports[]; /* serial, shm */

/* Entries the commands that run QEMU without a struct run_opts (validate, count) share. */
#define RUN_OPT_ACCEL(v, help) OPT_CHOICE('a', "accel", (v), "A", help, run_opts_accels)
#define RUN_OPT_ICOUNT(s, v) OPT_BOOL(s, "icount", (v), "-icount shift=0: guest time " \
	"follows instructions executed, so timer samples are deterministic")
#define RUN_OPT_TIMEOUT(v, max) OPT_ULONG('t', "timeout", (v), "SEC", "stop QEMU after SEC " \
	"seconds (default 600; 0: no timeout)", 0, max)
#define RUN_OPT_QEMU(v) OPT_STRING(0, "qemu", (v), "PATH", "the QEMU binary (default: " \
	"qemu-system-x86_64 or qemu-system-aarch64 from $PATH, after the ELF's machine)")
#define RUN_OPT_USER(v) OPT_BOOL(0, "user", (v), "x86-64: run main in ring 3 (natively " \
	"timed under KVM where ring 0 is emulated; docs/image.md)")
#define RUN_OPT_PARAM_HELP "a run-time parameter the program reads with bm_param(); VALUE " \
	"decimal or 0x hex; repeatable"
/* --param into a char[RUN_OPTS_PARAMS_MAX] (o->value) as " param=NAME=VALUE" */
opt_cb run_opts_cb_param_line;

/* The shared options as entries of a command's option table (short letters a, e, t, o),
 * under their own heading; ro is the command's struct run_opts, output_help what -o
 * writes. A command's table is its
 * own entries, then these, then OPT_END(). */
#define RUN_OPTS_TABLE(ro, output_help) \
	OPT_GROUP("Running QEMU:"), \
	RUN_OPT_ACCEL(&(ro)->accel, "auto (default): KVM when it is hardware-assisted, else " \
		      "TCG; kvm or tcg to choose"), \
	RUN_OPT_ICOUNT(0, &(ro)->icount), \
	OPT_CALLBACK_F('e', "event", (ro), "SPEC", "hardware events: NAME[:period=N|:freq=HZ], " \
		       "rHEX, x86/event=0x3c,umask=0x0/, arm/0x11/, a vendor name " \
		       "(skl::MEM_LOAD_RETIRED.L1_MISS, armv8_pmuv3::CPU_CYCLES), or a group {A,B}; " \
		       "comma-separated, repeatable (docs/events.md)", run_opts_cb_events, \
		       OPT_MULTI), \
	OPT_CALLBACK(0, "smp", (ro), "N", "give QEMU N CPUs (1 to 8); each sends its own " \
		     "samples", run_opts_cb_smp), \
	OPT_ULONG('t', "timeout", &(ro)->timeout, "SEC", "stop QEMU after SEC seconds " \
		  "(default 600; 0: no timeout); the samples the image still holds are read " \
		  "from its memory", 0, RUN_OPTS_MAX_TIMEOUT), \
	OPT_CALLBACK('o', "output", (ro), "FILE", output_help, run_opts_cb_output), \
	RUN_OPT_QEMU(&(ro)->qemu), \
	OPT_CHOICE(0, "transport", &(ro)->shm, "T", "serial (default) or shm: the stream over " \
		   "shared-memory rings (an ivshmem device), one per CPU " \
		   "(docs/transport-shm.md)", run_opts_transports), \
	OPT_CALLBACK(0, "shm-size", (ro), "N", "the shared memory, a power of two (default 4M)", \
		     run_opts_cb_shm_size), \
	OPT_ULONG(0, "shm-consume-delay-us", &(ro)->shm_delay_us, "US", "testing: the host " \
		  "sleeps US per ring record", 0, 1000000), \
	OPT_BOOL(0, "shm-consume-at-end", &(ro)->shm_at_end, "testing: the host reads the " \
		 "rings only from the image's final flush on, so small rings overrun"), \
	OPT_CALLBACK(0, "firmware-log", (ro), "FILE", "x86-64: the firmware's debug console " \
		     "(port 0x402) into FILE, named in the profile for bmprof report (an EDK2 " \
		     "DEBUG build logs where it loaded each module there)", \
		     run_opts_cb_firmware_log), \
	OPT_CALLBACK(0, "firmware-debug", (ro), "DIR", "the firmware modules' debug ELFs, " \
		     "named in the profile (with --firmware-log)", run_opts_cb_firmware_debug), \
	OPT_CALLBACK_F(0, "param", (ro), "NAME=VALUE", RUN_OPT_PARAM_HELP, run_opts_cb_param, \
		       OPT_MULTI), \
	RUN_OPT_USER(&(ro)->user)

/* Call stacks (bmprof qemu): -g and --call-depth N into ro->stack_depth. */
#define RUN_OPTS_STACKS_TABLE(ro) \
	OPT_CALLBACK('g', "call-graph", (ro), NULL, "record each sample's call stack (frame " \
		     "pointers; default off)", run_opts_cb_call_graph), \
	OPT_CALLBACK(0, "call-depth", (ro), "N", "frames kept per stack, 1 to 64 (default 32; " \
		     "implies -g)", run_opts_cb_call_depth)

/* Data-space profiling (bmprof qemu): --data-space into ro->data_space. */
#define RUN_OPTS_DATA_SPACE_TABLE(ro) \
	OPT_BOOL(0, "data-space", &(ro)->data_space, "raw samples for data-space profiling: " \
		 "each sample also carries the interrupted registers; without --event, samples " \
		 "on " DATA_SPACE_DEFAULT_EVENT " where the CPU counts it, else on the timer " \
		 "(says which)")

/* o emptied, then the defaults: accel auto, a 600 s timeout. */
void run_opts_init(struct run_opts *o, const char *cmd, struct events_opts ev_opts);

/* Parse argv (argv[0] is the subcommand) with c, whose table holds RUN_OPTS_TABLE(o).
 * Everything after "--" goes to o->extra; exactly one IMAGE must be given; o->command is
 * set. -1 when parsed, else the exit status (0 for --help, EXIT_USAGE, EXIT_FAILED when
 * out of memory), with the reason printed. */
int run_opts_parse(struct run_opts *o, const struct opt_cmd *c, int argc, char **argv);
/* What run_opts_parse does after opt_parse filled o->args (argv as given to it). */
int run_opts_check(struct run_opts *o, int argc, char **argv);
/* Frees o->command and the parsed arguments. */
void run_opts_free(struct run_opts *o);
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
