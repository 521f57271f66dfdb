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
#include "report/data_view.h"
#include "report/report_stacks.h"
#include "report/report_filter.h"
#include "report/sort_keys.h"
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
#include "util/srcpath.h"
#include "util/term.h"
#include "util/util.h"
#include "wire_text.h"


#define DEFAULT_LIMIT 20
#define HTML_TOP_FUNCTIONS 5     /* functions the HTML report annotates */

static const char description[] =
	"Print the flat profile of a recorded run: where the samples fell, hottest first.";

static const char tail[] =
	"Samples outside the image's loaded range are firmware: grouped by 4 KiB page\n"
	"([firmware 0x7ea1000-0x7ea1fff]) unless a firmware module's ELF names them.\n";

enum { FMT_TEXT, FMT_JSON, FMT_HTML };
static const char *const orders[] = { "caller", "callee", NULL };   /* enum stacks_order */
static const char *const formats[] = { "text", "json", "html", NULL };

struct report_opts {
	const char *input, *elf, *event, *output, *phase, *sort_spec;
	const char *layout;      /* --layout STRUCT */
	int data_key;            /* --sort type, type,member, object: enum data_view_key; -1 */
	struct report_fw_opts fw;
	struct report_sort sort;
	struct report_filter_opts filter;
	struct term_opts term;
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
		OPT_STRING('s', "sort", &o->sort_spec, "KEY[,KEY]", "function (default): one "
			   "row per function, with its hottest source line; line: one row per "
			   "source line; address: one row per sampled address; cpu: one row per CPU "
			   "and function, grouped by CPU; module: one row for the image, one per "
			   "firmware module, one per firmware region nothing names. Two keys: the "
			   "rows of the second grouped by the first (cpu,function; module,function, "
			   "module,line, module,address; function,line, function,address); type, "
			   "type,member, object: data-space views of raw samples "
			   "(docs/data-space.md)"),
		OPT_STRING(0, "layout", &o->layout, "STRUCT", "data space: the members of "
			   "STRUCT (\"struct node\") with offsets, sizes, holes, cache lines and "
			   "the raw samples each took"),
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
		OPT_DOUBLE_RANGE(0, "percent-limit", &o->min_percent, "P", "leave out rows below "
				 "P percent (perf's name; --min-percent is the same)", 0, 100),
		OPT_DOUBLE_RANGE(0, "min-percent", &o->min_percent, "P", "leave out rows below P "
				 "percent (as --percent-limit)", 0, 100),
		OPT_STRING(0, "symbols", &o->filter.symbols, "NAME,...", "only the rows of these "
			   "functions (a clone's or demangled name matches, as annotate's); "
			   "percentages stay of all samples"),
		OPT_STRING('C', "cpu", &o->filter.cpus, "N[,M...]", "only the samples of these "
			   "CPUs; totals and percentages are then of those"),
		OPT_STRING(0, "addr-range", &o->filter.range, "LO-HI", "only the samples at "
			   "runtime addresses LO to HI (hex, inclusive); totals and percentages are "
			   "then of those"),
		OPT_ULONG('n', "limit", &o->limit, "N", "print at most N rows (default: 20 for "
			  "text, all for JSON); with --sort cpu, N per CPU", 1, LONG_MAX),
		OPT_BOOL('a', "all", &o->all, "print every row"),
		OPT_BOOL(0, "children", &o->children, "call stacks: each function's share of the "
			 "samples with the functions it called (Children) and alone (Self)"),
		OPT_CHOICE('g', "call-graph", &o->graph, "ORDER", "call stacks as a tree: caller "
			   "(from the outermost function down) or callee (from each leaf up)", orders),
		TERM_OPTS_TABLE(&o->term),
		SRCPATH_OPTS,
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
	o->data_key = !o->sort_spec ? -1 : !strcmp(o->sort_spec, "type") ? DV_BY_TYPE :
		       !strcmp(o->sort_spec, "type,member") ? DV_BY_TYPE_MEMBER :
		       !strcmp(o->sort_spec, "object") ? DV_BY_OBJECT : -1;
	if (o->sort_spec && o->data_key < 0) {
		char err[512];
		if (report_sort_parse(o->sort_spec, &o->sort, err, sizeof err)) {
			bm_err("report: %s", err);
			return 2;
		}
	}
	if ((o->layout || o->data_key >= 0) &&
	    (o->format == FMT_HTML || o->children || o->graph >= 0 || o->phase)) {
		bm_err("report: the data-space views (--sort type, type,member, object; --layout) "
		       "print text or JSON: leave out --format html, --children, -g and --phase");
		return 2;
	}
	if (o->format == FMT_HTML && o->sort_spec && (o->sort.sort != FLAT_BY_FUNCTION ||
						      o->sort.group >= 0)) {
		bm_err("report: --format html shows functions (with a per-CPU split): leave out --sort");
		return 2;
	}
	o->json = o->format == FMT_JSON;
	if ((o->children || o->graph >= 0) && o->format != FMT_TEXT) {
		bm_err("report: --children and -g print text; --format json and html have no call "
		       "stack views (bmprof export --format folded or pprof, bmprof flamegraph)");
		return 2;
	}
	if ((o->children || o->graph >= 0) && (o->filter.symbols || o->sort_spec)) {
		bm_err("report: --symbols and --sort shape the flat table; --children and -g "
		       "print call stacks (--cpu and --addr-range filter both)");
		return 2;
	}
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

	rp->color = o->format == FMT_TEXT && term_color(&o->term, o->output != NULL);
	if (o->format != FMT_HTML && term_pager_start(&o->term, o->output != NULL))
		bm_err("report: warning: cannot start the pager: %s", strerror(errno));
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

/* --sort type, type,member, object and --layout: data_view.h over the raw samples. */
static int data_space_report(const struct report_opts *o, const struct profile *p, long limit)
{
	enum data_view_key key = o->layout ? DV_LAYOUT :
		(enum data_view_key)o->data_key;
	struct resolved r = { 0 };
	struct data_view v;
	struct outfile of;
	char err[512];
	int rc = 1;

	if (!p->nraw) {
		bm_err("report: %s has no raw samples: record with bmprof qemu --data-space for "
		       "data-space views", o->input);
		return 1;
	}
	if (resolve_open(&r, p, o->input, o->elf, err, sizeof err)) {
		bm_err("report: %s", err);
		return 1;
	}
	if (data_view_build(&v, p, r.elf, r.load_bias, key, o->layout, err, sizeof err)) {
		bm_err("report: %s", err);
		goto out;
	}
	if (outfile_open(&of, o->output, err, sizeof err)) {
		bm_err("report: %s", err);
		goto out;
	}
	v.profile = o->input;
	if (o->json ? data_view_print_json(of.f, &v, limit, o->min_percent) :
	    data_view_print_text(of.f, &v, limit, o->min_percent)) {
		bm_err("report: writing the report failed");
		outfile_abort(&of);
		goto out;
	}
	if (outfile_commit(&of, err, sizeof err))
		bm_err("report: %s", err);
	else
		rc = 0;
out:
	data_view_free(&v);
	resolve_close(&r);
	return rc;
}

static int report(int argc, char **argv)
{
	struct report_opts o = { .input = PROFILE_DEFAULT_PATH, .graph = -1,
				 .sort = { FLAT_BY_FUNCTION, -1 } };
	struct profile_filter filter;
	char by[64];
	struct profile prof;
	struct report rp = { .p = &prof, .fwo = &o.fw };
	char *fw_syms[argc > 0 ? argc : 1];
	enum flat_sort sort;
	long limit;
	int rc;

	o.fw.syms = fw_syms;
	rc = parse_opts(argc, argv, &o);
	opt_args_free(&o.args);
	if (rc < 0 && report_filter_parse(&o.filter, &filter))
		rc = 2;
	if (rc >= 0)
		return rc;
	sort = o.sort.sort;
	if (o.sort.group >= 0)
		rp.by = report_sort_title(&o.sort, by, sizeof by);
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
	if (o.layout || o.data_key >= 0) {
		rc = data_space_report(&o, &prof, limit);
		goto out;
	}
	if (o.phase && report_keep_phase(&rp, &prof, o.phase))
		goto out;
	if (report_filter_samples(&rp, &prof, &filter, &o.filter))
		goto out;
	if (report_build(&rp, o.elf, o.event, &sort))
		goto out;
	if (o.filter.symbols && report_filter_symbols(&rp, o.filter.symbols))
		goto out;
	if (sort == o.sort.sort && report_group_rows(&rp, &o.sort))
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

	term_pager_end();
	elf_find_clear_dirs();
	srcpath_clear();
	return rc;
}
