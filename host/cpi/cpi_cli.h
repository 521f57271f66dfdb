/* SPDX-License-Identifier: BSD-2-Clause */
/* The options bmprof cpi and bmprof stalls share, and opening their profile and ELF. */
#ifndef BMPROF_CPI_CLI_H
#define BMPROF_CPI_CLI_H

#include "cpi/cpi_run.h"
#include "profile.h"
#include "report/resolve.h"
#include "symbol/symfs_opt.h"
#include "util/options.h"

struct cpi_cli {
	const char *input, *elf, *event, *symbol, *measured;
	const struct uarch *uarch;
	double period;
	unsigned long limit;       /* stalls -n */
	int json;
};

opt_cb cpi_cli_cb_uarch, cpi_cli_cb_period;

/* The shared options as option table entries; c is the struct cpi_cli. */
#define CPI_CLI_TABLE(c, event_help, json_help) \
	OPT_STRING('i', "input", &(c)->input, "FILE", "profile file (default " \
		   PROFILE_DEFAULT_PATH ")"), \
	OPT_STRING(0, "elf", &(c)->elf, "ELF", "the image's ELF (default: the one the profile " \
		   "names)"), \
	OPT_STRING('e', "event", &(c)->event, "NAME", event_help), \
	OPT_CALLBACK(0, "uarch", (c), "NAME", "pipeline model (default: the CPU HELLO names; " \
		     "tcg for a profile recorded under QEMU TCG)", cpi_cli_cb_uarch), \
	OPT_CALLBACK(0, "period", (c), "CYCLES", "cycles per sample (default: from the " \
		     "profile)", cpi_cli_cb_period), \
	OPT_STRING(0, "measured", &(c)->measured, "FILE", "blocks' measured cycles per " \
		   "iteration (bmprof bhive's results) as the best case where a block's bytes " \
		   "match, instead of the model's"), \
	OPT_BOOL(0, "json", &(c)->json, json_help), \
	SYMFS_OPT

/* Parse argv with cmd, whose table holds CPI_CLI_TABLE(c) (a SYMBOL when want_symbol). -1
 * when parsed, else the exit status (usage error 2 with one line, or 0 after --help). */
int cpi_cli_parse(int argc, char **argv, const struct opt_cmd *cmd, struct cpi_cli *c,
		  int want_symbol);
/* Ends what cpi_cli_parse began (the --symfs directories). */
void cpi_cli_end(void);
/* Load the profile, find and check the ELF, fill o. 0, or -1 with the reason printed
 * (p and r are then still to be freed). */
int cpi_cli_open(struct cpi_cli *c, struct profile *p, struct resolved *r, struct cpi_opts *o);

#endif
