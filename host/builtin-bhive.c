/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive: the throughput of basic blocks, measured as BHive does inside bmprof's
 * own bare-metal harness under QEMU. docs/bmprof-bhive.md is its manual (and the format
 * of the CSV it writes). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bhive/bhive_csv.h"
#include "bhive/bhive_note.h"
#include "bhive/bhive_run.h"
#include "builtin.h"
#include "run/run_opts.h"
#include "util/options.h"
#include "util/outfile.h"
#include "util/util.h"

#define DEFAULT_TIMEOUT 600
#define DEFAULT_RETRIES 2
#define MAX_TIMEOUT (24 * 3600)
#define DETAIL_MAX 512

struct bhive_cli {
	const char *output, *qemu;
	int accel, icount, show_timings, unstable_first, arch;
	unsigned long timeout, max_faults, retries;
	struct opt_args args;
};

static const char description[] =
	"Measure the throughput of each basic block in BLOCKS (BHive's dataset format: one "
	"block a line, its bytes in hex, then optionally a comma and a column that is ignored) "
	"in bmprof's bare-metal harness under QEMU (x86-64, or AArch64 with --arch aarch64: "
	"little-endian 4-byte instructions): every page the block touches is mapped to one "
	"physical frame and the block restarted from the same state, then the block unrolled "
	"at two factors is timed in ring 3 (EL0). Writes one CSV row a block: "
	"hex,cycles,status,detail (docs/bmprof-bhive.md). Timings are the CPU's only under "
	"KVM; under TCG they count QEMU's time (instructions, with --icount).";

static const char tail[] =
	"Exit status: 0 when every block was judged (whatever its status); 2 usage or a "
	"malformed line;\n125 bmprof failed (no QEMU, no harness image); 126 the harness stopped "
	"early (the rest are not-run).\n";

static int parse_opts(int argc, char **argv, struct bhive_cli *o)
{
	static const char *const arches[] = { "x86_64|x86-64", "aarch64|arm64", NULL };
	const struct opt opts[] = {
		OPT_CHOICE(0, "arch", &o->arch, "ARCH", "the blocks' architecture: x86_64 "
			   "(default) or aarch64 (the AArch64 harness, in qemu-system-aarch64 -M "
			   "virt)", arches),
		OPT_STRING('o', "output", &o->output, "FILE", "the results CSV (default: "
			   "standard output; a file is replaced whole when done)"),
		RUN_OPT_ACCEL(&o->accel, "auto (default): KVM when it is hardware-assisted, "
			      "else TCG; kvm: also a software KVM that runs ring 3 natively; tcg: "
			      "emulation (timings are QEMU's, not a CPU's)"),
		RUN_OPT_ICOUNT(0, &o->icount),
		RUN_OPT_TIMEOUT(&o->timeout, MAX_TIMEOUT),
		OPT_ULONG(0, "max-faults", &o->max_faults, "N", "page faults mapped per block "
			  "before it is given up as too-many-faults (default 32)", 1, 1000),
		OPT_ULONG(0, "retries", &o->retries, "N", "run the blocks left unstable again, "
			  "each time in a new QEMU run, up to N times (default 2; 0: never)", 0,
			  100),
		RUN_OPT_QEMU(&o->qemu),
		{ .type = OPT_T_BOOL, .long_name = "show-timings", .value = &o->show_timings,
		  .help = "each round's clean timings on stderr", .flags = OPT_HIDDEN },
		{ .type = OPT_T_BOOL, .long_name = "unstable-first", .value = &o->unstable_first,
		  .help = "judge every timed block unstable in the first QEMU run (tests "
			  "--retries)", .flags = OPT_HIDDEN },
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "bhive", .args = "BLOCKS", .opts = opts,
				     .description = description, .tail = tail };
	int rc = opt_parse(&cmd, argc, argv, &o->args);

	if (rc >= 0)
		return rc;
	if (o->args.n != 1) {
		bm_err("bhive: %s (usage: bmprof bhive [OPTIONS] BLOCKS.csv)",
		       o->args.n ? "one blocks file only" : "no blocks file given");
		return EXIT_USAGE;
	}
	return -1;
}

static int write_rows(const struct bhive_cli *o, const struct bhive_blocks *b,
		      const struct bhive_run *r)
{
	struct outfile of;
	char err[PATH_MAX + 256], detail[DETAIL_MAX];

	if (outfile_open(&of, o->output && strcmp(o->output, "-") ? o->output : NULL, err,
			 sizeof err)) {
		bm_err("bhive: %s", err);
		return EXIT_FAILED;
	}
	fprintf(of.f, "%s\n", BHIVE_CSV_HEADER);
	for (size_t i = 0; i < b->n; i++) {
		bhive_detail(r, &r->res[i], detail, sizeof detail);
		bhive_csv_row(of.f, b->v[i].hex, bhive_cycles(r, &r->res[i]),
			      bhive_status_name(r->res[i].status), detail);
	}
	if (outfile_commit(&of, err, sizeof err)) {
		bm_err("bhive: %s", err);
		return EXIT_FAILED;
	}
	return 0;
}

static void summary(const struct bhive_blocks *b, const struct bhive_run *r)
{
	size_t ok = 0;

	for (size_t i = 0; i < b->n; i++)
		ok += r->res[i].status == BHIVE_OK;
	fprintf(stderr, "bmprof: bhive: %zu of %zu blocks measured (%s, %u QEMU run%s)\n", ok,
		b->n, r->accel_used == QEMU_ACCEL_KVM ? "KVM" : "TCG", r->batches,
		r->batches == 1 ? "" : "s");
	if (r->retried)
		fprintf(stderr, "bmprof: bhive: %zu unstable block%s run again: %zu measured then\n",
			r->retried, r->retried == 1 ? "" : "s", r->retried_ok);
	if (r->batches && r->accel_used != QEMU_ACCEL_KVM) {
		struct qemu_facts f;
		char note[256];

		qemu_probe(&f);
		bhive_tcg_note(r->arch, r->icount, f.host_arch, note, sizeof note);
		fprintf(stderr, "bmprof: bhive: %s\n", note);
	}
}

int cmd_bhive(int argc, char **argv)
{
	struct bhive_cli o = { .timeout = DEFAULT_TIMEOUT, .retries = DEFAULT_RETRIES };
	struct bhive_blocks b;
	char err[PATH_MAX + 256], image[PATH_MAX];
	int rc = parse_opts(argc, argv, &o), wrc;

	if (rc >= 0) {
		opt_args_free(&o.args);
		return rc;
	}
	if (bhive_csv_read(o.args.v[0], &b, err, sizeof err)) {
		bm_err("bhive: %s", err);
		opt_args_free(&o.args);
		return EXIT_USAGE;
	}
	opt_args_free(&o.args);
	if (bhive_image_path(o.arch, image, sizeof image, err, sizeof err)) {
		bm_err("bhive: %s", err);
		bhive_blocks_free(&b);
		return EXIT_FAILED;
	}
	struct bhive_run r = { .arch = o.arch, .image = image, .qemu = o.qemu, .accel = o.accel,
			       .icount = o.icount, .timeout = (unsigned)o.timeout,
			       .max_faults = (unsigned)o.max_faults,
			       .retries = (unsigned)o.retries,
			       .progress = isatty(STDERR_FILENO),
			       .show_timings = o.show_timings,
			       .unstable_first = o.unstable_first };
	rc = bhive_run(&r, &b);
	if (rc != EXIT_FAILED || r.res) {
		wrc = write_rows(&o, &b, &r);
		if (!rc)
			rc = wrc;
		summary(&b, &r);
	}
	bhive_run_free(&r);
	bhive_blocks_free(&b);
	return rc;
}
