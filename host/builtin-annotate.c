/* bmprof annotate: one function's disassembly with the samples of each instruction,
 * interleaved with the source lines they came from, in the manner of perf annotate and
 * DCPI's dcpilist. docs/bmprof-annotate.md is its manual. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "builtin.h"
#include "report/annotate.h"
#include "report/report.h"
#include "report/firmware.h"
#include "profile/profile_io.h"
#include "report/resolve.h"
#include "util/util.h"

#define EXIT_USAGE 2

static const char usage[] =
	"usage: bmprof annotate [-i FILE] [--elf ELF] [--event NAME]\n"
	"                       [--firmware-sym FILE[@ADDR]]... [--firmware-log LOG\n"
	"                       [--firmware-debug DIR]] SYMBOL\n"
	"\n"
	"Show the disassembly of function SYMBOL (or of the function containing address\n"
	"0xADDR) with the samples of each instruction and their share of the function,\n"
	"interleaved with the source lines they came from. '>' marks the hottest\n"
	"instructions and lines.\n"
	"\n"
	"  -i, --input FILE   profile file (default " PROFILE_DEFAULT_PATH ")\n"
	"      --elf ELF      the image's ELF (default: the one the profile names)\n"
	"  -e, --event NAME   annotate this event (default: as bmprof report, the first\n"
	"                     event with samples)\n"
	"      --firmware-sym, --firmware-log, --firmware-debug\n"
	"                     a firmware module's ELF, as for bmprof report: then SYMBOL\n"
	"                     may be MODULE!FUNCTION (as bmprof report names it)\n"
	"  -h, --help         this text\n";

/* --firmware-* options. */
struct fw_opts {
	const char *log, *debug;
	char **syms;
	size_t nsyms;
};

/* -1 when parsed, else the exit status. */
static int parse_opts(int argc, char **argv, const char **input, const char **elf,
		      const char **event, const char **name, struct fw_opts *fo)
{
	static const struct option longopts[] = {
		{ "firmware-sym", required_argument, NULL, 'S' },
		{ "firmware-log", required_argument, NULL, 'L' },
		{ "firmware-debug", required_argument, NULL, 'D' },
		{ "input", required_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'E' },
		{ "event", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":i:e:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i': *input = optarg; break;
		case 'E': *elf = optarg; break;
		case 'e': *event = optarg; break;
		case 'S': fo->syms[fo->nsyms++] = optarg; break;
		case 'L': fo->log = optarg; break;
		case 'D': fo->debug = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("annotate: %s needs an argument (see bmprof annotate --help)",
			       argv[optind - 1]);
			return EXIT_USAGE;
		default:
			bm_err("annotate: unknown option %s (see bmprof annotate --help)",
			       argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		bm_err("annotate: which function? (bmprof annotate SYMBOL; bmprof report lists "
		       "the hot ones)");
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		bm_err("annotate: one SYMBOL at a time ('%s' is extra)", argv[optind + 1]);
		return EXIT_USAGE;
	}
	*name = argv[optind];
	return -1;
}

static int annotate(const struct profile *p, const char *input, const char *elf,
		    const char *event, const char *name, const struct fw_opts *fo,
		    struct resolved *r, struct firmware *fw)
{
	char err[1024];
	int ev;

	if (report_event(p, event, &ev, err, sizeof err) ||
	    resolve_open(r, p, input, elf, err, sizeof err) ||
	    firmware_load_for(fw, p, fo->log, fo->debug, fo->syms, fo->nsyms, err, sizeof err)) {
		bm_err("%s", err);
		return 1;
	}
	r->fw = fw;
	if (!r->sym) {
		bm_err("%s", r->notes[0]);
		return 1;
	}
	if (resolve_pcs(r, p)) {
		bm_err("out of memory");
		return 1;
	}
	return annotate_print(stdout, p, r, fw, ev, name,
			      isatty(STDOUT_FILENO) && !getenv("NO_COLOR")) ? 1 : 0;
}

int cmd_annotate(int argc, char **argv)
{
	const char *input = PROFILE_DEFAULT_PATH, *elf = NULL, *event = NULL, *name = NULL;
	struct profile prof;
	struct resolved r;
	struct firmware fw;
	char err[512];
	char *syms[argc > 0 ? argc : 1];
	struct fw_opts fo = { .syms = syms };
	int rc = parse_opts(argc, argv, &input, &elf, &event, &name, &fo);

	if (rc >= 0)
		return rc;
	profile_init(&prof);
	rc = profile_load(input, &prof, err, sizeof err);
	if (rc < 0) {
		bm_err("%s", err);
		profile_free(&prof);
		return 1;
	}
	if (rc > 0)
		bm_err("warning: %s", err);
	memset(&r, 0, sizeof r);
	memset(&fw, 0, sizeof fw);
	rc = annotate(&prof, input, elf, event, name, &fo, &r, &fw);
	resolve_close(&r);
	firmware_free(&fw);
	profile_free(&prof);
	return rc;
}
