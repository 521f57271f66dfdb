/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof cpi: DCPI's dcpicalc for one function of a recorded profile: per basic block its
 * estimated executions with a confidence, best-case and actual CPI; per instruction its
 * cycles per execution, static stalls and the possible culprits of its dynamic stalls;
 * and the summary of where the function's cycles went. docs/bmprof-cpi.md is its manual. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "report/report.h"
#include "cpi/cpi_cli.h"
#include "cpi/cpi_print.h"
#include "cpi/cpi_run.h"
#include "util/json.h"
#include "profile/profile_io.h"
#include "report/inlined.h"
#include "report/resolve.h"
#include "util/term.h"
#include "util/util.h"

static const char description[] =
	"Estimate how often each basic block of function SYMBOL (or of the function containing "
	"link address 0xADDR) ran and where its cycles went, from the samples alone, as DCPI's "
	"dcpicalc did: executions with a confidence per block, cycles per execution and static "
	"and dynamic stalls per instruction with their possible culprits, and the function's "
	"summary.";

/* name is not a function of the ELF: say where its code went if the compiler inlined it
 * into sampled functions, else print err. */
static void inlined_or(struct resolved *r, const struct profile *p, const char *name,
		       const char *err)
{
	char callers[512];
	const char *first;

	if (!strncmp(err, "no function '", 13) && r->sym && !resolve_pcs(r, p) &&
	    inlined_into(r, name, callers, sizeof callers, &first))
		bm_err("%s has no code of its own in %s: its code was inlined into %s "
		       "(bmprof cpi %s)", name, r->elf, callers, first);
	else
		bm_err("%s", err);
}

int cmd_cpi(int argc, char **argv)
{
	struct cpi_cli c = { 0 };
	struct term_opts t = { 0 };
	const struct opt opts[] = {
		CPI_CLI_TABLE(&c, "the cycles (or timer) event (default: a cycles event with "
			      "samples, else the timer)", "the whole analysis as JSON"),
		TERM_OPTS_TABLE(&t),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "cpi", .args = "SYMBOL", .opts = opts,
				     .description = description };
	struct profile prof;
	struct resolved r;
	struct cpi_opts o;
	struct cpi_func cf;
	char err[1024];
	int rc = cpi_cli_parse(argc, argv, &cmd, &c, 1);

	if (rc >= 0) {
		cpi_cli_end();
		return rc;
	}
	memset(&cf, 0, sizeof cf);
	rc = 1;
	if (cpi_cli_open(&c, &prof, &r, &o))
		goto out;
	if (insn_func_load(r.elf, c.symbol, &cf.fn, err, sizeof err)) {
		inlined_or(&r, &prof, c.symbol, err);
		goto out;
	}
	if (cpi_func_analyze(&prof, &o, &cf, err, sizeof err)) {
		bm_err("%s", err);
		goto out;
	}
	int color = !c.json && term_color(&t, 0);

	if (term_pager_start(&t, 0))
		bm_err("cpi: warning: cannot start the pager: %s", strerror(errno));
	if (c.json) {
		struct json j;

		json_init(&j, stdout, 1);
		cpi_json_func(&j, &prof, &cf, r.elf);
		if (json_finish(&j))
			goto out;
		putchar('\n');
	} else {
		cpi_print_func(stdout, &prof, &cf, r.elf, color);
	}
	rc = fflush(stdout) || ferror(stdout) ? 1 : 0;
out:
	cpi_func_free(&cf);
	resolve_close(&r);
	profile_free(&prof);
	cpi_cli_end();
	term_pager_end();
	return rc;
}
