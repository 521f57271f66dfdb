/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof stalls: DCPI's dcpiwhatcg and dcpitopstalls: every sampled function of the image
 * analysed as bmprof cpi does, their summaries added up into the whole image's, and the
 * instructions that stalled most with their possible culprits. docs/bmprof-stalls.md is
 * its manual. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cpi/cpi_cli.h"
#include "cpi/cpi_print.h"
#include "cpi/cpi_run.h"
#include "util/json.h"
#include "profile/profile_io.h"
#include "util/util.h"

static const char description[] =
	"Analyse every function with samples as bmprof cpi does, and show where the whole "
	"image's cycles went (execution, static and dynamic stalls by cause) and the N "
	"instructions with the most dynamic stall cycles, with their possible culprits.";

/* One stalled instruction. */
struct stall_row {
	size_t fn;                   /* index into the function rows */
	uint64_t addr, offset;
	double cycles;               /* dynamic stall cycles: execs x stall per execution */
	double execs, per_exec;
	uint64_t samples;
	uint32_t culprits;
	double bound[DCPI_C__COUNT];
	uint64_t dep_addr;           /* DCPI_C_DEPENDENCY: the instruction's address */
	int have_dep;
	char why[160];               /* culprits as text */
	char text[96];
};

struct func_row {
	char name[256];
	uint64_t start;
	struct dcpi_summary sum;
	int incomplete;
};

struct stalls {
	struct func_row *fns;
	size_t nfns;
	struct stall_row *rows;
	size_t nrows, cap;
	struct dcpi_summary total;
	uint64_t event_samples;     /* all samples of the event */
	size_t nfailed;
	char first_failure[1024];
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct stall_row *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* whether some link address in sorted pcs[0..n) lies in [lo, hi) */
static int any_in(const uint64_t *pcs, size_t n, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = n;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (pcs[m] < lo)
			a = m + 1;
		else
			b = m;
	}
	return a < n && pcs[a] < hi;
}

static int collect(struct stalls *st, const struct cpi_func *cf, size_t fn)
{
	for (uint32_t i = 0; i < cf->fn.n; i++) {
		const struct dcpi_insn *d = &cf->res.insns[i];
		struct stall_row *r;

		if (!(d->execs > 0) || d->cpe < 0 || !(d->dyn_stall > 0))
			continue;
		if (st->nrows == st->cap) {
			size_t cap = st->cap ? 2 * st->cap : 256;
			struct stall_row *v = realloc(st->rows, cap * sizeof *v);

			if (!v)
				return -1;
			st->rows = v;
			st->cap = cap;
		}
		r = &st->rows[st->nrows++];
		memset(r, 0, sizeof *r);
		r->fn = fn;
		r->addr = cf->fn.insns[i].addr;
		r->offset = r->addr - cf->fn.start;
		r->execs = d->execs;
		r->per_exec = d->dyn_stall;
		r->cycles = d->dyn_stall * d->execs;
		r->samples = d->samples;
		r->culprits = d->culprits;
		memcpy(r->bound, d->bound, sizeof r->bound);
		if (d->dep_on >= 0) {
			r->have_dep = 1;
			r->dep_addr = cf->fn.insns[d->dep_on].addr;
		}
		cpi_culprits_text(cf, i, r->why, sizeof r->why);
		snprintf(r->text, sizeof r->text, "%s", cf->fn.insns[i].text);
	}
	return 0;
}

/* Analyse every function of fs with samples of o's event. 0, or -1 (reported). */
static int analyse_all(struct stalls *st, const struct profile *p, const struct cpi_opts *o,
		       struct insn_func *fs, size_t nfs)
{
	uint64_t bias = p->have_hello ? p->hello.load_bias : 0, *pcs;
	size_t npcs = 0;
	char err[1024];

	pcs = malloc((p->nsamples ? p->nsamples : 1) * sizeof *pcs);
	st->fns = calloc(nfs ? nfs : 1, sizeof *st->fns);
	if (!pcs || !st->fns) {
		free(pcs);
		bm_err("out of memory");
		return -1;
	}
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].event == o->event) {
			pcs[npcs++] = p->samples[i].pc - bias;
			st->event_samples += p->samples[i].count;
		}
	qsort(pcs, npcs, sizeof *pcs, cmp_u64);
	st->total.best_cpi = st->total.actual_cpi = -1;
	for (size_t k = 0; k < nfs; k++) {
		struct cpi_func cf;

		if (!fs[k].n || !any_in(pcs, npcs, fs[k].start, fs[k].end))
			continue;
		memset(&cf, 0, sizeof cf);
		cf.fn = fs[k];
		memset(&fs[k], 0, sizeof fs[k]);
		if (cpi_func_analyze(p, o, &cf, err, sizeof err)) {
			if (!st->nfailed++)
				snprintf(st->first_failure, sizeof st->first_failure, "%s", err);
			cpi_func_free(&cf);
			continue;
		}
		struct func_row *fr = &st->fns[st->nfns];

		snprintf(fr->name, sizeof fr->name, "%s", cf.fn.name);
		fr->start = cf.fn.start;
		fr->sum = cf.res.sum;
		fr->incomplete = cf.cfg.incomplete;
		cpi_summary_add(&st->total, &cf.res.sum);
		if (collect(st, &cf, st->nfns)) {
			cpi_func_free(&cf);
			free(pcs);
			bm_err("out of memory");
			return -1;
		}
		st->nfns++;
		cpi_func_free(&cf);
	}
	free(pcs);
	if (st->nrows)   /* rows is NULL without any */
		qsort(st->rows, st->nrows, sizeof *st->rows, cmp_rows);
	return 0;
}

static double share(double v, double whole)
{
	return whole > 0 ? 100.0 * v / whole : 0;
}

static void print_text(const struct stalls *st, const struct profile *p,
		       const struct cpi_opts *o, const char *uwhy, const char *pwhy,
		       const char *elf, long limit)
{
	char safe_elf[2 * 4096];
	const struct profile_event *e = profile_event(p, (uint16_t)o->event);
	char src[256];
	size_t incomplete = 0;

	for (size_t k = 0; k < st->nfns; k++)
		incomplete += st->fns[k].incomplete;
	printf("bmprof stalls\nimage:    %s\n", bm_safe(safe_elf, sizeof safe_elf, elf));
	cpi_print_model(stdout, o->uarch, uwhy);
	printf("period:   %.*f cycles per sample (%s)\n", o->period >= 100 ? 0 : 2, o->period,
	       pwhy);
	printf("samples:  %" PRIu64 " of event %s in %zu function%s, %.2f%% of %" PRIu64 "\n",
	       st->total.samples, e && e->name[0] ? e->name : "?", st->nfns,
	       st->nfns == 1 ? "" : "s", share((double)st->total.samples,
					      (double)st->event_samples), st->event_samples);
	printf("sampled:  %.90s\n", cpi_sample_source(p, src, sizeof src)[0] ? src : "?");
	cpi_print_notes(stdout, p);
	if (incomplete)
		printf("note: %zu function%s have an incomplete CFG (indirect jumps with unknown "
		       "targets)\n", incomplete, incomplete == 1 ? "" : "s");
	if (st->nfailed)
		printf("note: %zu sampled function%s could not be analysed, e.g.: %s\n", st->nfailed,
		       st->nfailed == 1 ? "" : "s", st->first_failure);
	putchar('\n');
	cpi_print_summary(stdout, &st->total, st->event_samples);
	printf("\nTop %ld stalled instructions (dynamic stall cycles; share of the analysed "
	       "cycles)\n", limit);
	printf("%12s %10s %6s %8s  %s\n", "address", "stall cyc", "share", "per exec",
	       "function+offset: instruction / culprits");
	for (size_t k = 0; k < st->nrows && (long)k < limit; k++) {
		const struct stall_row *r = &st->rows[k];
		char where[512], cyc[24], name[256];

		/* the name is the ELF's: escaped for the terminal */
		snprintf(where, sizeof where, "%s+0x%" PRIx64 ": %s",
			 bm_safe(name, sizeof name, st->fns[r->fn].name), r->offset, r->text);
		if (r->cycles < 1e9)
			snprintf(cyc, sizeof cyc, "%.0f", r->cycles);
		else
			snprintf(cyc, sizeof cyc, "%.3g", r->cycles);
		/* the text columns end at 100 */
		printf("%12" PRIx64 " %10s %5.1f%% %8.2f  %.59s\n", r->addr, cyc,
		       share(r->cycles, st->total.cycles), r->per_exec, where);
		printf("%41s%.59s\n", "", r->why[0] ? r->why : "unexplained");
	}
	if (!st->nrows)
		printf("(no instruction shows a dynamic stall)\n");
}

static void print_json(const struct stalls *st, const struct profile *p,
		       const struct cpi_opts *o, const char *uwhy, const char *pwhy,
		       const char *elf, long limit)
{
	static const char *const key[DCPI_C__COUNT] = {
		"icache", "itlb", "dcache", "dtlb", "mispredict", "write_buffer", "unit_busy",
		"dependency",
	};
	const struct profile_event *e = profile_event(p, (uint16_t)o->event);
	char src[256];
	struct json j;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_kv_string(&j, "elf", elf);
	json_key(&j, "event");
	json_begin_object(&j);
	json_kv_u64(&j, "id", (uint64_t)o->event);
	json_kv_string(&j, "name", e ? e->name : NULL);
	json_end_object(&j);
	json_kv_string(&j, "sample_source", cpi_sample_source(p, src, sizeof src));
	json_key(&j, "uarch");
	json_begin_object(&j);
	json_kv_string(&j, "name", o->uarch->name);
	json_kv_string(&j, "title", o->uarch->title);
	json_kv_string(&j, "source", o->uarch->source);
	json_kv_string(&j, "chosen_by", uwhy);
	json_end_object(&j);
	json_key(&j, "period");
	json_begin_object(&j);
	json_kv_double(&j, "cycles", o->period);
	json_kv_string(&j, "source", pwhy);
	json_end_object(&j);
	json_kv_u64(&j, "event_samples", st->event_samples);
	json_kv_u64(&j, "functions_failed", st->nfailed);
	json_kv_string(&j, "first_failure", st->nfailed ? st->first_failure : NULL);
	json_key(&j, "summary");
	cpi_json_summary(&j, &st->total);
	json_key(&j, "functions");
	json_begin_array(&j);
	for (size_t k = 0; k < st->nfns; k++) {
		const struct func_row *f = &st->fns[k];

		json_begin_object(&j);
		json_kv_string(&j, "function", f->name);
		json_kv_hex(&j, "start", f->start);
		json_kv_bool(&j, "cfg_incomplete", f->incomplete);
		json_key(&j, "summary");
		cpi_json_summary(&j, &f->sum);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "top");
	json_begin_array(&j);
	for (size_t k = 0; k < st->nrows && (long)k < limit; k++) {
		const struct stall_row *r = &st->rows[k];

		json_begin_object(&j);
		json_kv_string(&j, "function", st->fns[r->fn].name);
		json_kv_u64(&j, "offset", r->offset);
		json_kv_hex(&j, "addr", r->addr);
		json_kv_string(&j, "text", r->text);
		json_kv_u64(&j, "samples", r->samples);
		json_kv_double(&j, "execs", r->execs);
		json_kv_double(&j, "stall_per_exec", r->per_exec);
		json_kv_double(&j, "stall_cycles", r->cycles);
		json_kv_double(&j, "share", st->total.cycles > 0 ? r->cycles / st->total.cycles : 0);
		json_key(&j, "culprits");
		json_begin_array(&j);
		for (unsigned c = 0; c < DCPI_C__COUNT; c++) {
			if (!(r->culprits & 1u << c))
				continue;
			json_begin_object(&j);
			json_kv_string(&j, "cause", key[c]);
			json_key(&j, "bound");
			if (r->bound[c] < 0)
				json_null(&j);
			else
				json_double(&j, r->bound[c]);
			if (c == DCPI_C_DEPENDENCY && r->have_dep)
				json_kv_hex(&j, "on", r->dep_addr);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	if (!json_finish(&j))
		putchar('\n');
}

int cmd_stalls(int argc, char **argv)
{
	struct cpi_cli c = { 0 };
	struct profile prof;
	struct resolved r;
	struct cpi_opts o;
	struct stalls st;
	struct insn_func *fs = NULL;
	size_t nfs = 0;
	char err[1024], uwhy[160], pwhy[160];
	const struct opt opts[] = {
		CPI_CLI_TABLE(&c, "the cycles (or timer) event (as bmprof cpi)",
			      "the summary and the list as JSON"),
		OPT_ULONG('n', NULL, &c.limit, "N", "list the top N stalled instructions (default "
			  "20)", 1, LONG_MAX),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "stalls", .opts = opts,
				     .description = description };
	int rc = cpi_cli_parse(argc, argv, &cmd, &c, 0);

	if (rc >= 0) {
		cpi_cli_end();
		return rc;
	}
	memset(&st, 0, sizeof st);
	rc = 1;
	if (cpi_cli_open(&c, &prof, &r, &o))
		goto out;
	if (o.event < 0)
		o.event = cpi_default_event(&prof);
	if (o.event < 0) {
		bm_err("%s has no samples: nothing to analyse", c.input);
		goto out;
	}
	/* one model and period for every function */
	if (cpi_choose(&prof, &o, o.event, &o.uarch, uwhy, sizeof uwhy, &o.period, pwhy,
		       sizeof pwhy, err, sizeof err) ||
	    insn_func_load_all(r.elf, &fs, &nfs, err, sizeof err)) {
		bm_err("%s", err);
		goto out;
	}
	if (analyse_all(&st, &prof, &o, fs, nfs))
		goto out;
	if (!st.nfns) {
		bm_err("no function of %s has samples of the event%s%s", r.elf,
		       st.nfailed ? " that could be analysed: " : " (they all lie outside its "
		       "symbols)", st.nfailed ? st.first_failure : "");
		goto out;
	}
	if (c.json)
		print_json(&st, &prof, &o, uwhy, pwhy, r.elf, c.limit);
	else
		print_text(&st, &prof, &o, uwhy, pwhy, r.elf, c.limit);
	rc = fflush(stdout) || ferror(stdout) ? 1 : 0;
out:
	insn_funcs_free(fs, nfs);
	free(st.fns);
	free(st.rows);
	resolve_close(&r);
	profile_free(&prof);
	cpi_cli_end();
	return rc;
}
