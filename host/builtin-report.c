/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report: the flat profile of a recorded run, as text, JSON or one HTML page. docs/bmprof-report.md
 * is its manual, docs/report-json.md the JSON schema. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "builtin.h"
#include "report/report.h"
#include "report/report_stacks.h"
#include "events.h"
#include "report/firmware.h"
#include "report/fw_opts.h"
#include "symbol/symfs_opt.h"
#include "flat.h"
#include "util/json.h"
#include "util/outfile.h"
#include "profile/profile_bound.h"
#include "profile/profile_io.h"
#include "report/resolve.h"
#include "run_mode.h"
#include "report/run_notes.h"
#include "report/summary.h"
#include "profile/target_log.h"
#include "util/util.h"
#include "wire_text.h"


#define DEFAULT_LIMIT 20
#define HTML_TOP_FUNCTIONS 5     /* functions the HTML report annotates */

static const char description[] =
	"Print the flat profile of a recorded run: where the samples fell, hottest first.";

static const char tail[] =
	"Samples outside the image's loaded range are firmware: grouped by 4 KiB page\n"
	"([firmware 0x7ea1000-0x7ea1fff]) unless a firmware module's ELF names them.\n";

/* in enum flat_sort's order */
static const char *const sorts[] = { "function|func|sym", "line|srcline", "address|addr",
				     "cpu", NULL };
enum { FMT_TEXT, FMT_JSON, FMT_HTML };
static const char *const orders[] = { "caller", "callee", NULL };   /* enum stacks_order */
static const char *const formats[] = { "text", "json", "html", NULL };

struct report_opts {
	const char *input, *elf, *event, *output, *phase;
	struct report_fw_opts fw;
	int sort;                /* enum flat_sort; -1: not given (function) */
	int format, json, all;
	int children;            /* --children */
	int graph;               /* -g ORDER: enum stacks_order; -1: none */
	double min_percent;
	unsigned long limit;     /* 0: the default */
	struct opt_args args;
};

static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	const struct opt opts[] = {
		OPT_STRING('i', "input", &o->input, "FILE", "profile file (default "
			   PROFILE_DEFAULT_PATH ")"),
		OPT_STRING(0, "elf", &o->elf, "ELF", "the image's ELF (default: the one the "
			   "profile names, or a file of that name beside the profile); its build-id "
			   "must match"),
		OPT_CHOICE('s', "sort", &o->sort, "KEY", "function (default): one row per "
			   "function, with its hottest source line; line: one row per source line; "
			   "address: one row per sampled address; cpu: one row per CPU and "
			   "function, grouped by CPU", sorts),
		OPT_CHOICE('F', "format", &o->format, "FMT", "text (default), json "
			   "(docs/report-json.md) or html (one self-contained page: the header, "
			   "the sortable table, the flame graph, the per-CPU split, the hottest "
			   "functions annotated)", formats),
		OPT_STRING('o', "output", &o->output, "FILE", "write to FILE (replaced whole) "
			   "instead of standard output"),
		OPT_STRING('e', "event", &o->event, "NAME", "report this event, by name or id "
			   "(default: the first event with samples)"),
		OPT_STRING(0, "phase", &o->phase, "NAME", "only the samples of the phase NAME "
			   "(bm_phase; or its number; \"(start)\": before the first phase); a "
			   "profile with phases otherwise gets a column per phase"),
		OPT_DOUBLE_RANGE(0, "min-percent", &o->min_percent, "P", "leave out rows below P "
				 "percent", 0, 100),
		OPT_ULONG('n', "limit", &o->limit, "N", "print at most N rows (default: 20 for "
			  "text, all for JSON); with --sort cpu, N per CPU", 1, LONG_MAX),
		OPT_BOOL('a', "all", &o->all, "print every row"),
		OPT_BOOL(0, "children", &o->children, "call stacks: each function's share of the "
			 "samples with the functions it called (Children) and alone (Self)"),
		OPT_CHOICE('g', "call-graph", &o->graph, "ORDER", "call stacks as a tree: caller "
			   "(from the outermost function down) or callee (from each leaf up)", orders),
		SYMFS_OPT,
		PROFILE_BOUND_OPT,
		FW_OPTS_TABLE(&o->fw),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "report", .opts = opts,
				     .description = description, .tail = tail };
	int rc = opt_parse(&cmd, argc, argv, &o->args);

	if (rc >= 0)
		return rc;
	if (o->args.n || o->args.dash_given) {
		bm_err("report: unexpected argument '%s' (the profile is named with -i)",
		       o->args.n ? o->args.v[0] : "--");
		return 2;
	}
	if (o->format == FMT_HTML && o->sort >= 0 && o->sort != FLAT_BY_FUNCTION) {
		bm_err("report: --format html shows functions (with a per-CPU split): leave out --sort");
		return 2;
	}
	o->json = o->format == FMT_JSON;
	if ((o->children || o->graph >= 0) && o->format != FMT_TEXT) {
		bm_err("report: --children and -g print text; --format json and html have no call "
		       "stack views (bmprof export --format folded or pprof, bmprof flamegraph)");
		return 2;
	}
	if (o->sort < 0)
		o->sort = FLAT_BY_FUNCTION;
	return -1;
}

static long row_limit(const struct report_opts *o)
{
	if (o->all)
		return -1;
	return o->limit ? (long)o->limit : o->json ? -1 : DEFAULT_LIMIT;
}

/* The report in its format, to standard output or replacing the -o file whole. */
static int write_report(struct report *rp, const struct report_opts *o,
			enum flat_sort sort, long limit)
{
	struct outfile of;
	char err[512];
	int rc;

	if (outfile_open(&of, o->output, err, sizeof err)) {
		bm_err("report: %s", err);
		return 1;
	}
	if (o->children || o->graph >= 0)
		rc = report_print_stacks(of.f, rp, o->children, o->graph, limit, o->min_percent);
	else if (o->format == FMT_HTML)
		rc = report_print_html(of.f, rp, HTML_TOP_FUNCTIONS);
	else if (o->json)
		rc = report_print_json(of.f, rp, sort, limit, o->min_percent);
	else
		rc = report_print_text(of.f, rp, sort, limit, o->min_percent);
	if (rc) {
		bm_err("report: writing the report failed");
		outfile_abort(&of);
		return 1;
	}
	if (outfile_commit(&of, err, sizeof err)) {
		bm_err("report: %s", err);
		return 1;
	}
	return 0;
}

static int report(int argc, char **argv)
{
	struct report_opts o = { .input = PROFILE_DEFAULT_PATH, .sort = -1, .graph = -1 };
	struct profile prof;
	struct report rp = { .p = &prof, .fwo = &o.fw };
	char *fw_syms[argc > 0 ? argc : 1];
	enum flat_sort sort;
	long limit;
	int rc;

	o.fw.syms = fw_syms;
	rc = parse_opts(argc, argv, &o);
	opt_args_free(&o.args);
	if (rc >= 0)
		return rc;
	sort = (enum flat_sort)o.sort;
	limit = row_limit(&o);
	rp.input = o.input;
	profile_init(&prof);
	rc = profile_load(o.input, &prof, rp.load_warning, sizeof rp.load_warning);
	if (rc < 0) {
		bm_err("%s", rp.load_warning);
		profile_free(&prof);
		return 1;
	}
	if (rc == 0)
		rp.load_warning[0] = 0;
	rc = 1;
	if (o.phase && report_keep_phase(&rp, &prof, o.phase))
		goto out;
	if (report_build(&rp, o.elf, o.event, &sort))
		goto out;
	rc = write_report(&rp, &o, sort, limit);
out:
	report_free(&rp);
	profile_free(&prof);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	int rc = report(argc, argv);

	elf_find_clear_dirs();
	return rc;
}
