/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown's inputs: counts files and profiles (topdown_input.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "profile/profile_io.h"
#include "topdown/topdown_input.h"
#include "util/util.h"

#define TD_COUNTS_FORMAT "bmprof-topdown-counts"
/* A counts file names at most TD_MAX_COUNTS events in a few hundred bytes each: a bigger
 * file is refused before it is read, so a hostile one costs neither time nor memory */
#define TD_MAX_FILE (1u << 20)

/* A member that must be a number (or, for ids, a "0x.." string). */
static int num_of(const json_t *v, double *out)
{
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		unsigned long long x = strtoull(s, &end, 0);

		if (*s && !*end) {
			*out = (double)x;
			return 0;
		}
	}
	return -1;
}

/* A string member (of at most max - 1 bytes, no NUL) or NULL. */
static const char *str_of(const json_t *v, size_t max)
{
	const char *s = json_string_value(v);

	return s && json_string_length(v) < max && strlen(s) == json_string_length(v) ? s : NULL;
}

static int cpu_of(const char *name, const json_t *cpu, struct td_input *in, char *err,
		  size_t n)
{
	const json_t *v;
	const char *s;
	double x;

	if (!json_is_object(cpu)) {
		snprintf(err, n, "%s: no \"cpu\" object: say which CPU counted (docs/bmprof-topdown.md)",
			 name);
		return -1;
	}
	if ((v = json_object_get(cpu, "topdown_family"))) {
		if (!(s = str_of(v, sizeof in->family_name))) {
			snprintf(err, n, "%s: cpu.topdown_family must be a family name", name);
			return -1;
		}
		strcpy(in->family_name, s);
	}
	if ((v = json_object_get(cpu, "arch"))) {
		if (!(s = str_of(v, sizeof in->arch)) || (strcmp(s, "x86_64") && strcmp(s, "aarch64"))) {
			snprintf(err, n, "%s: cpu.arch must be \"x86_64\" or \"aarch64\"", name);
			return -1;
		}
		strcpy(in->arch, s);
	}
	if ((v = json_object_get(cpu, "vendor"))) {
		if (!(s = str_of(v, sizeof in->vendor))) {
			snprintf(err, n, "%s: cpu.vendor must be a string of up to %zu characters",
				 name, sizeof in->vendor - 1);
			return -1;
		}
		bm_safe(in->vendor, sizeof in->vendor, s);
	}
	if ((v = json_object_get(cpu, "family"))) {
		if (num_of(v, &x) || x < 0 || x > 0xffffffffu) {
			snprintf(err, n, "%s: cpu.family must be a number", name);
			return -1;
		}
		in->family = (uint32_t)x;
	}
	if ((v = json_object_get(cpu, "model"))) {
		if (num_of(v, &x) || x < 0 || x > 0xffffffffu) {
			snprintf(err, n, "%s: cpu.model must be a number", name);
			return -1;
		}
		in->model = (uint32_t)x;
	}
	if ((v = json_object_get(cpu, "gp_counters"))) {
		if (num_of(v, &x) || x < 1 || x > 32) {
			snprintf(err, n, "%s: cpu.gp_counters must be a number from 1 to 32", name);
			return -1;
		}
		in->gp = (unsigned)x;
	}
	if (!in->family_name[0] && !in->arch[0]) {
		snprintf(err, n, "%s: cpu needs \"arch\", \"vendor\", \"family\" and \"model\", or "
			 "\"topdown_family\"", name);
		return -1;
	}
	return 0;
}

static int count_of(const char *name, unsigned i, const json_t *c, struct td_count *out,
		    char *err, size_t n)
{
	const json_t *v;
	const char *ev = str_of(json_object_get(c, "event"), sizeof out->event), *s;
	double x;

	memset(out, 0, sizeof *out);
	if (!json_is_object(c) || !ev || !ev[0]) {
		snprintf(err, n, "%s: counts[%u] needs \"event\", the event's name (up to %zu "
			 "characters)", name, i, sizeof out->event - 1);
		return -1;
	}
	/* names and reasons are printed: a control byte in one is escaped (no model event
	 * has one, so an escaped name matches none, as the raw one would not) */
	bm_safe(out->event, sizeof out->event, ev);
	out->group = -1;
	if ((v = json_object_get(c, "group")) && !json_is_null(v)) {
		if (num_of(v, &x) || x < 0 || x > 1e6 || x != floor(x)) {
			snprintf(err, n, "%s: counts[%u].group must be a whole number", name, i);
			return -1;
		}
		out->group = (int)x;
	}
	if ((s = json_string_value(json_object_get(c, "why"))))
		bm_safe(out->why, sizeof out->why, s);
	v = json_object_get(c, "value");
	if (!v || json_is_null(v)) {
		s = json_string_value(json_object_get(c, "state"));
		out->state = s && !strcmp(s, "not supported") ? TD_UNSUPPORTED : TD_NOT_COUNTED;
		return 0;
	}
	if (num_of(v, &out->value) || out->value < 0) {
		snprintf(err, n, "%s: counts[%u].value must be a count (a number, 0 or more) or null",
			 name, i);
		return -1;
	}
	out->state = TD_COUNTED;
	if ((v = json_object_get(c, "enabled")) && (num_of(v, &out->enabled) || out->enabled < 0)) {
		snprintf(err, n, "%s: counts[%u].enabled must be a number", name, i);
		return -1;
	}
	if ((v = json_object_get(c, "running")) && (num_of(v, &out->running) || out->running < 0)) {
		snprintf(err, n, "%s: counts[%u].running must be a number", name, i);
		return -1;
	}
	if (out->running > out->enabled) {
		snprintf(err, n, "%s: counts[%u]: running (%g) is more than enabled (%g)", name, i,
			 out->running, out->enabled);
		return -1;
	}
	if (out->enabled > 0 && out->running == 0) {
		out->state = TD_NOT_COUNTED;
		snprintf(out->why, sizeof out->why, "never on a counter (multiplexed out)");
	}
	return 0;
}

int td_input_json(const char *name, const char *text, size_t len, struct td_input *in,
		  char *err, size_t n)
{
	json_error_t je;
	const json_t *v, *counts;
	json_t *root;
	int rc = -1;

	memset(in, 0, sizeof *in);
	if (len > TD_MAX_FILE) {
		snprintf(err, n, "%s: %zu bytes: a counts file of at most %d counts is far below "
			 "%u KiB", name, len, TD_MAX_COUNTS, TD_MAX_FILE >> 10);
		return -1;
	}
	/* every number as a double: counts past 2^63 and 1.8e23 alike */
	root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &je);
	if (!root) {
		snprintf(err, n, "%s: not valid JSON: line %d: %s", name, je.line, je.text);
		return -1;
	}
	v = json_object_get(root, "format");
	if (!json_is_object(root) || !json_is_string(v) ||
	    strcmp(json_string_value(v), TD_COUNTS_FORMAT)) {
		snprintf(err, n, "%s: not a counts file: want an object with \"format\": \"%s\" "
			 "(docs/bmprof-topdown.md)", name, TD_COUNTS_FORMAT);
		goto out;
	}
	v = json_object_get(root, "version");
	if (!json_is_number(v) || json_number_value(v) != 1) {
		snprintf(err, n, "%s: \"version\" must be 1 (this bmprof reads version 1)", name);
		goto out;
	}
	if (cpu_of(name, json_object_get(root, "cpu"), in, err, n))
		goto out;
	counts = json_object_get(root, "counts");
	if (!json_is_array(counts)) {
		snprintf(err, n, "%s: no \"counts\" array", name);
		goto out;
	}
	if (json_array_size(counts) > TD_MAX_COUNTS) {
		snprintf(err, n, "%s: %zu counts, at most %d", name, json_array_size(counts),
			 TD_MAX_COUNTS);
		goto out;
	}
	for (size_t i = 0; i < json_array_size(counts); i++)
		if (count_of(name, (unsigned)i, json_array_get(counts, i), &in->counts.c[i], err, n))
			goto out;
	in->counts.n = (unsigned)json_array_size(counts);
	rc = 0;
out:
	json_decref(root);
	return rc;
}

static void count_from_event(const struct profile *p, const struct profile_event *e,
			     struct td_count *c)
{
	struct profile_count_sum s;

	if (e->status == BMPROF_EVST_UNAVAILABLE) {
		c->state = e->reason == BMPROF_EVR_NO_PMU || e->reason == BMPROF_EVR_UNSUPPORTED ||
			   e->reason == BMPROF_EVR_BAD_ENCODING ? TD_UNSUPPORTED : TD_NOT_COUNTED;
		snprintf(c->why, sizeof c->why, "%s", events_reason_text(e->reason));
		return;
	}
	if (profile_event_count(p, e->id, -1, &s)) {
		c->state = TD_NOT_COUNTED;
		snprintf(c->why, sizeof c->why, "no COUNTS arrived for it");
		return;
	}
	if (!s.running) {
		c->state = TD_NOT_COUNTED;
		snprintf(c->why, sizeof c->why, "never on a counter (multiplexed out)");
		return;
	}
	c->state = TD_COUNTED;
	c->value = (double)s.value;
	c->enabled = (double)s.enabled;
	c->running = (double)s.running;
}

int td_input_profile(const struct profile *p, struct td_input *in, char *err, size_t n)
{
	const char *map = profile_meta(p, TD_META_KEY);

	memset(in, 0, sizeof *in);
	if (!p->have_hello) {
		snprintf(err, n, "the profile has no HELLO frame: it does not say which CPU counted");
		return -1;
	}
	snprintf(in->arch, sizeof in->arch, "%s", p->hello.arch == BMPROF_ARCH_X86_64 ? "x86_64" :
		 p->hello.arch == BMPROF_ARCH_AARCH64 ? "aarch64" : "");
	snprintf(in->vendor, sizeof in->vendor, "%s", p->hello.vendor);
	in->family = p->hello.family;
	in->model = p->hello.model;
	if (profile_meta(p, "topdown_family"))
		snprintf(in->family_name, sizeof in->family_name, "%s",
			 profile_meta(p, "topdown_family"));
	if (map) {
		const char *s = map;

		while (*s) {
			unsigned id;
			int group, used = 0;
			char name[TD_NAME_MAX];
			const struct profile_event *e;
			struct td_count *c;

			if (sscanf(s, "%u:%d:%63s%n", &id, &group, name, &used) != 3) {
				snprintf(err, n, "the profile's %s meta key is malformed", TD_META_KEY);
				return -1;
			}
			s += used;
			while (*s == ' ')
				s++;
			if (in->counts.n >= TD_MAX_COUNTS) {
				snprintf(err, n, "more than %d Top-Down events in the profile",
					 TD_MAX_COUNTS);
				return -1;
			}
			c = &in->counts.c[in->counts.n++];
			memset(c, 0, sizeof *c);
			bm_safe(c->event, sizeof c->event, name);
			c->group = group;
			e = profile_event(p, (uint16_t)id);
			if (!e) {
				c->state = TD_NOT_COUNTED;
				snprintf(c->why, sizeof c->why, "the image described no event %u", id);
				continue;
			}
			count_from_event(p, e, c);
		}
		return 0;
	}
	for (unsigned i = 0; i < p->nevents && in->counts.n < TD_MAX_COUNTS; i++) {
		struct td_count *c = &in->counts.c[in->counts.n++];

		memset(c, 0, sizeof *c);
		snprintf(c->event, sizeof c->event, "%s", p->events[i].name);
		c->group = -1;
		count_from_event(p, &p->events[i], c);
	}
	if (!p->ncounts) {
		snprintf(err, n, "the profile has no COUNTS records: record one with bmprof topdown "
			 "-o FILE, or give a counts file");
		return -1;
	}
	return 0;
}

int td_input_load(const char *path, struct td_input *in, char *err, size_t n)
{
	FILE *f = bm_fopen_regular(path, "a counts file or a profile", err, n);
	char *buf;
	size_t len;
	int c, rc;

	if (!f)
		return -1;
	while ((c = getc(f)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		;
	if (c != '{') {   /* a profile, loaded as one (its own bounds) */
		struct profile p;
		char perr[256];

		fclose(f);
		profile_init(&p);
		rc = profile_load(path, &p, perr, sizeof perr);
		if (rc < 0)
			snprintf(err, n, "%s: neither a counts file (JSON) nor a profile: %s", path,
				 perr);
		else
			rc = td_input_profile(&p, in, err, n);
		profile_free(&p);
		return rc;
	}
	/* a counts file: bounded before anything is allocated for it */
	if (!(buf = malloc(TD_MAX_FILE + 1))) {
		fclose(f);
		snprintf(err, n, "out of memory");
		return -1;
	}
	rewind(f);
	len = fread(buf, 1, TD_MAX_FILE + 1, f);
	rc = ferror(f);
	fclose(f);
	if (rc)
		snprintf(err, n, "cannot read %s", path);
	else
		rc = td_input_json(path, buf, len, in, err, n);
	free(buf);
	return rc;
}
