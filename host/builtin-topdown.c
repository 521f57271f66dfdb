/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown: boot an image in QEMU counting the events the CPU's Top-Down formulas
 * need (counting mode, multiplexed groups, as bmprof stat runs), or read counts from a file,
 * and print the tree. docs/bmprof-topdown.md is its manual. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "run/image_run.h"
#include "profile/profile_io.h"
#include "events.h"
#include "util/outfile.h"
#include "run/run_opts.h"
#include "topdown.h"
#include "topdown/topdown_functions.h"
#include "topdown/topdown_input.h"
#include "topdown/topdown_print.h"
#include "util/util.h"

#define ROTATE_HZ 1000         /* the multiplexing tick, as bmprof stat */
#define DEFAULT_LEVEL 3

static const char description[] =
	"Top-Down analysis: which part of the pipeline bounds the run (Frontend Bound, Bad "
	"Speculation, Retiring, Backend Bound, and below them as far as the CPU's events go). "
	"With IMAGE, boot it in QEMU counting the events the CPU's formulas need, in groups "
	"multiplexed over time slices (as bmprof stat); with -i, analyse a counts file (JSON) or "
	"a profile recorded with --save, and none of the options of running QEMU apply. The "
	"image's console goes to stdout; the tree to stderr (to stdout with -i), or to FILE "
	"with -o.";

static const char tail[] =
	"Exit status: 0 (or main()'s return value when the image exits non-zero); 2 usage;\n"
	"125 bmprof failed; 124, 126, 130 as bmprof stat.\n";

#define PER_FUNCTION_ROWS 20
#define SAMPLE_PERIOD 100000u   /* events per sample, --per-function */

struct topdown_cmd {
	struct run_opts run;
	unsigned level;
	int json, show_all;
	const char *family, *save, *input, *out;
	unsigned long counters;
	int per_function;          /* sample the level-1 events, and split them by function */
};

/* ---- options ---- */

static int level_of(const struct opt *o, const char *s, const struct opt_cmd *c)
{
	if (strlen(s) != 1 || s[0] < '1' || s[0] > '0' + TD_MAX_LEVEL) {
		bm_err("topdown: --level takes 1 to %d, not '%s'", TD_MAX_LEVEL, s);
		return -1;
	}
	*(unsigned *)o->value = (unsigned)(s[0] - '0');
	return 0;
}

/* With -i: only the options of the analysis (those before --save in opts) and -o. */
static int input_mode(const struct topdown_cmd *c, const struct opt *opts)
{
	const struct opt_args *a = &c->run.args;
	const struct opt *save = opts;
	char name[80];

	while (strcmp(save->long_name ? save->long_name : "", "save"))
		save++;
	for (int i = 0; i < a->nseen; i++)
		if (a->seen[i] >= save && strcmp(a->seen[i]->long_name, "output")) {
			bm_err("topdown: %s does not go with -i (see bmprof topdown --help)",
			       opt_name(a->seen[i], name, sizeof name));
			return EXIT_USAGE;
		}
	if (a->n || a->dash_given) {
		bm_err("topdown: -i reads a file; '%s' is extra (an IMAGE is run without -i)",
		       a->n ? a->v[0] : "--");
		return EXIT_USAGE;
	}
	return -1;
}

static int parse_opts(int argc, char **argv, struct topdown_cmd *c)
{
	const struct opt opts[] = {
		OPT_CALLBACK('l', "level", &c->level, "N", "how deep: 1 to 4 (default 3)",
			     level_of),
		OPT_BOOL('j', "json", &c->json, "the whole tree as JSON (docs/bmprof-topdown.md)"),
		OPT_BOOL(0, "show-all", &c->show_all, "also the nodes under parents that are not "
			 "flagged (marked '. ')"),
		OPT_STRING(0, "family", &c->family, "NAME", "use these formulas, not the ones for "
			   "the CPU (intel-skl, ...)"),
		OPT_ULONG(0, "counters", &c->counters, "N", "the CPU's general-purpose counters "
			  "(default: the family's)", 1, 32),
		OPT_BOOL(0, "per-function", &c->per_function, "sample the level-1 events instead "
			 "of counting them, and show each function's level 1 (of the 20 hottest)"),
		OPT_STRING('i', "input", &c->input, "FILE", "analyse FILE (a counts file or a "
			   "profile saved with --save) instead of running an image"),
		OPT_STRING(0, "save", &c->save, "FILE", "keep the run's profile (its COUNTS) for "
			   "-i"),
		RUN_OPTS_TABLE(&c->run, "write the tree to FILE"),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "topdown",
				     .args = "IMAGE [-- QEMU-ARGS...]\n-i FILE",
				     .description = description, .opts = opts, .tail = tail };
	int rc;

	rc = opt_parse(&cmd, argc, argv, &c->run.args);
	if (rc >= 0)
		return rc;
	c->out = c->run.out;
	if (c->input)
		return input_mode(c, opts);
	rc = run_opts_check(&c->run, argc, argv);
	if (rc >= 0)
		return rc;
	if (c->run.events.n) {
		bm_err("topdown: it picks its own events from the CPU's formulas: --event does not "
		       "go with it (use bmprof stat to count events of your choice)");
		return EXIT_USAGE;
	}
	return -1;
}

/* ---- output ---- */

static int write_report(const struct topdown_cmd *c, const struct td_report *r, FILE *dflt)
{
	FILE *f = dflt;
	struct outfile of;
	char err[512];
	int bad = 0;

	if (c->out && outfile_open(&of, c->out, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	if (c->out)
		f = of.f;
	if (c->json)
		bad = topdown_print_json(f, r) != 0;
	else
		topdown_print_text(f, r);
	bad |= fflush(f) != 0 || ferror(f);
	if (c->out && bad)
		outfile_abort(&of);
	else if (c->out && outfile_commit(&of, err, sizeof err))
		bad = 1;
	if (bad) {
		bm_err("writing the tree failed%s%s", c->out ? " to " : "", c->out ? c->out : "");
		return EXIT_FAILED;
	}
	return 0;
}

static int analyse(const struct topdown_cmd *c, const char *what, const struct td_model *m,
		   const struct td_input *in, const struct td_plan *plan, const char *note,
		   FILE *dflt)
{
	static struct td_tree t;
	char err[256];
	struct td_report r = { what, m, in, &t, c->level, c->show_all, plan, note };

	if (topdown_compute(m, &in->counts, c->level, &t, err, sizeof err)) {
		bm_err("%s: %s", what, err);
		return EXIT_FAILED;
	}
	return write_report(c, &r, dflt);
}

/* ---- -i FILE ---- */

static int per_function(const struct topdown_cmd *c, const struct td_model *planned,
			const struct td_input *in, const struct profile *prof, const char *what,
			const char *profile_path, const char *elf);

/* --per-function -i PROFILE: a profile recorded with --per-function --save. */
static int per_function_input(const struct topdown_cmd *c)
{
	static struct profile p;
	static struct td_input in;
	static struct td_model m;
	char err[512];
	int rc = EXIT_FAILED;

	profile_init(&p);
	if (profile_load(c->input, &p, err, sizeof err) < 0) {
		bm_err("%s", err);
		goto out;
	}
	if (td_input_profile(&p, &in, err, sizeof err)) {
		bm_err("%s: %s", c->input, err);
		goto out;
	}
	if (topdown_select(&m, in.arch, in.vendor, in.family, in.model,
			   c->family ? c->family : in.family_name[0] ? in.family_name : NULL, err,
			   sizeof err)) {
		bm_err("%s: %s (give --family NAME to use one anyway)", c->input, err);
		goto out;
	}
	if (!p.nsamples) {
		bm_err("%s: no samples: record it with bmprof topdown --per-function --save FILE",
		       c->input);
		goto out;
	}
	rc = per_function(c, &m, &in, &p, c->input, c->input, NULL) ? EXIT_FAILED : 0;
out:
	profile_free(&p);
	return rc;
}

static int run_input(const struct topdown_cmd *c)
{
	static struct td_input in;
	static struct td_model m;
	char err[512];

	if (c->per_function)
		return per_function_input(c);
	if (td_input_load(c->input, &in, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	if (topdown_select(&m, in.arch, in.vendor, in.family, in.model,
			   c->family ? c->family : in.family_name[0] ? in.family_name : NULL, err,
			   sizeof err)) {
		bm_err("%s: %s (give --family NAME to use one anyway)", c->input, err);
		return EXIT_FAILED;
	}
	return analyse(c, c->input, &m, &in, NULL, NULL, stdout);
}

/* ---- running an image ---- */

/* The host's CPU identity from /proc/cpuinfo (what KVM's -cpu host shows the guest). */
static int host_cpu(char *vendor, size_t vn, uint32_t *family, uint32_t *model)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], word[64];
	int have = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f) && have != 7) {
		unsigned v;

		if (sscanf(line, "vendor_id : %63s", word) == 1) {
			snprintf(vendor, vn, "%s", word);
			have |= 1;
		} else if (sscanf(line, "cpu family : %u", &v) == 1) {
			*family = v;
			have |= 2;
		} else if (sscanf(line, "model : %u", &v) == 1) {
			*model = v;
			have |= 4;
		}
	}
	fclose(f);
	return have == 7 ? 0 : -1;
}

static int plan_model(const struct topdown_cmd *c, struct td_model *m)
{
	char err[512], vendor[64] = "";
	uint32_t family = 0, model = 0;
	int em;
	const struct qemu_machine *mach;

	if (qemu_elf_machine(c->run.image, &em, err, sizeof err)) {
		bm_err("%s", err);
		return EXIT_FAILED;
	}
	mach = qemu_machine_for(em);
	if (!mach) {
		bm_err("%s: bmprof cannot boot this machine", c->run.image);
		return EXIT_FAILED;
	}
	if (!c->family && !strcmp(mach->arch, "x86_64") && host_cpu(vendor, sizeof vendor, &family,
								     &model)) {
		bm_err("topdown: cannot read this host's CPU from /proc/cpuinfo: give --family NAME");
		return EXIT_FAILED;
	}
	if (topdown_select(m, mach->arch, vendor, family, model, c->family, err, sizeof err)) {
		bm_err("topdown: %s; the image runs on this host's CPU under KVM: give --family "
		       "NAME to plan for another", err);
		return EXIT_FAILED;
	}
	return -1;
}

static uint8_t vendor_of(const struct td_model *m)
{
	return !strncmp(m->family, "intel", 5) ? EVENT_INTEL :
	       !strncmp(m->family, "amd", 3) ? EVENT_AMD : EVENT_ARM;
}

/* The events of one run: the groups of pass r, as config text and the meta map. */
static int pass_config(const struct topdown_cmd *c, const struct td_model *m,
		       const struct td_plan *p, unsigned r, int short_names, char *config,
		       size_t n, char *map, size_t mapn)
{
	static struct event_list l;
	char events[EVENTS_CONFIG_MAX + 1];
	size_t len = 0;

	memset(&l, 0, sizeof l);
	map[0] = 0;
	for (unsigned g = 0; g < p->ngroups; g++) {
		if (p->g[g].pass != r)
			continue;
		for (unsigned e = 0; e < m->nevents; e++) {
			struct event_req *q;
			int k;

			if (!(p->g[g].events >> e & 1))
				continue;
			if (l.n >= EVENTS_MAX)
				return -1;
			q = &l.ev[l.n++];
			/* the event's own name where the config has room (the map says which
			 * is which either way) */
			if (short_names)
				snprintf(q->name, sizeof q->name, "td%u", l.n);
			else
				snprintf(q->name, sizeof q->name, "%.*s", EVENTS_NAME_MAX,
					 m->event[e]->name);
			if (m->event[e]->word) {
				q->word = m->event[e]->word;
			} else {
				q->alt[0].vendor = vendor_of(m);
				q->alt[0].code = m->event[e]->code;
				q->nalt = 1;
			}
			q->group = (int)l.ngroups;
			q->period = c->per_function ? SAMPLE_PERIOD : 0;
			k = snprintf(map + len, mapn - len, "%s%u:%u:%s", len ? " " : "", l.n, g,
				     m->event[e]->name);
			if (k < 0 || (size_t)k >= mapn - len)
				return -1;
			len += (size_t)k;
		}
		l.ngroups++;
	}
	if (events_config(&l, !c->per_function, ROTATE_HZ, events, sizeof events) < 0)
		return -1;
	return run_opts_config(&c->run, events, ROTATE_HZ, config, n) < 0 ? -1 : 0;
}

/* Append a run's counts to in (the first run's CPU identity is kept). */
static int take_counts(struct td_input *in, const struct profile *p, int first)
{
	static struct td_input one;
	char err[256];

	if (td_input_profile(p, &one, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (first) {
		memcpy(in->arch, one.arch, sizeof in->arch);
		memcpy(in->vendor, one.vendor, sizeof in->vendor);
		in->family = one.family;
		in->model = one.model;
	}
	for (unsigned i = 0; i < one.counts.n && in->counts.n < TD_MAX_COUNTS; i++)
		in->counts.c[in->counts.n++] = one.counts.c[i];
	return 0;
}

/* --per-function: the tree of the whole run, then each function's level 1. */
static int per_function(const struct topdown_cmd *c, const struct td_model *planned,
			const struct td_input *in, const struct profile *prof, const char *what,
			const char *profile_path, const char *elf)
{
	static struct td_model m;
	static struct td_tree t;
	char err[256];
	struct td_report r = { what, &m, in, &t, 1, c->show_all, NULL, NULL };
	FILE *f = c->input ? stdout : stderr;
	int rc = 0;

	if (topdown_select(&m, in->arch, in->vendor, in->family, in->model, planned->family,
			   err, sizeof err))
		m = *planned;
	struct outfile of;

	if (c->out && outfile_open(&of, c->out, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (c->out)
		f = of.f;
	if (!c->json && !topdown_compute(&m, &in->counts, 1, &t, err, sizeof err)) {
		topdown_print_text(f, &r);
		fputc('\n', f);
	}
	rc = topdown_functions_print(f, &m, prof, profile_path, elf, PER_FUNCTION_ROWS, c->json);
	if (fflush(f) || ferror(f))
		rc = -1;
	if (c->out && rc)
		outfile_abort(&of);
	else if (c->out && outfile_commit(&of, err, sizeof err)) {
		bm_err("%s", err);
		rc = -1;
	}
	return rc;
}

static int run_pass(const struct topdown_cmd *c, const struct td_model *m,
		    const struct td_plan *p, unsigned r, struct td_input *in)
{
	char config[EVENTS_CONFIG_MAX + 1], map[4096], save[PATH_MAX];
	const struct run_opts *o = &c->run;
	struct bm_kv meta[] = { { "mode", c->per_function ? "sample" : "count" }, { TD_META_KEY, map },
				{ "topdown_family", m->family } };
	struct image_run run = {
		.image = o->image, .qemu = o->qemu, .accel = o->accel, .icount = o->icount,
		.smp = o->smp, .timeout = o->timeout, .freq = ROTATE_HZ, .config = config,
		.extra = o->extra, .nextra = o->nextra, .command = o->command, .meta = meta,
		.nmeta = 3, .shm = o->shm, .shm_size = o->shm_size, .shm_delay_us = o->shm_delay_us,
		.shm_at_end = o->shm_at_end,
		.firmware_log = o->firmware_log, .params = o->params, .user = o->user,
	};
	const struct profile *prof;
	char step[32];
	int rc;

	if (p->npasses > 1) {
		/* several runs, one per counter group set: say which one this is */
		snprintf(step, sizeof step, "run %u/%u", r + 1, p->npasses);
		run.step = step;
		fprintf(stderr, "bmprof: topdown: %s\n", step);
	}
	if (pass_config(c, m, p, r, 0, config, sizeof config, map, sizeof map) &&
	    pass_config(c, m, p, r, 1, config, sizeof config, map, sizeof map)) {
		bm_err("topdown: run %u's events do not fit the runtime's %d-byte configuration",
		       r + 1, EVENTS_CONFIG_MAX);
		return EXIT_FAILED;
	}
	if (c->save) {
		if (p->npasses > 1)
			snprintf(save, sizeof save, "%s.%u", c->save, r + 1);
		else
			snprintf(save, sizeof save, "%s", c->save);
		run.out = save;
	}
	if (image_run(&run))
		return EXIT_FAILED;
	prof = capture_profile(run.cap);
	image_say_how_it_ended(&run);
	rc = image_exit_status(&run);
	if (!prof->have_hello) {
		bm_err("no bmprof stream from %s: it sent no HELLO frame (did it crash at boot? is "
		       "it built with bmprof?)", o->image);
		rc = EXIT_FAILED;
	} else if (take_counts(in, prof, r == 0)) {
		rc = EXIT_FAILED;
	} else if (c->per_function && per_function(c, m, in, prof, o->image, NULL,
						   run.abs_image)) {
		rc = EXIT_FAILED;
	}
	if (c->save && prof->have_hello) {
		char err[512];

		if (capture_save(run.cap, err, sizeof err)) {
			bm_err("%s", err);
			rc = EXIT_FAILED;
		}
	}
	if (rc == 0 && run.shm_unused)
		rc = EXIT_FAILED;
	image_run_free(&run);
	return rc;
}

static int run_image(const struct topdown_cmd *c)
{
	static struct td_model planned, ran;
	static struct td_plan plan;
	static struct td_input in;
	struct td_pmu pmu;
	char err[512], note[768] = "";
	int rc = 0, status = 0;

	if (c->run.firmware_debug[0]) {
		bm_err("topdown: --firmware-debug names debug ELFs in a profile; use --save and "
		       "bmprof report");
		return EXIT_USAGE;
	}
	if ((rc = plan_model(c, &planned)) >= 0)
		return rc;
	pmu.gp = c->counters ? c->counters : planned.gp;
	pmu.fixed_cycles = 1;
	pmu.events_per_pass = EVENTS_MAX;
	if (topdown_plan(&planned, topdown_metrics_upto(&planned, c->per_function ? 1 : c->level),
			 &pmu, &plan)) {
		bm_err("topdown: the metrics need more than %d counter groups", TD_PLAN_MAX_GROUPS);
		return EXIT_FAILED;
	}
	if (c->per_function && plan.npasses > 1) {
		bm_err("topdown: --per-function samples level 1 in one run, and this CPU's level 1 "
		       "needs %u", plan.npasses);
		return EXIT_FAILED;
	}
	memset(&in, 0, sizeof in);
	for (unsigned r = 0; r < plan.npasses; r++) {
		rc = run_pass(c, &planned, &plan, r, &in);
		if (rc == EXIT_FAILED || rc == EXIT_TIMEOUT || rc == EXIT_CRASHED ||
		    rc == EXIT_INTERRUPTED)
			return rc;
		status = status ? status : rc;
	}
	/* the CPU the image ran on may know more than the plan did (its width, on Arm) */
	if (topdown_select(&ran, in.arch, in.vendor, in.family, in.model, NULL, err,
			   sizeof err) || strcmp(ran.family, planned.family))
		snprintf(note, sizeof note, "note: the image ran on %s %s family 0x%x model 0x%x; "
			 "the events were planned for %s (--family)", in.arch, in.vendor, in.family,
			 in.model, planned.family);
	if (topdown_select(&ran, in.arch, in.vendor, in.family, in.model, planned.family, err,
			   sizeof err))
		ran = planned;
	for (unsigned i = 0, k = 0; i < planned.nmetrics; i++)
		if (plan.node_group[i] == -2) {
			/* nodes whose events cannot share one group on this PMU */
			size_t l = strlen(note);

			snprintf(note + l, sizeof note - l, "%s%s", k++ ? ", " :
				 l ? "\nnote: too many events to count together here: " :
				 "note: too many events to count together here: ",
				 planned.metric[i]->node);
		}
	if (c->per_function)
		return status;     /* printed by the run */
	rc = analyse(c, c->run.image, &ran, &in, &plan, note[0] ? note : NULL, stderr);
	return rc ? rc : status;
}

int cmd_topdown(int argc, char **argv)
{
	static struct topdown_cmd c;
	int rc;

	memset(&c, 0, sizeof c);
	run_opts_init(&c.run, "topdown", (struct events_opts){ .count = 1 });
	c.level = DEFAULT_LEVEL;
	rc = parse_opts(argc, argv, &c);
	if (rc < 0)
		rc = c.input ? run_input(&c) : run_image(&c);
	run_opts_free(&c.run);
	return rc;
}
