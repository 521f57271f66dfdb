/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof flamegraph: a recorded profile as an interactive SVG flame graph
 * (host/report/flamegraph.h). docs/bmprof-flamegraph.md is its manual. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "profile/profile_bound.h"
#include "profile/profile_io.h"
#include "report/report.h"
#include "report/report_flame.h"
#include "util/outfile.h"
#include "util/util.h"

#define DEFAULT_OUTPUT "flamegraph.svg"

static const char usage[] =
	"usage: bmprof flamegraph [-i PROFILE] [-o FILE] [--elf ELF] [--event NAME] [--cpu N]\n"
	"                         [--width PX]\n"
	"\n"
	"Write the flame graph of a recorded profile as an SVG: one box per frame, as wide as\n"
	"its samples, callers below callees. Open it in a browser: hover for a frame's samples,\n"
	"click to zoom, Search (or Ctrl-F) highlights the frames whose name matches.\n"
	"\n"
	"  -i, --input FILE     profile file (default " PROFILE_DEFAULT_PATH ")\n"
	"  -o, --output FILE    the SVG (default " DEFAULT_OUTPUT "; - for standard output)\n"
	"      --elf ELF        the image's ELF (default: the one the profile names)\n"
	"  -e, --event NAME     the event (default: the first with samples)\n"
	"  -C, --cpu N          only the samples of CPU N\n"
	"      --width PX       the frames' width in pixels (default 1200)\n"
	PROFILE_BOUND_USAGE
	"  -h, --help           this text\n";

struct flame_cli {
	const char *input, *output, *elf, *event;
	int cpu, width;
};

/* A whole number in [lo, hi] or -1. */
static long number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return errno || end == s || *end || v < lo || v > hi ? -1 : v;
}

/* -1 when parsed, else the exit status. */
static int parse_opts(int argc, char **argv, struct flame_cli *o)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "elf", required_argument, NULL, 'E' },
		{ "event", required_argument, NULL, 'e' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "width", required_argument, NULL, 'W' },
		{ "max-entries", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":i:o:e:C:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i': o->input = optarg; break;
		case 'o': o->output = optarg; break;
		case 'E': o->elf = optarg; break;
		case 'e': o->event = optarg; break;
		case 'C':
			if ((o->cpu = (int)number(optarg, 0, PROFILE_MAX_CPUS - 1)) < 0) {
				bm_err("flamegraph: --cpu takes a CPU number from 0 to %d, not '%s'",
				       PROFILE_MAX_CPUS - 1, optarg);
				return 2;
			}
			break;
		case 'W':
			if ((o->width = (int)number(optarg, 100, 100000)) < 0) {
				bm_err("flamegraph: --width takes pixels from 100 to 100000, not '%s'",
				       optarg);
				return 2;
			}
			break;
		case 'X':
			if (profile_bound_option("flamegraph", optarg))
				return 2;
			break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("flamegraph: %s needs an argument (see bmprof flamegraph --help)",
			       argv[optind - 1]);
			return 2;
		default:
			bm_err("flamegraph: unknown option %s (see bmprof flamegraph --help)",
			       argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		bm_err("flamegraph: unexpected argument '%s' (the profile is named with -i)",
		       argv[optind]);
		return 2;
	}
	return -1;
}

static int write_svg(const struct report *rp, const struct flame_cli *o)
{
	struct outfile of;
	char err[512];

	if (o->cpu >= 0 && !report_cpu_has_samples(rp, (unsigned)o->cpu)) {
		bm_err("flamegraph: CPU %d has no samples of the event in %s (bmprof report --sort "
		       "cpu shows which CPUs have)", o->cpu, rp->input);
		return 1;
	}
	if (outfile_open(&of, strcmp(o->output, "-") ? o->output : NULL, err, sizeof err)) {
		bm_err("flamegraph: %s", err);
		return 1;
	}
	if (report_flamegraph(of.f, rp, o->cpu, o->width, 0, err, sizeof err)) {
		bm_err("flamegraph: %s", err);
		outfile_abort(&of);
		return 1;
	}
	if (outfile_commit(&of, err, sizeof err)) {
		bm_err("flamegraph: %s", err);
		return 1;
	}
	return 0;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct flame_cli o = { .input = PROFILE_DEFAULT_PATH, .output = DEFAULT_OUTPUT, .cpu = -1 };
	struct profile prof;
	struct report rp = { .p = &prof };
	enum flat_sort sort = FLAT_BY_FUNCTION;
	int rc = parse_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	rp.input = o.input;
	profile_init(&prof);
	rc = profile_load(o.input, &prof, rp.load_warning, sizeof rp.load_warning);
	if (rc < 0) {
		bm_err("%s", rp.load_warning);
		profile_free(&prof);
		return 1;
	}
	if (rc > 0)
		bm_err("warning: %s", rp.load_warning);
	rc = report_build(&rp, o.elf, o.event, &sort) ? 1 : write_svg(&rp, &o);
	report_free(&rp);
	profile_free(&prof);
	return rc;
}
