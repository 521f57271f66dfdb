/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof annotate: one function's disassembly with the samples of each instruction,
 * interleaved with the source lines they came from, in the manner of perf annotate and
 * DCPI's dcpilist. docs/bmprof-annotate.md is its manual. */
#include <errno.h>
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
#include "report/fw_opts.h"
#include "symbol/symfs_opt.h"
#include "profile/profile_io.h"
#include "report/resolve.h"
#include "util/srcpath.h"
#include "util/term.h"
#include "util/util.h"

#define EXIT_USAGE 2

static const char description[] =
	"Show the disassembly of function SYMBOL (or of the function containing address 0xADDR) "
	"with the samples of each instruction and their share of the function, interleaved "
	"with the source lines they came from. '>' marks the hottest instructions and lines. "
	"With a firmware module's ELF (as for bmprof report), SYMBOL may be MODULE!FUNCTION "
	"(as bmprof report names it).";

/* -1 when parsed, else the exit status. */
static int parse_opts(int argc, char **argv, const char **input, const char **elf,
		      const char **event, const char **name, struct report_fw_opts *fo,
		      struct term_opts *t)
{
	const struct opt opts[] = {
		OPT_STRING('i', "input", input, "FILE", "profile file (default "
			   PROFILE_DEFAULT_PATH ")"),
		OPT_STRING(0, "elf", elf, "ELF", "the image's ELF (default: the one the profile "
			   "names)"),
		OPT_STRING('e', "event", event, "NAME", "annotate this event (default: as bmprof "
			   "report, the first event with samples)"),
		TERM_OPTS_TABLE(t),
		SRCPATH_OPTS,
		SYMFS_OPT,
		FW_OPTS_TABLE(fo),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "annotate", .args = "SYMBOL", .opts = opts,
				     .description = description };
	struct opt_args a;
	int rc = opt_parse(&cmd, argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.n < 1) {
		bm_err("annotate: which function? (bmprof annotate SYMBOL; bmprof report lists "
		       "the hot ones)");
		rc = EXIT_USAGE;
	} else if (a.n > 1 || a.dash_given) {
		bm_err("annotate: one SYMBOL at a time ('%s' is extra)", a.n > 1 ? a.v[1] : "--");
		rc = EXIT_USAGE;
	}
	*name = a.n ? a.v[0] : NULL;
	opt_args_free(&a);
	return rc;
}

static int annotate(const struct profile *p, const char *input, const char *elf,
		    const char *event, const char *name, const struct report_fw_opts *fo,
		    const struct term_opts *t, struct resolved *r, struct firmware *fw)
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
	int color = term_color(t, 0);

	if (term_pager_start(t, 0))
		bm_err("annotate: warning: cannot start the pager: %s", strerror(errno));
	return annotate_print(stdout, p, r, fw, ev, name, color) ? 1 : 0;
}

static int annotate_cmd(int argc, char **argv)
{
	const char *input = PROFILE_DEFAULT_PATH, *elf = NULL, *event = NULL, *name = NULL;
	struct profile prof;
	struct resolved r;
	struct firmware fw;
	char err[512];
	char *syms[argc > 0 ? argc : 1];
	struct report_fw_opts fo = { .syms = syms };
	struct term_opts t = { 0 };
	int rc = parse_opts(argc, argv, &input, &elf, &event, &name, &fo, &t);

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
	rc = annotate(&prof, input, elf, event, name, &fo, &t, &r, &fw);
	resolve_close(&r);
	firmware_free(&fw);
	profile_free(&prof);
	return rc;
}

int cmd_annotate(int argc, char **argv)
{
	int rc = annotate_cmd(argc, argv);

	term_pager_end();
	elf_find_clear_dirs();
	srcpath_clear();
	return rc;
}
