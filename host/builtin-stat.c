/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof stat: boot an image in QEMU with its PMU counting (no sampling) and print the
 * totals, like perf stat. docs/bmprof-stat.md is its manual. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "run/image_run.h"
#include "events.h"
#include "util/json.h"
#include "util/outfile.h"
#include "run_mode.h"
#include "run/run_opts.h"
#include "report/summary.h"
#include "util/util.h"
#include "wire_text.h"

#define DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"
#define ROTATE_HZ 1000         /* the multiplexing tick */
#define STAT_JSON_VERSION 1

struct stat_cmd {
	struct run_opts run;
	int per_cpu, json;
};

static const char description[] =
	"Boot IMAGE in QEMU with hardware events counting (no sampling) and print their totals. "
	"The image's console goes to stdout; the counts go to stderr (or to FILE with -o). "
	"Without --event it counts " DEFAULT_EVENTS "; events are NAME, rHEX, "
	"x86/event=0x3c,umask=0x0/, arm/0x11/, or a group {A,B} counted together "
	"(docs/events.md). QEMU's own arguments go after \"--\".";

static const char tail[] =
	"Exit status: as bmprof qemu: main()'s return value when the image exits normally;\n"
	"124 timeout; 125 bmprof failed; 126 the image crashed; 130 interrupted; 2 usage.\n";

static const char *const formats[] = { "text", "json", NULL };

/* -1 when parsed, else the exit status (0 for --help). */
static int parse_opts(int argc, char **argv, struct stat_cmd *c)
{
	const struct opt opts[] = {
		OPT_BOOL(0, "per-cpu", &c->per_cpu, "one line per CPU and event"),
		OPT_CHOICE('F', "format", &c->json, "FMT", "text (default) or json "
			   "(docs/bmprof-stat.md)", formats),
		RUN_OPTS_TABLE(&c->run, "write the counts to FILE instead of stderr"),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "stat", .args = "IMAGE [-- QEMU-ARGS...]",
				     .description = description, .opts = opts, .tail = tail };
	int rc = run_opts_parse(&c->run, &cmd, argc, argv);

	if (rc >= 0)
		return rc;
	if (!c->run.events.n && run_opts_add_events(&c->run, DEFAULT_EVENTS))
		return EXIT_USAGE;
	return -1;
}

/* ---- the numbers ---- */

enum stat_state { STAT_COUNTED, STAT_NOT_SUPPORTED, STAT_NOT_COUNTED };

/* What one requested event came to. */
struct stat_row {
	const struct event_req *req;
	const struct profile_event *e;    /* NULL: the target did not describe it */
	enum stat_state state;
	char why[160];                    /* for the two <not ...> states */
	struct profile_count_sum sum;
	double scaled;
};

/* An AArch64 event QEMU's PMU implements only under -icount (its INST_RETIRED), in a
 * TCG run without it. */
static int icount_counts_it(const struct profile *p, const struct profile_event *e)
{
	struct run_mode m;

	run_mode_of(p, &m);
	return p->hello.arch == BMPROF_ARCH_AARCH64 && m.accel == RUN_ACCEL_TCG && !m.icount &&
	       e->encoding == 0x08;
}

static void stat_row(const struct profile *p, const struct event_req *req, unsigned id,
		     struct stat_row *r)
{
	memset(r, 0, sizeof *r);
	r->req = req;
	r->e = profile_event(p, (uint16_t)id);
	r->state = STAT_NOT_COUNTED;
	if (!r->e) {
		snprintf(r->why, sizeof r->why, "the image described no event %u: its runtime "
			 "may not know events", id);
		return;
	}
	if (r->e->status == BMPROF_EVST_UNAVAILABLE) {
		uint8_t why = r->e->reason;
		if (why == BMPROF_EVR_NO_PMU || why == BMPROF_EVR_UNSUPPORTED ||
		    why == BMPROF_EVR_BAD_ENCODING)
			r->state = STAT_NOT_SUPPORTED;
		snprintf(r->why, sizeof r->why, "%s%s", events_reason_text(why),
			 icount_counts_it(p, r->e) ? "; QEMU TCG counts instructions only under "
			 "-icount: --icount counts them exactly" : "");
		return;
	}
	if (r->e->status != BMPROF_EVST_ACTIVE) {
		snprintf(r->why, sizeof r->why, "%s", events_reason_text(r->e->reason));
		return;
	}
	if (profile_event_count(p, (uint16_t)id, -1, &r->sum)) {
		snprintf(r->why, sizeof r->why, "no COUNTS arrived for it");
		return;
	}
	if (!r->sum.running) {
		snprintf(r->why, sizeof r->why, "never on a counter (multiplexed out)");
		return;
	}
	r->state = STAT_COUNTED;
	r->scaled = profile_count_scaled(&r->sum);
}

/* The first counted row for a table event, or NULL. */
static const struct stat_row *row_of(const struct stat_row *rows, unsigned n, const char *name)
{
	const struct event_def *d = events_lookup(name);

	for (unsigned i = 0; i < n; i++)
		if (rows[i].req->def == d && rows[i].state == STAT_COUNTED)
			return &rows[i];
	return NULL;
}

/* Guest seconds from the timebase: the longest an event was enabled. 0 if unknown. */
static double elapsed(const struct profile *p, const struct stat_row *rows, unsigned n)
{
	uint64_t t = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t per_cpu = rows[i].sum.ncpus ? rows[i].sum.enabled / rows[i].sum.ncpus : 0;
		if (per_cpu > t)
			t = per_cpu;
	}
	return p->hello.timebase_hz ? (double)t / (double)p->hello.timebase_hz : 0;
}

struct derived {
	double ghz, ipc, branch_miss, cache_miss;   /* < 0: not known */
};

static double ratio(const struct stat_row *a, const struct stat_row *b)
{
	return a && b && b->scaled > 0 ? a->scaled / b->scaled : -1;
}

static void derive(const struct stat_row *rows, unsigned n, double secs, struct derived *d)
{
	const struct stat_row *cyc = row_of(rows, n, "cycles");
	double br = ratio(row_of(rows, n, "branch-misses"), row_of(rows, n, "branches"));
	double cm = ratio(row_of(rows, n, "cache-misses"), row_of(rows, n, "cache-references"));

	d->ghz = cyc && secs > 0 ? cyc->scaled / secs / 1e9 : -1;
	d->ipc = ratio(row_of(rows, n, "instructions"), cyc);
	d->branch_miss = br >= 0 ? 100 * br : -1;
	d->cache_miss = cm >= 0 ? 100 * cm : -1;
}

/* ---- text ---- */

/* v with thousands separators. */
static const char *grouped(char *buf, size_t n, double v)
{
	char digits[32];
	size_t len, o = 0;

	snprintf(digits, sizeof digits, "%.0f", v < 0 ? 0 : v);
	len = strlen(digits);
	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
	return buf;
}

/* The "# ..." comment of a row: a derived value that belongs to it. */
static void comment(char *buf, size_t n, const struct stat_row *r, const struct derived *d)
{
	const struct event_def *def = r->req->def;

	buf[0] = 0;
	if (!def || r->state != STAT_COUNTED)
		return;
	if (def == events_lookup("cycles") && d->ghz >= 0)
		snprintf(buf, n, "#  %8.3f GHz", d->ghz);
	else if (def == events_lookup("instructions") && d->ipc >= 0)
		snprintf(buf, n, "#  %8.2f  insn per cycle", d->ipc);
	else if (def == events_lookup("branch-misses") && d->branch_miss >= 0)
		snprintf(buf, n, "#  %8.2f%% of all branches", d->branch_miss);
	else if (def == events_lookup("cache-misses") && d->cache_miss >= 0)
		snprintf(buf, n, "#  %8.2f%% of all cache refs", d->cache_miss);
}

static void text_row(FILE *f, const char *cpu, const struct stat_row *r,
		     const struct profile_count_sum *s, const char *note)
{
	char num[40], line[512];
	size_t len;

	if (r->state != STAT_COUNTED)
		snprintf(line, sizeof line, "%s%18s      %-28s (%s)", cpu,
			 r->state == STAT_NOT_SUPPORTED ? "<not supported>" : "<not counted>",
			 r->req->name, r->why);
	else if (s->running < s->enabled)
		snprintf(line, sizeof line, "%s%18s      %-28s %s  (%.2f%%)", cpu,
			 grouped(num, sizeof num, profile_count_scaled(s)), r->req->name, note,
			 s->enabled ? 100.0 * (double)s->running / (double)s->enabled : 0.0);
	else
		snprintf(line, sizeof line, "%s%18s      %-28s %s", cpu,
			 grouped(num, sizeof num, profile_count_scaled(s)), r->req->name, note);
	len = strlen(line);
	while (len && line[len - 1] == ' ')
		line[--len] = 0;
	fprintf(f, "%s\n", line);
}

static void print_text(FILE *f, const struct stat_cmd *c, const struct image_run *run,
		       const struct stat_row *rows, unsigned n)
{
	const struct profile *p = capture_profile(run->cap);
	double secs = elapsed(p, rows, n);
	struct derived d;
	char note[80], end[200];
	int scaled = 0;

	derive(rows, n, secs, &d);
	fprintf(f, "\n Performance counter stats for '%s' (%s, %s%s):\n\n", c->run.image,
		run->machine->arch, qemu_accel_name(run->accel_used),
		c->run.icount ? ", icount" : "");
	for (unsigned i = 0; i < n; i++) {
		const struct stat_row *r = &rows[i];

		comment(note, sizeof note, r, &d);
		if (!c->per_cpu || r->state != STAT_COUNTED) {
			text_row(f, "", r, &r->sum, note);
		} else {
			for (unsigned cpu = 0; cpu < PROFILE_MAX_CPUS; cpu++) {
				struct profile_count_sum s;
				char label[16];

				if (profile_event_count(p, (uint16_t)(i + 1), (int)cpu, &s))
					continue;
				snprintf(label, sizeof label, "CPU%-4u", cpu);
				text_row(f, label, r, &s, "");
			}
		}
		scaled |= r->state == STAT_COUNTED && r->sum.running < r->sum.enabled;
	}
	fputc('\n', f);
	if (secs > 0)
		fprintf(f, "  %16.9f seconds time elapsed (guest timebase)\n", secs);
	fprintf(f, "  %16.3f seconds QEMU wall time\n", run->res.seconds);
	if (scaled)
		fprintf(f, "\n  (NN.NN%%): the event was on a counter that share of the time "
			"(multiplexed); its value is scaled up to the whole time\n");
	summary_end(end, sizeof end, p);
	fprintf(f, "\n  run ended: %s\n\n", end);
}

/* ---- JSON ---- */

static void json_opt_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_double(j, v);
}

static void json_sum(struct json *j, const struct profile_count_sum *s, int counted)
{
	json_key(j, "count");
	counted ? json_u64(j, s->value) : json_null(j);
	json_key(j, "enabled");
	counted ? json_u64(j, s->enabled) : json_null(j);
	json_key(j, "running");
	counted ? json_u64(j, s->running) : json_null(j);
	json_opt_double(j, "scaled", counted ? profile_count_scaled(s) : -1);
	json_opt_double(j, "percent_running", counted && s->enabled ?
			100.0 * (double)s->running / (double)s->enabled : -1);
	json_kv_bool(j, "multiplexed", counted && s->running < s->enabled);
}

static void json_row(struct json *j, const struct profile *p, const struct stat_row *r,
		     unsigned id)
{
	static const char *const state[] = { "counted", "not supported", "not counted" };
	const struct profile_event *e = r->e;

	json_begin_object(j);
	json_kv_u64(j, "id", id);
	json_kv_string(j, "name", r->req->name);
	json_kv_string(j, "state", state[r->state]);
	json_kv_string(j, "status", e ? events_status_name(e->status) : NULL);
	json_kv_string(j, "reason", e ? events_reason_name(e->reason) : NULL);
	json_kv_string(j, "why", r->state == STAT_COUNTED ? NULL : r->why);
	json_kv_string(j, "counter_kind", e ? events_counter_kind_name(e->counter_kind) : NULL);
	json_key(j, "counter");
	e && e->counter != 0xff ? json_u64(j, e->counter) : json_null(j);
	json_key(j, "group");
	e && e->group != 0xff ? json_u64(j, e->group) : json_null(j);
	json_kv_u64(j, "ngroups", e ? e->ngroups : 0);
	json_sum(j, &r->sum, r->state == STAT_COUNTED);
	json_key(j, "cpus");
	json_begin_array(j);
	for (unsigned cpu = 0; r->state == STAT_COUNTED && cpu < PROFILE_MAX_CPUS; cpu++) {
		struct profile_count_sum s;

		if (profile_event_count(p, (uint16_t)id, (int)cpu, &s))
			continue;
		json_begin_object(j);
		json_kv_u64(j, "cpu", cpu);
		json_sum(j, &s, 1);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static int print_json(FILE *f, const struct stat_cmd *c, const struct image_run *run,
		      const struct stat_row *rows, unsigned n, int status)
{
	const struct profile *p = capture_profile(run->cap);
	const struct profile_hello *h = &p->hello;
	double secs = elapsed(p, rows, n);
	struct derived d;
	struct json j;
	char end[200];

	derive(rows, n, secs, &d);
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_kv_u64(&j, "format_version", STAT_JSON_VERSION);
	json_kv_string(&j, "image", run->abs_image);
	json_kv_string(&j, "arch", run->machine->arch);
	json_key(&j, "cpu");
	json_begin_object(&j);
	json_kv_string(&j, "vendor", h->vendor);
	json_kv_u64(&j, "family", h->family);
	json_kv_u64(&j, "model", h->model);
	json_kv_u64(&j, "stepping", h->stepping);
	json_kv_hex(&j, "signature", h->signature);
	json_end_object(&j);
	json_kv_string(&j, "accel", qemu_accel_name(run->accel_used));
	json_kv_bool(&j, "icount", c->run.icount);
	json_kv_u64(&j, "timebase_hz", h->timebase_hz);
	json_opt_double(&j, "elapsed_seconds", secs > 0 ? secs : -1);
	json_kv_double(&j, "wall_seconds", run->res.seconds);
	json_kv_i64(&j, "exit_status", status);
	json_key(&j, "end");
	if (p->have_end) {
		summary_end(end, sizeof end, p);
		json_begin_object(&j);
		json_kv_string(&j, "reason", bmprof_end_reason_name(p->end.reason));
		json_kv_i64(&j, "exit_code", p->end.exit_code);
		json_kv_string(&j, "text", end);
		json_end_object(&j);
	} else {
		json_null(&j);
	}
	json_key(&j, "events");
	json_begin_array(&j);
	for (unsigned i = 0; i < n; i++)
		json_row(&j, p, &rows[i], i + 1);
	json_end_array(&j);
	json_key(&j, "derived");
	json_begin_object(&j);
	json_opt_double(&j, "ghz", d.ghz);
	json_opt_double(&j, "insn_per_cycle", d.ipc);
	json_opt_double(&j, "branch_miss_percent", d.branch_miss);
	json_opt_double(&j, "cache_miss_percent", d.cache_miss);
	json_end_object(&j);
	json_end_object(&j);
	return json_finish(&j);
}

/* ---- running ---- */

static int report(const struct stat_cmd *c, struct image_run *run)
{
	const struct profile *p = capture_profile(run->cap);
	const struct event_list *ev = &c->run.events;
	const char *out = c->run.out;
	struct stat_row rows[EVENTS_MAX];
	FILE *f = stderr;
	struct outfile of;
	char err[512];
	int status, bad = 0;

	if (!p->have_hello) {
		if (run->res.how != QEMU_EXITED)
			image_say_how_it_ended(run);
		bm_err("no bmprof stream from %s: it sent no HELLO frame (did it crash at boot? is "
		       "it built with bmprof?)", c->run.image);
		return EXIT_FAILED;
	}
	image_say_how_it_ended(run);
	for (unsigned i = 0; i < ev->n; i++)
		stat_row(p, &ev->ev[i], i + 1, &rows[i]);
	status = image_exit_status(run);
	if (out && outfile_open(&of, out, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	if (out)
		f = of.f;
	if (c->json)
		bad = print_json(f, c, run, rows, ev->n, status) != 0;
	else
		print_text(f, c, run, rows, ev->n);
	bad |= ferror(f) != 0;
	if (out && bad) {
		outfile_abort(&of);
	} else if (out && outfile_commit(&of, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	if (bad) {
		bm_err("writing the counts failed%s%s", out ? " to " : "", out ? out : "");
		return EXIT_FAILED;
	}
	return status;
}

static int run(struct stat_cmd *c)
{
	char config[EVENTS_CONFIG_MAX + 1], events[EVENTS_CONFIG_MAX + 1];
	struct run_opts *o = &c->run;
	struct bm_kv meta[] = { { "events", o->specs }, { "mode", "count" } };
	struct image_run r = {
		.image = o->image, .qemu = o->qemu, .accel = o->accel, .icount = o->icount,
		.smp = o->smp, .timeout = o->timeout, .freq = ROTATE_HZ, .config = config,
		.extra = o->extra, .nextra = o->nextra, .command = o->command, .meta = meta,
		.nmeta = 2, .shm = o->shm, .shm_size = o->shm_size, .shm_delay_us = o->shm_delay_us,
		.shm_at_end = o->shm_at_end,
		.firmware_log = o->firmware_log, .params = o->params, .user = o->user,
	};
	int rc;

	if (o->firmware_debug[0]) {
		bm_err("stat: --firmware-debug names debug ELFs in a profile, and stat writes none "
		       "(use bmprof qemu)");
		return EXIT_USAGE;
	}

	if (events_config(&o->events, 1, ROTATE_HZ, events, sizeof events) < 0) {
		bm_err("stat: the events do not fit the runtime's %d-byte configuration: ask for "
		       "fewer, or give them shorter names", EVENTS_CONFIG_MAX);
		return EXIT_USAGE;
	}
	if (run_opts_config(o, events, ROTATE_HZ, config, sizeof config) < 0)
		return EXIT_USAGE;
	rc = image_run(&r) ? EXIT_FAILED : report(c, &r);
	if (rc == 0 && r.shm_unused)
		rc = EXIT_FAILED;   /* shm was asked for and not used: said by image_run */
	image_run_free(&r);
	return rc;
}

int cmd_stat(int argc, char **argv)
{
	static struct stat_cmd c;
	int rc;

	run_opts_init(&c.run, "stat", (struct events_opts){ .count = 1 });
	c.per_cpu = c.json = 0;
	rc = parse_opts(argc, argv, &c);
	if (rc < 0)
		rc = run(&c);
	run_opts_free(&c.run);
	return rc;
}
