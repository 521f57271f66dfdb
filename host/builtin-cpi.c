/* bmprof cpi: DCPI's dcpicalc for one function of a recorded profile: per basic block its
 * estimated executions with a confidence, best-case and actual CPI; per instruction its
 * cycles per execution, static stalls and the possible culprits of its dynamic stalls;
 * and the summary of where the function's cycles went. docs/bmprof-cpi.md is its manual. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cpi_cli.h"
#include "cpi_print.h"
#include "cpi_run.h"
#include "json.h"
#include "profile_io.h"
#include "resolve.h"
#include "util.h"

static const char usage[] =
	"usage: bmprof cpi [-i FILE] [--elf ELF] [--event NAME] [--uarch NAME]\n"
	"                  [--period CYCLES] [--json] SYMBOL\n"
	"\n"
	"Estimate how often each basic block of function SYMBOL (or of the function\n"
	"containing link address 0xADDR) ran and where its cycles went, from the samples\n"
	"alone, as DCPI's dcpicalc did: executions with a confidence per block, cycles per\n"
	"execution and static and dynamic stalls per instruction with their possible\n"
	"culprits, and the function's summary.\n"
	"\n"
	"  -i, --input FILE    profile file (default " PROFILE_DEFAULT_PATH ")\n"
	"      --elf ELF       the image's ELF (default: the one the profile names)\n"
	"  -e, --event NAME    the cycles (or timer) event (default: a cycles event with\n"
	"                      samples, else the timer)\n"
	"      --uarch NAME    pipeline model (default: the CPU HELLO names; tcg for a\n"
	"                      profile recorded under QEMU TCG)\n"
	"      --period CYCLES cycles per sample (default: from the profile)\n"
	"      --json          the whole analysis as JSON\n"
	"  -h, --help          this text\n";

int cpi_cli_parse(int argc, char **argv, const char *cmd, const char *usage_text,
		  struct cpi_cli *c, int want_symbol)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'E' },
		{ "event", required_argument, NULL, 'e' },
		{ "uarch", required_argument, NULL, 'U' },
		{ "period", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int ch;

	c->input = PROFILE_DEFAULT_PATH;
	c->limit = 20;
	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, want_symbol ? ":i:e:h" : ":i:e:n:h", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'i': c->input = optarg; break;
		case 'E': c->elf = optarg; break;
		case 'e': c->event = optarg; break;
		case 'J': c->json = 1; break;
		case 'U':
			c->uarch = uarch_find(optarg);
			if (!c->uarch) {
				char names[512];
				size_t len = 0;

				names[0] = 0;
				for (const struct uarch *const *m = uarch_models; *m && len < sizeof names;
				     m++)
					len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
								len ? ", " : "", (*m)->name);
				bm_err("%s: unknown pipeline model '%s' (known: %s)", cmd, optarg, names);
				return EXIT_USAGE;
			}
			break;
		case 'P':
			errno = 0;
			c->period = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(c->period > 0) || !isfinite(c->period)) {
				bm_err("%s: --period takes a positive number of cycles per sample, not "
				       "'%s'", cmd, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			errno = 0;
			c->limit = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || c->limit <= 0) {
				bm_err("%s: -n takes a positive number of instructions, not '%s'", cmd,
				       optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': fputs(usage_text, stdout); return 0;
		case ':':
			bm_err("%s: %s needs an argument (see bmprof %s --help)", cmd,
			       argv[optind - 1], cmd);
			return EXIT_USAGE;
		default:
			bm_err("%s: unknown option %s (see bmprof %s --help)", cmd, argv[optind - 1],
			       cmd);
			return EXIT_USAGE;
		}
	}
	if (want_symbol && optind >= argc) {
		bm_err("%s: which function? (bmprof %s SYMBOL; bmprof report lists the hot ones)",
		       cmd, cmd);
		return EXIT_USAGE;
	}
	if (optind + want_symbol < argc) {
		bm_err("%s: unexpected argument '%s' (see bmprof %s --help)", cmd,
		       argv[optind + want_symbol], cmd);
		return EXIT_USAGE;
	}
	c->symbol = want_symbol ? argv[optind] : NULL;
	return -1;
}

int cpi_cli_open(struct cpi_cli *c, struct profile *p, struct resolved *r, struct cpi_opts *o)
{
	char err[1024];
	int rc, ev;

	profile_init(p);
	memset(r, 0, sizeof *r);
	rc = profile_load(c->input, p, err, sizeof err);
	if (rc < 0) {
		bm_err("%s", err);
		return -1;
	}
	if (rc > 0)
		bm_err("warning: %s", err);
	if (resolve_open(r, p, c->input, c->elf, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	o->uarch = c->uarch;
	o->period = c->period;
	o->event = -1;
	if (c->event) {
		if (report_event(p, c->event, &ev, err, sizeof err)) {
			bm_err("%s", err);
			return -1;
		}
		o->event = ev == FLAT_ALL_EVENTS ? cpi_default_event(p) : ev;
	}
	return 0;
}

int cmd_cpi(int argc, char **argv)
{
	struct cpi_cli c = { 0 };
	struct profile prof;
	struct resolved r;
	struct cpi_opts o;
	struct cpi_func cf;
	char err[1024];
	int rc = cpi_cli_parse(argc, argv, "cpi", usage, &c, 1);

	if (rc >= 0)
		return rc;
	memset(&cf, 0, sizeof cf);
	rc = 1;
	if (cpi_cli_open(&c, &prof, &r, &o))
		goto out;
	if (insn_func_load(r.elf, c.symbol, &cf.fn, err, sizeof err) ||
	    cpi_func_analyze(&prof, &o, &cf, err, sizeof err)) {
		bm_err("%s", err);
		goto out;
	}
	if (c.json) {
		struct json j;

		json_init(&j, stdout, 1);
		cpi_json_func(&j, &prof, &cf, r.elf);
		if (json_finish(&j))
			goto out;
		putchar('\n');
	} else {
		cpi_print_func(stdout, &prof, &cf, r.elf);
	}
	rc = fflush(stdout) || ferror(stdout) ? 1 : 0;
out:
	cpi_func_free(&cf);
	resolve_close(&r);
	profile_free(&prof);
	return rc;
}
