/* bmprof report: the flat profile of a recorded run, as text or JSON. docs/bmprof-report.md
 * is its manual, docs/report-json.md the JSON schema. */
#include <errno.h>
#include <getopt.h>
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

static const char usage[] =
	"usage: bmprof report [-i FILE] [--elf ELF] [--sort function|line|address|cpu]\n"
	"                     [--format text|json|html] [-o FILE] [--event NAME] [--min-percent P]\n"
	"                     [--limit N | --all] [--firmware-sym FILE[@ADDR]]...\n"
	"                     [--firmware-log LOG [--firmware-debug DIR]]\n"
	"\n"
	"Print the flat profile of a recorded run: where the samples fell, hottest first.\n"
	"\n"
	"  -i, --input FILE     profile file (default " PROFILE_DEFAULT_PATH ")\n"
	"      --elf ELF        the image's ELF (default: the one the profile names, or a\n"
	"                       file of that name beside the profile); its build-id must match\n"
	"  -s, --sort KEY       function (default): one row per function, with its hottest\n"
	"                       source line; line: one row per source line; address: one row\n"
	"                       per sampled address; cpu: one row per CPU and function,\n"
	"                       grouped by CPU\n"
	"  -F, --format FMT     text (default), json (docs/report-json.md) or html (one\n"
	"                       self-contained page: the header, the sortable table, the\n"
	"                       flame graph, the per-CPU split, the hottest functions\n"
	"                       annotated)\n"
	"  -o, --output FILE    write to FILE (replaced whole) instead of standard output\n"
	"  -e, --event NAME     report this event, by name or id (default: the first event\n"
	"                       with samples)\n"
	"      --min-percent P  leave out rows below P percent\n"
	"  -n, --limit N        print at most N rows (default: 20 for text, all for JSON);\n"
	"                       with --sort cpu, N per CPU\n"
	"  -a, --all            print every row\n"
	"      --firmware-sym FILE[@ADDR]\n"
	"                       symbolize samples outside the image (firmware) against this\n"
	"                       ELF, loaded at ADDR (default: the log's address for a module\n"
	"                       of its name, else its link addresses); repeatable\n"
	"      --firmware-log LOG  an EDK2 DEBUG build's console log: the \"Loading driver at\n"
	"                       0x...\" lines give each module's load address\n"
	"      --firmware-debug DIR  the modules' debug ELFs (NAME.debug or NAME.dll) for the\n"
	"                       modules the log names\n"
	PROFILE_BOUND_USAGE
	"  -h, --help           this text\n"
	"\n"
	"Samples outside the image's loaded range are firmware: grouped by 4 KiB page\n"
	"([firmware 0x7ea1000-0x7ea1fff]) unless a firmware module's ELF names them.\n";

struct report_opts {
	const char *input, *elf, *event, *output;
	struct report_fw_opts fw;
	enum flat_sort sort;
	int json, html, sort_given;
	double min_percent;
	long limit;              /* -1: every row */
};

static int parse_sort(const char *s, enum flat_sort *out)
{
	if (!strcmp(s, "function") || !strcmp(s, "func") || !strcmp(s, "sym"))
		*out = FLAT_BY_FUNCTION;
	else if (!strcmp(s, "line") || !strcmp(s, "srcline"))
		*out = FLAT_BY_LINE;
	else if (!strcmp(s, "address") || !strcmp(s, "addr"))
		*out = FLAT_BY_ADDRESS;
	else if (!strcmp(s, "cpu"))
		*out = FLAT_BY_CPU;
	else
		return -1;
	return 0;
}

static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'E' },
		{ "sort", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "min-percent", required_argument, NULL, 'm' },
		{ "limit", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "firmware-sym", required_argument, NULL, 'S' },
		{ "firmware-log", required_argument, NULL, 'L' },
		{ "firmware-debug", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, limit_given = 0;
	char *end;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":i:s:F:o:e:n:ah", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i': o->input = optarg; break;
		case 'E': o->elf = optarg; break;
		case 'e': o->event = optarg; break;
		case 'o': o->output = optarg; break;
		case 's':
			o->sort_given = 1;
			if (parse_sort(optarg, &o->sort)) {
				bm_err("report: --sort takes function, line, address or cpu, not '%s'",
				       optarg);
				return 2;
			}
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "html")) {
				bm_err("report: --format takes text, json or html, not '%s'", optarg);
				return 2;
			}
			o->json = !strcmp(optarg, "json");
			o->html = !strcmp(optarg, "html");
			break;
		case 'm':
			errno = 0;
			o->min_percent = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->min_percent >= 0 && o->min_percent <= 100)) {
				bm_err("report: --min-percent takes a number from 0 to 100, not '%s'", optarg);
				return 2;
			}
			break;
		case 'n':
			errno = 0;
			o->limit = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->limit < 1) {
				bm_err("report: --limit takes a positive number, not '%s'", optarg);
				return 2;
			}
			limit_given = 1;
			break;
		case 'a': o->limit = -1; limit_given = 1; break;
		case 'S': o->fw.syms[o->fw.nsyms++] = optarg; break;
		case 'L': o->fw.log = optarg; break;
		case 'D': o->fw.debug = optarg; break;
		case 'X':
			if (profile_bound_option("report", optarg))
				return 2;
			break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("report: %s needs an argument (see bmprof report --help)", argv[optind - 1]);
			return 2;
		default:
			bm_err("report: unknown option %s (see bmprof report --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		bm_err("report: unexpected argument '%s' (the profile is named with -i)", argv[optind]);
		return 2;
	}
	if (o->html && o->sort_given && o->sort != FLAT_BY_FUNCTION) {
		bm_err("report: --format html shows functions (with a per-CPU split): leave out --sort");
		return 2;
	}
	if (!limit_given)
		o->limit = o->json ? -1 : DEFAULT_LIMIT;
	return -1;
}

/* The report in its format, to standard output or replacing the -o file whole. */
static int write_report(const struct report *rp, const struct report_opts *o)
{
	struct outfile of;
	char err[512];
	int rc;

	if (outfile_open(&of, o->output, err, sizeof err)) {
		bm_err("report: %s", err);
		return 1;
	}
	if (o->html)
		rc = report_print_html(of.f, rp, HTML_TOP_FUNCTIONS);
	else if (o->json)
		rc = report_print_json(of.f, rp, o->sort, o->limit, o->min_percent);
	else
		rc = report_print_text(of.f, rp, o->sort, o->limit, o->min_percent);
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

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = PROFILE_DEFAULT_PATH, .sort = FLAT_BY_FUNCTION };
	struct profile prof;
	struct report rp = { .p = &prof, .fwo = &o.fw };
	char *fw_syms[argc > 0 ? argc : 1];
	int rc;

	o.fw.syms = fw_syms;
	rc = parse_opts(argc, argv, &o);
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
	if (rc == 0)
		rp.load_warning[0] = 0;
	rc = 1;
	if (report_build(&rp, o.elf, o.event, &o.sort))
		goto out;
	rc = write_report(&rp, &o);
out:
	report_free(&rp);
	profile_free(&prof);
	return rc;
}
