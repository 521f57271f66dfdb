/* SPDX-License-Identifier: BSD-2-Clause */
/* A flat report of a profile: made (the ELF resolved, firmware modules, the flat table) and
 * printed as text (report.h). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events.h"
#include "profile_phase.h"
#include "profile/profile_bound.h"
#include "profile/target_log.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/run_notes.h"
#include "report/summary.h"
#include "symbol/symname.h"
#include "run_mode.h"
#include "util/util.h"
#include "wire_text.h"

#define MAX_CPU_LINES 16         /* per-CPU header lines before "... more" */
#define MAX_CPU_COLUMNS 4        /* per-CPU sample columns; more CPUs: a "cpus" list */
#define MAX_PHASE_COLUMNS 6      /* per-phase sample columns; more: a "phases" list */

const char *arch_name(uint8_t arch) { return bmprof_arch_name(arch); }

const char *source_name(uint8_t src)
{
	return src == BMPROF_SOURCE_TIMER ? "timer"
		: src == BMPROF_SOURCE_PMU || src == BMPROF_SOURCE_PMU_FIXED ? "pmu" : "unknown";
}

const char *sort_name(enum flat_sort s)
{
	return s == FLAT_BY_LINE ? "line" : s == FLAT_BY_ADDRESS ? "address"
		: s == FLAT_BY_CPU ? "cpu" : "function";
}

const char *end_reason(uint8_t reason) { return bmprof_end_reason_name(reason); }

/* Timer periods are in timebase ticks, so they have a rate; PMU periods count events. */
double event_hz(const struct profile *p, const struct profile_event *e)
{
	if (e->source != BMPROF_SOURCE_TIMER || !e->period || !p->hello.timebase_hz)
		return 0;
	return (double)p->hello.timebase_hz / (double)e->period;
}


void sum_cpus(const struct profile *p, struct totals *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned i = 0; i < p->ncpus_seen; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		if (!c->seen)
			continue;
		t->seen++;
		t->received += c->received;
		if (!c->have_totals) {
			t->received_untold += c->received;
			continue;
		}
		t->with_totals++;
		t->taken += c->totals[BMPROF_TOTAL_TAKEN];
		t->delivered += c->totals[BMPROF_TOTAL_DELIVERED];
		t->lost_full += c->totals[BMPROF_TOTAL_LOST_FULL];
		t->lost_transport += c->totals[BMPROF_TOTAL_LOST_TRANSPORT];
		t->in_transit += profile_cpu_lost_in_transit(c);
	}
}

/* Everything that makes the numbers less than the whole truth, one line each. */
unsigned warnings(const struct report *rp, char out[][WARN_LEN], unsigned max)
{
	const struct profile *p = rp->p;
	unsigned n = 0;
#define WARN(...) do { if (n < max) snprintf(out[n++], sizeof out[0], __VA_ARGS__); } while (0)

	if (rp->load_warning[0])
		WARN("%s", rp->load_warning);
	if (!p->have_hello)
		WARN("no HELLO frame: the start of the stream was lost; the target is unknown and "
		     "the ELF cannot be checked");
	if (!p->have_end && profile_meta(p, "recovered"))
		WARN("no END frame: the run did not finish; the samples the target still held were "
		     "read from its memory (see # recovered)");
	else if (!p->have_end)
		WARN("no END frame: the run did not finish (timeout, interrupt, hard crash), so samples "
		     "still held by the target are missing");
	if (profile_meta(p, "recovered_inexact"))
		WARN("recovered, not exact: %s", profile_meta(p, "recovered_inexact"));
	if (p->frames_bad_crc)
		WARN("%" PRIu64 " frames failed their CRC and were dropped", p->frames_bad_crc);
	if (p->frames_unknown)
		WARN("%" PRIu64 " frames of an unknown type were skipped", p->frames_unknown);
	if (p->frames_malformed)
		WARN("%" PRIu64 " malformed frames were dropped", p->frames_malformed);
	if (p->bytes_skipped)
		WARN("%" PRIu64 " bytes that were not a valid frame were skipped", p->bytes_skipped);
	if (p->truncated)
		WARN("the stream ended inside a frame");
	if (p->hello_mismatch)
		WARN("%" PRIu64 " later HELLO frames named another image: the first one is used",
		     p->hello_mismatch);
	for (unsigned i = 0, end = summary_cpu_end(p); i < end && n < max; i++)
		n += summary_cpu_warnings(p, i, out[n], sizeof out[0], max - n);
	return n;
#undef WARN
}

/* One "# event" line: where the event was counted and how, or why it was not. */
static void print_event(FILE *f, const struct report *rp, const struct profile_event *e)
{
	const struct profile *p = rp->p;
	double hz = event_hz(p, e);
	char buf[200];
	struct profile_count_sum s;
	int counted = !profile_event_count(p, e->id, -1, &s);

	fprintf(f, "# event %-3u %s: ", e->id, e->name[0] ? e->name : "?");
	if (e->status != BMPROF_EVST_ACTIVE) {
		fprintf(f, "%s", events_status_text(buf, sizeof buf, e));
		if (e->status == BMPROF_EVST_FALLBACK && e->period)
			fprintf(f, ", period %" PRIu64 " ticks", e->period);
		if (hz > 0)
			fprintf(f, " (%.6g Hz)", hz);
	} else {
		if (e->have_status && e->counter_kind != BMPROF_CTR_TIMER)
			fprintf(f, "%s, ", events_counter_text(buf, sizeof buf, e, p->hello.arch));
		if ((e->flags & BMPROF_EVENT_COUNTING) || !e->period)
			fprintf(f, "counted, not sampled");
		else
			fprintf(f, "period %" PRIu64 " %s", e->period,
				e->source == BMPROF_SOURCE_TIMER ? "ticks" : "events");
		if (hz > 0)
			fprintf(f, " (%.6g Hz)", hz);
		if (e->jitter && e->period)
			fprintf(f, ", randomized in [%" PRIu64 ", %" PRIu64 "]",
				e->jitter < e->period ? e->period - e->jitter : 0, e->period);
		if (e->reason != BMPROF_EVR_NONE)
			fprintf(f, " (%s)", events_reason_text(e->reason));
	}
	if (e->ngroups > 1 && e->group != 0xff)
		fprintf(f, ", group %u of %u", e->group + 1u, e->ngroups);
	if (counted) {
		fprintf(f, ", count %" PRIu64, s.value);
		if (s.running < s.enabled)
			fprintf(f, ", on the PMU %.1f%% of the time: multiplexed, samples scaled "
				"x%.3g (count scaled to %.0f)", s.enabled ? 100.0 * (double)s.running /
				(double)s.enabled : 0.0, profile_event_scale(p, e->id),
				profile_count_scaled(&s));
	}
	fprintf(f, "%s\n", rp->event == e->id ? "  <- reported" : "");
}

/* One line per CPU when there is more than one: what became of its samples. */
static void print_cpu_lines(FILE *f, const struct profile *p)
{
	unsigned named = summary_cpu_end(p), listed = 0, shown = 0;
	char fate[400];

	for (unsigned i = 0; i < named; i++)
		listed += (unsigned)summary_cpu_listed(p, i);
	if (listed < 2)
		return;
	for (unsigned i = 0; i < named; i++) {
		if (!summary_cpu_listed(p, i))
			continue;
		if (shown++ == MAX_CPU_LINES) {
			fprintf(f, "#           ... %u more CPUs (--format json has them all)\n",
				listed - MAX_CPU_LINES);
			break;
		}
		summary_cpu_fate(fate, sizeof fate, p, i);
		fprintf(f, "#   cpu %-3u %s\n", i, fate);
	}
}

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "# outside" line: the samples outside the image, when there are any or firmware
 * modules were given. */
static void print_outside(FILE *f, const struct report *rp)
{
	const struct flat_result *res = &rp->flat;
	const struct resolved *r = &rp->r;

	if (!r->have_span || (!res->outside && !rp->fw.nmods))
		return;
	fprintf(f, "# outside   %" PRIu64 " samples (%.2f%%) outside the image (0x%" PRIx64
		"-0x%" PRIx64 "): firmware", res->outside, pct_of(res->outside, res->total),
		r->span_lo + r->load_bias, r->span_hi + r->load_bias - 1);
	if (rp->fw.nmods)
		fprintf(f, "; %" PRIu64 " symbolized with %zu firmware module%s, the rest by 4 KiB "
			"page\n", res->outside_symbolized, rp->fw.nmods, rp->fw.nmods == 1 ? "" : "s");
	else
		fprintf(f, ", by 4 KiB page (--firmware-sym, --firmware-log: by function)\n");
}

/* After a CPU exception's end line: "; in FUNCTION+0xOFF" when the fault pc is in a symbol of
 * the image's ELF. */
static void print_fault_symbol(FILE *f, const struct report *rp)
{
	const struct profile *p = rp->p;
	struct sym_result res;

	if (!p->have_end || p->end.reason != BMPROF_END_EXCEPTION || !rp->r.sym ||
	    resolve_outside(&rp->r, p->end.fault_pc))
		return;
	if (symbolizer_lookup(rp->r.sym, p->end.fault_pc - rp->r.load_bias, &res) == 0 &&
	    res.symbol)
		fprintf(f, "; in %s+0x%" PRIx64, res.symbol, res.addr - res.sym_start);
}

/* "# recovered" and "# stopped" lines: the run was read back from the image's memory, and
 * where each vCPU was when QEMU stopped it (symbolized when in the image). */
static void print_recovered(FILE *f, const struct report *rp)
{
	const char *pcs = profile_meta(rp->p, "recovered_pcs");
	char line[300];
	unsigned i = 0;

	if (!summary_recovered(line, sizeof line, rp->p))
		return;
	fprintf(f, "# recovered %s\n", line);
	for (const char *c = pcs; c && *c; i++) {
		uint64_t pc = strtoull(c, NULL, 0);
		struct sym_result res;

		fprintf(f, "# stopped   vCPU %u at 0x%" PRIx64, i, pc);
		if (rp->r.sym && !resolve_outside(&rp->r, pc) &&
		    symbolizer_lookup(rp->r.sym, pc - rp->r.load_bias, &res) == 0 && res.symbol)
			fprintf(f, " (%s+0x%" PRIx64 ")", res.symbol, res.addr - res.sym_start);
		fputc('\n', f);
		c += strcspn(c, ",");
		c += *c == ',';
	}
}

/* The runtime's errors and warnings (LOG frames), the first REPORT_LOG_LINES of them. */
#define REPORT_LOG_LINES 10
static void print_target_log(FILE *f, const struct profile *p)
{
	char lv[16], text[4 * PROFILE_LOG_TEXT_MAX + 1];
	unsigned shown = 0, more = 0;

	for (size_t i = 0; i < p->nlogs; i++) {
		const struct profile_log *l = &p->logs[i];
		if (l->level == BMPROF_LOG_INFO)
			continue;
		if (shown == REPORT_LOG_LINES) {
			more++;
			continue;
		}
		fprintf(f, "# runtime   %s: %s%s\n", target_log_level(l->level, lv, sizeof lv),
			target_log_escape(text, sizeof text, l->text, l->len), l->cut ? "..." : "");
		shown++;
	}
	if (more || p->logs_dropped)
		fprintf(f, "# runtime   and %u more errors or warnings%s (--format json lists the "
			"messages kept)\n", more, p->logs_dropped ? ", and messages not kept" : "");
}

void report_print_header(FILE *f, const struct report *rp)
{
	char safe_elf[2 * PATH_MAX];
	const struct profile *p = rp->p;
	const struct profile_hello *h = &p->hello;
	char id[2 * BMPROF_BUILD_ID_MAX + 1], end[200], warn[64][WARN_LEN], clock[200], raw[300];
	char rw[4][RUN_NOTE_LEN], rn[4][RUN_NOTE_LEN];
	unsigned nrn, nrw = run_notes(p, rw, rn, 4, &nrn);
	struct totals t;
	const char *accel = profile_meta(p, "accel"), *icount = profile_meta(p, "icount");
	const char *smp = profile_meta(p, "smp");

	fprintf(f, "# profile   %s\n", rp->input);
	fprintf(f, "# image     %s", bm_safe(safe_elf, sizeof safe_elf, rp->r.elf));
	if (h->build_id_len)
		fprintf(f, " (build-id %s%s)", bm_hex(id, sizeof id, h->build_id, h->build_id_len),
			rp->r.build_id_checked ? ", matches" : "");
	fputc('\n', f);
	if (p->have_hello) {
		fprintf(f, "# target    %s, %s family %" PRIu32 " model 0x%" PRIx32 " stepping %" PRIu32
			", %u CPU%s, timebase %.6g MHz\n", arch_name(h->arch),
			h->vendor[0] ? h->vendor : "unknown vendor", h->family, h->model, h->stepping,
			h->ncpus, h->ncpus == 1 ? "" : "s", (double)h->timebase_hz / 1e6);
		run_notes_clock(clock, sizeof clock, p);
		if (clock[0])
			fprintf(f, "# clock     %s\n", clock);
		fprintf(f, "# source    %s%s\n", source_name(h->source), events_sampling_fell_back(p) ?
			" (events were requested, but none samples on the PMU: sampling fell back "
			"to the timer)" : "");
	}
	for (unsigned i = 0; i < p->nevents; i++)
		print_event(f, rp, &p->events[i]);
	sum_cpus(p, &t);
	if (t.with_totals && t.with_totals < t.seen)
		fprintf(f, "# samples   taken %" PRIu64 ", delivered %" PRIu64 ", lost %" PRIu64
			"; received %" PRIu64 " of %" PRIu64 " delivered; and %" PRIu64 " from %u "
			"CPU%s without TOTALS\n", t.taken, t.delivered, t.lost_full + t.lost_transport,
			t.received - t.received_untold, t.delivered, t.received_untold,
			t.seen - t.with_totals, t.seen - t.with_totals == 1 ? "" : "s");
	else if (t.with_totals)
		fprintf(f, "# samples   taken %" PRIu64 ", delivered %" PRIu64 ", lost %" PRIu64
			"; received %" PRIu64 " of %" PRIu64 " delivered\n", t.taken, t.delivered,
			t.lost_full + t.lost_transport, t.received, t.delivered);
	else
		fprintf(f, "# samples   received %" PRIu64 " (no TOTALS: taken and lost unknown)\n",
			t.received);
	print_cpu_lines(f, p);
	report_print_phases(f, rp);
	if (summary_raw(raw, sizeof raw, p))
		fprintf(f, "# raw       %s\n", raw);
	summary_end(end, sizeof end, p);
	fprintf(f, "# run       ");
	if (accel)
		fprintf(f, "accel %s, ", accel);
	if (icount)
		fprintf(f, "icount %s, ", !strcmp(icount, "0") ? "off" :
			!strcmp(icount, "1") ? "shift=0" : icount);
	if (smp)
		fprintf(f, "smp %s, ", smp);
	fprintf(f, "%s", end);
	print_fault_symbol(f, rp);
	fputc('\n', f);
	print_recovered(f, rp);
	print_target_log(f, p);
	unsigned nw = warnings(rp, warn, sizeof warn / sizeof warn[0]);
	print_outside(f, rp);
	for (unsigned i = 0; i < nw; i++)
		fprintf(f, "# warning   %s\n", warn[i]);
	for (unsigned i = 0; i < nrw; i++)
		fprintf(f, "# warning   %s\n", rw[i]);
	for (unsigned i = 0; i < nrn; i++)
		fprintf(f, "# note      %s\n", rn[i]);
	for (unsigned i = 0; i < rp->r.nnotes; i++)
		fprintf(f, "# note      %s\n", rp->r.notes[i]);
	for (unsigned i = 0; i < rp->fw.nnotes; i++)
		fprintf(f, "# note      %s\n", rp->fw.notes[i]);
}

/* "file:line" into buf, "??" when unknown. */
const char *where(char *buf, size_t n, const struct flat_row *r)
{
	if (!r->file)
		return "??";
	snprintf(buf, n, "%s:%u", resolve_short_path(r->file), r->line);
	return buf;
}

/* A sample at a pc in the image that no symbol (or line, for line rows) names. */
int is_unknown(const struct flat_row *r, enum flat_sort sort)
{
	if (r->outside)
		return 0;
	return sort == FLAT_BY_LINE ? !r->file && !r->function : !r->symbol;
}

/* A firmware row nothing names: one region (4 KiB page) outside the image. */
int is_region(const struct flat_row *r)
{
	return r->outside && r->region_hi;
}

/* "[firmware 0x7ea1000-0x7ea1fff]", or with the module that holds it, "[DxeCore.efi ...]";
 * address rows, without the range (the address column has it). */
const char *region_name(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort)
{
	const char *what = r->module ? r->module : "firmware";

	if (sort == FLAT_BY_ADDRESS)
		snprintf(buf, n, "[%s]", what);
	else
		snprintf(buf, n, "[%s 0x%" PRIx64 "-0x%" PRIx64 "]", what, r->region_lo,
			 r->region_hi - 1);
	return buf;
}

/* A function name as shown (demangled, a clone's suffix noted: symname.h), with its firmware
 * module when it has one: "DxeCore.efi!CoreTimerTick". */
static const char *qualified(char *buf, size_t n, const struct flat_row *r, const char *name)
{
	char shown[512];

	if (name && strcmp(name, "??"))
		name = symname_display(shown, sizeof shown, name);
	snprintf(buf, n, "%s%s%s", r->module ? r->module : "", r->module ? "!" : "",
		 name ? name : "??");
	return buf;
}

/* The name column: function, file:line or function+offset. */
static const char *raw_row_name(char *buf, size_t n, const struct flat_row *r,
				enum flat_sort sort)
{
	char tmp[512];

	if (is_unknown(r, sort))
		return "[unknown]";
	if (is_region(r))
		return region_name(buf, n, r, sort);
	switch (sort) {
	case FLAT_BY_LINE:
		return where(buf, n, r);
	case FLAT_BY_ADDRESS:
		if (!r->symbol)
			return qualified(buf, n, r, "??");
		snprintf(buf, n, "%s+0x%" PRIx64, qualified(tmp, sizeof tmp, r, r->symbol), r->offset);
		return buf;
	default:
		return qualified(buf, n, r, r->symbol);
	}
}

/* The last column: the hottest line, the function, or the address range of [unknown] and
 * of a firmware region's samples. */
static const char *raw_row_detail(char *buf, size_t n, const struct flat_row *r,
				  enum flat_sort sort)
{
	if ((is_unknown(r, sort) || is_region(r)) && sort != FLAT_BY_ADDRESS) {
		snprintf(buf, n, "0x%" PRIx64 "..0x%" PRIx64, r->addr_lo, r->addr_hi - 1);
		return buf;
	}
	if (sort == FLAT_BY_LINE)
		return r->function ? qualified(buf, n, r, r->function) : "[unknown]";
	return where(buf, n, r);
}

/* The columns as the terminal gets them: names and paths come from the ELF, its DWARF and
 * the firmware's modules, files a user hands over, so control bytes are escaped. */
const char *row_name(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort)
{
	char raw[PATH_MAX + 32];

	return bm_safe(buf, n, raw_row_name(raw, sizeof raw, r, sort));
}

const char *row_detail(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort)
{
	char raw[PATH_MAX + 32];

	return bm_safe(buf, n, raw_row_detail(raw, sizeof raw, r, sort));
}


double share(const struct flat_row *r)
{
	return r->cpu >= 0 ? r->cpu_percent : r->percent;
}

int pick(struct picker *k, const struct flat_row *r)
{
	if (r->cpu != k->cpu) {
		k->cpu = r->cpu;
		k->n = 0;
	}
	if (share(r) < k->min_percent || (k->limit >= 0 && k->n >= (size_t)k->limit))
		return 0;
	k->n++;
	return 1;
}

/* The samples of row r on cpu. */
static uint64_t row_on_cpu(const struct flat_row *r, unsigned cpu)
{
	for (size_t i = 0; i < r->nper_cpu; i++)
		if (r->per_cpu[i].cpu == cpu)
			return r->per_cpu[i].samples;
	return 0;
}

/* How the per-CPU split is shown: a column per CPU, a list at the end, or neither. */
enum split_view { SPLIT_NONE, SPLIT_COLUMNS, SPLIT_LIST };

/* How a table's rows are split: by CPU (phases NULL), or by phase (res: the table by
 * phase, rows in the same order; phases: the profile naming them). */
struct split {
	const struct flat_result *res;
	const struct profile *phases;
};

static enum split_view split_view(const struct split *sp, enum flat_sort sort)
{
	if (sp->phases)
		return sp->res->ncpus <= MAX_PHASE_COLUMNS ? SPLIT_COLUMNS : SPLIT_LIST;
	if (sort == FLAT_BY_CPU || sp->res->ncpus < 2)
		return SPLIT_NONE;
	return sp->res->ncpus <= MAX_CPU_COLUMNS ? SPLIT_COLUMNS : SPLIT_LIST;
}

/* A split column's head: "cpu1", or the phase's name */
static const char *split_head(char *buf, size_t n, const struct split *sp, unsigned c)
{
	char name[PROFILE_PHASE_NAME_MAX + 16];

	if (!sp->phases) {
		snprintf(buf, n, "cpu%u", c);
		return buf;
	}
	return bm_safe(buf, n, profile_phase_name(sp->phases, c, name, sizeof name));
}

/* "0:812 1:790": the row's samples per CPU (or "boot:812 run:790" per phase), those
 * without any left out. */
static const char *cpu_list(char *buf, size_t n, const struct flat_row *r,
			    const struct split *sp)
{
	char head[96];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->nper_cpu && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s:%" PRIu64, i ? " " : "",
					sp->phases ? split_head(head, sizeof head, sp,
								r->per_cpu[i].cpu) :
					(snprintf(head, sizeof head, "%u", r->per_cpu[i].cpu), head),
					r->per_cpu[i].samples);
	return buf;
}

/* One table: the column heads, rows[0..nrows) as picked, and how many were left out. */
static void print_table(FILE *f, const struct flat_result *res, const struct flat_row *rows,
			size_t nrows, enum flat_sort sort, long limit, double min_percent,
			const struct flat_result *by_phase, const struct profile *p)
{
	/* by phase: by_phase->rows[i] is rows[i] split by phase */
	const struct split sp = by_phase && by_phase->nrows ? (struct split){ by_phase, p } :
				(struct split){ res, NULL };
	static const char *const heads[][2] = {
		[FLAT_BY_FUNCTION] = { "function", "hottest line" },
		[FLAT_BY_LINE] = { "line", "function" },
		[FLAT_BY_ADDRESS] = { "function+offset", "line" },
		[FLAT_BY_CPU] = { "function", "hottest line" },
	};
	char name[PATH_MAX + 32], detail[PATH_MAX + 32], list[16 * PROFILE_MAX_CPUS];
	enum split_view split = split_view(&sp, sort);
	struct picker k = { limit, min_percent, 0, -1 };
	size_t below = 0, more = 0;
	int w = 16, dw = 12;

	for (size_t i = 0; i < nrows; i++) {
		const struct flat_row *r = &rows[i];
		if (share(r) < min_percent) {
			below++;
		} else if (!pick(&k, r)) {
			more++;
		} else {
			int len = (int)strlen(row_name(name, sizeof name, r, sort));
			int dlen = (int)strlen(row_detail(detail, sizeof detail, r, sort));
			w = len > w ? len : w;
			dw = dlen > dw ? dlen : dw;
		}
	}
	w = w > 48 ? 48 : w;
	dw = dw > 48 ? 48 : dw;
	fprintf(f, "%9s %8s", "samples", sort == FLAT_BY_CPU ? "of cpu" : "percent");
	if (sort == FLAT_BY_CPU)
		fprintf(f, " %8s", "of all");
	fputs("  ", f);
	for (size_t c = 0; split == SPLIT_COLUMNS && c < sp.res->ncpus; c++)
		fprintf(f, "%9.9s  ", split_head(list, sizeof list, &sp, sp.res->cpus[c].cpu));
	if (sort == FLAT_BY_ADDRESS)
		fprintf(f, "%-18s  ", "address");
	if (split == SPLIT_LIST)
		fprintf(f, "%-*s  %-*s  %s\n", w, heads[sort][0], dw, heads[sort][1],
			sp.phases ? "phases (phase:samples)" : "cpus (cpu:samples)");
	else
		fprintf(f, "%-*s  %s\n", w, heads[sort][0], heads[sort][1]);
	k = (struct picker){ limit, min_percent, 0, -1 };
	for (size_t i = 0; i < nrows; i++) {
		const struct flat_row *r = &rows[i];
		if (!pick(&k, r))
			continue;
		fprintf(f, "%9" PRIu64 " %7.2f%%", r->samples, share(r));
		if (sort == FLAT_BY_CPU)
			fprintf(f, " %7.2f%%", r->percent);
		fputs("  ", f);
		const struct flat_row *sr = sp.phases ? &sp.res->rows[i] : r;
		for (size_t c = 0; split == SPLIT_COLUMNS && c < sp.res->ncpus; c++)
			fprintf(f, "%9" PRIu64 "  ", row_on_cpu(sr, sp.res->cpus[c].cpu));
		if (sort == FLAT_BY_ADDRESS)
			fprintf(f, "0x%-16" PRIx64 "  ", r->addr_lo);
		fprintf(f, "%-*s  ", w, row_name(name, sizeof name, r, sort));
		if (split == SPLIT_LIST)
			fprintf(f, "%-*s  %s\n", dw, row_detail(detail, sizeof detail, r, sort),
				cpu_list(list, sizeof list, sr, &sp));
		else
			fprintf(f, "%s\n", row_detail(detail, sizeof detail, r, sort));
	}
	if (!nrows)
		fprintf(f, "# no samples\n");
	if (more)
		fprintf(f, "# %zu more rows (--all or --limit N shows them%s)\n", more,
			sort == FLAT_BY_CPU ? "; the limit is per CPU" : "");
	if (below)
		fprintf(f, "# %zu rows below %.4g%% %sleft out (--min-percent)\n", below, min_percent,
			sort == FLAT_BY_CPU ? "of their CPU " : "");
}

/* With --sort cpu: CPUs that have samples of the event or that the header accounts for. */
static int cpu_group_shown(const struct profile *p, const struct flat_result *res, unsigned i)
{
	return flat_cpu_total(res, i) || (i < PROFILE_MAX_CPUS && summary_cpu_listed(p, i));
}

/* --sort cpu: a header line per CPU (its samples, and what became of the ones it took),
 * then its table. */
static void print_cpu_groups(FILE *f, const struct profile *p, const struct flat_result *res,
			     long limit, double min_percent)
{
	unsigned end = summary_cpu_end(p), groups = 0;
	size_t at = 0;
	char fate[400];

	if (res->ncpus && res->cpus[res->ncpus - 1].cpu >= end)
		end = res->cpus[res->ncpus - 1].cpu + 1u;
	for (unsigned i = 0; i < end; i++) {
		uint64_t n = flat_cpu_total(res, i);
		size_t from;

		while (at < res->nrows && res->rows[at].cpu < (int)i)
			at++;
		if (!cpu_group_shown(p, res, i))
			continue;
		groups++;
		for (from = at; at < res->nrows && res->rows[at].cpu == (int)i; at++)
			;
		if (i < PROFILE_MAX_CPUS)
			summary_cpu_fate(fate, sizeof fate, p, i);
		else
			fate[0] = 0;
		fprintf(f, "#\n# cpu %u: %" PRIu64 " samples (%.2f%% of all)%s%s\n", i, n,
			res->total ? 100.0 * (double)n / (double)res->total : 0.0,
			fate[0] ? "; " : "", fate);
		/* a CPU with no row of this event (rows may be NULL: no offset from it) */
		print_table(f, res, at > from ? res->rows + from : NULL, at - from, FLAT_BY_CPU, limit,
			    min_percent, NULL, p);
	}
	if (!groups)
		fprintf(f, "# no samples\n");
}

static void print_rows(FILE *f, const struct profile *p, const struct flat_result *res,
		       enum flat_sort sort, long limit, double min_percent,
		       const struct flat_result *by_phase)
{
	if (sort == FLAT_BY_CPU)
		print_cpu_groups(f, p, res, limit, min_percent);
	else
		print_table(f, res, res->rows, res->nrows, sort, limit, min_percent, by_phase, p);
}

int report_print_text(FILE *f, const struct report *rp, enum flat_sort sort, long limit,
		      double min_percent)
{
	const struct profile *p = rp->p;

	report_print_header(f, rp);
	fprintf(f, "#\n# %" PRIu64 " samples", rp->flat.total);
	if (rp->event != FLAT_ALL_EVENTS) {
		const struct profile_event *e = profile_event(p, (uint16_t)rp->event);
		double scale = profile_event_scale(p, (uint16_t)rp->event);
		char name[600];

		fprintf(f, " of event %s", bm_safe(name, sizeof name, e && e->name[0] ? e->name : "?"));
		if (scale > 1)
			fprintf(f, " (multiplexed: scaled x%.3g to %.0f; percentages are "
				"unchanged)", scale, (double)rp->flat.total * scale);
	}
	fprintf(f, ", by %s\n", sort_name(sort));
	print_rows(f, p, &rp->flat, sort, limit, min_percent, &rp->by_phase);
	return fflush(f) || ferror(f) ? -1 : 0;
}

static int has_event(const struct profile *p, const char *name)
{
	for (unsigned i = 0; i < p->nevents; i++)
		if (!strcasecmp(p->events[i].name, name))
			return 1;
	return 0;
}

/* A name the profile does not have, but an alias of one it has ("branch-instructions" for
 * "branches"), or a vendor name as it is reported ("MEM_LOAD_RETIRED.L1_MISS" for
 * "skl::MEM_LOAD_RETIRED:L1_MISS"), as that name. */
static const char *canonical_event(const struct profile *p, const char *name, char *buf,
				   size_t n)
{
	const struct event_def *d = events_lookup(name);

	if (has_event(p, name))
		return name;
	if (d)
		return d->name;
	events_short_name(name, strlen(name), buf, n);
	return *buf && has_event(p, buf) ? buf : name;
}

int report_event(const struct profile *p, const char *name, int *event, char *err, size_t n)
{
	char vendor[EVENTS_NAME_MAX + 1];

	if (!name) {
		*event = flat_default_event(p);
		return 0;
	}
	return resolve_event(p, canonical_event(p, name, vendor, sizeof vendor), event, err, n);
}

/* The firmware modules the options (or the profile) name. 0, or -1 with the reason. */
static int load_firmware(struct report *rp, char *err, size_t errlen)
{
	const struct report_fw_opts *o = rp->fwo;

	return firmware_load_for(&rp->fw, rp->p, o ? o->log : NULL, o ? o->debug : NULL,
				 o ? o->syms : NULL, o ? o->nsyms : 0, err, errlen);
}

/* Resolve and compute: 0, or -1 with the reason printed. */
int report_build(struct report *rp, const char *elf, const char *event, enum flat_sort *sort)
{
	char err[1024];

	if (rp->p->over_cap) {
		profile_bound_exceeded(err, sizeof err, rp->input, rp->p->max_entries);
		bm_err("%s", err);
		return -1;
	}
	if (report_event(rp->p, event, &rp->event, err, sizeof err) ||
	    resolve_open(&rp->r, rp->p, rp->input, elf, err, sizeof err) ||
	    load_firmware(rp, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	rp->r.fw = &rp->fw;
	if (resolve_pcs(&rp->r, rp->p)) {
		bm_err("out of memory");
		return -1;
	}
	/* With no symbols, a function or line table would be one [unknown] row. */
	if (rp->r.no_symbols && *sort != FLAT_BY_CPU)
		*sort = FLAT_BY_ADDRESS;
	if (flat_compute(rp->p, rp->event, rp->r.info, rp->r.ninfo, *sort, &rp->flat) ||
	    report_split_phases(rp, *sort)) {
		bm_err("out of memory");
		return -1;
	}
	return 0;
}

void report_free(struct report *rp)
{
	flat_free(&rp->flat);
	flat_free(&rp->by_phase);
	resolve_close(&rp->r);
	firmware_free(&rp->fw);
}

int report_top_functions(FILE *f, const struct profile *p, const char *profile_path,
			 const char *elf, long limit)
{
	struct report rp = { .input = profile_path, .p = p };
	enum flat_sort sort = FLAT_BY_FUNCTION;
	int rc = -1;

	if (!report_build(&rp, elf, NULL, &sort)) {
		for (unsigned i = 0; i < rp.r.nnotes; i++)
			fprintf(f, "# note      %s\n", rp.r.notes[i]);
		for (unsigned i = 0; i < rp.fw.nnotes; i++)
			fprintf(f, "# note      %s\n", rp.fw.notes[i]);
		print_rows(f, p, &rp.flat, sort, limit, 0, &rp.by_phase);
		rc = 0;
	}
	report_free(&rp);
	return rc;
}
