/* The options bmprof cpi and bmprof stalls share, and opening their profile and ELF. */
#ifndef BMPROF_CPI_CLI_H
#define BMPROF_CPI_CLI_H

#include "cpi/cpi_run.h"
#include "profile.h"
#include "report/resolve.h"

struct cpi_cli {
	const char *input, *elf, *event, *symbol;
	const struct uarch *uarch;
	double period;
	long limit;                /* stalls -n */
	int json;
};

/* Parse argv for command cmd (with a SYMBOL when want_symbol, else with -n N). -1 when
 * parsed, else the exit status (usage error 2 with one line, or 0 after --help). */
int cpi_cli_parse(int argc, char **argv, const char *cmd, const char *usage_text,
		  struct cpi_cli *c, int want_symbol);
/* Load the profile, find and check the ELF, fill o. 0, or -1 with the reason printed
 * (p and r are then still to be freed). */
int cpi_cli_open(struct cpi_cli *c, struct profile *p, struct resolved *r, struct cpi_opts *o);

#endif
