/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof export: a profile in another tool's format: pprof (host/profile/export_pprof.h), folded
 * stacks, or JSON (bmprof report's). docs/bmprof-export.md is its manual. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "report/report.h"
#include "report/stacks.h"
#include "profile/diff_load.h"
#include "profile/export_pprof.h"
#include "util/outfile.h"
#include "profile/profile_bound.h"
#include "profile/profile_io.h"
#include "symbol/symfs_opt.h"
#include "util/util.h"

static const char description[] =
	"Write a recorded profile in another tool's format:\n"
	"pprof: gzipped profile.proto (go tool pprof, speedscope, ...), one location per sampled "
	"address, with its function and file:line;\n"
	"folded: \"root;...;leaf count\" stack lines, the input of flamegraph.pl and speedscope;\n"
	"json: bmprof report --format json --all (docs/report-json.md).";

enum { FMT_PPROF, FMT_FOLDED, FMT_JSON };
static const char *const formats[] = { "pprof", "folded", "json", NULL };

/* folded: the stacks (report/stacks.h), "root;...;leaf count". */
static int export_folded(FILE *f, const struct report *rp)
{
	struct stack_list sl;
	int rc;

	stacks_init(&sl);
	rc = stacks_from_report(&sl, rp, -1) || stacks_write_folded(f, &sl) ? -1 : 0;
	stacks_free(&sl);
	return rc;
}

/* json: bmprof report's JSON, every row; folded: its stacks. The file whole or not at all. */
static int export_report(const char *input, const char *elf, const char *event, const char *out,
			 int folded)
{
	struct profile prof;
	struct report rp = { .input = input, .p = &prof };
	enum flat_sort sort = FLAT_BY_FUNCTION;
	struct outfile of;
	char err[512];
	int rc = 1, lr;

	profile_init(&prof);
	lr = profile_load(input, &prof, rp.load_warning, sizeof rp.load_warning);
	if (lr < 0) {
		bm_err("%s", rp.load_warning);
		profile_free(&prof);
		return 1;
	}
	if (lr == 0)
		rp.load_warning[0] = 0;
	if (report_build(&rp, elf, event, &sort))
		goto out;
	if (outfile_open(&of, out, err, sizeof err)) {
		bm_err("export: %s", err);
		goto out;
	}
	if (folded ? export_folded(of.f, &rp) : report_print_json(of.f, &rp, sort, -1, 0)) {
		bm_err("export: writing %s failed", folded ? "the stacks" : "the JSON");
		outfile_abort(&of);
	}
	else if (outfile_commit(&of, err, sizeof err))
		bm_err("export: %s", err);
	else
		rc = 0;
out:
	report_free(&rp);
	profile_free(&prof);
	return rc;
}

static int export(int argc, char **argv)
{
	const char *out = NULL, *input = PROFILE_DEFAULT_PATH, *elf = NULL, *event = NULL;
	int format = -1, rc = 1;
	const struct opt opts[] = {
		OPT_CHOICE('f', "format", &format, "FMT", "pprof, folded or json", formats),
		OPT_STRING('o', "output", &out, "FILE", "write to FILE (default: standard output; "
			   "pprof needs a FILE unless standard output is not a terminal)"),
		OPT_STRING('i', "input", &input, "FILE", "profile file (default "
			   PROFILE_DEFAULT_PATH ")"),
		OPT_STRING(0, "elf", &elf, "ELF", "the image's ELF (default: the one the profile "
			   "names)"),
		OPT_STRING('e', "event", &event, "NAME", "the event (default: the first with "
			   "samples)"),
		SYMFS_OPT,
		PROFILE_BOUND_OPT,
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "export", .opts = opts,
				     .description = description };
	struct opt_args a;
	struct loaded_run lr;
	char err[1024];

	if ((rc = opt_parse(&cmd, argc, argv, &a)) >= 0)
		return rc;
	rc = a.n || a.dash_given;
	if (rc)
		bm_err("export: unexpected argument '%s' (the profile is named with -i)",
		       a.n ? a.v[0] : "--");
	opt_args_free(&a);
	if (rc)
		return 2;
	if (format < 0) {
		bm_err("export: --format takes pprof, folded or json");
		return 2;
	}
	if (format == FMT_JSON || format == FMT_FOLDED)
		return export_report(input, elf, event, out, format == FMT_FOLDED);
	if (format == FMT_PPROF && !out && isatty(STDOUT_FILENO)) {
		bm_err("export: pprof is binary: name a file with -o FILE, or redirect the output");
		return 2;
	}
	if (run_load(&lr, input, elf, event, FLAT_BY_FUNCTION, err, sizeof err)) {
		bm_err("%s", err);
		return 1;
	}
	if (lr.warning[0])
		fprintf(stderr, "bmprof: warning: %s\n", lr.warning);
	struct outfile of;
	if (outfile_open(&of, out, err, sizeof err)) {
		bm_err("export: %s", err);
		goto done;
	}
	rc = export_pprof(of.f, &lr, err, sizeof err);
	if (rc) {
		bm_err("export: %s", err);
		outfile_abort(&of);
	} else if (outfile_commit(&of, err, sizeof err)) {
		bm_err("export: %s", err);
		rc = 1;
	}
done:
	run_free(&lr);
	return rc ? 1 : 0;
}

int cmd_export(int argc, char **argv)
{
	int rc = export(argc, argv);

	elf_find_clear_dirs();
	return rc;
}
