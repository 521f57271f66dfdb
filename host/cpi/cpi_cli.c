/* SPDX-License-Identifier: BSD-2-Clause */
/* The options bmprof cpi and bmprof stalls share, and opening their profile and ELF
 * (cpi_cli.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpi/cpi_cli.h"
#include "cpi/measured.h"
#include "profile/profile_io.h"
#include "report/report.h"
#include "report/resolve.h"
#include "util/util.h"

int cpi_cli_cb_uarch(const struct opt *o, const char *arg, const struct opt_cmd *cmd)
{
	struct cpi_cli *c = o->value;
	char names[512];
	size_t len = 0;

	if ((c->uarch = uarch_find(arg)))
		return 0;
	names[0] = 0;
	for (const struct uarch *const *m = uarch_models; *m && len < sizeof names; m++)
		len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
					(*m)->name);
	bm_err("%s: unknown pipeline model '%s' (known: %s)", cmd->name, arg, names);
	return -1;
}

int cpi_cli_cb_period(const struct opt *o, const char *arg, const struct opt_cmd *cmd)
{
	struct cpi_cli *c = o->value;
	char *end;

	errno = 0;
	c->period = strtod(arg, &end);
	if (errno || end == arg || *end || !(c->period > 0) || !isfinite(c->period)) {
		bm_err("%s: --period takes a positive number of cycles per sample, not '%s'",
		       cmd->name, arg);
		return -1;
	}
	return 0;
}

int cpi_cli_parse(int argc, char **argv, const struct opt_cmd *cmd, struct cpi_cli *c,
		  int want_symbol)
{
	struct opt_args a;
	int rc;

	c->input = PROFILE_DEFAULT_PATH;
	c->limit = 20;
	if ((rc = opt_parse(cmd, argc, argv, &a)) >= 0)
		return rc;
	rc = -1;
	if (want_symbol && a.n < 1) {
		bm_err("%s: which function? (bmprof %s SYMBOL; bmprof report lists the hot ones)",
		       cmd->name, cmd->name);
		rc = EXIT_USAGE;
	} else if (a.n > want_symbol || a.dash_given) {
		bm_err("%s: unexpected argument '%s' (see bmprof %s --help)", cmd->name,
		       a.n > want_symbol ? a.v[want_symbol] : "--", cmd->name);
		rc = EXIT_USAGE;
	}
	c->symbol = want_symbol && a.n ? a.v[0] : NULL;
	opt_args_free(&a);
	return rc;
}

static struct block_times times;

void cpi_cli_end(void)
{
	elf_find_clear_dirs();
	block_times_free(&times);
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
	o->measured = NULL;
	o->measured_path = c->measured;
	if (c->measured) {
		if (measured_load(c->measured, &times, err, sizeof err)) {
			bm_err("%s", err);
			return -1;
		}
		o->measured = &times;
	}
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
