/* SPDX-License-Identifier: BSD-2-Clause */
/* The options bmprof cpi and bmprof stalls share, and opening their profile and ELF
 * (cpi_cli.h). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpi/cpi_cli.h"
#include "profile/profile_io.h"
#include "report/report.h"
#include "report/resolve.h"
#include "util/util.h"

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
