/* SPDX-License-Identifier: BSD-2-Clause */
/* Bmprof's own vendor PMU models (events_models_table.c), and the names close to a
 * mistyped one: see events.h. */
#include "events.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int same(const char *name, const char *s, size_t len)
{
	return strlen(name) == len && !strncasecmp(name, s, len);
}

/* name is one of the comma-separated names in list (case ignored). */
static int listed(const char *list, const char *s, size_t len)
{
	while (*list) {
		size_t k = strcspn(list, ",");

		if (k == len && !strncasecmp(list, s, len))
			return 1;
		list += k + (list[k] == ',');
	}
	return 0;
}

const struct event_model *events_model_find(const char *pmu, size_t len)
{
	for (unsigned i = 0; i < events_models_len; i++)
		if (same(events_models[i].pmu, pmu, len) ||
		    listed(events_models[i].aliases, pmu, len))
			return &events_models[i];
	return NULL;
}

const struct event_model_event *events_model_event(const struct event_model *m,
						   const char *name, size_t len)
{
	for (unsigned i = 0; i < m->nevents; i++) {
		const char *a = m->events[i].name;
		size_t k = 0;

		while (k < len && a[k] && (toupper((unsigned char)a[k]) ==
					   toupper((unsigned char)name[k]) ||
					   (strchr(".:", a[k]) && strchr(".:", name[k]))))
			k++;
		if (k == len && !a[k])
			return &m->events[i];
	}
	return NULL;
}

/* ---- close names ---- */

#define FAR 99u

/* One character as names compare: case ignored, '.' and ':' alike (EVENT.UMASK is
 * EVENT:UMASK to libpfm4). */
static int fold(int c)
{
	return c == '.' ? ':' : toupper(c);
}

/* Edit distance with adjacent transpositions, FAR when either is over 63 characters. */
static unsigned distance(const char *a, size_t n, const char *b, size_t m)
{
	unsigned d[3][64];

	if (n > 63 || m > 63)
		return FAR;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned *cur = d[i % 3], *prev = d[(i - 1) % 3], *pp = d[(i + 1) % 3];

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= m; j++) {
			unsigned c = prev[j - 1] + (fold(a[i - 1]) != fold(b[j - 1]));

			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
			    fold(a[i - 2]) == fold(b[j - 1]) && pp[j - 2] + 1 < c)
				c = pp[j - 2] + 1;
			cur[j] = c;
		}
	}
	return d[n % 3][m];
}

/* Whether [s, s + n) holds w (folded). */
static int contains(const char *s, size_t n, const char *w, size_t wn)
{
	for (size_t i = 0; wn && i + wn <= n; i++) {
		size_t k = 0;

		while (k < wn && fold(s[i + k]) == fold(w[k]))
			k++;
		if (k == wn)
			return 1;
	}
	return 0;
}

/* How far cand is from want, in tenths: its edit distance when that is small, else, when
 * one of two names of at least 4 characters holds the other, 2.1 plus a tenth per
 * character of length difference (up to 8): after one or two edits; FAR when not close. */
static unsigned score(const struct events_close *c, const char *cand)
{
	size_t n = strlen(cand), w = c->want_len, diff = n > w ? n - w : w - n;
	unsigned d = distance(c->want, w, cand, n), limit = w <= 3 ? 1 : w <= 6 ? 2 : 3;

	if (d <= limit)
		return d * 10;
	if (w >= 4 && n >= 4 && (contains(cand, n, c->want, w) || contains(c->want, w, cand, n)))
		return 21 + (unsigned)(diff < 8 ? diff : 8);
	return FAR;
}

void events_close_init(struct events_close *c, const char *want, size_t len)
{
	memset(c, 0, sizeof *c);
	c->want = want;
	c->want_len = len;
}

void events_close_offer(struct events_close *c, const char *prefix, const char *name)
{
	char cand[sizeof c->name[0]];
	unsigned s, i, j;

	if (snprintf(cand, sizeof cand, "%s%s", prefix, name) >= (int)sizeof cand)
		return;
	/* an unqualified name is compared with the event's own name */
	s = score(c, *prefix && !contains(c->want, c->want_len, "::", 2) ? name : cand);
	if (s == FAR)
		return;
	for (i = 0; i < c->n; i++)
		if (!strcasecmp(c->name[i], cand))
			return;
	for (i = 0; i < c->n && c->score[i] <= s; i++)
		;
	if (i == EVENTS_CLOSE_MAX)
		return;
	for (j = c->n < EVENTS_CLOSE_MAX ? c->n : EVENTS_CLOSE_MAX - 1; j > i; j--) {
		c->score[j] = c->score[j - 1];
		memcpy(c->name[j], c->name[j - 1], sizeof c->name[j]);
	}
	c->score[i] = s;
	memcpy(c->name[i], cand, sizeof cand);
	if (c->n < EVENTS_CLOSE_MAX)
		c->n++;
}

const char *events_close_text(const struct events_close *c, char *buf, size_t n)
{
	size_t len = 0;

	if (n)
		buf[0] = 0;
	for (unsigned i = 0; i < c->n && len < n; i++) {
		int k = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", c->name[i]);

		if (k < 0)
			break;
		len += (size_t)k;
	}
	return buf;
}
