/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof: the command-line tool. Dispatches to the subcommands in builtin-*.c;
 * docs/bmprof.md is the overview. */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "util/options.h"
#include "util/util.h"
#include "wire.h"

#define BMPROF_VERSION "0.1.0"
#define EXIT_USAGE 2

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "qemu", cmd_qemu, "boot an image in QEMU and profile it" },
	{ "stat", cmd_stat, "boot an image in QEMU and count hardware events (like perf stat)" },
	{ "record", cmd_record, "capture a stream from a serial port, file or FIFO" },
	{ "report", cmd_report, "the flat profile of a recorded run (text or JSON)" },
	{ "annotate", cmd_annotate, "one function's disassembly and source with its samples" },
	{ "cpi", cmd_cpi, "a function's block counts, CPI and stall culprits (DCPI's dcpicalc)" },
	{ "stalls", cmd_stalls, "where the whole image stalls, and the top stalled instructions" },
	{ "validate", cmd_validate, "DCPI's estimates of an image against its exact counts" },
	{ "count", cmd_count, "exact execution counts of an image's instructions (QEMU plugin)" },
	{ "diff", cmd_diff, "compare two sets of profiles: what changed, and is it significant" },
	{ "stats", cmd_stats, "the spread of each function's samples over repeated runs" },
	{ "db", cmd_db, "a database of profiles: add, list, select, group into epochs" },
	{ "export", cmd_export, "a profile as pprof, folded stacks or JSON" },
	{ "flamegraph", cmd_flamegraph, "a profile as an interactive SVG flame graph" },
	{ "topdown", cmd_topdown, "Top-Down: which part of the pipeline bounds the run" },
	{ "blocks", cmd_blocks, "an image's basic blocks as a BHive block list" },
	{ "bhive", cmd_bhive, "basic-block throughput measured in a bare-metal harness (BHive)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fputs("usage: bmprof [--version] [--help] COMMAND [ARGS]\n"
	      "\n"
	      "A sampling profiler for code with no OS under it. Commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("  help       help on a command (bmprof help COMMAND, or bmprof COMMAND --help)\n"
	      "\n"
	      "Typical use:\n"
	      "  bmprof qemu build/x86_64/demo.elf     run it, write bmprof.data, show the top\n"
	      "  bmprof report                         the flat profile\n"
	      "  bmprof stat build/aarch64/demo.elf    count cycles, instructions, branches\n"
	      "  bmprof annotate FUNCTION              where in FUNCTION the time goes\n"
	      "  bmprof cpi FUNCTION                   its block counts, CPI and stall culprits\n", f);
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown(const char *name)
{
	const char *names[NCOMMANDS + 1], *best;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	names[NCOMMANDS] = "help";
	if ((best = opt_closest(name, names, NCOMMANDS + 1)))
		bm_err("unknown command '%s'; did you mean %s? (bmprof --help lists them)", name,
		       best);
	else
		bm_err("unknown command '%s' (bmprof --help lists them)", name);
	return EXIT_USAGE;
}

static int help(int argc, char **argv)
{
	const struct command *c;
	char help_opt[] = "--help";

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (argc > 2) {
		bm_err("help: one command at a time");
		return EXIT_USAGE;
	}
	if (!(c = find(argv[1])))
		return unknown(argv[1]);
	char *args[] = { argv[1], help_opt, NULL };
	return c->fn(2, args);
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(1, argv + 1);
	if (!strcmp(argv[1], "--version")) {
		printf("bmprof %s (wire format %d)\n", BMPROF_VERSION, BMPROF_WIRE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (argv[1][0] == '-') {
		static const char *const opts[] = { "--help", "--version" };
		const char *best = opt_closest(argv[1], opts, 2);

		bm_err("unknown option %s%s%s%s (bmprof --help)", argv[1], best ? "; did you mean " :
		       "", best ? best : "", best ? "?" : "");
		return EXIT_USAGE;
	}
	if (!(c = find(argv[1])))
		return unknown(argv[1]);
	return c->fn(argc - 1, argv + 1);
}
