/* bmprof report: the flat profile of a recorded run, as text or JSON. docs/bmprof-report.md
 * is its manual, docs/report-json.md the JSON schema. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "flat.h"
#include "json.h"
#include "profile_io.h"
#include "resolve.h"
#include "summary.h"
#include "util.h"

#define REPORT_JSON_VERSION 1
#define DEFAULT_LIMIT 20
#define WARN_LEN 600

static const char usage[] =
	"usage: bmprof report [-i FILE] [--elf ELF] [--sort function|line|address]\n"
	"                     [--format text|json] [--event NAME] [--min-percent P]\n"
	"                     [--limit N | --all]\n"
	"\n"
	"Print the flat profile of a recorded run: where the samples fell, hottest first.\n"
	"\n"
	"  -i, --input FILE     profile file (default " PROFILE_DEFAULT_PATH ")\n"
	"      --elf ELF        the image's ELF (default: the one the profile names, or a\n"
	"                       file of that name beside the profile); its build-id must match\n"
	"  -s, --sort KEY       function (default): one row per function, with its hottest\n"
	"                       source line; line: one row per source line; address: one row\n"
	"                       per sampled address\n"
	"  -F, --format FMT     text (default) or json (docs/report-json.md)\n"
	"  -e, --event NAME     report this event (default: the first the target sampled)\n"
	"      --min-percent P  leave out rows below P percent\n"
	"  -n, --limit N        print at most N rows (default: 20 for text, all for JSON)\n"
	"  -a, --all            print every row\n"
	"  -h, --help           this text\n";

struct report_opts {
	const char *input, *elf, *event;
	enum flat_sort sort;
	int json;
	double min_percent;
	long limit;              /* -1: every row */
};

/* Everything a report is made from. */
struct report {
	const char *input;
	const struct profile *p;
	struct resolved r;
	int event;               /* id or FLAT_ALL_EVENTS */
	struct flat_result flat;
	char load_warning[512];  /* the profile file is damaged but usable */
};

static const char *arch_name(uint8_t arch)
{
	return arch == BMPROF_ARCH_X86_64 ? "x86_64" : arch == BMPROF_ARCH_AARCH64 ? "aarch64" : "unknown";
}

static const char *source_name(uint8_t src)
{
	return src == BMPROF_SOURCE_TIMER ? "timer"
		: src == BMPROF_SOURCE_PMU || src == BMPROF_SOURCE_PMU_FIXED ? "pmu" : "unknown";
}

static const char *sort_name(enum flat_sort s)
{
	return s == FLAT_BY_LINE ? "line" : s == FLAT_BY_ADDRESS ? "address" : "function";
}

static const char *end_reason(uint8_t reason)
{
	switch (reason) {
	case BMPROF_END_EXIT: return "exit";
	case BMPROF_END_EXCEPTION: return "exception";
	case BMPROF_END_PANIC: return "panic";
	default: return "unknown";
	}
}

/* Timer periods are in timebase ticks, so they have a rate; PMU periods count events. */
static double event_hz(const struct profile *p, const struct profile_event *e)
{
	if (e->source != BMPROF_SOURCE_TIMER || !e->period || !p->hello.timebase_hz)
		return 0;
	return (double)p->hello.timebase_hz / (double)e->period;
}

struct totals {
	uint64_t taken, delivered, lost_full, lost_transport, received, in_transit;
	unsigned with_totals, seen;
};

static void sum_cpus(const struct profile *p, struct totals *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned i = 0; i < p->ncpus_seen; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		if (!c->seen)
			continue;
		t->seen++;
		t->received += c->received;
		if (!c->have_totals)
			continue;
		t->with_totals++;
		t->taken += c->totals[BMPROF_TOTAL_TAKEN];
		t->delivered += c->totals[BMPROF_TOTAL_DELIVERED];
		t->lost_full += c->totals[BMPROF_TOTAL_LOST_FULL];
		t->lost_transport += c->totals[BMPROF_TOTAL_LOST_TRANSPORT];
		t->in_transit += profile_cpu_lost_in_transit(c);
	}
}

/* Everything that makes the numbers less than the whole truth, one line each. */
static unsigned warnings(const struct report *rp, char out[][WARN_LEN], unsigned max)
{
	const struct profile *p = rp->p;
	unsigned n = 0;
#define WARN(...) do { if (n < max) snprintf(out[n++], sizeof out[0], __VA_ARGS__); } while (0)

	if (rp->load_warning[0])
		WARN("%s", rp->load_warning);
	if (!p->have_hello)
		WARN("no HELLO frame: the start of the stream was lost; the target is unknown and "
		     "the ELF cannot be checked");
	if (!p->have_end)
		WARN("no END frame: the run did not finish (timeout, interrupt, hard crash), so samples "
		     "still held by the target are missing");
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
	for (unsigned i = 0; i < p->ncpus_seen; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		uint64_t lost = c->totals[BMPROF_TOTAL_LOST_FULL] + c->totals[BMPROF_TOTAL_LOST_TRANSPORT];
		uint64_t transit = profile_cpu_lost_in_transit(c);
		if (!c->seen)
			continue;
		if (!c->have_totals && p->have_end)
			WARN("cpu %u sent no TOTALS frame: its losses are unknown", i);
		if (c->have_totals && lost)
			WARN("cpu %u lost %" PRIu64 " samples on the target (%" PRIu64 " buffers full, %"
			     PRIu64 " transport)", i, lost, c->totals[BMPROF_TOTAL_LOST_FULL],
			     c->totals[BMPROF_TOTAL_LOST_TRANSPORT]);
		if (transit)
			WARN("cpu %u: %" PRIu64 " delivered samples did not arrive", i, transit);
		if (c->seq_gaps)
			WARN("cpu %u: %" PRIu64 " SAMPLES frames missing by sequence number", i, c->seq_gaps);
	}
	return n;
#undef WARN
}

static void print_header(FILE *f, const struct report *rp)
{
	const struct profile *p = rp->p;
	const struct profile_hello *h = &p->hello;
	char id[2 * BMPROF_BUILD_ID_MAX + 1], end[200], warn[24][WARN_LEN];
	struct totals t;
	const char *accel = profile_meta(p, "accel"), *icount = profile_meta(p, "icount");

	fprintf(f, "# profile   %s\n", rp->input);
	fprintf(f, "# image     %s", rp->r.elf);
	if (h->build_id_len)
		fprintf(f, " (build-id %s%s)", bm_hex(id, sizeof id, h->build_id, h->build_id_len),
			rp->r.build_id_checked ? ", matches" : "");
	fputc('\n', f);
	if (p->have_hello) {
		fprintf(f, "# target    %s, %s family %" PRIu32 " model 0x%" PRIx32 " stepping %" PRIu32
			", %u CPU%s, timebase %.6g MHz\n", arch_name(h->arch),
			h->vendor[0] ? h->vendor : "unknown vendor", h->family, h->model, h->stepping,
			h->ncpus, h->ncpus == 1 ? "" : "s", (double)h->timebase_hz / 1e6);
		fprintf(f, "# source    %s\n", source_name(h->source));
	}
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];
		double hz = event_hz(p, e);
		fprintf(f, "# event %-3u %s: period %" PRIu64 " %s", e->id, e->name[0] ? e->name : "?",
			e->period, e->source == BMPROF_SOURCE_TIMER ? "ticks" : "events");
		if (hz > 0)
			fprintf(f, " (%.6g Hz)", hz);
		if (e->jitter)
			fprintf(f, ", randomized in [%" PRIu64 ", %" PRIu64 "]", e->period - e->jitter,
				e->period);
		fprintf(f, "%s\n", rp->event == e->id ? "  <- reported" : "");
	}
	sum_cpus(p, &t);
	if (t.with_totals)
		fprintf(f, "# samples   taken %" PRIu64 ", delivered %" PRIu64 ", lost %" PRIu64
			"; received %" PRIu64 " of %" PRIu64 " delivered\n", t.taken, t.delivered,
			t.lost_full + t.lost_transport, t.received, t.delivered);
	else
		fprintf(f, "# samples   received %" PRIu64 " (no TOTALS: taken and lost unknown)\n",
			t.received);
	if (t.seen > 1) {
		unsigned shown = 0;
		for (unsigned i = 0; i < p->ncpus_seen; i++) {
			const struct profile_cpu *c = &p->cpus[i];
			if (!c->seen)
				continue;
			if (shown++ == 4) {
				fprintf(f, "#           ... %u more CPUs (--format json has them all)\n",
					t.seen - 4);
				break;
			}
			if (c->have_totals)
				fprintf(f, "#           cpu %u: taken %" PRIu64 ", delivered %" PRIu64
					", lost %" PRIu64 ", received %" PRIu64 "\n", i,
					c->totals[BMPROF_TOTAL_TAKEN], c->totals[BMPROF_TOTAL_DELIVERED],
					c->totals[BMPROF_TOTAL_LOST_FULL] + c->totals[BMPROF_TOTAL_LOST_TRANSPORT],
					c->received);
			else
				fprintf(f, "#           cpu %u: received %" PRIu64 "\n", i, c->received);
		}
	}
	summary_end(end, sizeof end, p);
	fprintf(f, "# run       ");
	if (accel)
		fprintf(f, "accel %s, ", accel);
	if (icount)
		fprintf(f, "icount %s, ", strcmp(icount, "0") ? "on" : "off");
	fprintf(f, "%s\n", end);
	unsigned nw = warnings(rp, warn, sizeof warn / sizeof warn[0]);
	for (unsigned i = 0; i < nw; i++)
		fprintf(f, "# warning   %s\n", warn[i]);
	for (unsigned i = 0; i < rp->r.nnotes; i++)
		fprintf(f, "# note      %s\n", rp->r.notes[i]);
}


/* "file:line" into buf, "??" when unknown. */
static const char *where(char *buf, size_t n, const struct flat_row *r)
{
	if (!r->file)
		return "??";
	snprintf(buf, n, "%s:%u", resolve_short_path(r->file), r->line);
	return buf;
}

static int is_unknown(const struct flat_row *r, enum flat_sort sort)
{
	return sort == FLAT_BY_LINE ? !r->file && !r->function : !r->symbol;
}

/* The name column: function, file:line or function+offset. */
static const char *row_name(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort)
{
	if (is_unknown(r, sort))
		return "[unknown]";
	switch (sort) {
	case FLAT_BY_LINE:
		return where(buf, n, r);
	case FLAT_BY_ADDRESS:
		snprintf(buf, n, "%s+0x%" PRIx64, r->symbol, r->offset);
		return buf;
	default:
		return r->symbol;
	}
}

/* The last column: the hottest line, the function, or the address range of [unknown]. */
static const char *row_detail(char *buf, size_t n, const struct flat_row *r, enum flat_sort sort)
{
	if (is_unknown(r, sort) && sort != FLAT_BY_ADDRESS) {
		snprintf(buf, n, "0x%" PRIx64 "..0x%" PRIx64, r->addr_lo, r->addr_hi - 1);
		return buf;
	}
	if (sort == FLAT_BY_LINE)
		return r->function ? r->function : "[unknown]";
	return where(buf, n, r);
}

static int shown(const struct flat_row *r, size_t nshown, long limit, double min_percent)
{
	return r->percent >= min_percent && (limit < 0 || nshown < (size_t)limit);
}

static void print_rows(FILE *f, const struct flat_result *res, enum flat_sort sort, long limit,
		       double min_percent)
{
	static const char *const heads[][2] = {
		[FLAT_BY_FUNCTION] = { "function", "hottest line" },
		[FLAT_BY_LINE] = { "line", "function" },
		[FLAT_BY_ADDRESS] = { "function+offset", "line" },
	};
	char name[PATH_MAX + 32], detail[PATH_MAX + 32];
	size_t n = 0, below = 0, more = 0;
	int w = 16;

	for (size_t i = 0; i < res->nrows; i++) {
		const struct flat_row *r = &res->rows[i];
		if (r->percent < min_percent) {
			below++;
		} else if (!shown(r, n, limit, min_percent)) {
			more++;
		} else {
			int len = (int)strlen(row_name(name, sizeof name, r, sort));
			w = len > w ? len : w;
			n++;
		}
	}
	w = w > 48 ? 48 : w;
	fprintf(f, "%9s %8s  ", "samples", "percent");
	if (sort == FLAT_BY_ADDRESS)
		fprintf(f, "%-18s  ", "address");
	fprintf(f, "%-*s  %s\n", w, heads[sort][0], heads[sort][1]);
	n = 0;
	for (size_t i = 0; i < res->nrows; i++) {
		const struct flat_row *r = &res->rows[i];
		if (!shown(r, n, limit, min_percent))
			continue;
		n++;
		fprintf(f, "%9" PRIu64 " %7.2f%%  ", r->samples, r->percent);
		if (sort == FLAT_BY_ADDRESS)
			fprintf(f, "0x%-16" PRIx64 "  ", r->addr_lo);
		fprintf(f, "%-*s  %s\n", w, row_name(name, sizeof name, r, sort),
			row_detail(detail, sizeof detail, r, sort));
	}
	if (!res->nrows)
		fprintf(f, "# no samples\n");
	if (more)
		fprintf(f, "# %zu more rows (--all or --limit N shows them)\n", more);
	if (below)
		fprintf(f, "# %zu rows below %.4g%% left out (--min-percent)\n", below, min_percent);
}

static void json_event(struct json *j, const struct profile *p, const struct profile_event *e)
{
	double hz = event_hz(p, e);

	json_begin_object(j);
	json_kv_u64(j, "id", e->id);
	json_kv_string(j, "name", e->name);
	json_kv_string(j, "source", source_name(e->source));
	json_kv_hex(j, "encoding", e->encoding);
	json_kv_u64(j, "period", e->period);
	json_kv_u64(j, "jitter", e->jitter);
	json_kv_bool(j, "randomized", e->flags & BMPROF_EVENT_RANDOMIZED);
	if (hz > 0)
		json_kv_double(j, "period_hz", hz);
	json_end_object(j);
}

static void json_cpus(struct json *j, const struct profile *p)
{
	json_key(j, "cpus");
	json_begin_array(j);
	for (unsigned i = 0; i < p->ncpus_seen; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		if (!c->seen)
			continue;
		json_begin_object(j);
		json_kv_u64(j, "cpu", i);
		json_kv_bool(j, "have_totals", c->have_totals);
		json_kv_u64(j, "taken", c->totals[BMPROF_TOTAL_TAKEN]);
		json_kv_u64(j, "hits", c->totals[BMPROF_TOTAL_HITS]);
		json_kv_u64(j, "misses", c->totals[BMPROF_TOTAL_MISSES]);
		json_kv_u64(j, "evictions", c->totals[BMPROF_TOTAL_EVICTIONS]);
		json_kv_u64(j, "delivered", c->totals[BMPROF_TOTAL_DELIVERED]);
		json_kv_u64(j, "lost_full", c->totals[BMPROF_TOTAL_LOST_FULL]);
		json_kv_u64(j, "lost_transport", c->totals[BMPROF_TOTAL_LOST_TRANSPORT]);
		json_kv_u64(j, "frames_sent", c->totals[BMPROF_TOTAL_FRAMES]);
		json_kv_u64(j, "received", c->received);
		json_kv_u64(j, "frames_received", c->frames);
		json_kv_u64(j, "lost_in_transit", profile_cpu_lost_in_transit(c));
		json_kv_u64(j, "seq_gaps", c->seq_gaps);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_meta(struct json *j, const struct report *rp, enum flat_sort sort)
{
	const struct profile *p = rp->p;
	const struct profile_hello *h = &p->hello;
	char id[2 * BMPROF_BUILD_ID_MAX + 1], end[200], warn[24][WARN_LEN];
	struct totals t;

	json_key(j, "meta");
	json_begin_object(j);
	json_kv_u64(j, "format_version", REPORT_JSON_VERSION);
	json_kv_string(j, "profile", rp->input);
	json_kv_string(j, "arch", p->have_hello ? arch_name(h->arch) : NULL);
	json_key(j, "cpu");
	if (p->have_hello) {
		json_begin_object(j);
		json_kv_string(j, "vendor", h->vendor);
		json_kv_u64(j, "family", h->family);
		json_kv_u64(j, "model", h->model);
		json_kv_u64(j, "stepping", h->stepping);
		json_kv_hex(j, "signature", h->signature);
		json_end_object(j);
	} else {
		json_null(j);
	}
	json_kv_u64(j, "ncpus", p->have_hello ? h->ncpus : 0);
	json_kv_string(j, "source", p->have_hello ? source_name(h->source) : NULL);
	json_key(j, "events");
	json_begin_array(j);
	for (unsigned i = 0; i < p->nevents; i++)
		json_event(j, p, &p->events[i]);
	json_end_array(j);
	json_key(j, "event");
	if (rp->event == FLAT_ALL_EVENTS)
		json_null(j);
	else
		json_u64(j, (uint64_t)rp->event);
	json_kv_u64(j, "timebase_hz", h->timebase_hz);
	json_kv_string(j, "build_id", h->build_id_len ? bm_hex(id, sizeof id, h->build_id,
								h->build_id_len) : NULL);
	json_kv_hex(j, "load_bias", h->load_bias);
	json_kv_string(j, "elf", rp->r.elf);
	json_kv_bool(j, "build_id_checked", rp->r.build_id_checked);
	json_kv_string(j, "accel", profile_meta(p, "accel"));
	json_kv_string(j, "sort", sort_name(sort));

	sum_cpus(p, &t);
	json_key(j, "samples");
	json_begin_object(j);
	json_kv_u64(j, "taken", t.taken);
	json_kv_u64(j, "delivered", t.delivered);
	json_kv_u64(j, "lost", t.lost_full + t.lost_transport);
	json_kv_u64(j, "received", t.received);
	json_kv_u64(j, "lost_in_transit", t.in_transit);
	json_kv_u64(j, "reported", rp->flat.total);
	json_kv_bool(j, "have_totals", t.with_totals > 0 && t.with_totals == t.seen);
	json_end_object(j);
	json_cpus(j, p);

	json_key(j, "stream");
	json_begin_object(j);
	json_kv_u64(j, "frames_ok", p->frames_ok);
	json_kv_u64(j, "frames_bad_crc", p->frames_bad_crc);
	json_kv_u64(j, "frames_unknown", p->frames_unknown);
	json_kv_u64(j, "frames_malformed", p->frames_malformed);
	json_kv_u64(j, "bytes_skipped", p->bytes_skipped);
	json_kv_bool(j, "truncated", p->truncated);
	json_kv_bool(j, "file_truncated", p->file_truncated);
	json_end_object(j);

	json_key(j, "end");
	if (p->have_end) {
		summary_end(end, sizeof end, p);
		json_begin_object(j);
		json_kv_string(j, "reason", end_reason(p->end.reason));
		json_kv_i64(j, "exit_code", p->end.exit_code);
		json_kv_u64(j, "vector", p->end.vector);
		json_kv_hex(j, "fault_pc", p->end.fault_pc);
		json_kv_hex(j, "fault_addr", p->end.fault_addr);
		json_kv_string(j, "text", end);
		json_end_object(j);
	} else {
		json_null(j);
	}

	json_key(j, "host");
	json_begin_object(j);
	for (size_t i = 0; i < p->nmeta; i++) {
		/* later keys override earlier ones: each key once, with its last value */
		size_t k;
		for (k = i + 1; k < p->nmeta && strcmp(p->meta[k].key, p->meta[i].key); k++)
			;
		if (k == p->nmeta)
			json_kv_string(j, p->meta[i].key, p->meta[i].value);
	}
	json_end_object(j);

	unsigned nw = warnings(rp, warn, sizeof warn / sizeof warn[0]);
	json_key(j, "warnings");
	json_begin_array(j);
	for (unsigned i = 0; i < nw; i++)
		json_string(j, warn[i]);
	json_end_array(j);
	json_key(j, "notes");
	json_begin_array(j);
	for (unsigned i = 0; i < rp->r.nnotes; i++)
		json_string(j, rp->r.notes[i]);
	json_end_array(j);
	json_end_object(j);
}

static void json_row(struct json *j, const struct flat_row *r, enum flat_sort sort)
{
	json_begin_object(j);
	json_kv_string(j, "symbol", is_unknown(r, sort) ? "[unknown]" : r->symbol);
	json_kv_u64(j, "samples", r->samples);
	json_kv_double(j, "percent", r->percent);
	json_kv_string(j, "file", r->file);
	json_key(j, "line");
	if (r->file)
		json_u64(j, r->line);
	else
		json_null(j);
	json_kv_hex(j, "addr_lo", r->addr_lo);
	json_kv_hex(j, "addr_hi", r->addr_hi);
	switch (sort) {
	case FLAT_BY_FUNCTION:
		json_kv_u64(j, "line_samples", r->line_samples);
		break;
	case FLAT_BY_LINE:
		json_kv_string(j, "function", r->function);
		break;
	case FLAT_BY_ADDRESS:
		json_kv_hex(j, "addr", r->addr_lo);
		json_kv_string(j, "function", r->function);
		json_key(j, "offset");
		if (r->symbol)
			json_u64(j, r->offset);
		else
			json_null(j);
		break;
	}
	json_kv_bool(j, "unknown", is_unknown(r, sort));
	json_end_object(j);
}

static int print_json(FILE *f, const struct report *rp, enum flat_sort sort, long limit,
		      double min_percent)
{
	struct json j;
	size_t n = 0;

	json_init(&j, f, 1);
	json_begin_object(&j);
	json_meta(&j, rp, sort);
	json_key(&j, "rows");
	json_begin_array(&j);
	for (size_t i = 0; i < rp->flat.nrows; i++) {
		if (!shown(&rp->flat.rows[i], n, limit, min_percent))
			continue;
		n++;
		json_row(&j, &rp->flat.rows[i], sort);
	}
	json_end_array(&j);
	json_end_object(&j);
	if (json_finish(&j)) {
		bm_err("writing the JSON report failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Resolve and compute: 0, or -1 with the reason printed. */
static int build(struct report *rp, const char *elf, const char *event, enum flat_sort *sort)
{
	char err[1024];

	if (resolve_event(rp->p, event, &rp->event, err, sizeof err) ||
	    resolve_open(&rp->r, rp->p, rp->input, elf, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (resolve_pcs(&rp->r, rp->p)) {
		bm_err("out of memory");
		return -1;
	}
	/* With no symbols, a function or line table would be one [unknown] row. */
	if (rp->r.no_symbols)
		*sort = FLAT_BY_ADDRESS;
	if (flat_compute(rp->p, rp->event, rp->r.info, rp->r.ninfo, *sort, &rp->flat)) {
		bm_err("out of memory");
		return -1;
	}
	return 0;
}

static void report_free(struct report *rp)
{
	flat_free(&rp->flat);
	resolve_close(&rp->r);
}

int report_top_functions(FILE *f, const struct profile *p, const char *profile_path,
			 const char *elf, long limit)
{
	struct report rp = { .input = profile_path, .p = p };
	enum flat_sort sort = FLAT_BY_FUNCTION;
	int rc = -1;

	if (!build(&rp, elf, NULL, &sort)) {
		for (unsigned i = 0; i < rp.r.nnotes; i++)
			fprintf(f, "# note      %s\n", rp.r.notes[i]);
		print_rows(f, &rp.flat, sort, limit, 0);
		rc = 0;
	}
	report_free(&rp);
	return rc;
}

static int parse_sort(const char *s, enum flat_sort *out)
{
	if (!strcmp(s, "function") || !strcmp(s, "func") || !strcmp(s, "sym"))
		*out = FLAT_BY_FUNCTION;
	else if (!strcmp(s, "line") || !strcmp(s, "srcline"))
		*out = FLAT_BY_LINE;
	else if (!strcmp(s, "address") || !strcmp(s, "addr"))
		*out = FLAT_BY_ADDRESS;
	else
		return -1;
	return 0;
}

static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'E' },
		{ "sort", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "min-percent", required_argument, NULL, 'm' },
		{ "limit", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, limit_given = 0;
	char *end;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":i:s:F:e:n:ah", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i': o->input = optarg; break;
		case 'E': o->elf = optarg; break;
		case 'e': o->event = optarg; break;
		case 's':
			if (parse_sort(optarg, &o->sort)) {
				bm_err("report: --sort takes function, line or address, not '%s'", optarg);
				return 2;
			}
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				bm_err("report: --format takes text or json, not '%s'", optarg);
				return 2;
			}
			o->json = !strcmp(optarg, "json");
			break;
		case 'm':
			errno = 0;
			o->min_percent = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->min_percent >= 0 && o->min_percent <= 100)) {
				bm_err("report: --min-percent takes a number from 0 to 100, not '%s'", optarg);
				return 2;
			}
			break;
		case 'n':
			errno = 0;
			o->limit = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->limit < 1) {
				bm_err("report: --limit takes a positive number, not '%s'", optarg);
				return 2;
			}
			limit_given = 1;
			break;
		case 'a': o->limit = -1; limit_given = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("report: %s needs an argument (see bmprof report --help)", argv[optind - 1]);
			return 2;
		default:
			bm_err("report: unknown option %s (see bmprof report --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		bm_err("report: unexpected argument '%s' (the profile is named with -i)", argv[optind]);
		return 2;
	}
	if (!limit_given)
		o->limit = o->json ? -1 : DEFAULT_LIMIT;
	return -1;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = PROFILE_DEFAULT_PATH, .sort = FLAT_BY_FUNCTION };
	struct profile prof;
	struct report rp = { .p = &prof };
	int rc = parse_opts(argc, argv, &o);

	if (rc >= 0)
		return rc;
	rp.input = o.input;
	profile_init(&prof);
	rc = profile_load(o.input, &prof, rp.load_warning, sizeof rp.load_warning);
	if (rc < 0) {
		bm_err("%s", rp.load_warning);
		profile_free(&prof);
		return 1;
	}
	if (rc == 0)
		rp.load_warning[0] = 0;
	rc = 1;
	if (build(&rp, o.elf, o.event, &o.sort))
		goto out;
	if (o.json) {
		rc = print_json(stdout, &rp, o.sort, o.limit, o.min_percent) ? 1 : 0;
		goto out;
	}
	print_header(stdout, &rp);
	fprintf(stdout, "#\n# %" PRIu64 " samples", rp.flat.total);
	if (rp.event != FLAT_ALL_EVENTS) {
		const struct profile_event *e = profile_event(&prof, (uint16_t)rp.event);
		fprintf(stdout, " of event %s", e && e->name[0] ? e->name : "?");
	}
	fprintf(stdout, ", by %s\n", sort_name(o.sort));
	print_rows(stdout, &rp.flat, o.sort, o.limit, o.min_percent);
	rc = fflush(stdout) || ferror(stdout) ? 1 : 0;
out:
	report_free(&rp);
	profile_free(&prof);
	return rc;
}
