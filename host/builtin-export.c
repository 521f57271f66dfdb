/* bmprof export: a profile in another tool's format: pprof (host/profile/export_pprof.h), folded
 * stacks, or JSON (bmprof report's). docs/bmprof-export.md is its manual. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "report/stacks.h"
#include "report/report.h"
#include "profile/diff_load.h"
#include "profile/export_pprof.h"
#include "util/outfile.h"
#include "profile/profile_bound.h"
#include "profile/profile_io.h"
#include "util/util.h"

static const char usage[] =
	"usage: bmprof export --format pprof|folded|json [-o FILE] [-i PROFILE] [--elf ELF]\n"
	"                     [--event NAME]\n"
	"\n"
	"Write a recorded profile in another tool's format:\n"
	"  pprof   gzipped profile.proto (go tool pprof, speedscope, ...): one location per\n"
	"          sampled address, with its function and file:line\n"
	"  folded  \"root;...;leaf count\" lines (one frame when recorded without -g), the\n"
	"          input of flamegraph.pl and speedscope\n"
	"  json    bmprof report --format json --all (docs/report-json.md)\n"
	"\n"
	"  -f, --format FMT     pprof, folded or json\n"
	"  -o, --output FILE    write to FILE (default: standard output; pprof needs a FILE\n"
	"                       unless standard output is not a terminal)\n"
	"  -i, --input FILE     profile file (default " PROFILE_DEFAULT_PATH ")\n"
	"      --elf ELF        the image's ELF (default: the one the profile names)\n"
	"  -e, --event NAME     the event (default: the first with samples)\n"
	PROFILE_BOUND_USAGE
	"  -h, --help           this text\n";

/* Real stacks when the profile has them, else one frame per function. */
static int export_folded(FILE *f, struct loaded_run *lr)
{
	if (profile_has_stacks(&lr->prof))
		return report_write_folded(f, &lr->prof, &lr->r, lr->event);
	for (size_t i = 0; i < lr->n; i++)
		fprintf(f, "%s %" PRIu64 "\n", lr->keys[i], lr->counts[i]);
	return 0;
}

/* json: bmprof report's JSON, every row; the file whole or not at all. */
static int export_json(const char *input, const char *elf, const char *event, const char *out)
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
	if (report_print_json(of.f, &rp, sort, -1, 0))
		outfile_abort(&of);
	else if (outfile_commit(&of, err, sizeof err))
		bm_err("export: %s", err);
	else
		rc = 0;
out:
	report_free(&rp);
	profile_free(&prof);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'E' },
		{ "event", required_argument, NULL, 'e' },
		{ "max-entries", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *out = NULL, *input = PROFILE_DEFAULT_PATH, *elf = NULL;
	const char *event = NULL;
	struct loaded_run lr;
	char err[1024];
	int ch, rc = 1;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:o:i:e:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f': format = optarg; break;
		case 'o': out = optarg; break;
		case 'i': input = optarg; break;
		case 'E': elf = optarg; break;
		case 'e': event = optarg; break;
		case 'X':
			if (profile_bound_option("export", optarg))
				return 2;
			break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("export: %s needs an argument (see bmprof export --help)", argv[optind - 1]);
			return 2;
		default:
			bm_err("export: unknown option %s (see bmprof export --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		bm_err("export: unexpected argument '%s' (the profile is named with -i)", argv[optind]);
		return 2;
	}
	if (!format || (strcmp(format, "pprof") && strcmp(format, "folded") && strcmp(format, "json"))) {
		bm_err("export: --format takes pprof, folded or json%s%s%s", format ? ", not '" : "",
		       format ? format : "", format ? "'" : "");
		return 2;
	}
	if (!strcmp(format, "json"))
		return export_json(input, elf, event, out);
	if (!strcmp(format, "pprof") && !out && isatty(STDOUT_FILENO)) {
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
	if (!strcmp(format, "folded"))
		rc = export_folded(of.f, &lr);
	else
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
