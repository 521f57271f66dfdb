/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof flamegraph: a recorded profile as an interactive SVG flame graph
 * (host/report/flamegraph.h). docs/bmprof-flamegraph.md is its manual. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "profile/profile_bound.h"
#include "profile/profile_io.h"
#include "report/report.h"
#include "report/report_flame.h"
#include "symbol/elf_find.h"
#include "symbol/symfs_opt.h"
#include "util/options.h"
#include "util/outfile.h"
#include "util/util.h"

#define DEFAULT_OUTPUT "flamegraph.svg"

static const char description[] =
	"Write the flame graph of a recorded profile as an SVG: one box per frame, as wide as "
	"its samples, callers below callees. Open it in a browser: hover for a frame's samples, "
	"click to zoom, Search (or Ctrl-F) highlights the frames whose name matches.";

struct flame_cli {
	const char *input, *output, *elf, *event;
	unsigned long cpu, width;      /* cpu: NO_CPU when not given */
	struct opt_args args;
};

#define NO_CPU ((unsigned long)-1)

/* -1 when parsed, else the exit status. */
static int parse_opts(int argc, char **argv, struct flame_cli *o)
{
	const struct opt opts[] = {
		OPT_STRING('i', "input", &o->input, "FILE", "profile file (default "
			   PROFILE_DEFAULT_PATH ")"),
		OPT_STRING('o', "output", &o->output, "FILE", "the SVG (default " DEFAULT_OUTPUT
			   "; - for standard output)"),
		OPT_STRING(0, "elf", &o->elf, "ELF", "the image's ELF (default: the one the "
			   "profile names)"),
		OPT_STRING('e', "event", &o->event, "NAME", "the event (default: the first with "
			   "samples)"),
		OPT_ULONG('C', "cpu", &o->cpu, "N", "only the samples of CPU N", 0,
			  PROFILE_MAX_CPUS - 1),
		OPT_ULONG(0, "width", &o->width, "PX", "the frames' width in pixels (default "
			  "1200)", 100, 100000),
		SYMFS_OPT,
		PROFILE_BOUND_OPT,
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "flamegraph", .opts = opts,
				     .description = description };
	int rc = opt_parse(&cmd, argc, argv, &o->args);

	if (rc >= 0)
		return rc;
	if (o->args.n || o->args.dash_given) {
		bm_err("flamegraph: unexpected argument '%s' (the profile is named with -i)",
		       o->args.n ? o->args.v[0] : "--");
		return 2;
	}
	return -1;
}

static int write_svg(const struct report *rp, const struct flame_cli *o)
{
	struct outfile of;
	char err[512];

	int cpu = o->cpu == NO_CPU ? -1 : (int)o->cpu;

	if (cpu >= 0 && !report_cpu_has_samples(rp, (unsigned)cpu)) {
		bm_err("flamegraph: CPU %d has no samples of the event in %s (bmprof report --sort "
		       "cpu shows which CPUs have)", cpu, rp->input);
		return 1;
	}
	if (outfile_open(&of, strcmp(o->output, "-") ? o->output : NULL, err, sizeof err)) {
		bm_err("flamegraph: %s", err);
		return 1;
	}
	if (report_flamegraph(of.f, rp, cpu, (int)o->width, 0, err, sizeof err)) {
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

static int flamegraph(int argc, char **argv)
{
	struct flame_cli o = { .input = PROFILE_DEFAULT_PATH, .output = DEFAULT_OUTPUT,
			       .cpu = NO_CPU };
	struct profile prof;
	struct report rp = { .p = &prof };
	enum flat_sort sort = FLAT_BY_FUNCTION;
	int rc = parse_opts(argc, argv, &o);

	opt_args_free(&o.args);
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

int cmd_flamegraph(int argc, char **argv)
{
	int rc = flamegraph(argc, argv);

	elf_find_clear_dirs();
	return rc;
}
