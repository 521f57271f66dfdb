/* SPDX-License-Identifier: BSD-2-Clause */
/* Printing DCPI's analyses as text and JSON (cpi_print.h). */
#include "cpi/cpi_print.h"
#include "report/run_notes.h"
#include "util/term.h"
#include "util/util.h"

#include <inttypes.h>
#include <string.h>

#include "profile.h"

void cpi_summary_add(struct dcpi_summary *t, const struct dcpi_summary *s)
{
	double wb = (t->best_cpi > 0 ? t->best_cpi * t->insn_execs : 0) +
		    (s->best_cpi > 0 ? s->best_cpi * s->insn_execs : 0);
	double wa = (t->actual_cpi > 0 ? t->actual_cpi * t->insn_execs : 0) +
		    (s->actual_cpi > 0 ? s->actual_cpi * s->insn_execs : 0);

	t->samples += s->samples;
	t->cycles += s->cycles;
	t->execution += s->execution;
	for (int k = 0; k < SCHED__COUNT; k++)
		t->static_stall[k] += s->static_stall[k];
	for (int c = 0; c < DCPI_C__COUNT; c++) {
		t->dyn_lo[c] += s->dyn_lo[c];
		t->dyn_hi[c] += s->dyn_hi[c];
	}
	t->dyn_total += s->dyn_total;
	t->unexplained_stall += s->unexplained_stall;
	t->unexplained_gain += s->unexplained_gain;
	t->sampling_error += s->sampling_error;
	t->insn_execs += s->insn_execs;
	t->best_cpi = t->insn_execs > 0 ? wb / t->insn_execs : -1;
	t->actual_cpi = t->insn_execs > 0 ? wa / t->insn_execs : -1;
}

static const char *const static_name[SCHED__COUNT] = {
	"Other", "Dependency", "Unit busy", "Issue width", "Own latency",
};
static const char *const static_key[SCHED__COUNT] = {
	"other", "dependency", "unit_busy", "width", "latency",
};
static const char *const culprit_key[DCPI_C__COUNT] = {
	"icache", "itlb", "dcache", "dtlb", "mispredict", "write_buffer", "unit_busy",
	"dependency",
};

static const struct cfg_block *block_of(const struct cpi_func *cf, uint32_t i)
{
	return &cf->cfg.blocks[cf->cfg.block_of[i]];
}

/* The absolute index of i's static culprit, or -1. */
static long static_culprit(const struct cpi_func *cf, uint32_t i)
{
	const struct cfg_block *bl = block_of(cf, i);
	int32_t c = cf->sched[i].culprit;

	return c >= 0 && (uint32_t)c < bl->n ? (long)(bl->first + (uint32_t)c) : -1;
}

const char *cpi_static_text(const struct cpi_func *cf, uint32_t i, char *buf, size_t n)
{
	const struct sched_insn *s = &cf->sched[i];
	long c = static_culprit(cf, i);
	const char *carried = c >= (long)i ? ", previous iteration" : "";

	buf[0] = 0;
	if (!s->stall)
		return buf;
	switch (s->reason) {
	case SCHED_DEPENDENCY:
		if (c >= 0)
			snprintf(buf, n, "dep on 0x%" PRIx64 "%s", cf->fn.insns[c].addr, carried);
		else
			snprintf(buf, n, "dependency");
		break;
	case SCHED_UNIT_BUSY:
		if (c >= 0)
			snprintf(buf, n, "unit busy (0x%" PRIx64 "%s)", cf->fn.insns[c].addr, carried);
		else
			snprintf(buf, n, "unit busy");
		break;
	case SCHED_WIDTH:
		snprintf(buf, n, "%s width", cf->uarch->out_of_order ? "retire" : "issue");
		break;
	case SCHED_LATENCY:
		snprintf(buf, n, "own latency");
		break;
	default:
		snprintf(buf, n, "other");
	}
	return buf;
}

const char *cpi_culprits_text(const struct cpi_func *cf, uint32_t i, char *buf, size_t n)
{
	const struct dcpi_insn *d = &cf->res.insns[i];
	size_t len = 0;

	buf[0] = 0;
	for (unsigned c = 0; c < DCPI_C__COUNT && len < n; c++) {
		if (!(d->culprits & 1u << c))
			continue;
		const char *sep = len ? " " : "";

		if (c == DCPI_C_DEPENDENCY && d->dep_on >= 0)
			len += (size_t)snprintf(buf + len, n - len, "%sdep on 0x%" PRIx64, sep,
						cf->fn.insns[d->dep_on].addr);
		else if (c == DCPI_C_UNIT_BUSY)
			len += (size_t)snprintf(buf + len, n - len, "%sunit-busy", sep);
		else if (c == DCPI_C_WRITE_BUFFER)
			len += (size_t)snprintf(buf + len, n - len, "%swrite-buffer", sep);
		else
			len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, dcpi_culprit_name(c));
		if (len < n && d->bound[c] >= 0 && c != DCPI_C_UNIT_BUSY)
			len += (size_t)snprintf(buf + len, n - len, "<=%.1f", d->bound[c]);
	}
	return buf;
}

const char *cpi_sample_source(const struct profile *p, char *buf, size_t n)
{
	static const char *const keys[] = { "accel", "icount", "user_mode", "smp", "freq" };
	size_t len = 0;

	buf[0] = 0;
	if (p->have_hello)
		len += (size_t)snprintf(buf, n, "%s", p->hello.source == BMPROF_SOURCE_TIMER ?
					"timer" : "PMU overflow");
	for (size_t k = 0; k < sizeof keys / sizeof keys[0] && len < n; k++) {
		const char *v = profile_meta(p, keys[k]);

		if (v && *v)
			len += (size_t)snprintf(buf + len, n - len, "%s%s=%s",
						len ? (k && strchr(buf, '=') ? " " : "; ") : "",
						keys[k], v);
	}
	return buf;
}

void cpi_print_notes(FILE *f, const struct profile *p)
{
	const char *note = run_notes_block_starts(p);

	if (note)
		fprintf(f, "note: %s; the estimates say little\n", note);
}

/* 1234567, 1.23e+10: an execution count in at most 10 columns */
static const char *count_text(double v, char *buf, size_t n)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else if (v < 1e9)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.3g", v);
	return buf;
}

static const char *fixed_text(double v, int known, char *buf, size_t n)
{
	if (!known)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f", v);
	return buf;
}

static void block_flags_text(const struct cfg_block *bl, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s", bl->flags & CFG_BLOCK_IN_LOOP ? " [loop]" : "",
		 bl->flags & CFG_BLOCK_UNREACHED ? " [unreached]" : "",
		 bl->flags & CFG_BLOCK_NO_EXIT ? " [no exit]" : "",
		 bl->flags & CFG_BLOCK_UNRESOLVED ? " [unresolved jump]" : "");
}

static void print_insn(FILE *f, const struct cpi_func *cf, uint32_t i, int color)
{
	const struct insn *x = &cf->fn.insns[i];
	const struct dcpi_insn *d = &cf->res.insns[i];
	const struct sched_insn *s = &cf->sched[i];
	char cpe[24], st[24], dyn[24], why[160], cul[256];
	int has_dyn = d->cpe >= 0 && d->dyn_stall >= 0.05;

	fixed_text(d->cpe, d->cpe >= 0, cpe, sizeof cpe);
	if (s->M == 0 && !d->samples)
		snprintf(cpe, sizeof cpe, "(0)");
	if (s->stall)
		snprintf(st, sizeof st, "%" PRIu32, s->stall);
	else
		st[0] = 0;
	if (has_dyn)
		snprintf(dyn, sizeof dyn, "%.2f", d->dyn_stall);
	else if (d->cpe >= 0 && d->dyn_stall <= -0.05 && s->M)
		snprintf(dyn, sizeof dyn, "%.2f", d->dyn_stall);
	else
		dyn[0] = 0;
	/* the samples coloured by their share of the function's, as report's percentages */
	const char *c = color && cf->fn_samples ? term_pct_color(100.0 * (double)d->samples /
								(double)cf->fn_samples) : NULL;
	/* 50 columns of numbers, then text cut so that lines end by column 100 */
	fprintf(f, "%12" PRIx64 " %s%9" PRIu64 "%s %7s %6s %7s  %.50s\n", x->addr, c ? c : "",
		d->samples, c ? TERM_RESET : "", cpe, st, dyn, x->text);
	cpi_static_text(cf, i, why, sizeof why);
	if (has_dyn)
		cpi_culprits_text(cf, i, cul, sizeof cul);
	else
		cul[0] = 0;
	if (why[0] || has_dyn) {
		char line[512];

		snprintf(line, sizeof line, "%s%s%s%s%s", why[0] ? "static: " : "", why,
			 why[0] && has_dyn ? "; " : "", has_dyn ? "dynamic: " : "",
			 has_dyn ? (cul[0] ? cul : "unexplained") : "");
		fprintf(f, "%38s%.62s\n", "", line);
	}
}

static void print_block(FILE *f, const struct cpi_func *cf, uint32_t b, int color)
{
	const struct cfg_block *bl = &cf->cfg.blocks[b];
	const struct dcpi_block *db = &cf->res.blocks[b];
	const struct insn *last = &cf->fn.insns[bl->first + bl->n - 1];
	char ex[32], best[24], act[24], fl[80];

	block_flags_text(bl, fl, sizeof fl);
	fprintf(f, "\nblock 0x%" PRIx64 "-0x%" PRIx64 ", %" PRIu32 " insn%s%s\n",
		cf->fn.insns[bl->first].addr, last->addr + last->size, bl->n, bl->n == 1 ? "" : "s",
		fl);
	fprintf(f, "  executions %s (%s, %s)   samples %" PRIu64 "   best-case CPI %s   "
		"actual CPI %s\n", count_text(db->execs, ex, sizeof ex), dcpi_conf_name(db->conf),
		dcpi_how_name(db->how), db->samples,
		fixed_text(db->best_cpi, db->best_cpi >= 0, best, sizeof best),
		fixed_text(db->actual_cpi, db->actual_cpi >= 0, act, sizeof act));
	if (cf->ev_id[0] >= 0 && cf->res.insns[bl->first].retired_execs >= 0)
		fprintf(f, "  executions from instructions retired: %s\n",
			count_text(cf->res.insns[bl->first].retired_execs, ex, sizeof ex));
	for (uint32_t i = bl->first; i < bl->first + bl->n; i++)
		print_insn(f, cf, i, color);
}

void cpi_print_func(FILE *f, const struct profile *p, const struct cpi_func *cf,
		    const char *elf, int color)
{
	char safe_elf[2 * 4096], safe_name[256];
	const struct profile_event *e = profile_event(p, (uint16_t)cf->event);
	char src[256];
	uint64_t all = 0;

	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].event == cf->event)
			all += p->samples[i].count;
	fprintf(f, "bmprof cpi: %s [0x%" PRIx64 ", 0x%" PRIx64 "), %zu instructions\n",
		bm_safe(safe_name, sizeof safe_name, cf->fn.name), cf->fn.start, cf->fn.end,
		cf->fn.n);
	fprintf(f, "image:    %s\n", bm_safe(safe_elf, sizeof safe_elf, elf));
	cpi_print_model(f, cf->uarch, cf->uarch_why);
	fprintf(f, "period:   %.*f cycles per sample (%s)\n", cf->period >= 100 ? 0 : 2,
		cf->period, cf->period_why);
	fprintf(f, "samples:  %" PRIu64 " of event %s here, %.2f%% of %" PRIu64 "\n",
		cf->fn_samples, e && e->name[0] ? e->name : "?",
		all ? 100.0 * (double)cf->fn_samples / (double)all : 0, all);
	fprintf(f, "sampled:  %.90s\n", cpi_sample_source(p, src, sizeof src)[0] ? src : "?");
	for (int r = 0; r < 6; r++)
		if (cf->ev_id[r] >= 0) {
			const struct profile_event *o = profile_event(p, (uint16_t)cf->ev_id[r]);

			fprintf(f, "culprit evidence: %" PRIu64 " samples of %s here (%.6g per "
				"sample)\n", cf->ev_total[r], o ? o->name : "?", cf->ev_period[r]);
		}
	cpi_print_notes(f, p);
	if (cf->cfg.incomplete)
		fprintf(f, "note: the CFG is incomplete: an indirect jump's targets are unknown, so "
			"block counts are not propagated into blocks it may reach\n");
	fprintf(f, "\n%12s %9s %7s %6s %7s  %s\n", "address", "samples", "cyc/ex", "static",
		"dynamic", "instruction");
	for (uint32_t b = 0; b < cf->cfg.nblocks; b++)
		if (cf->cfg.blocks[b].n)
			print_block(f, cf, b, color);
	fputc('\n', f);
	cpi_print_summary(f, &cf->res.sum, all);
}

void cpi_print_model(FILE *f, const struct uarch *u, const char *why)
{
	char line[512];

	/* the title may run long: the line stops at 100 columns */
	snprintf(line, sizeof line, "model:    %s (%s): %s", u->name, why, u->title);
	if (strlen(line) > 100)
		memcpy(line + 96, "...", 4);
	fprintf(f, "%s\n", line);
}

/* a share in percent; one that prints as 0.0 is 0, never -0.0 */
static double pct(double v, double whole)
{
	double p = whole > 0 ? 100.0 * v / whole : 0;

	return p > -0.05 && p < 0.05 ? 0 : p;
}

void cpi_print_summary(FILE *f, const struct dcpi_summary *s, uint64_t all_samples)
{
	static const char *const dyn_title[DCPI_C__COUNT] = {
		"I-cache miss", "I-TLB miss", "D-cache miss", "D-TLB miss", "Branch mispredict",
		"Write buffer", "Unit busy", "Register dependency",
	};
	double C = s->cycles, st = 0;
	char cyc[32];

	for (int k = 0; k < SCHED__COUNT; k++)
		st += s->static_stall[k];
	if (s->insn_execs > 0) {
		fprintf(f, "*** Best-case  %14.0f / %-14.0f = %5.2f CPI\n",
			s->best_cpi * s->insn_execs, s->insn_execs, s->best_cpi);
		fprintf(f, "*** Actual     %14.0f / %-14.0f = %5.2f CPI\n",
			s->actual_cpi * s->insn_execs, s->insn_execs, s->actual_cpi);
	} else {
		fprintf(f, "*** Best-case and actual CPI unknown: no instruction's frequency could be "
			"estimated\n");
	}
	fprintf(f, "***\n");
	for (int c = 0; c < DCPI_C__COUNT; c++)
		fprintf(f, "***   %-22s %6.1f%% to %6.1f%%\n", dyn_title[c], pct(s->dyn_lo[c], C),
			pct(s->dyn_hi[c], C));
	fprintf(f, "***   %-22s %6.1f%% to %6.1f%%\n", "Unexplained stall",
		pct(s->unexplained_stall, C), pct(s->unexplained_stall, C));
	fprintf(f, "***   %-22s %6.1f%% to %6.1f%%\n", "Unexplained gain",
		pct(-s->unexplained_gain, C), pct(-s->unexplained_gain, C));
	fprintf(f, "*** %-24s %6.1f%%\n", "Subtotal dynamic",
		pct(s->dyn_total - s->unexplained_gain, C));
	fprintf(f, "***\n");
	for (int k = 1; k < SCHED__COUNT; k++)
		fprintf(f, "***   %-22s %6.1f%%\n", static_name[k], pct(s->static_stall[k], C));
	if (s->static_stall[0] != 0)
		fprintf(f, "***   %-22s %6.1f%%\n", static_name[0], pct(s->static_stall[0], C));
	fprintf(f, "*** %-24s %6.1f%%\n", "Subtotal static", pct(st, C));
	fprintf(f, "***\n");
	fprintf(f, "*** %-24s %6.1f%%\n", "Total stall",
		pct(st + s->dyn_total - s->unexplained_gain, C));
	fprintf(f, "*** %-24s %6.1f%%\n", "Execution", pct(s->execution, C));
	fprintf(f, "*** %-24s %6.1f%%\n", "Net sampling error", pct(s->sampling_error, C));
	fprintf(f, "*** %-24s %6.1f%%\n", "Total tallied",
		pct(s->execution + st + s->dyn_total - s->unexplained_gain + s->sampling_error, C));
	if (all_samples)
		fprintf(f, "*** (%" PRIu64 " samples, %.1f%% of all samples; %s cycles)\n",
			s->samples, 100.0 * (double)s->samples / (double)all_samples,
			count_text(C, cyc, sizeof cyc));
	else
		fprintf(f, "*** (%" PRIu64 " samples; %s cycles)\n", s->samples,
			count_text(C, cyc, sizeof cyc));
}

/* a double, or null when unknown (< 0) */
static void kv_known(struct json *j, const char *k, double v)
{
	json_key(j, k);
	if (v < 0)
		json_null(j);
	else
		json_double(j, v);
}

void cpi_json_summary(struct json *j, const struct dcpi_summary *s)
{
	double st = 0;

	for (int k = 0; k < SCHED__COUNT; k++)
		st += s->static_stall[k];
	json_begin_object(j);
	json_kv_u64(j, "samples", s->samples);
	json_kv_double(j, "cycles", s->cycles);
	json_kv_double(j, "insn_execs", s->insn_execs);
	kv_known(j, "best_cpi", s->best_cpi);
	kv_known(j, "actual_cpi", s->actual_cpi);
	json_key(j, "dynamic");
	json_begin_object(j);
	for (int c = 0; c < DCPI_C__COUNT; c++) {
		json_key(j, culprit_key[c]);
		json_begin_object(j);
		json_kv_double(j, "low", s->dyn_lo[c]);
		json_kv_double(j, "high", s->dyn_hi[c]);
		json_end_object(j);
	}
	json_end_object(j);
	json_kv_double(j, "dynamic_total", s->dyn_total);
	json_kv_double(j, "unexplained_stall", s->unexplained_stall);
	json_kv_double(j, "unexplained_gain", s->unexplained_gain);
	json_key(j, "static");
	json_begin_object(j);
	for (int k = 0; k < SCHED__COUNT; k++)
		json_kv_double(j, static_key[k], s->static_stall[k]);
	json_end_object(j);
	json_kv_double(j, "static_total", st);
	json_kv_double(j, "execution", s->execution);
	json_kv_double(j, "sampling_error", s->sampling_error);
	json_end_object(j);
}

static void json_insn(struct json *j, const struct cpi_func *cf, uint32_t i)
{
	const struct insn *x = &cf->fn.insns[i];
	const struct dcpi_insn *d = &cf->res.insns[i];
	const struct sched_insn *s = &cf->sched[i];
	long sc = static_culprit(cf, i);

	json_begin_object(j);
	json_kv_hex(j, "addr", x->addr);
	json_kv_string(j, "text", x->text);
	json_kv_u64(j, "samples", d->samples);
	json_kv_u64(j, "issue_cycles", s->M);
	kv_known(j, "execs", d->execs);
	kv_known(j, "cycles_per_exec", d->cpe);
	kv_known(j, "retired_execs", d->retired_execs);
	json_key(j, "static_stall");
	json_begin_object(j);
	json_kv_u64(j, "cycles", s->stall);
	json_kv_string(j, "reason", s->stall ? static_key[s->reason < SCHED__COUNT ?
							  s->reason : 0] : NULL);
	json_key(j, "culprit");
	if (s->stall && sc >= 0)
		json_hex(j, cf->fn.insns[sc].addr);
	else
		json_null(j);
	json_end_object(j);
	json_key(j, "dynamic_stall");
	if (d->cpe < 0) {
		json_null(j);
	} else {
		json_begin_object(j);
		json_kv_double(j, "cycles", d->dyn_stall);
		json_key(j, "culprits");
		json_begin_array(j);
		for (unsigned c = 0; c < DCPI_C__COUNT; c++) {
			if (!(d->culprits & 1u << c) || !(d->dyn_stall > 0))
				continue;
			json_begin_object(j);
			json_kv_string(j, "cause", culprit_key[c]);
			kv_known(j, "bound", d->bound[c]);
			if (c == DCPI_C_DEPENDENCY && d->dep_on >= 0)
				json_kv_hex(j, "on", cf->fn.insns[d->dep_on].addr);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_object(j);
}

static const char *edge_kind(unsigned k)
{
	static const char *const n[] = { "fall", "taken", "table", "entry", "exit", "loop_exit" };
	return k < 6 ? n[k] : "?";
}

static void json_block(struct json *j, const struct cpi_func *cf, uint32_t b)
{
	const struct cfg *g = &cf->cfg;
	const struct cfg_block *bl = &g->blocks[b];
	const struct dcpi_block *db = &cf->res.blocks[b];
	const struct insn *last = &cf->fn.insns[bl->first + bl->n - 1];

	json_begin_object(j);
	json_kv_hex(j, "start", cf->fn.insns[bl->first].addr);
	json_kv_hex(j, "end", last->addr + last->size);
	json_kv_u64(j, "ninsns", bl->n);
	kv_known(j, "execs", db->execs);
	json_kv_string(j, "confidence", db->conf ? dcpi_conf_name(db->conf) : NULL);
	json_kv_string(j, "how", dcpi_how_name(db->how));
	json_key(j, "class");
	if (bl->cls == CFG_NO_CLASS)
		json_null(j);
	else
		json_u64(j, bl->cls);
	json_kv_u64(j, "samples", db->samples);
	kv_known(j, "best_cpi", db->best_cpi);
	kv_known(j, "actual_cpi", db->actual_cpi);
	json_kv_bool(j, "in_loop", !!(bl->flags & CFG_BLOCK_IN_LOOP));
	json_kv_bool(j, "unreached", !!(bl->flags & CFG_BLOCK_UNREACHED));
	json_kv_bool(j, "no_exit", !!(bl->flags & CFG_BLOCK_NO_EXIT));
	json_kv_bool(j, "unresolved_jump", !!(bl->flags & CFG_BLOCK_UNRESOLVED));
	json_key(j, "successors");
	json_begin_array(j);
	for (uint32_t k = 0; k < bl->nout; k++) {
		uint32_t e = g->out[bl->out_at + k];
		const struct cfg_edge *ed = &g->edges[e];
		const struct dcpi_edge *de = &cf->res.edges[e];

		json_begin_object(j);
		json_key(j, "to");
		if (g->blocks[ed->to].n)
			json_hex(j, cf->fn.insns[g->blocks[ed->to].first].addr);
		else
			json_string(j, "exit");
		json_kv_string(j, "kind", edge_kind(ed->kind));
		kv_known(j, "execs", de->execs);
		json_kv_string(j, "confidence", de->conf ? dcpi_conf_name(de->conf) : NULL);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "insns");
	json_begin_array(j);
	for (uint32_t i = bl->first; i < bl->first + bl->n; i++)
		json_insn(j, cf, i);
	json_end_array(j);
	json_end_object(j);
}

void cpi_json_func(struct json *j, const struct profile *p, const struct cpi_func *cf,
		   const char *elf)
{
	const struct profile_event *e = profile_event(p, (uint16_t)cf->event);
	char src[256];

	json_begin_object(j);
	json_kv_string(j, "function", cf->fn.name);
	json_kv_hex(j, "start", cf->fn.start);
	json_kv_hex(j, "end", cf->fn.end);
	json_kv_string(j, "elf", elf);
	json_key(j, "event");
	json_begin_object(j);
	json_kv_u64(j, "id", (uint64_t)cf->event);
	json_kv_string(j, "name", e ? e->name : NULL);
	json_end_object(j);
	json_kv_string(j, "sample_source", cpi_sample_source(p, src, sizeof src));
	json_key(j, "uarch");
	json_begin_object(j);
	json_kv_string(j, "name", cf->uarch->name);
	json_kv_string(j, "title", cf->uarch->title);
	json_kv_string(j, "source", cf->uarch->source);
	json_kv_string(j, "chosen_by", cf->uarch_why);
	json_end_object(j);
	json_key(j, "period");
	json_begin_object(j);
	json_kv_double(j, "cycles", cf->period);
	json_kv_string(j, "source", cf->period_why);
	json_end_object(j);
	json_kv_u64(j, "samples", cf->fn_samples);
	json_key(j, "other_events");
	json_begin_array(j);
	for (int r = 0; r < 6; r++) {
		const struct profile_event *o;

		if (cf->ev_id[r] < 0)
			continue;
		o = profile_event(p, (uint16_t)cf->ev_id[r]);
		json_begin_object(j);
		json_kv_string(j, "role", cpi_ev_role[r]);
		json_kv_string(j, "name", o ? o->name : NULL);
		json_kv_double(j, "period", cf->ev_period[r]);
		json_kv_u64(j, "samples", cf->ev_total[r]);
		json_end_object(j);
	}
	json_end_array(j);
	json_kv_bool(j, "cfg_incomplete", cf->cfg.incomplete);
	json_key(j, "blocks");
	json_begin_array(j);
	for (uint32_t b = 0; b < cf->cfg.nblocks; b++)
		if (cf->cfg.blocks[b].n)
			json_block(j, cf, b);
	json_end_array(j);
	json_key(j, "summary");
	cpi_json_summary(j, &cf->res.sum);
	json_end_object(j);
}
