/* SPDX-License-Identifier: BSD-2-Clause */
/* Named events, --event specs and config lines: see events.h. */
#include "events.h"
#include "wire_text.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const vendor_names[EVENT_NVENDORS] = { "intel", "amd", "arm" };

/* ---- the table ---- */

/* name is one of the comma-separated names in list (case ignored). */
static int in_list(const char *list, const char *name, size_t len)
{
	while (list && *list) {
		size_t n = strcspn(list, ",");

		if (n == len && !strncasecmp(list, name, len))
			return 1;
		list += n + (list[n] == ',');
	}
	return 0;
}

static const struct event_def *lookup_n(const char *name, size_t len)
{
	for (unsigned i = 0; i < events_table_len; i++) {
		const struct event_def *d = &events_table[i];

		if ((strlen(d->name) == len && !strncasecmp(d->name, name, len)) ||
		    in_list(d->aliases, name, len))
			return d;
	}
	return NULL;
}

const struct event_def *events_lookup(const char *name)
{
	return lookup_n(name, strlen(name));
}

void events_known_names(char *buf, size_t n)
{
	size_t len = 0;

	if (n)
		buf[0] = 0;
	for (unsigned i = 0; i < events_table_len && len < n; i++) {
		int k = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", events_table[i].name);

		if (k < 0)
			break;
		len += (size_t)k;
	}
}

/* ---- parsing ---- */

struct parser {
	const struct events_opts *o;
	char *err;
	size_t errlen;
	const char *whole;       /* the argument, for messages */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(ps->err, ps->errlen, "--event '%s': ", ps->whole);

	va_start(ap, fmt);
	if (k >= 0 && (size_t)k < ps->errlen)
		vsnprintf(ps->err + k, ps->errlen - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

/* The table's names and aliases close to [s, s + n) offered to c. */
static void offer_table(struct events_close *c)
{
	for (unsigned i = 0; i < events_table_len; i++) {
		const char *a = events_table[i].aliases;

		events_close_offer(c, "", events_table[i].name);
		while (a && *a) {
			char one[EVENTS_NAME_MAX + 1];
			size_t k = strcspn(a, ",");

			snprintf(one, sizeof one, "%.*s", (int)k, a);
			events_close_offer(c, "", one);
			a += k + (a[k] == ',');
		}
	}
}

/* The Armv8 common events' names close to [s, s + n) offered to c. */
static void offer_arm(struct events_close *c)
{
	const struct event_model *m = events_model_find("armv8", 5);

	for (unsigned i = 0; m && i < m->nevents; i++)
		events_close_offer(c, "", m->events[i].name);
}

/* A name in a vendor's style (capitals, '_', '.', ':') rather than bmprof's own
 * (lower-case words and '-'): why the vendor names were not found is worth saying. */
static int vendor_style(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isupper((unsigned char)s[i]) || strchr("_.:", s[i]))
			return 1;
	return 0;
}

/* hint: what the resolver said (why it has no such name), may be "". */
static int unknown_name(struct parser *ps, const char *s, size_t n, const char *hint)
{
	char known[512], close[512];
	struct events_close c;
	const char *colon = memchr(s, ':', n);

	events_known_names(known, sizeof known);
	events_close_init(&c, s, n);
	offer_table(&c);
	if (!colon)
		offer_arm(&c);
	events_close_text(&c, close, sizeof close);
	if (!vendor_style(s, n))
		hint = NULL;
	return fail(ps, "unknown event '%.*s'%s%s%s (%s%sknown: %s; raw: rHEX, "
		    "x86/event=0xNN,umask=0xNN/, arm/0xNN/; vendor: MODEL::EVENT; docs/events.md)",
		    (int)n, s, *close ? ": did you mean " : "", close, *close ? "?" : "",
		    hint && *hint ? hint : "", hint && *hint ? "; " : "", known);
}

/* ---- vendor names ---- */

void events_short_name(const char *name, size_t len, char *out, size_t n)
{
	const char *dc = NULL;
	size_t k = 0;

	for (size_t i = 0; i + 1 < len; i++)
		if (name[i] == ':' && name[i + 1] == ':')
			dc = name + i + 2;
	if (dc) {
		len -= (size_t)(dc - name);
		name = dc;
	}
	if (!n)
		return;
	for (size_t i = 0; i < len && k < EVENTS_NAME_MAX && k + 1 < n; i++) {
		int keep = isalnum((unsigned char)name[i]) || strchr("-_.+", name[i]);

		out[k++] = keep ? name[i] : '.';
	}
	out[k] = 0;
}

/* Where the vendor name at s ends: before the first ":period=" or ":freq=" that is not
 * part of a "::". */
static size_t vendor_len(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] != ':')
			continue;
		if (i + 1 < n && s[i + 1] == ':') {
			i++;
			continue;
		}
		if ((n - i > 7 && !strncmp(s + i + 1, "period=", 7)) ||
		    (n - i > 5 && !strncmp(s + i + 1, "freq=", 5)))
			return i;
	}
	return n;
}

static void add_model_event(struct event_req *e, const struct event_model *m,
			    const struct event_model_event *ev)
{
	if (e->nalt < EVENT_NVENDORS)
		e->alt[e->nalt++] = (struct event_alt){ m->vendor, ev->code };
}

/* The Arm encoding of an unqualified name: the Armv8, then Armv9 common events. */
static int default_arm(struct event_req *e, const char *name, size_t n)
{
	static const char *const models[] = { "armv8", "armv9" };

	for (unsigned i = 0; i < sizeof models / sizeof models[0]; i++) {
		const struct event_model *m = events_model_find(models[i], strlen(models[i]));
		const struct event_model_event *ev = m ? events_model_event(m, name, n) : NULL;

		if (ev) {
			add_model_event(e, m, ev);
			return 0;
		}
	}
	return -1;
}

/* PMU::EVENT of one of bmprof's own models: its event, or the close names of the model. */
static int model_event(struct parser *ps, const struct event_model *m, const char *name,
		       size_t n, const char *ev, size_t evn, struct event_req *e)
{
	const struct event_model_event *x = events_model_event(m, ev, evn);
	struct events_close c;
	char close[512], prefix[40];

	if (x) {
		add_model_event(e, m, x);
		return 0;
	}
	snprintf(prefix, sizeof prefix, "%.*s::", (int)(ev - name - 2), name);
	events_close_init(&c, name, n);
	for (unsigned i = 0; i < m->nevents; i++)
		events_close_offer(&c, prefix, m->events[i].name);
	events_close_text(&c, close, sizeof close);
	return fail(ps, "%.*s has no event '%.*s' (%s, from Arm's %s)%s%s%s", (int)(ev - name - 2),
		    name, (int)evn, ev, m->title, m->source, *close ? ": did you mean " : "", close,
		    *close ? "?" : "");
}

/* "armv8, armv9, ..." into buf. */
static const char *model_names(char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < events_models_len && len < n; i++) {
		int k = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", events_models[i].pmu);

		if (k < 0)
			break;
		len += (size_t)k;
	}
	return buf;
}

/* A vendor name [s, s + n), without bmprof's modifiers: the resolver's (libpfm4), else
 * bmprof's own models. Unqualified, an x86 encoding from the resolver and an Arm one from
 * the common events may both be given: the target takes its CPU's. */
static int vendor_name(struct parser *ps, const char *s, size_t n, struct event_req *e)
{
	char name[128], hint[512] = "", models[256];
	const char *dc;
	int r = 1;

	if (n >= sizeof name)
		return fail(ps, "the event name is longer than %zu characters", sizeof name - 1);
	memcpy(name, s, n);
	name[n] = 0;
	dc = strstr(name, "::");
	if (ps->o->resolve) {
		r = ps->o->resolve(name, e, hint, sizeof hint);
		if (r < 0)
			return fail(ps, "%s", hint);
	}
	if (dc && r) {
		const struct event_model *m = events_model_find(name, (size_t)(dc - name));

		if (!m) {
			size_t k = strlen(hint);

			snprintf(hint + k, sizeof hint - k, "%s'%.*s' is not one of bmprof's Arm "
				 "models (%s)", k ? "; " : "", (int)(dc - name), name,
				 model_names(models, sizeof models));
			return unknown_name(ps, s, n, hint);
		}
		if (model_event(ps, m, name, n, dc + 2, n - (size_t)(dc - name) - 2, e))
			return -1;
	} else if (!dc && !e->word && default_arm(e, name, n) && r) {
		return unknown_name(ps, s, n, hint);
	}
	events_short_name(name, n, e->name, sizeof e->name);
	return 0;
}

/* A number (decimal, or hex with 0x) filling [s, s + n) exactly. 0 or -1. */
static int number(const char *s, size_t n, uint64_t *out)
{
	char buf[32], *end;

	if (!n || n >= sizeof buf || *s == '-' || *s == '+')
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	*out = strtoull(buf, &end, 0);
	return errno || *end ? -1 : 0;
}

static int hex_digits(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (!n || n > 16)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		v = v << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ? s[i] - '0' :
					tolower((unsigned char)s[i]) - 'a' + 10);
	}
	*out = v;
	return 0;
}

static int valid_name(const char *s, size_t n)
{
	if (!n || n > EVENTS_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.+", s[i]))
			return 0;
	return 1;
}

/* What a spec asks for besides its encoding. */
struct mods {
	int have_period, have_freq;
	uint64_t period, freq;
	const char *name;
	size_t name_len;
};

static int set_period(struct parser *ps, struct mods *m, const char *v, size_t n)
{
	if (number(v, n, &m->period))
		return fail(ps, "period=%.*s: want a number of events", (int)n, v);
	if (m->have_period)
		return fail(ps, "period given twice");
	m->have_period = 1;
	return 0;
}

/* ":period=N" and ":freq=HZ" modifiers, [s, s + n) without the first ':'. */
static int parse_mods(struct parser *ps, const char *s, size_t n, struct mods *m)
{
	if (!n)
		return fail(ps, "empty modifier after ':'");
	while (n) {
		size_t k = 0, eq;
		const char *v;

		while (k < n && s[k] != ':')
			k++;
		for (eq = 0; eq < k && s[eq] != '='; eq++)
			;
		v = s + eq + 1;
		if (eq == k)
			return fail(ps, "modifier '%.*s': want :period=N or :freq=HZ", (int)k, s);
		if (eq == 6 && !strncmp(s, "period", 6)) {
			if (set_period(ps, m, v, k - eq - 1))
				return -1;
		} else if (eq == 4 && !strncmp(s, "freq", 4)) {
			if (number(v, k - eq - 1, &m->freq) || !m->freq)
				return fail(ps, "freq=%.*s: want a rate in Hz, at least 1",
					    (int)(k - eq - 1), v);
			m->have_freq = 1;
		} else {
			return fail(ps, "unknown modifier '%.*s' (known: period=N, freq=HZ)", (int)eq, s);
		}
		if (k == n)
			break;
		s += k + 1;
		n -= k + 1;
		if (!n)
			return fail(ps, "empty modifier after ':'");
	}
	return 0;
}

/* The fields of x86/TERMS/, as IA32_PERFEVTSELx lays them out. */
struct x86_terms {
	int have_event;
	uint64_t event, umask, cmask, inv, edge, any;
};

static int x86_term(struct parser *ps, const char *k, size_t kn, const char *v, size_t vn,
		    int have_v, struct x86_terms *t, struct mods *m)
{
	static const struct { const char *name; uint64_t max; size_t off; } terms[] = {
		{ "event", 0xfff, offsetof(struct x86_terms, event) },
		{ "umask", 0xff, offsetof(struct x86_terms, umask) },
		{ "cmask", 0xff, offsetof(struct x86_terms, cmask) },
		{ "inv", 1, offsetof(struct x86_terms, inv) },
		{ "edge", 1, offsetof(struct x86_terms, edge) },
		{ "any", 1, offsetof(struct x86_terms, any) },
	};

	if (kn == 6 && !strncmp(k, "period", 6) && have_v)
		return set_period(ps, m, v, vn);
	if (kn == 4 && !strncmp(k, "name", 4) && have_v) {
		m->name = v;
		m->name_len = vn;
		return 0;
	}
	for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
		uint64_t *f = (uint64_t *)((char *)t + terms[i].off), x = 1;

		if (strlen(terms[i].name) != kn || strncmp(terms[i].name, k, kn))
			continue;
		if ((have_v || terms[i].max != 1) && (number(v, vn, &x) || x > terms[i].max))
			return fail(ps, "%.*s=%.*s: want a number from 0 to %#" PRIx64, (int)kn, k,
				    (int)vn, v, terms[i].max);
		*f = x;
		t->have_event |= i == 0;
		return 0;
	}
	return fail(ps, "unknown x86 term '%.*s' (known: event=, umask=, cmask=, inv, edge, any, "
		    "period=, name=)", (int)kn, k);
}

/* "arm" terms: a bare event number, event=, period=, name=. */
static int arm_term(struct parser *ps, const char *k, size_t kn, const char *v, size_t vn,
		    int have_v, uint64_t *code, int *have, struct mods *m)
{
	if (!have_v || (kn == 5 && !strncmp(k, "event", 5))) {
		const char *s = have_v ? v : k;
		size_t n = have_v ? vn : kn;

		if (number(s, n, code) || *code > 0xffff)
			return fail(ps, "'%.*s' is not a PMUv3 event number (0 to 0xffff)", (int)n, s);
		*have = 1;
		return 0;
	}
	if (kn == 6 && !strncmp(k, "period", 6))
		return set_period(ps, m, v, vn);
	if (kn == 4 && !strncmp(k, "name", 4)) {
		m->name = v;
		m->name_len = vn;
		return 0;
	}
	return fail(ps, "unknown arm term '%.*s' (known: an event number, event=, period=, name=)",
		    (int)kn, k);
}

/* PMU/TERMS/: pmu is x86 (cpu) or arm, terms [s, s + n). */
static int parse_pmu(struct parser *ps, const char *pmu, size_t pn, const char *s, size_t n,
		     struct event_req *e, struct mods *m)
{
	int arm = pn == 3 && !strncmp(pmu, "arm", 3), have_arm = 0;
	struct x86_terms t = { 0 };
	uint64_t code = 0;

	if (!arm && !(pn == 3 && !strncmp(pmu, "x86", 3)) && !(pn == 3 && !strncmp(pmu, "cpu", 3)))
		return fail(ps, "unknown PMU '%.*s/' (known: x86/, cpu/, arm/)", (int)pn, pmu);
	while (n) {
		size_t k = strcspn(s, ",/"), eq;
		int r;

		if (k > n)
			k = n;
		for (eq = 0; eq < k && s[eq] != '='; eq++)
			;
		if (!k)
			return fail(ps, "empty term in %.*s/.../", (int)pn, pmu);
		if (arm)
			r = arm_term(ps, s, eq, s + eq + 1, eq < k ? k - eq - 1 : 0, eq < k, &code,
				     &have_arm, m);
		else
			r = x86_term(ps, s, eq, s + eq + 1, eq < k ? k - eq - 1 : 0, eq < k, &t, m);
		if (r)
			return r;
		if (k == n)
			break;
		s += k + 1;
		n -= k + 1;
	}
	if (arm) {
		if (!have_arm)
			return fail(ps, "arm/.../ needs an event number, e.g. arm/0x11/");
		e->alt[e->nalt++] = (struct event_alt){ EVENT_ARM, code };
		return 0;
	}
	if (!t.have_event)
		return fail(ps, "x86/.../ needs event=, e.g. x86/event=0x3c/");
	code = (t.event & 0xff) | t.umask << 8 | t.edge << 18 | t.any << 21 | t.inv << 23 |
	       t.cmask << 24 | (t.event >> 8) << 32;
	/* AnyThread is Intel's; event bits 11:8 are AMD's. */
	if (t.event <= 0xff)
		e->alt[e->nalt++] = (struct event_alt){ EVENT_INTEL, code };
	if (!t.any)
		e->alt[e->nalt++] = (struct event_alt){ EVENT_AMD, code };
	if (!e->nalt)
		return fail(ps, "'any' (Intel) with an event number above 0xff (AMD): no CPU has both");
	return 0;
}

static void from_def(struct event_req *e, const struct event_def *d)
{
	snprintf(e->name, sizeof e->name, "%s", d->name);
	e->def = d;
	e->word = d->word;
	if (d->word)
		return;
	for (unsigned v = 0; v < EVENT_NVENDORS; v++)
		if (d->enc[v].have)
			e->alt[e->nalt++] = (struct event_alt){ (uint8_t)v, d->enc[v].code };
}

static int is_cycles(const struct event_req *e)
{
	return e->word && (!strcmp(e->word, "cycles") || !strcmp(e->word, "ref-cycles"));
}

static int choose_period(struct parser *ps, struct event_req *e, const struct mods *m)
{
	if (ps->o->count) {
		e->period = 0;
		return 0;
	}
	if (m->have_period && m->have_freq)
		return fail(ps, "give period= or freq=, not both");
	if (m->have_freq) {
		if (!is_cycles(e))
			return fail(ps, "freq= needs the event's rate, known only for cycles and "
				    "ref-cycles: use :period=N");
		if (!ps->o->cycles_hz)
			return fail(ps, "freq= needs the cycle counter's rate, which is not known "
				    "here: use :period=N");
		e->period = ps->o->cycles_hz / m->freq;
		if (e->period < EVENTS_MIN_PERIOD)
			return fail(ps, "freq=%" PRIu64 " is too high: at most %" PRIu64 " Hz "
				    "(a period of %u cycles at %" PRIu64 " Hz)", m->freq,
				    ps->o->cycles_hz / EVENTS_MIN_PERIOD, EVENTS_MIN_PERIOD,
				    ps->o->cycles_hz);
		return 0;
	}
	e->period = m->have_period ? m->period : e->def ? e->def->period : EVENTS_RAW_PERIOD;
	if (e->period < EVENTS_MIN_PERIOD || e->period > EVENTS_MAX_PERIOD)
		return fail(ps, "period=%" PRIu64 ": want %u to %" PRIu64 " events", e->period,
			    EVENTS_MIN_PERIOD, EVENTS_MAX_PERIOD);
	return 0;
}

/* One spec [s, s + n), not a group. */
static int parse_one(struct parser *ps, const char *s, size_t n, int group, struct event_req *e)
{
	struct mods m = { 0 };
	size_t base = 0, pn;
	uint64_t code;

	memset(e, 0, sizeof *e);
	e->group = group;
	for (pn = 0; pn < n && (isalnum((unsigned char)s[pn]) || s[pn] == '_'); pn++)
		;
	if (pn && pn < n && s[pn] == '/') {
		const char *close = memchr(s + pn + 1, '/', n - pn - 1);

		if (!close)
			return fail(ps, "'%.*s' has no closing '/'", (int)n, s);
		base = (size_t)(close - s) + 1;
		if (parse_pmu(ps, s, pn, s + pn + 1, (size_t)(close - s) - pn - 1, e, &m))
			return -1;
		if (!m.name)
			snprintf(e->name, sizeof e->name, "r%" PRIx64, e->alt[0].code);
	} else {
		while (base < n && s[base] != ':')
			base++;
		if (!base)
			return fail(ps, "an event name is missing before ':'");
		const struct event_def *d = lookup_n(s, base);
		if (d)
			from_def(e, d);
		else if (s[0] == 'r' && !hex_digits(s + 1, base - 1, &code)) {
			e->alt[e->nalt++] = (struct event_alt){ EVENT_ANY_VENDOR, code };
			snprintf(e->name, sizeof e->name, "r%" PRIx64, code);
		} else {
			base = vendor_len(s, n);
			if (vendor_name(ps, s, base, e))
				return -1;
		}
	}
	if (base < n) {
		if (s[base] != ':')
			return fail(ps, "'%.*s' after the closing '/': want :period=N", (int)(n - base),
				    s + base);
		if (parse_mods(ps, s + base + 1, n - base - 1, &m))
			return -1;
	}
	if (m.name) {
		if (!valid_name(m.name, m.name_len))
			return fail(ps, "name=%.*s: a name is 1 to %d letters, digits, '-', '_', '.' "
				    "or '+'", (int)m.name_len, m.name, EVENTS_NAME_MAX);
		snprintf(e->name, sizeof e->name, "%.*s", (int)m.name_len, m.name);
	}
	return choose_period(ps, e, &m);
}

/* Length of the spec at s, up to a ',' or end that is not inside /.../. */
static size_t spec_len(const char *s, size_t n)
{
	size_t i = 0, pn = 0;

	while (pn < n && (isalnum((unsigned char)s[pn]) || s[pn] == '_'))
		pn++;
	if (pn && pn < n && s[pn] == '/') {
		const char *close = memchr(s + pn + 1, '/', n - pn - 1);

		i = close ? (size_t)(close - s) + 1 : n;
	}
	while (i < n && s[i] != ',')
		i++;
	return i;
}

static int add(struct parser *ps, struct event_list *l, const struct event_req *e)
{
	if (l->n == EVENTS_MAX)
		return fail(ps, "more than %d events", EVENTS_MAX);
	l->ev[l->n++] = *e;
	return 0;
}

/* The members of {...}, [s, s + n) inside the braces. */
static int parse_group(struct parser *ps, struct event_list *l, const char *s, size_t n)
{
	int group = (int)l->ngroups;
	unsigned members = 0;

	if (memchr(s, '{', n))
		return fail(ps, "groups do not nest");
	while (n) {
		size_t k = spec_len(s, n);
		struct event_req e;

		if (!k)
			return fail(ps, "an empty event in a group");
		if (parse_one(ps, s, k, group, &e) || add(ps, l, &e))
			return -1;
		members++;
		if (k == n)
			break;
		s += k + 1;
		n -= k + 1;
		if (!n)
			return fail(ps, "a group ends with ','");
	}
	if (!members)
		return fail(ps, "an empty group {}");
	l->ngroups++;
	return 0;
}

static int parse_list(struct parser *ps, struct event_list *l, const char *s, size_t n)
{
	if (!n)
		return fail(ps, "no event given");
	while (n) {
		size_t k;

		if (*s == '{') {
			const char *close = memchr(s, '}', n);

			if (!close)
				return fail(ps, "a group '{' has no closing '}'");
			k = (size_t)(close - s) + 1;
			if (parse_group(ps, l, s + 1, k - 2))
				return -1;
			if (k < n && s[k] == ':')
				return fail(ps, "modifiers go on the events inside {...}, not after it");
			if (k < n && s[k] != ',')
				return fail(ps, "'%.*s' after a group: want ',' and the next event",
					    (int)(n - k), s + k);
		} else {
			k = spec_len(s, n);
			struct event_req e;

			if (!k)
				return fail(ps, "an empty event (two commas, or a comma at an end)");
			if (memchr(s, '}', k))
				return fail(ps, "a '}' with no '{'");
			if (parse_one(ps, s, k, -1, &e) || add(ps, l, &e))
				return -1;
		}
		if (k == n)
			break;
		s += k + 1;
		n -= k + 1;
		if (!n)
			return fail(ps, "an empty event (a comma at the end)");
	}
	return 0;
}

int events_parse(struct event_list *l, const char *text, const struct events_opts *o,
		 char *err, size_t errlen)
{
	struct parser ps = { o, err, errlen, text };
	struct event_list saved = *l;

	if (parse_list(&ps, l, text, strlen(text))) {
		*l = saved;
		return -1;
	}
	return 0;
}

/* ---- config ---- */

int events_config_line(const struct event_req *e, unsigned id, char *buf, size_t n)
{
	size_t len;
	int k = snprintf(buf, n, "event=%u:", id);

	if (k < 0 || (size_t)k >= n)
		return -1;
	len = (size_t)k;
	if (e->word) {
		k = snprintf(buf + len, n - len, "%s", e->word);
	} else {
		for (unsigned i = 0; i < e->nalt; i++) {
			const struct event_alt *a = &e->alt[i];

			k = snprintf(buf + len, n - len, "%s%s%s%" PRIx64, i ? "/" : "",
				     a->vendor < EVENT_NVENDORS ? vendor_names[a->vendor] : "",
				     a->vendor < EVENT_NVENDORS ? "." : "", a->code);
			if (k < 0 || (size_t)k >= n - len)
				return -1;
			len += (size_t)k;
		}
		k = 0;
	}
	if (k < 0 || (size_t)k >= n - len)
		return -1;
	len += (size_t)k;
	k = e->group >= 0 ? snprintf(buf + len, n - len, ":%" PRIu64 ":%s:%d", e->period, e->name,
				     e->group)
			  : snprintf(buf + len, n - len, ":%" PRIu64 ":%s", e->period, e->name);
	if (k < 0 || (size_t)k >= n - len)
		return -1;
	return (int)(len + (size_t)k);
}

int events_config(const struct event_list *l, int count, unsigned long freq, char *buf, size_t n)
{
	size_t len = 0, cap = n < EVENTS_CONFIG_MAX + 1 ? n : EVENTS_CONFIG_MAX + 1;
	int k = snprintf(buf, cap, "%sfreq=%lu\n", count ? "mode=count\n" : "", freq);

	if (k < 0 || (size_t)k >= cap)
		return -1;
	len = (size_t)k;
	for (unsigned i = 0; i < l->n; i++) {
		k = events_config_line(&l->ev[i], i + 1, buf + len, cap - len);
		if (k < 0 || (size_t)k + 1 >= cap - len)
			return -1;
		len += (size_t)k;
		buf[len++] = '\n';
		buf[len] = 0;
	}
	return (int)len;
}

/* ---- names of the wire's fields (transport/wire_text.h) ---- */

const char *events_status_name(uint8_t status) { return bmprof_event_status_name(status); }
const char *events_reason_name(uint8_t reason) { return bmprof_event_reason_name(reason); }
const char *events_reason_text(uint8_t reason) { return bmprof_event_reason_text(reason); }
const char *events_counter_kind_name(uint8_t kind) { return bmprof_counter_kind_name(kind); }

const char *events_counter_text(char *buf, size_t n, const struct profile_event *e,
				uint8_t arch)
{
	const char *idx = "";
	char num[8];

	if (e->counter != 0xff) {
		snprintf(num, sizeof num, " %u", e->counter);
		idx = num;
	}
	switch (e->counter_kind) {
	case BMPROF_CTR_GP:
		snprintf(buf, n, "PMU counter%s", idx);
		break;
	case BMPROF_CTR_FIXED:
		if (arch == BMPROF_ARCH_AARCH64)
			snprintf(buf, n, "cycle counter PMCCNTR_EL0");
		else
			snprintf(buf, n, "fixed counter%s", idx);
		break;
	case BMPROF_CTR_TIMER:
		snprintf(buf, n, "timer");
		break;
	default:
		snprintf(buf, n, "no counter");
	}
	return buf;
}

const char *events_status_text(char *buf, size_t n, const struct profile_event *e)
{
	const char *lead = bmprof_event_status_lead(e->status, e->reason);

	/* an active event's reason is shown beside it where it is listed */
	if (e->status == BMPROF_EVST_ACTIVE || !lead)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "%s%s%s", lead, bmprof_event_reason_text(e->reason),
			 bmprof_event_status_tail(e->status));
	return buf;
}

int events_sampling_fell_back(const struct profile *p)
{
	const char *asked = profile_meta(p, "events"), *mode = profile_meta(p, "mode");

	if (!p->have_hello || p->hello.source != BMPROF_SOURCE_TIMER)
		return 0;
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];

		if (e->status == BMPROF_EVST_FALLBACK ||
		    (e->source != BMPROF_SOURCE_TIMER && e->period &&
		     !(e->flags & BMPROF_EVENT_COUNTING)))
			return 1;
	}
	return asked && *asked && !(mode && !strcmp(mode, "count"));
}
