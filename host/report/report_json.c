/* SPDX-License-Identifier: BSD-2-Clause */
/* A flat report as JSON (report.h; docs/report-json.md is the schema). */
#include "profile_phase.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "profile/target_log.h"
#include "report/report.h"
#include "report/report_int.h"
#include "symbol/symname.h"
#include "report/run_notes.h"
#include "report/summary.h"
#include "run_mode.h"
#include "util/json.h"
#include "util/util.h"
#include "wire_text.h"

#define REPORT_JSON_VERSION 1

static void json_event(struct json *j, const struct profile *p, const struct profile_event *e)
{
	double hz = event_hz(p, e), scale = profile_event_scale(p, e->id);
	double cps = profile_cycles_per_sample(p, e->id);
	uint64_t samples = profile_event_samples(p, e->id);
	struct profile_count_sum s;
	int counted = !profile_event_count(p, e->id, -1, &s);

	json_begin_object(j);
	json_kv_u64(j, "id", e->id);
	json_kv_string(j, "name", e->name);
	json_kv_string(j, "source", source_name(e->source));
	json_kv_hex(j, "encoding", e->encoding);
	json_kv_u64(j, "period", e->period);
	json_key(j, "cycles_per_sample");
	if (cps > 0)
		json_double(j, cps);
	else
		json_null(j);
	json_kv_u64(j, "jitter", e->jitter);
	json_kv_bool(j, "randomized", e->flags & BMPROF_EVENT_RANDOMIZED);
	json_kv_bool(j, "counting", e->flags & BMPROF_EVENT_COUNTING);
	if (hz > 0)
		json_kv_double(j, "period_hz", hz);
	json_kv_string(j, "status", events_status_name(e->status));
	json_kv_string(j, "reason", events_reason_name(e->reason));
	json_kv_string(j, "counter_kind", events_counter_kind_name(e->counter_kind));
	json_key(j, "counter");
	e->counter != 0xff ? json_u64(j, e->counter) : json_null(j);
	json_key(j, "group");
	e->group != 0xff ? json_u64(j, e->group) : json_null(j);
	json_kv_u64(j, "ngroups", e->ngroups);
	json_kv_string(j, "precise", bmprof_precise_name(e->precise));
	json_key(j, "count");
	counted ? json_u64(j, s.value) : json_null(j);
	json_key(j, "enabled");
	counted ? json_u64(j, s.enabled) : json_null(j);
	json_key(j, "running");
	counted ? json_u64(j, s.running) : json_null(j);
	json_key(j, "scaled");
	counted ? json_double(j, profile_count_scaled(&s)) : json_null(j);
	json_kv_bool(j, "multiplexed", counted && s.running < s.enabled);
	json_kv_u64(j, "samples", samples);
	json_kv_double(j, "scale", scale);
	json_kv_double(j, "samples_scaled", (double)samples * scale);
	json_end_object(j);
}

static void json_cpus(struct json *j, const struct report *rp)
{
	const struct profile *p = rp->p;

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
		json_kv_u64(j, "stack_full", c->totals[BMPROF_TOTAL_STACK_FULL]);
		json_kv_u64(j, "stacks", c->totals[BMPROF_TOTAL_STACKS]);
		json_kv_u64(j, "raw_taken", c->totals[BMPROF_TOTAL_RAW_TAKEN]);
		json_kv_u64(j, "raw_delivered", c->totals[BMPROF_TOTAL_RAW_DELIVERED]);
		json_kv_u64(j, "raw_lost_full", c->totals[BMPROF_TOTAL_RAW_LOST_FULL]);
		json_kv_u64(j, "raw_lost_transport", c->totals[BMPROF_TOTAL_RAW_LOST_TRANSPORT]);
		json_kv_u64(j, "raw_received", c->raw_received);
		json_kv_u64(j, "received", c->received);
		json_kv_u64(j, "frames_received", c->frames);
		json_kv_u64(j, "lost_in_transit", profile_cpu_lost_in_transit(c));
		json_kv_u64(j, "seq_gaps", c->seq_gaps);
		json_kv_u64(j, "samples", flat_cpu_total(&rp->flat, i));
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_image_range(struct json *j, const struct resolved *r)
{
	json_key(j, "image_range");
	if (!r->have_span) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_hex(j, "lo", r->span_lo + r->load_bias);
	json_kv_hex(j, "hi", r->span_hi + r->load_bias);
	json_end_object(j);
}

static void json_firmware(struct json *j, const struct firmware *fw)
{
	json_key(j, "firmware");
	json_begin_object(j);
	json_kv_string(j, "log", fw->log);
	json_kv_u64(j, "log_modules", fw->log_modules);
	json_kv_u64(j, "log_malformed", fw->log_malformed);
	json_kv_u64(j, "log_without_debug", fw->log_no_debug);
	json_kv_u64(j, "debug_unusable", fw->log_bad_debug);
	json_key(j, "modules");
	json_begin_array(j);
	for (size_t i = 0; i < fw->nmods; i++) {
		const struct fw_module *m = &fw->mods[i];
		json_begin_object(j);
		json_kv_string(j, "name", m->name);
		json_kv_string(j, "path", m->path);
		json_kv_hex(j, "load_address", m->base);
		json_key(j, "entry");
		m->entry ? json_hex(j, m->entry) : json_null(j);
		json_kv_hex(j, "bias", m->bias);
		json_kv_hex(j, "lo", m->lo);
		json_kv_hex(j, "hi", m->hi);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* "run": how the run executed and what its samples and clock mean (run_mode.h) */
static void json_run(struct json *j, const struct profile *p)
{
	struct run_mode m;
	char clock[200];

	run_mode_of(p, &m);
	run_notes_clock(clock, sizeof clock, p);
	json_key(j, "run");
	json_begin_object(j);
	json_kv_string(j, "accel", m.accel == RUN_ACCEL_TCG ? "tcg" : m.accel == RUN_ACCEL_KVM ?
		       "kvm" : NULL);
	json_kv_string(j, "icount", m.icount ? profile_meta(p, "icount") : NULL);
	json_key(j, "icount_shift");
	m.icount && m.icount_shift >= 0 ? json_u64(j, (uint64_t)m.icount_shift) : json_null(j);
	json_kv_bool(j, "singlestep", m.singlestep);
	json_kv_bool(j, "samples_on_block_starts", run_mode_block_starts(&m));
	json_kv_bool(j, "emulated_time", run_mode_emulated_time(&m));
	json_kv_string(j, "clock", clock[0] ? clock : NULL);
	json_end_object(j);
}

static void json_meta(struct json *j, const struct report *rp, enum flat_sort sort)
{
	const struct profile *p = rp->p;
	const struct profile_hello *h = &p->hello;
	char id[2 * BMPROF_BUILD_ID_MAX + 1], end[200], warn[64][WARN_LEN];
	char rw[4][RUN_NOTE_LEN], rn[4][RUN_NOTE_LEN];
	unsigned nrn, nrw = run_notes(p, rw, rn, 4, &nrn);
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
	json_kv_bool(j, "fell_back_to_timer", events_sampling_fell_back(p));
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
	json_kv_u64(j, "core_hz", p->have_hello ? h->core_hz : 0);
	json_kv_string(j, "build_id", h->build_id_len ? bm_hex(id, sizeof id, h->build_id,
								h->build_id_len) : NULL);
	json_kv_hex(j, "load_bias", h->load_bias);
	json_kv_string(j, "elf", rp->r.elf);
	json_kv_bool(j, "build_id_checked", rp->r.build_id_checked);
	json_kv_string(j, "accel", profile_meta(p, "accel"));
	json_run(j, p);
	json_kv_string(j, "sort", rp->by ? rp->by : sort_name(sort));
	json_key(j, "filters");
	json_begin_array(j);
	for (unsigned i = 0; i < rp->nfilters; i++)
		json_string(j, rp->filters[i]);
	json_end_array(j);

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
	json_kv_u64(j, "outside", rp->flat.outside);
	json_kv_u64(j, "outside_symbolized", rp->flat.outside_symbolized);
	json_end_object(j);
	json_image_range(j, &rp->r);
	json_firmware(j, &rp->fw);
	json_cpus(j, rp);

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

	json_key(j, "target_log");
	json_begin_array(j);
	for (size_t i = 0; i < p->nlogs; i++) {
		char lv[16];
		json_begin_object(j);
		json_kv_string(j, "level", target_log_level(p->logs[i].level, lv, sizeof lv));
		json_key(j, "text");
		json_string_n(j, p->logs[i].text, p->logs[i].len);
		json_kv_bool(j, "cut", p->logs[i].cut);
		json_end_object(j);
	}
	json_end_array(j);
	json_kv_u64(j, "target_log_dropped", p->logs_dropped);

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
	for (unsigned i = 0; i < nrw; i++)
		json_string(j, rw[i]);
	json_end_array(j);
	json_key(j, "notes");
	json_begin_array(j);
	for (unsigned i = 0; i < nrn; i++)
		json_string(j, rn[i]);
	for (unsigned i = 0; i < rp->r.nnotes; i++)
		json_string(j, rp->r.notes[i]);
	for (unsigned i = 0; i < rp->fw.nnotes; i++)
		json_string(j, rp->fw.notes[i]);
	json_end_array(j);
	json_end_object(j);
}

/* The row's samples per phase (pr: the same row of the table by phase). */
static void json_row_phases(struct json *j, const struct profile *p, const struct flat_row *pr)
{
	char name[PROFILE_PHASE_NAME_MAX + 16];

	json_key(j, "per_phase");
	json_begin_array(j);
	for (size_t i = 0; i < pr->nper_cpu; i++) {
		json_begin_object(j);
		json_kv_u64(j, "phase", pr->per_cpu[i].cpu);
		json_kv_string(j, "name", profile_phase_name(p, pr->per_cpu[i].cpu, name,
							     sizeof name));
		json_kv_u64(j, "samples", pr->per_cpu[i].samples);
		json_end_object(j);
	}
	json_end_array(j);
}

/* The phases: each one's name, start time and samples (of the event reported). */
static void json_phases(struct json *j, const struct report *rp)
{
	const struct profile *p = rp->p;
	const struct flat_result *b = &rp->by_phase;
	char name[PROFILE_PHASE_NAME_MAX + 16];

	json_key(j, "phases");
	json_begin_array(j);
	for (size_t i = 0; i < b->ncpus; i++) {
		unsigned id = b->cpus[i].cpu;
		json_begin_object(j);
		json_kv_u64(j, "phase", id);
		json_kv_string(j, "name", profile_phase_name(p, id, name, sizeof name));
		json_kv_u64(j, "samples", b->cpus[i].samples);
		json_kv_u64(j, "at", id && p->phases ? p->phases[id].at : 0);
		json_end_object(j);
	}
	json_end_array(j);
	json_kv_string(j, "phase", rp->phase);
}

/* pr: the same row of the table by phase, or NULL */
static void json_row(struct json *j, const struct flat_row *r, enum flat_sort sort,
		     const struct profile *p, const struct flat_row *pr)
{
	char name[600];

	json_begin_object(j);
	json_kv_string(j, "symbol", is_unknown(r, sort) ? "[unknown]" : is_region(r) ?
		       region_name(name, sizeof name, r, FLAT_BY_FUNCTION) : r->symbol);
	json_kv_string(j, "name", is_unknown(r, sort) ? "[unknown]" : is_region(r) ? name :
		       symname_display(name, sizeof name, r->symbol));
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
	case FLAT_BY_CPU:
		json_kv_u64(j, "cpu", (uint64_t)r->cpu);
		json_kv_double(j, "cpu_percent", r->cpu_percent);
		/* fall through */
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
	case FLAT_BY_MODULE:
		break;
	}
	json_kv_bool(j, "unknown", is_unknown(r, sort));
	json_kv_bool(j, "outside", r->outside);
	json_kv_string(j, "module", r->module);
	json_key(j, "region_lo");
	is_region(r) ? json_hex(j, r->region_lo) : json_null(j);
	json_key(j, "region_hi");
	is_region(r) ? json_hex(j, r->region_hi) : json_null(j);
	if (sort != FLAT_BY_CPU) {
		json_key(j, "per_cpu");
		json_begin_array(j);
		for (size_t i = 0; i < r->nper_cpu; i++) {
			json_begin_object(j);
			json_kv_u64(j, "cpu", r->per_cpu[i].cpu);
			json_kv_u64(j, "samples", r->per_cpu[i].samples);
			json_end_object(j);
		}
		json_end_array(j);
	}
	if (pr)
		json_row_phases(j, p, pr);
	json_end_object(j);
}

int report_print_json(FILE *f, const struct report *rp, enum flat_sort sort, long limit,
		      double min_percent)
{
	struct picker k = { limit, min_percent, 0, -1 };
	struct json j;

	json_init(&j, f, 1);
	json_begin_object(&j);
	json_meta(&j, rp, sort);
	json_phases(&j, rp);
	json_key(&j, "rows");
	json_begin_array(&j);
	for (size_t i = 0; i < rp->flat.nrows; i++) {
		if (!pick(&k, &rp->flat.rows[i]))
			continue;
		json_row(&j, &rp->flat.rows[i], sort, rp->p,
			 rp->by_phase.nrows ? &rp->by_phase.rows[i] : NULL);
	}
	json_end_array(&j);
	json_end_object(&j);
	if (json_finish(&j)) {
		bm_err("writing the JSON report failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}
