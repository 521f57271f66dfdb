/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof validate: how close DCPI's estimates come to the truth on one image. The image is
 * profiled (natively timed samples under KVM with main in ring 3, else TCG with -icount),
 * every function with enough samples is analysed (cpi_run.h), the same functions' exact
 * counts come from QEMU TCG runs with the insn_count plugin (truth_qemu.h), and DCPI's
 * accuracy table compares the two, each figure beside what sampling noise alone would
 * allow. docs/bmprof-validate.md is its manual. */
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "cpi/measured.h"
#include "dcpi_validate.h"
#include "run/image_run.h"
#include "cpi/cpi_run.h"
#include "decode/insn_decode.h"
#include "util/json.h"
#include "run/qemu.h"
#include "run/run_opts.h"
#include "run/truth_qemu.h"
#include "util/util.h"

#define KVM_FREQ 1000
/* TCG: -icount shift=0 makes a guest nanosecond one instruction, so at 100 kHz a sample
 * comes every 10,000 instructions: the handler's few hundred are taken off the period
 * exactly, and the run gives five times the samples it would at 20 kHz */
#define TCG_FREQ 100000
/* the work parameter's values for the counting runs: the line through the first two must
 * give the others exactly */
static const unsigned long long fit_at[] = { 1, 2, 4, 8 };
#define NFIT (sizeof fit_at / sizeof fit_at[0])

static const char description[] =
	"Profile IMAGE, estimate each sampled function's instruction and edge counts with "
	"DCPI's analysis, count them exactly in QEMU TCG (the insn_count plugin), and print "
	"DCPI's accuracy table: the share of estimates, weighted by samples (instructions) or "
	"executions (edges), within 5, 10 and 15% of the truth, each beside the share that "
	"sampling noise alone would allow.";

static const char tail[] = "Exit status: 0 when it ran, 2 usage, 125 failed.\n";

struct vopts {
	int accel;                   /* enum qemu_accel */
	const char *reps_param, *uarch, *qemu, *image, *measured;
	char params[RUN_OPTS_PARAMS_MAX];  /* " param=NAME=VALUE" each */
	unsigned long reps, freq, min_samples, timeout;
	int json;
	struct opt_args args;
};

struct vfunc {
	struct cpi_func cf;
	struct dcpi_accuracy insn, edge;
};

struct validate {
	struct vopts o;
	struct block_times times;    /* --measured */
	size_t measured, pieces;     /* blocks measured, of all, in the functions analysed */
	int kvm;                     /* the sample source: natively timed (KVM) or TCG */
	int rv_pmu;                  /* RISC-V: sample on Sscofpmf cycles overflow */
	const char *source;
	struct vfunc *f;
	size_t nf;
	uint64_t samples;            /* in the profile, all functions */
	struct truth truth;
	struct dcpi_accuracy insn, edge;
	char accel_why[256];
	char dropped[1024];          /* functions left out: counts not affine */
	unsigned long freq;          /* the profile's sampling rate */
	double count_seconds;        /* QEMU's time in the counting runs */
	unsigned step, nsteps;       /* the run under way, of all (the profile, the counts) */
	char step_text[32];          /* "run 2/5" */
};

/* The next run: its number on the lines that say what it does and on the status line. */
static const char *next_step(struct validate *v)
{
	snprintf(v->step_text, sizeof v->step_text, "run %u/%u", ++v->step, v->nsteps);
	return v->step_text;
}

/* ---- the options ---- */

/* -1 when parsed, else the exit status. */
static int parse(struct vopts *o, int argc, char **argv)
{
	const struct opt opts[] = {
		RUN_OPT_ACCEL(&o->accel, "auto (default): natively timed samples under KVM (main "
			      "in ring 3, x86-64) when /dev/kvm can be used, else TCG -icount (a check "
			      "of the machinery, not of accuracy); kvm, tcg"),
		OPT_STRING(0, "reps-param", &o->reps_param, "NAME", "the program's work parameter "
			   "(bm_param): the truth is counted at NAME=1, 2, 4 and 8, checked to be "
			   "affine, and extrapolated"),
		OPT_ULONG(0, "reps", &o->reps, "N", "its value for the profile (default 200)", 0,
			  1ul << 40),
		OPT_CALLBACK_F(0, "param", o->params, "NAME=VALUE", "another run-time parameter, "
			       "the same in every run; repeatable", run_opts_cb_param_line, OPT_MULTI),
		OPT_ULONG('f', "freq", &o->freq, "HZ", "sampling rate (default 1000 under KVM, "
			  "100000 under TCG)", 1, 100000),
		OPT_STRING('u', "uarch", &o->uarch, "NAME", "the pipeline model (default: tcg "
			   "under TCG, else the CPU's)"),
		OPT_STRING(0, "measured", &o->measured, "FILE", "blocks' measured cycles per "
			   "iteration (bmprof bhive's results) as the best case where a block's "
			   "bytes match"),
		OPT_ULONG(0, "min-samples", &o->min_samples, "N", "analyse functions with at least "
			  "N samples (default 100)", 0, 1ul << 40),
		OPT_BOOL(0, "json", &o->json, "the results as JSON on stdout"),
		RUN_OPT_QEMU(&o->qemu),
		RUN_OPT_TIMEOUT(&o->timeout, 1ul << 30),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "validate", .args = "IMAGE", .opts = opts,
				     .description = description, .tail = tail };
	unsigned long long x;
	int rc;

	o->accel = QEMU_ACCEL_AUTO;
	o->reps = 200;
	o->min_samples = 100;
	o->timeout = 600;
	if ((rc = opt_parse(&cmd, argc, argv, &o->args)) >= 0)
		return rc;
	if (o->args.n != 1 || o->args.dash_given) {
		bm_err("validate: give exactly one IMAGE (bmprof validate --help)");
		return EXIT_USAGE;
	}
	o->image = o->args.v[0];
	if (o->reps_param) {
		char err[256];
		char spec[300];

		snprintf(spec, sizeof spec, "%s=1", o->reps_param);
		if (run_opts_check_param(spec, &x, err, sizeof err)) {
			bm_err("validate: --reps-param %s: a NAME of letters, digits and '_'",
			       o->reps_param);
			return EXIT_USAGE;
		}
		if (o->reps < 1) {
			bm_err("validate: --reps must be at least 1");
			return EXIT_USAGE;
		}
	}
	if (o->uarch && !uarch_find(o->uarch)) {
		bm_err("validate: --uarch %s: no such model (bmprof cpi --help lists them)",
		       o->uarch);
		return EXIT_USAGE;
	}
	return -1;
}

/* ---- the profile ---- */

static void config_text(const struct validate *v, unsigned long freq, int user,
			unsigned long long reps, char *buf, size_t n)
{
	int len = snprintf(buf, n, "freq=%lu", freq);

	/* RISC-V under -icount: mtime ticks every 100 instructions, which aliases with short
	 * loops; the cycles event (the instruction count) overflows at any instruction */
	if (v->rv_pmu && freq)
		len += snprintf(buf + len, n - (size_t)len, " event=1:0x1:%lu:cycles",
				1000000000ul / freq);

	if (user)
		len += snprintf(buf + len, n - (size_t)len, " user=1");
	len += snprintf(buf + len, n - (size_t)len, "%s", v->o.params);
	if (v->o.reps_param)
		snprintf(buf + len, n - (size_t)len, " param=%s=%llu", v->o.reps_param, reps);
}

/* Which source: KVM when it may be used (x86-64 image on an x86-64 host, /dev/kvm
 * accessible), whatever kind of KVM it is: under kvm_pvm ring-3 code runs natively. */
static int choose_source(struct validate *v, int *rc)
{
	struct qemu_facts facts;
	int machine;
	char err[PATH_MAX + 128];
	const struct qemu_machine *m;

	if (qemu_elf_machine(v->o.image, &machine, err, sizeof err)) {
		bm_err("%s", err);
		*rc = EXIT_FAILED;
		return -1;
	}
	m = qemu_machine_for(machine);
	qemu_probe(&facts);
	v->kvm = 0;
	v->rv_pmu = machine == EM_RISCV;
	if (v->o.accel != QEMU_ACCEL_TCG && m && !strcmp(m->arch, "x86_64")) {
		int a = qemu_choose_accel(QEMU_ACCEL_KVM, &facts, m, v->accel_why,
					  sizeof v->accel_why);
		if (a == QEMU_ACCEL_KVM)
			v->kvm = 1;
		else if (v->o.accel == QEMU_ACCEL_KVM) {
			bm_err("%s", v->accel_why);
			*rc = EXIT_FAILED;
			return -1;
		}
	} else if (v->o.accel == QEMU_ACCEL_KVM) {
		bm_err("validate: --accel kvm needs an x86-64 image (main runs in ring 3 under KVM "
		       "only on the x86-64 runtime): use --accel tcg");
		*rc = EXIT_FAILED;
		return -1;
	}
	v->source = v->kvm ? "natively timed (KVM, main in ring 3)"
		: v->rv_pmu ? "TCG -icount, cycles overflow (machinery check: every instruction "
			      "costs the same; not an accuracy claim)"
		: "TCG -icount (machinery check: every instruction costs the same; "
		  "not an accuracy claim)";
	return 0;
}

static int profile(struct validate *v, struct image_run *r, char *config, size_t clen)
{
	unsigned long freq = v->o.freq ? v->o.freq : v->kvm ? KVM_FREQ : TCG_FREQ;
	int saved;

	v->freq = freq;
	config_text(v, freq, v->kvm, v->o.reps, config, clen);
	*r = (struct image_run){
		.image = v->o.image, .qemu = v->o.qemu,
		.accel = v->kvm ? QEMU_ACCEL_KVM : QEMU_ACCEL_TCG, .icount = !v->kvm,
		.timeout = v->o.timeout, .freq = freq, .config = config,
		.command = "bmprof validate (profile)", .user = v->kvm,
	};
	r->step = next_step(v);
	fprintf(stderr, "bmprof: validate: %s: profiling at %lu Hz, config \"%s\"\n", r->step,
		freq, config);
	/* the image's console goes to stderr: stdout is the report */
	fflush(stdout);
	saved = dup(1);
	if (saved >= 0)
		dup2(2, 1);
	int rc = image_run(r);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
	if (rc)
		return -1;
	int st = image_exit_status(r);
	if (st == EXIT_TIMEOUT || st == EXIT_CRASHED || st == EXIT_INTERRUPTED) {
		image_say_how_it_ended(r);
		bm_err("validate: the profiled run did not end normally");
		return -1;
	}
	if (!capture_profile(r->cap)->have_hello) {
		bm_err("validate: no bmprof stream from %s (is it built with bmprof?)", v->o.image);
		return -1;
	}
	return 0;
}

/* Too few samples to analyse anything: the numbers and the ways to get more. */
static void say_too_few(const struct validate *v, const struct profile *p, const char *best,
			uint64_t best_samples)
{
	char where[320] = "";

	if (best[0])
		snprintf(where, sizeof where, ", at most %llu in one function (%s)",
			 (unsigned long long)best_samples, best);
	bm_err("validate: too few samples: %llu in the profile%s, and a function needs "
	       "--min-samples %lu to be analysed: run longer (%s), sample faster (--freq, now "
	       "%lu Hz), or lower --min-samples", (unsigned long long)p->total, where,
	       v->o.min_samples, v->o.reps_param ? "a larger --reps" :
	       "more work per run, or --reps-param NAME --reps N", v->freq);
}

/* Decode every function and keep those with samples enough: 0, or -1 (reported). */
static int analyze(struct validate *v, const struct profile *p, const char *elf)
{
	struct insn_func *fs = NULL;
	size_t n = 0;
	char err[512], failed[600] = "", best[256] = "";
	uint64_t best_samples = 0;
	struct cpi_opts co = { .event = -1, .uarch = NULL, .period = 0 };

	if (p->total < v->o.min_samples) {     /* no function can have enough */
		say_too_few(v, p, "", 0);
		return -1;
	}
	if (v->o.measured) {
		if (measured_load(v->o.measured, &v->times, err, sizeof err)) {
			bm_err("%s", err);
			return -1;
		}
		co.measured = &v->times;
		co.measured_path = v->o.measured;
	}
	if (v->o.uarch)
		co.uarch = uarch_find(v->o.uarch);
	else if (!v->kvm)
		co.uarch = uarch_find("tcg");
	if (insn_func_load_all(elf, &fs, &n, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	v->f = calloc(n ? n : 1, sizeof *v->f);
	if (!v->f) {
		insn_funcs_free(fs, n);
		bm_err("out of memory");
		return -1;
	}
	v->samples = p->total;
	for (size_t i = 0; i < n; i++) {
		struct vfunc *vf = &v->f[v->nf];
		int bad;

		memset(vf, 0, sizeof *vf);
		vf->cf.fn = fs[i];
		memset(&fs[i], 0, sizeof fs[i]);
		bad = !vf->cf.fn.n || cpi_func_analyze(p, &co, &vf->cf, err, sizeof err);
		if (vf->cf.fn_samples > best_samples) {
			best_samples = vf->cf.fn_samples;
			snprintf(best, sizeof best, "%s", vf->cf.fn.name);
		}
		/* a function with samples that could not be analysed is worth saying; one
		 * without (most of them) is not */
		if (bad && vf->cf.fn.n && vf->cf.fn_samples >= v->o.min_samples && !failed[0])
			snprintf(failed, sizeof failed, "%s: %s", vf->cf.fn.name, err);
		if (bad || vf->cf.fn_samples < v->o.min_samples) {
			cpi_func_free(&vf->cf);
			continue;
		}
		v->nf++;
	}
	free(fs);
	if (!v->nf && failed[0]) {
		bm_err("validate: %s", failed);
		return -1;
	}
	if (!v->nf) {
		say_too_few(v, p, best, best_samples);
		return -1;
	}
	return 0;
}

/* ---- the truth ---- */

static void add_fixes(struct truth_fixes *a, const struct truth_fixes *b)
{
	a->rep_iterations += b->rep_iterations;
	a->faulted += b->faulted;
	a->rep_faults += b->rep_faults;
	a->fetch_faults += b->fetch_faults;
	a->outside += b->outside;
	a->unmatched += b->unmatched;
}

/* One counting run at work parameter k (0: none). 0, or -1 (reported). */
static int count_run(struct validate *v, const struct truth_range *rs, unsigned long long k,
		     struct truth *t)
{
	char config[2048];
	struct truth_run tr = {
		.image = v->o.image, .qemu = v->o.qemu, .timeout = v->o.timeout, .config = config,
		.icount = !v->kvm, .ranges = rs, .nranges = v->nf,
	};

	/* the sampler off (freq=0): no timer interrupt in the counted run */
	config_text(v, 0, 0, k, config, sizeof config);
	fprintf(stderr, "bmprof: validate: %s: counting (QEMU TCG%s, insn_count plugin), config "
		"\"%s\"\n", next_step(v), tr.icount ? " -icount" : "", config);
	if (truth_qemu_run(&tr, t))
		return -1;
	if (tr.exit_status == EXIT_CRASHED) {
		bm_err("validate: the counting run did not end normally");
		return -1;
	}
	v->count_seconds += tr.seconds;
	fprintf(stderr, "bmprof: validate: %llu instructions retired in the analysed functions, "
		"counted in %.1f s\n", (unsigned long long)t->total, tr.seconds);
	return 0;
}

/* The functions whose counts at the later points are off the line through the first two
 * (the runtime's, whose work follows time, such as its clock calibration) are left out,
 * each named; an error if none is left. pred[i] is the line at fit_at[i + 2], t[i] the
 * count there. 0, or -1 (reported). */
static int drop_not_affine(struct validate *v, const struct truth *pred, const struct truth *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < v->nf; i++) {
		struct vfunc *vf = &v->f[i];
		size_t bad = 0;

		for (size_t k = 0; k + 2 < NFIT; k++)
			bad += truth_mismatches(&pred[k], &t[k], vf->cf.fn.start, vf->cf.fn.end);
		if (!bad) {
			v->f[kept++] = *vf;
			continue;
		}
		fprintf(stderr, "bmprof: validate: %s left out: its counts are not affine in %s "
			"(%zu instruction or edge counts at %s=4 and 8 off the line through 1 and "
			"2)\n", vf->cf.fn.name, v->o.reps_param, bad, v->o.reps_param);
		snprintf(v->dropped + strlen(v->dropped), sizeof v->dropped - strlen(v->dropped),
			 "%s%s", v->dropped[0] ? ", " : "", vf->cf.fn.name);
		cpi_func_free(&vf->cf);
	}
	v->nf = kept;
	if (!kept) {
		bm_err("validate: counts are not affine in %s: in no analysed function do the "
		       "counts at %s=1, 2, 4 and 8 lie on a line (left out: %s; is every "
		       "repetition the same work? reseed any generator each repetition)",
		       v->o.reps_param, v->o.reps_param, v->dropped);
		return -1;
	}
	return 0;
}

static int truth(struct validate *v)
{
	struct truth_range *rs = calloc(v->nf, sizeof *rs);
	struct truth t[NFIT], pred[NFIT - 2];
	int rc = -1;

	for (size_t i = 0; i < NFIT; i++)
		truth_init(&t[i]);
	for (size_t i = 0; i + 2 < NFIT; i++)
		truth_init(&pred[i]);
	if (!rs) {
		bm_err("out of memory");
		return -1;
	}
	for (size_t i = 0; i < v->nf; i++)
		rs[i] = (struct truth_range){ v->f[i].cf.fn.start, v->f[i].cf.fn.end };
	if (!v->o.reps_param) {
		rc = count_run(v, rs, 0, &v->truth);
		goto out;
	}
	for (size_t i = 0; i < NFIT; i++)
		if (count_run(v, rs, fit_at[i], &t[i]))
			goto out;
	for (size_t i = 0; i + 2 < NFIT; i++)
		if (truth_extrapolate(&t[0], fit_at[0], &t[1], fit_at[1], fit_at[i + 2], &pred[i])) {
			bm_err("validate: counts are not affine in %s: a count fell from %s=1 to 2 "
			       "(is every repetition the same work? reseed any generator each "
			       "repetition)", v->o.reps_param, v->o.reps_param);
			goto out;
		}
	if (drop_not_affine(v, pred, &t[2]))
		goto out;
	if (truth_extrapolate(&t[0], fit_at[0], &t[1], fit_at[1], v->o.reps, &v->truth)) {
		bm_err("out of memory");
		goto out;
	}
	for (size_t i = 0; i < NFIT; i++)
		add_fixes(&v->truth.fix, &t[i].fix);
	rc = 0;
out:
	for (size_t i = 0; i < NFIT; i++)
		truth_free(&t[i]);
	for (size_t i = 0; i + 2 < NFIT; i++)
		truth_free(&pred[i]);
	free(rs);
	return rc;
}

/* ---- the comparison ---- */

static void compare(struct validate *v)
{
	for (size_t i = 0; i < v->nf; i++) {
		struct vfunc *vf = &v->f[i];

		dcpi_validate(&vf->cf.cfg, &vf->cf.res, &v->truth, &vf->insn, &vf->edge,
			      &v->insn, &v->edge);
	}
}

/* ---- output ---- */

/* "measured (floor)" in percent */
static void cell(FILE *f, const struct dcpi_accuracy *a, unsigned k)
{
	fprintf(f, "  %5.1f%% (%5.1f%%)", 100 * dcpi_accuracy_share(a, k),
		100 * dcpi_accuracy_floor(a, k));
}

static void row(FILE *f, const char *name, uint64_t samples, const struct dcpi_accuracy *in,
		const struct dcpi_accuracy *ed)
{
	fprintf(f, "  %-28.28s %9llu", name, (unsigned long long)samples);
	for (unsigned k = 0; k < 3; k++)
		cell(f, in, k);
	if (ed->n) {
		cell(f, ed, 1);
		fprintf(f, "  %5zu\n", ed->n);
	} else {
		fprintf(f, "  %15s  %5d\n", "-", 0);
	}
}

static void print_fixes(const struct truth_fixes *x)
{
	printf("            corrections: %llu rep string iterations folded into their "
	       "executions, %llu faulting instructions not counted", (unsigned long long)
	       x->rep_iterations, (unsigned long long)x->faulted);
	if (x->rep_faults || x->fetch_faults)
		printf(", %llu faults at rep instructions (resumed) and %llu fetch faults kept",
		       (unsigned long long)x->rep_faults, (unsigned long long)x->fetch_faults);
	if (x->unmatched)
		printf(", %llu faults beyond their instruction's starts (!)",
		       (unsigned long long)x->unmatched);
	printf("\n");
}

static void print_text(const struct validate *v)
{
	uint64_t fs = 0;

	for (size_t i = 0; i < v->nf; i++)
		fs += v->f[i].cf.fn_samples;
	printf("image:      %s\n", v->o.image);
	printf("samples:    %s\n", v->source);
	printf("            %llu samples, %llu in the %zu functions analysed (>= %lu each); "
	       "model %s, %.0f cycles per sample\n", (unsigned long long)v->samples,
	       (unsigned long long)fs, v->nf, v->o.min_samples,
	       v->nf ? v->f[0].cf.uarch->name : "-", v->nf ? v->f[0].cf.period : 0);
	if (v->o.measured) {
		size_t m = 0, n = 0;
		for (size_t i = 0; i < v->nf; i++) {
			m += v->f[i].cf.measured;
			n += v->f[i].cf.pieces;
		}
		printf("best case:  measured for %zu of %zu blocks (%s), the model's for the rest\n",
		       m, n, v->o.measured);
	}
	if (v->o.reps_param)
		printf("truth:      exact counts (QEMU TCG%s, insn_count plugin) at %s=1,2,4,8 "
		       "(affine: checked), extrapolated to %llu\n", v->kvm ? "" : " -icount",
		       v->o.reps_param, (unsigned long long)v->o.reps);
	else
		printf("truth:      exact counts of the whole run (QEMU TCG%s, insn_count plugin)\n",
		       v->kvm ? "" : " -icount");
	if (v->dropped[0])
		printf("            left out (counts not affine in %s): %s\n", v->o.reps_param,
		       v->dropped);
	print_fixes(&v->truth.fix);
	printf("\nDCPI accuracy: instruction frequency estimates weighted by samples, within\n"
	       "5/10/15%% of the truth; edge estimates weighted by true executions, within 10%%.\n"
	       "In parentheses: the score perfect estimates would get from the same samples\n"
	       "(the Poisson noise of the samples each estimate is built from, alone).\n\n");
	printf("  %-28s %9s  %15s  %15s  %15s  %15s  %5s\n", "function", "samples", "5%",
	       "10%", "15%", "edges 10%", "n");
	for (size_t i = 0; i < v->nf; i++)
		row(stdout, v->f[i].cf.fn.name, v->f[i].cf.fn_samples, &v->f[i].insn, &v->f[i].edge);
	row(stdout, "(all)", fs, &v->insn, &v->edge);
	printf("\nDCPI (SOSP 1997) reached 73/87/92%% and 58%% of edges within 10%%.\n");
	if (v->insn.n && dcpi_accuracy_floor(&v->insn, 0) < 0.9)
		printf("note: with these samples perfect estimates would be within 5%% only %.0f%% "
		       "of the time: the samples, not the analysis, limit the first column; a longer "
		       "run (--reps, --param) or a higher --freq sharpens it\n",
		       100 * dcpi_accuracy_floor(&v->insn, 0));
}

static void json_acc(struct json *j, const char *key, const struct dcpi_accuracy *a)
{
	static const char *const within[3] = { "within_5", "within_10", "within_15" };
	static const char *const floor_[3] = { "floor_5", "floor_10", "floor_15" };

	json_key(j, key);
	json_begin_object(j);
	for (unsigned k = 0; k < 3; k++) {
		json_key(j, within[k]);
		json_double(j, dcpi_accuracy_share(a, k));
	}
	for (unsigned k = 0; k < 3; k++) {
		json_key(j, floor_[k]);
		json_double(j, dcpi_accuracy_floor(a, k));
	}
	json_key(j, "weight");
	json_double(j, a->weight);
	json_key(j, "n");
	json_u64(j, a->n);
	json_end_object(j);
}

/* Per instruction: address, samples, estimated and true executions. */
static void json_insns(struct json *j, const struct validate *v, const struct cpi_func *cf)
{
	json_key(j, "insns");
	json_begin_array(j);
	for (size_t k = 0; k < cf->fn.n; k++) {
		const struct dcpi_insn *d = &cf->res.insns[k];
		json_begin_object(j);
		json_key(j, "addr");
		json_hex(j, cf->fn.insns[k].addr);
		json_key(j, "samples");
		json_u64(j, d->samples);
		json_key(j, "estimate");
		if (d->execs < 0)
			json_null(j);
		else
			json_double(j, d->execs);
		json_key(j, "truth");
		json_u64(j, truth_count(&v->truth, cf->fn.insns[k].addr));
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_fixes(struct json *j, const struct truth_fixes *x)
{
	json_begin_object(j);
	json_key(j, "rep_iterations");
	json_u64(j, x->rep_iterations);
	json_key(j, "faulted");
	json_u64(j, x->faulted);
	json_key(j, "rep_faults");
	json_u64(j, x->rep_faults);
	json_key(j, "fetch_faults");
	json_u64(j, x->fetch_faults);
	json_key(j, "unmatched");
	json_u64(j, x->unmatched);
	json_end_object(j);
}

static void print_json(const struct validate *v)
{
	struct json j;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_key(&j, "image");
	json_string(&j, v->o.image);
	json_key(&j, "source");
	json_string(&j, v->kvm ? "kvm" : "tcg");
	json_key(&j, "source_text");
	json_string(&j, v->source);
	json_key(&j, "samples");
	json_u64(&j, v->samples);
	json_key(&j, "reps_param");
	if (v->o.reps_param)
		json_string(&j, v->o.reps_param);
	else
		json_null(&j);
	json_key(&j, "reps");
	json_u64(&j, v->o.reps_param ? v->o.reps : 0);
	json_key(&j, "left_out");
	json_string(&j, v->dropped);
	json_key(&j, "count_seconds");
	json_double(&j, v->count_seconds);
	json_key(&j, "corrections");
	json_fixes(&j, &v->truth.fix);
	json_key(&j, "measured");   /* --measured: blocks whose best case was measured */
	if (v->o.measured) {
		size_t m = 0, n = 0;
		for (size_t i = 0; i < v->nf; i++) {
			m += v->f[i].cf.measured;
			n += v->f[i].cf.pieces;
		}
		json_begin_object(&j);
		json_key(&j, "file");
		json_string(&j, v->o.measured);
		json_key(&j, "blocks");
		json_u64(&j, m);
		json_key(&j, "of");
		json_u64(&j, n);
		json_end_object(&j);
	} else {
		json_null(&j);
	}
	json_acc(&j, "instructions", &v->insn);
	json_acc(&j, "edges", &v->edge);
	json_key(&j, "functions");
	json_begin_array(&j);
	for (size_t i = 0; i < v->nf; i++) {
		json_begin_object(&j);
		json_key(&j, "name");
		json_string(&j, v->f[i].cf.fn.name);
		json_key(&j, "samples");
		json_u64(&j, v->f[i].cf.fn_samples);
		json_acc(&j, "instructions", &v->f[i].insn);
		json_acc(&j, "edges", &v->f[i].edge);
		json_insns(&j, v, &v->f[i].cf);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fputc('\n', stdout);
}

int cmd_validate(int argc, char **argv)
{
	struct validate v;
	struct image_run r = { 0 };
	char config[2048];
	int rc;

	memset(&v, 0, sizeof v);
	truth_init(&v.truth);
	rc = parse(&v.o, argc, argv);
	if (rc >= 0)
		goto done;
	rc = EXIT_FAILED;
	if (choose_source(&v, &rc))
		goto done;
	fprintf(stderr, "bmprof: validate: sample source: %s\n", v.source);
	v.nsteps = 1 + (v.o.reps_param ? NFIT : 1);
	if (profile(&v, &r, config, sizeof config))
		goto out;
	if (analyze(&v, capture_profile(r.cap), r.abs_image))
		goto out;
	if (truth(&v))
		goto out;
	compare(&v);
	if (v.o.json)
		print_json(&v);
	else
		print_text(&v);
	rc = 0;
out:
	image_run_free(&r);
	for (size_t i = 0; i < v.nf; i++)
		cpi_func_free(&v.f[i].cf);
	free(v.f);
done:
	block_times_free(&v.times);
	truth_free(&v.truth);
	opt_args_free(&v.o.args);
	return rc;
}
