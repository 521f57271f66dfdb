/* SPDX-License-Identifier: BSD-2-Clause */
/* Run-time configuration: the fw_cfg file opt/bmprof/config, key=value settings separated
 * by newlines, spaces, ';' or ','. '#' starts a comment to the end of the line. The keys
 * are the architecture's (its config.c); mode=sample|count is common to both. A bad
 * setting is named in one message (bmrt_log) and keeps the default. */
#include "bmprof_pmu.h"
#include "bmrt.h"
#include "rt_common.h"

#define CONFIG_FILE "opt/bmprof/config"

const struct bmrt_choice bmrt_modes[] = {
	{ "sample", BMPROF_PMU_SAMPLE }, { "count", BMPROF_PMU_COUNT }, { 0, 0 },
};

static int is_sep(char c)
{
	return c == '\n' || c == '\r' || c == ' ' || c == '\t' || c == ';' || c == ',';
}

static int same(const char *a, size_t n, const char *lit)
{
	size_t i = 0;

	while (i < n && lit[i] && a[i] == lit[i])
		i++;
	return i == n && !lit[i];
}

static int parse_dec(const char *s, size_t n, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > max)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static void set_hz(const struct bmrt_key *k, const char *v, size_t vn)
{
	if (parse_dec(v, vn, k->max, k->hz))
		bmrt_log(BMRT_WARN, "config: %s=%.*s: want a number of %s, 0..%u; using %u",
			 k->name, (int)vn, v, k->unit ? k->unit : "Hz", (unsigned)k->max, (unsigned)*k->hz);
}

/* One line: "want a, b or c". */
static void set_pick(const struct bmrt_key *k, const char *v, size_t vn)
{
	const struct bmrt_choice *c = k->choices;
	struct bmrt_msg m;

	for (; c->name; c++)
		if (same(v, vn, c->name)) {
			*k->pick = c->value;
			return;
		}
	bmrt_msg_start(&m, BMRT_WARN);
	bmrt_msg_add(&m, "config: %s=%.*s: want ", k->name, (int)vn, v);
	for (c = k->choices; c->name; c++)
		bmrt_msg_add(&m, "%s%s", c == k->choices ? "" : c[1].name ? ", " : " or ", c->name);
	bmrt_msg_send(&m);
}

static void unknown(const struct bmrt_key *keys, const char *s, size_t n)
{
	struct bmrt_msg m;

	bmrt_msg_start(&m, BMRT_WARN);
	bmrt_msg_add(&m, "config: unknown key '%.*s' (known: ", (int)n, s);
	for (const struct bmrt_key *k = keys; k->name; k++)
		bmrt_msg_add(&m, "%s%s", k == keys ? "" : ", ", k->name);
	bmrt_msg_add(&m, "); ignored");
	bmrt_msg_send(&m);
}

static void setting(const struct bmrt_key *keys, const char *s, size_t n)
{
	const struct bmrt_key *k = keys;
	const char *v;
	size_t kn = 0, vn;

	while (kn < n && s[kn] != '=')
		kn++;
	if (kn == n) {
		bmrt_log(BMRT_WARN, "config: '%.*s' is not key=value; ignored", (int)n, s);
		return;
	}
	v = s + kn + 1;
	vn = n - kn - 1;
	while (k->name && !same(s, kn, k->name))
		k++;
	if (!k->name)
		unknown(keys, s, kn);
	else if (k->hz)
		set_hz(k, v, vn);
	else if (k->pick)
		set_pick(k, v, vn);
	else
		k->set(k->cfg, v, vn);
}

static void parse(const struct bmrt_key *keys, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start;
		if (text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (is_sep(text[i]) || !text[i]) {
			i++;
			continue;
		}
		start = i;
		while (i < len && !is_sep(text[i]) && text[i] && text[i] != '#')
			i++;
		setting(keys, text + start, i - start);
	}
}

void bmrt_config_read(const struct bmrt_key *keys, char *text, size_t cap)
{
	int n = fwcfg_read_file(CONFIG_FILE, text, cap);

	if (n < 0)
		return;
	if ((size_t)n > cap) {
		bmrt_log(BMRT_WARN, "config: %s is %d bytes; only the first %d are read",
			 CONFIG_FILE, n, (int)cap);
		n = (int)cap;
	}
	parse(keys, text, (size_t)n);
}

int bmrt_event_fits(const char *v, size_t vn, size_t spec_max, unsigned n, unsigned max)
{
	if (vn >= spec_max) {
		bmrt_log(BMRT_WARN, "config: event=%.*s: longer than %d characters; ignored",
			 (int)vn, v, (int)spec_max - 1);
		return 0;
	}
	if (n >= max) {
		bmrt_log(BMRT_WARN, "config: event=%.*s: more than %d events; ignored", (int)vn, v,
			 (int)max);
		return 0;
	}
	return 1;
}

const char *bmrt_event_keep(char *spec, const char *v, size_t vn)
{
	memcpy(spec, v, vn);
	spec[vn] = 0;
	return spec;
}
