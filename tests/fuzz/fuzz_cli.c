/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the verbs that read a profile, run in-process as the command line
 * runs them: report (by function, line, address and CPU, text, JSON and HTML; the
 * data-space views by type and member, object, a struct's layout), annotate,
 * export (pprof, folded, JSON), flamegraph (all CPUs, CPU 1), cpi (text and JSON), stalls,
 * stats, diff and topdown -i, each
 * with fixed arguments naming a temporary file that holds the input, and the fixed ELF
 * (tests/fuzz/data/image-x86_64.elf, also beside the file as image.elf, the name the seeds'
 * profiles give).
 *
 * Input: byte 0 holds flags: bit 0 fixes the frames' CRCs (fixcrc.h); bit 1 leaves --elf
 * out (the ELF the profile names is looked for). The profile file follows, and after LOG_SEP
 * (when there is one) a firmware console log: then report and annotate also run with
 * --firmware-log on it and --firmware-debug on a directory holding the image as Fuzz.debug
 * (the module a seed's log loads, its samples outside the image). Checked for any
 * input, per verb: it returns one of its exit statuses; it fails only with a message; every
 * line it writes to stderr is one bmprof message (control bytes escaped); its text output
 * is plain text and its JSON output parses; an output file is written whole or not at all
 * (no temporary left beside it). Leaks and time are libFuzzer's (-detect_leaks, -timeout).
 * Global state between runs: the verbs parse options into their own state (no getopt);
 * stdout and stderr are swapped for memory streams around each call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_io.h"
#include "builtin.h"
#include "util/util.h"
#include "profile/db.h"
#include "fixcrc.h"

#define LOG_SEP "\n=log=\n"

enum out { TEXT, JSON, FILE_JSON, FILE_ANY };

struct verb {
	int (*fn)(int, char **);
	int max_rc;
	enum out out;
	const char *args[12];     /* after the verb's name; "@" is the profile, "%" the output */
};

static const struct verb verbs[] = {
	{ cmd_report, 2, TEXT, { "-i", "@" } },
	{ cmd_report, 2, TEXT, { "-i", "@", "--sort", "line", "--all" } },
	{ cmd_report, 2, TEXT, { "-i", "@", "--sort", "cpu" } },
	{ cmd_report, 2, JSON, { "-i", "@", "--sort", "address", "--format", "json" } },
	{ cmd_report, 2, TEXT, { "-i", "@", "--sort", "type,member" } },
	{ cmd_report, 2, JSON, { "-i", "@", "--sort", "object", "--format", "json" } },
	{ cmd_report, 2, TEXT, { "-i", "@", "--layout", "struct node" } },
	{ cmd_annotate, 2, TEXT, { "-i", "@", "jt_loop" } },
	{ cmd_annotate, 2, TEXT, { "-i", "@", "compute" } },
	{ cmd_export, 2, FILE_ANY, { "-i", "@", "--format", "pprof", "-o", "%" } },
	{ cmd_export, 2, TEXT, { "-i", "@", "--format", "folded" } },
	{ cmd_export, 2, FILE_JSON, { "-i", "@", "--format", "json", "-o", "%" } },
	{ cmd_report, 2, FILE_ANY, { "-i", "@", "--format", "html", "-o", "%" } },
	{ cmd_flamegraph, 2, FILE_ANY, { "-i", "@", "-o", "%" } },
	{ cmd_flamegraph, 2, TEXT, { "-i", "@", "--cpu", "1", "-o", "-" } },
	{ cmd_cpi, 2, TEXT, { "-i", "@", "jt_loop" } },
	{ cmd_cpi, 2, JSON, { "-i", "@", "--json", "jt_switch" } },
	{ cmd_stalls, 2, TEXT, { "-i", "@", "-n", "5" } },
	{ cmd_stalls, 2, JSON, { "-i", "@", "--json", "--uarch", "skylake" } },
	{ cmd_stats, 2, TEXT, { "--min-count", "1", "@", "@", "@" } },
	{ cmd_diff, 3, TEXT, { "--min-count", "1", "--fail-above", "5", "@", "@" } },
	{ cmd_topdown, 125, TEXT, { "-i", "@" } },
};

/* With a firmware log ("&" is the log, "^" the debug directory). */
static const struct verb log_verbs[] = {
	{ cmd_report, 2, TEXT, { "-i", "@", "--firmware-log", "&", "--firmware-debug", "^" } },
	{ cmd_report, 2, JSON, { "-i", "@", "--firmware-log", "&", "--firmware-debug", "^",
				 "--format", "json", "--sort", "line" } },
	{ cmd_annotate, 2, TEXT, { "-i", "@", "--firmware-log", "&", "--firmware-debug", "^",
				   "Fuzz!jt_loop" } },
};

/* The verbs that take --elf. */
static int takes_elf(const struct verb *v)
{
	return v->fn != cmd_stats && v->fn != cmd_diff && v->fn != cmd_topdown;
}

static const char *verb_name(const struct verb *v)
{
	return v->fn == cmd_report ? "report" : v->fn == cmd_annotate ? "annotate" :
	       v->fn == cmd_export ? "export" : v->fn == cmd_cpi ? "cpi" :
	       v->fn == cmd_stalls ? "stalls" : v->fn == cmd_stats ? "stats" :
	       v->fn == cmd_diff ? "diff" : v->fn == cmd_flamegraph ? "flamegraph" : "topdown";
}

static char profile[512], elf[512], out[600], out_tmp_dir[512], fwlog[512], fwdir[512];

static void check_no_temporaries(void)
{
	DIR *d = opendir(out_tmp_dir);
	struct dirent *e;

	CHECK(d);
	while ((e = readdir(d)))
		CHECK(e->d_name[0] == '.' || !strcmp(e->d_name, "out"));
	closedir(d);
}

static void run(const struct verb *v, int with_elf)
{
	char *argv[20], buf[20][600];
	int argc = 0, rc;
	struct fuzz_capture c;

	snprintf(buf[argc], sizeof buf[argc], "%s", verb_name(v));
	argv[argc] = buf[argc];
	argc++;
	if (with_elf && takes_elf(v)) {
		snprintf(buf[argc], sizeof buf[argc], "--elf=%s", elf);
		argv[argc] = buf[argc];
		argc++;
	}
	for (const char *const *a = v->args; *a; a++) {
		const char *s = !strcmp(*a, "@") ? profile : !strcmp(*a, "%") ? out :
				!strcmp(*a, "&") ? fwlog : !strcmp(*a, "^") ? fwdir : *a;

		snprintf(buf[argc], sizeof buf[argc], "%s", s);
		argv[argc] = buf[argc];
		argc++;
	}
	argv[argc] = NULL;
	unlink(out);
	fuzz_capture_begin(&c);
	rc = v->fn(argc, argv);
	fuzz_capture_end(&c);
	if (rc < 0 || rc > v->max_rc || (v->fn == cmd_topdown && rc && rc != EXIT_FAILED)) {
		fprintf(stderr, "bmprof %s: exit status %d\n", argv[0], rc);
		CHECK(!"an exit status of the verb");
	}
	fuzz_check_messages(c.ebuf, c.elen);
	CHECK(rc == 0 || c.elen);
	if (!rc) {
		size_t n;
		char *f;

		switch (v->out) {
		case TEXT:
			fuzz_check_text(argv[0], c.obuf, c.olen);
			break;
		case JSON:
			CHECK(fuzz_valid_json(c.obuf, c.olen));
			break;
		case FILE_JSON:
		case FILE_ANY:
			f = fuzz_slurp(out, &n);
			CHECK(f && n);
			CHECK(v->out == FILE_ANY || fuzz_valid_json(f, n));
			free(f);
			break;
		}
	} else if (v->out >= FILE_JSON) {
		CHECK(access(out, F_OK) != 0);
	}
	check_no_temporaries();
	fuzz_capture_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *file, *log;
	size_t n;

	if (!profile[0]) {
		char p[600], q[600];

		setenv("NO_COLOR", "1", 1);
		unsetenv(DB_ENV);
		fuzz_data_copy("image-x86_64.elf", "image.elf", elf, sizeof elf);
		fuzz_path(profile, sizeof profile, "fuzz.data");
		fuzz_path(fwlog, sizeof fwlog, "firmware.log");
		fuzz_path(fwdir, sizeof fwdir, "debug");
		CHECK(mkdir(fwdir, 0700) == 0);
		snprintf(p, sizeof p, "%s/Fuzz.debug", fwdir);
		fuzz_data_copy("image-x86_64.elf", p, q, sizeof q);
		fuzz_path(out_tmp_dir, sizeof out_tmp_dir, "out.d");
		CHECK(mkdir(out_tmp_dir, 0700) == 0);
		snprintf(out, sizeof out, "%s/out", out_tmp_dir);
	}
	if (!size)
		return 0;
	file = malloc(size);
	CHECK(file);
	memcpy(file, data + 1, size - 1);
	n = size - 1;
	log = memmem(file, n, LOG_SEP, strlen(LOG_SEP));
	if (log) {
		n = (size_t)(log - file);
		log += strlen(LOG_SEP);
		fuzz_write(fwlog, log, size - 1 - n - strlen(LOG_SEP));
	}
	if (data[0] & 1)
		fix_crcs(file, n);
	fuzz_write(profile, file, n);
	free(file);
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		run(&verbs[i], !(data[0] & 2));
	for (size_t i = 0; log && i < sizeof log_verbs / sizeof log_verbs[0]; i++)
		run(&log_verbs[i], !(data[0] & 2));
	return 0;
}
