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
#include "report/report_stacks.h"
#include "events.h"
#include "report/firmware.h"
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

static const char usage[] =
	"usage: bmprof report [-i FILE] [--elf ELF] [--sort function|line|address|cpu]\n"
	"                     [--format text|json] [--event NAME] [--min-percent P]\n"
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
	"  -F, --format FMT     text (default) or json (docs/report-json.md)\n"
	"  -e, --event NAME     report this event, by name or id (default: the first event\n"
	"                       with samples)\n"
	"      --min-percent P  leave out rows below P percent\n"
	"      --children       call stacks: each function's share of the samples with the\n"
	"                       functions it called (Children) and alone (Self)\n"
	"  -g, --call-graph ORDER  call stacks as a tree: caller (from the outermost\n"
	"                       function down) or callee (from each leaf up)\n"
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
	const char *input, *elf, *event;
	struct report_fw_opts fw;
	enum flat_sort sort;
	int json;
	double min_percent;
	long limit;              /* -1: every row */
	int children;            /* --children */
	int graph;               /* -g ORDER: enum stacks_order; -1: none */
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
		{ "event", required_argument, NULL, 'e' },
		{ "min-percent", required_argument, NULL, 'm' },
		{ "limit", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "firmware-sym", required_argument, NULL, 'S' },
		{ "firmware-log", required_argument, NULL, 'L' },
		{ "firmware-debug", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'X' },
		{ "children", no_argument, NULL, 'C' },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, limit_given = 0;
	char *end;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":i:s:F:e:n:ahg:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i': o->input = optarg; break;
		case 'E': o->elf = optarg; break;
		case 'e': o->event = optarg; break;
		case 's':
			if (parse_sort(optarg, &o->sort)) {
				bm_err("report: --sort takes function, line, address or cpu, not '%s'",
				       optarg);
				return 2;
			}
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				bm_err("report: --format takes text or json, not '%s'", optarg);
				return 2;
			}
			o->json = !strcmp(optarg, "json");
			break;
		case 'C': o->children = 1; break;
		case 'g':
			if (report_stacks_order(optarg, &o->graph)) {
				bm_err("report: -g takes caller or callee, not '%s'", optarg);
				return 2;
			}
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
	if ((o->children || o->graph >= 0) && o->json) {
		bm_err("report: --children and -g print text; --format json has no call stacks "
		       "(bmprof export --format folded or pprof does)");
		return 2;
	}
	if (!limit_given)
		o->limit = o->json ? -1 : DEFAULT_LIMIT;
	return -1;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = PROFILE_DEFAULT_PATH, .sort = FLAT_BY_FUNCTION,
				 .graph = -1 };
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
	if (o.children || o.graph >= 0)
		rc = report_print_stacks(stdout, &rp, o.children, o.graph, o.limit,
					 o.min_percent) ? 1 : 0;
	else if (o.json)
		rc = report_print_json(stdout, &rp, o.sort, o.limit, o.min_percent) ? 1 : 0;
	else
		rc = report_print_text(stdout, &rp, o.sort, o.limit, o.min_percent) ? 1 : 0;
out:
	report_free(&rp);
	profile_free(&prof);
	return rc;
}
