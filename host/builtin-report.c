/* bmprof report: the flat profile of a recorded run, as text or JSON. docs/bmprof-report.md
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
#include "events.h"
#include "report/firmware.h"
#include "report/fw_opts.h"
#include "symbol/symfs_opt.h"
#include "flat.h"
#include "util/json.h"
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

static const char description[] =
	"Print the flat profile of a recorded run: where the samples fell, hottest first.";

static const char tail[] =
	"Samples outside the image's loaded range are firmware: grouped by 4 KiB page\n"
	"([firmware 0x7ea1000-0x7ea1fff]) unless a firmware module's ELF names them.\n";

/* in enum flat_sort's order */
static const char *const sorts[] = { "function|func|sym", "line|srcline", "address|addr",
				     "cpu", NULL };
static const char *const formats[] = { "text", "json", NULL };

struct report_opts {
	const char *input, *elf, *event;
	struct report_fw_opts fw;
	int sort;                /* enum flat_sort */
	int json, all;
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
		OPT_CHOICE('F', "format", &o->json, "FMT", "text (default) or json "
			   "(docs/report-json.md)", formats),
		OPT_STRING('e', "event", &o->event, "NAME", "report this event, by name or id "
			   "(default: the first event with samples)"),
		OPT_DOUBLE_RANGE(0, "min-percent", &o->min_percent, "P", "leave out rows below P "
				 "percent", 0, 100),
		OPT_ULONG('n', "limit", &o->limit, "N", "print at most N rows (default: 20 for "
			  "text, all for JSON); with --sort cpu, N per CPU", 1, LONG_MAX),
		OPT_BOOL('a', "all", &o->all, "print every row"),
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
	return -1;
}

static long row_limit(const struct report_opts *o)
{
	if (o->all)
		return -1;
	return o->limit ? (long)o->limit : o->json ? -1 : DEFAULT_LIMIT;
}

static int report(int argc, char **argv)
{
	struct report_opts o = { .input = PROFILE_DEFAULT_PATH, .sort = FLAT_BY_FUNCTION };
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
	if (report_build(&rp, o.elf, o.event, &sort))
		goto out;
	if (o.json)
		rc = report_print_json(stdout, &rp, sort, limit, o.min_percent) ? 1 : 0;
	else
		rc = report_print_text(stdout, &rp, sort, limit, o.min_percent) ? 1 : 0;
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
