/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof count: exact execution counts of an image's instructions, from one QEMU TCG run
 * with the insn_count plugin (truth_qemu.h): retirements, not starts (analysis/truth.h
 * has the corrections). Per function, or per instruction of the functions named.
 * docs/bmprof-count.md is its manual. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "run/image_run.h"
#include "decode/insn_decode.h"
#include "util/json.h"
#include "run/run_opts.h"
#include "run/truth_qemu.h"
#include "symbol/symbolize.h"
#include "util/util.h"

static const char description[] =
	"Run IMAGE once in QEMU TCG with the insn_count plugin and print how many times each "
	"function's instructions retired: exact counts (an x86 rep string instruction once per "
	"execution, a faulting instruction not at all).";

static const char tail[] =
	"Exit status: 0 when counted, 2 usage, 125 failed, 126 the image did not end normally\n"
	"(the counts up to then are printed).\n";

struct copts {
	const char *image, *qemu, *out, *root;
	struct opt_list funcs;
	char config[RUN_OPTS_PARAMS_MAX + 64];
	char params[RUN_OPTS_PARAMS_MAX];
	unsigned long freq, timeout;
	int icount, user, json, children;
	struct opt_args args;
};

/* -1 when parsed, else the exit status. */
static int parse(struct copts *o, int argc, char **argv)
{
	const struct opt opts[] = {
		OPT_LIST('f', "function", &o->funcs, "NAME", "only this function (repeatable), "
			 "instruction by instruction"),
		OPT_ULONG(0, "freq", &o->freq, "HZ", "run the image's sampler at HZ (default 0: "
			  "off)", 0, 100000),
		OPT_BOOL(0, "children", &o->children, "also each function's inclusive count (itself "
			 "and everything it called) from exact call paths"),
		OPT_STRING(0, "root", &o->root, "NAME", "with --children: only the instructions "
			   "that ran with function NAME on the stack (main: the program's own)"),
		OPT_BOOL(0, "json", &o->json, "the counts as JSON on stdout"),
		OPT_STRING('o', "output", &o->out, "FILE", "also save the run's profile (with "
			   "--freq: the samples of the very run counted)"),
		OPT_GROUP("Running QEMU:"),
		RUN_OPT_ICOUNT('I', &o->icount),
		RUN_OPT_USER(&o->user),
		OPT_CALLBACK_F(0, "param", o->params, "NAME=VALUE", RUN_OPT_PARAM_HELP,
			       run_opts_cb_param_line, OPT_MULTI),
		RUN_OPT_QEMU(&o->qemu),
		RUN_OPT_TIMEOUT(&o->timeout, 1ul << 30),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "count", .args = "IMAGE", .opts = opts,
				     .description = description, .tail = tail };
	int rc;

	o->timeout = 600;
	if ((rc = opt_parse(&cmd, argc, argv, &o->args)) >= 0)
		return rc;
	if (o->args.n != 1 || o->args.dash_given) {
		bm_err("count: give exactly one IMAGE (bmprof count --help)");
		return EXIT_USAGE;
	}
	if (o->root && !o->children) {
		bm_err("count: --root goes with --children (bmprof count --help)");
		return EXIT_USAGE;
	}
	o->image = o->args.v[0];
	snprintf(o->config, sizeof o->config, "freq=%lu%s%s", o->freq, o->user ? " user=1" : "",
		 o->params);
	return -1;
}

/* The functions to count: all of the ELF's, or the ones named (each must exist). */
static int pick(const struct copts *o, struct insn_func **fs, size_t *n)
{
	char err[512];
	size_t kept = 0;

	if (insn_func_load_all(o->image, fs, n, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (!o->funcs.n)
		return 0;
	for (size_t k = 0; k < o->funcs.n; k++) {
		size_t i = 0;
		while (i < *n && strcmp((*fs)[i].name, o->funcs.v[k]))
			i++;
		if (i == *n) {
			bm_err("count: no function %s in %s (bmprof report lists the sampled ones; nm "
			       "-C lists all)", o->funcs.v[k], o->image);
			insn_funcs_free(*fs, *n);
			*fs = NULL;
			return -1;
		}
	}
	for (size_t i = 0; i < *n; i++) {
		int want = 0;
		for (size_t k = 0; k < o->funcs.n; k++)
			want |= !strcmp((*fs)[i].name, o->funcs.v[k]);
		if (want) {
			struct insn_func keep = (*fs)[i];
			(*fs)[i] = (*fs)[kept];
			(*fs)[kept++] = keep;
		}
	}
	for (size_t i = kept; i < *n; i++)
		insn_func_free(&(*fs)[i]);
	*n = kept;
	return 0;
}

static uint64_t func_total(const struct truth *t, const struct insn_func *f)
{
	uint64_t sum = 0;

	for (size_t k = 0; k < f->n; k++)
		sum += truth_count(t, f->insns[k].addr);
	return sum;
}

static int by_total(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : (x[1] > y[1]) - (x[1] < y[1]);
}

static void print_text(const struct copts *o, const struct truth *t, const struct insn_func *fs,
		       size_t n, double seconds)
{
	const struct truth_fixes *x = &t->fix;
	uint64_t (*order)[2] = calloc(n ? n : 1, sizeof *order);

	printf("image:        %s\n", o->image);
	printf("run:          QEMU TCG%s, config \"%s\", counted in %.1f s\n",
	       o->icount ? " -icount" : "", o->config, seconds);
	printf("retired:      %llu instructions in the %zu functions counted\n",
	       (unsigned long long)t->total, n);
	printf("corrections:  %llu rep string iterations folded, %llu faulting instructions "
	       "not counted, %llu faults at rep instructions and %llu fetch faults kept\n",
	       (unsigned long long)x->rep_iterations, (unsigned long long)x->faulted,
	       (unsigned long long)x->rep_faults, (unsigned long long)x->fetch_faults);
	if (!order)
		return;
	for (size_t i = 0; i < n; i++) {
		order[i][0] = func_total(t, &fs[i]);
		order[i][1] = i;
	}
	qsort(order, n, sizeof *order, by_total);
	printf("\n  %-40s %16s %7s\n", "function", "instructions", "%");
	for (size_t i = 0; i < n && order[i][0]; i++)
		printf("  %-40.40s %16llu %6.2f%%\n", fs[order[i][1]].name,
		       (unsigned long long)order[i][0],
		       t->total ? 100.0 * (double)order[i][0] / (double)t->total : 0);
	for (size_t i = 0; o->funcs.n && i < n; i++) {
		const struct insn_func *f = &fs[i];

		printf("\n%s:\n", f->name);
		for (size_t k = 0; k < f->n; k++)
			printf("  0x%llx %16llu\n", (unsigned long long)f->insns[k].addr,
			       (unsigned long long)truth_count(t, f->insns[k].addr));
	}
	free(order);
}

/* ---- --children ---- */

/* The functions at a link-time address, outermost first, named as bmprof report names a
 * chain's frames (truth_names_fn). */
static int frame_names(void *ctx, uint64_t addr, const char **names, unsigned max)
{
	struct sym_result r;
	unsigned n = 0;

	if (symbolizer_lookup(ctx, addr, &r))
		return -1;
	if (!r.nframes) {
		names[0] = r.symbol ? r.symbol : "[unknown]";
		return 1;
	}
	for (unsigned i = r.nframes; i-- > 0 && n < max;)
		names[n++] = strcmp(r.frames[i].function, "??") ? r.frames[i].function :
			     r.symbol ? r.symbol : "[unknown]";
	return (int)n;
}

static int build_children(const struct copts *o, const struct truth_raw *raw,
			  struct symbolizer **sym, struct truth_stacks *ts)
{
	char err[512];

	*sym = symbolizer_open(o->image, err, sizeof err);
	if (!*sym) {
		bm_err("%s", err);
		return -1;
	}
	if (truth_stacks_build(raw, frame_names, *sym, o->root, ts)) {
		bm_err("out of memory computing inclusive counts");
		return -1;
	}
	if (o->root && !ts->total) {
		bm_err("count: no instruction ran with %s on the stack (bmprof count --children "
		       "without --root lists the functions)", o->root);
		return -1;
	}
	return 0;
}

static double pct(uint64_t x, uint64_t total)
{
	return total ? 100.0 * (double)x / (double)total : 0;
}

static void print_children(const struct copts *o, const struct truth_raw *raw,
			   const struct truth_stacks *ts)
{
	const struct truth_stack_stats *x = &raw->ss;

	printf("\ncall paths:   %llu calls, %llu returns (%llu to no frame on the stack), %llu "
	       "exceptions taken, %llu exception returns (%llu with no exception frame)\n",
	       (unsigned long long)x->calls, (unsigned long long)x->rets,
	       (unsigned long long)x->unmatched_rets, (unsigned long long)x->irqs,
	       (unsigned long long)x->erets, (unsigned long long)x->unmatched_erets);
	printf("children of:  %llu instructions outside exception handlers%s%s (left out: %llu "
	       "in handlers, %llu outside the functions counted",
	       (unsigned long long)ts->total, o->root ? " with " : "", o->root ? o->root : "",
	       (unsigned long long)ts->in_handlers, (unsigned long long)ts->unplaced);
	if (o->root)
		printf(", %llu without %s on the stack", (unsigned long long)ts->outside_root,
		       o->root);
	printf(")\n");
	printf("\n  %8s %8s %16s %16s  %s\n", "Children", "Self", "inclusive", "self",
	       "Function");
	for (size_t i = 0; i < ts->n; i++)
		printf("  %7.2f%% %7.2f%% %16llu %16llu  %s\n", pct(ts->fns[i].inclusive, ts->total),
		       pct(ts->fns[i].self, ts->total), (unsigned long long)ts->fns[i].inclusive,
		       (unsigned long long)ts->fns[i].self, ts->fns[i].name);
}

static void json_children(struct json *j, const struct truth_raw *raw,
			  const struct truth_stacks *ts)
{
	const struct truth_stack_stats *x = &raw->ss;

	json_key(j, "children");
	json_begin_object(j);
	json_key(j, "total");
	json_u64(j, ts->total);
	json_key(j, "in_handlers");
	json_u64(j, ts->in_handlers);
	json_key(j, "unplaced");
	json_u64(j, ts->unplaced);
	json_key(j, "outside_root");
	json_u64(j, ts->outside_root);
	json_key(j, "calls");
	json_u64(j, x->calls);
	json_key(j, "returns");
	json_u64(j, x->rets);
	json_key(j, "unmatched_returns");
	json_u64(j, x->unmatched_rets);
	json_key(j, "exceptions");
	json_u64(j, x->irqs);
	json_key(j, "exception_returns");
	json_u64(j, x->erets);
	json_key(j, "unmatched_exception_returns");
	json_u64(j, x->unmatched_erets);
	json_key(j, "overflow");
	json_u64(j, x->overflow);
	json_key(j, "functions");
	json_begin_array(j);
	for (size_t i = 0; i < ts->n; i++) {
		json_begin_object(j);
		json_key(j, "name");
		json_string(j, ts->fns[i].name);
		json_key(j, "inclusive");
		json_u64(j, ts->fns[i].inclusive);
		json_key(j, "self");
		json_u64(j, ts->fns[i].self);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_func(struct json *j, const struct truth *t, const struct insn_func *f)
{
	json_begin_object(j);
	json_key(j, "name");
	json_string(j, f->name);
	json_key(j, "start");
	json_hex(j, f->start);
	json_key(j, "end");
	json_hex(j, f->end);
	json_key(j, "instructions");
	json_u64(j, func_total(t, f));
	json_key(j, "insns");
	json_begin_array(j);
	for (size_t k = 0; k < f->n; k++) {
		json_begin_object(j);
		json_key(j, "addr");
		json_hex(j, f->insns[k].addr);
		json_key(j, "count");
		json_u64(j, truth_count(t, f->insns[k].addr));
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "edges");
	json_begin_array(j);
	for (size_t i = 0; i < t->nedges; i++) {
		const struct truth_edge *e = &t->edges[i];
		if (e->from < f->start || e->from >= f->end)
			continue;
		json_begin_object(j);
		json_key(j, "from");
		json_hex(j, e->from);
		json_key(j, "to");
		json_hex(j, e->to);
		json_key(j, "count");
		json_u64(j, e->count);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void print_json(const struct copts *o, const struct truth *t, const struct insn_func *fs,
		       size_t n, double seconds, int exit_status, const struct truth_raw *raw,
		       const struct truth_stacks *ts)
{
	const struct truth_fixes *x = &t->fix;
	struct json j;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_key(&j, "image");
	json_string(&j, o->image);
	json_key(&j, "icount");
	json_bool(&j, o->icount);
	json_key(&j, "config");
	json_string(&j, o->config);
	json_key(&j, "seconds");
	json_double(&j, seconds);
	json_key(&j, "exit_status");
	json_u64(&j, (uint64_t)exit_status);
	json_key(&j, "total");
	json_u64(&j, t->total);
	json_key(&j, "corrections");
	json_begin_object(&j);
	json_key(&j, "rep_iterations");
	json_u64(&j, x->rep_iterations);
	json_key(&j, "faulted");
	json_u64(&j, x->faulted);
	json_key(&j, "rep_faults");
	json_u64(&j, x->rep_faults);
	json_key(&j, "fetch_faults");
	json_u64(&j, x->fetch_faults);
	json_key(&j, "outside");
	json_u64(&j, x->outside);
	json_key(&j, "unmatched");
	json_u64(&j, x->unmatched);
	json_end_object(&j);
	json_key(&j, "functions");
	json_begin_array(&j);
	for (size_t i = 0; i < n; i++)
		if (o->funcs.n || func_total(t, &fs[i]))
			json_func(&j, t, &fs[i]);
	json_end_array(&j);
	if (ts)
		json_children(&j, raw, ts);
	json_end_object(&j);
	json_finish(&j);
	fputc('\n', stdout);
}

int cmd_count(int argc, char **argv)
{
	struct copts o;
	struct insn_func *fs = NULL;
	struct truth_range *rs = NULL;
	struct truth t;
	struct truth_stacks ts = { 0 };
	struct truth_run tr = { 0 };
	struct symbolizer *sym = NULL;
	size_t n = 0;
	int rc;

	memset(&o, 0, sizeof o);
	truth_init(&t);
	rc = parse(&o, argc, argv);
	if (rc >= 0) {
		opt_args_free(&o.args);
		return rc;
	}
	rc = EXIT_FAILED;
	if (pick(&o, &fs, &n)) {
		opt_args_free(&o.args);
		return rc;
	}
	rs = calloc(n ? n : 1, sizeof *rs);
	if (!rs) {
		bm_err("out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		rs[i] = (struct truth_range){ fs[i].start, fs[i].end };
	tr = (struct truth_run){
		.image = o.image, .qemu = o.qemu, .timeout = o.timeout, .config = o.config,
		.freq = o.freq, .icount = o.icount, .user = o.user, .ranges = rs, .nranges = n,
		.out = o.out, .stacks = o.children,
	};
	if (truth_qemu_run(&tr, &t))
		goto out;
	if (o.children && build_children(&o, &tr.raw, &sym, &ts))
		goto out;
	if (o.json)
		print_json(&o, &t, fs, n, tr.seconds, tr.exit_status, &tr.raw,
			   o.children ? &ts : NULL);
	else
		print_text(&o, &t, fs, n, tr.seconds);
	if (!o.json && o.children)
		print_children(&o, &tr.raw, &ts);
	rc = 0;
	if (tr.exit_status == EXIT_CRASHED) {
		bm_err("count: the image did not end normally: these are the counts up to its end");
		rc = EXIT_CRASHED;
	}
out:
	truth_stacks_free(&ts);
	if (sym)
		symbolizer_close(sym);
	truth_raw_free(&tr.raw);
	free(rs);
	insn_funcs_free(fs, n);
	truth_free(&t);
	opt_args_free(&o.args);
	return rc;
}
