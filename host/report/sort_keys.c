/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report --sort KEY[,KEY] (sort_keys.h). */
#include <stdio.h>
#include <string.h>

#include "report/sort_keys.h"
#include "util/options.h"

enum key { K_FUNCTION, K_LINE, K_ADDRESS, K_CPU, K_MODULE, K_NONE };

static const char *const key_names[] = { "function", "line", "address", "cpu", "module" };

static const struct { const char *name; enum key k; } aliases[] = {
	{ "function", K_FUNCTION }, { "func", K_FUNCTION }, { "sym", K_FUNCTION },
	{ "symbol", K_FUNCTION }, { "line", K_LINE }, { "srcline", K_LINE },
	{ "address", K_ADDRESS }, { "addr", K_ADDRESS }, { "cpu", K_CPU },
	{ "module", K_MODULE }, { "mod", K_MODULE }, { "dso", K_MODULE },
};

static enum key key_of(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strlen(aliases[i].name) == len && !strncmp(aliases[i].name, s, len))
			return aliases[i].k;
	return K_NONE;
}

static const enum flat_sort single[] = {
	[K_FUNCTION] = FLAT_BY_FUNCTION, [K_LINE] = FLAT_BY_LINE, [K_ADDRESS] = FLAT_BY_ADDRESS,
	[K_CPU] = FLAT_BY_CPU, [K_MODULE] = FLAT_BY_MODULE,
};

/* The two-key combinations: the first groups, the second makes the rows. */
static int pair(enum key a, enum key b, struct report_sort *out)
{
	if (a == K_CPU && b == K_FUNCTION) {
		*out = (struct report_sort){ FLAT_BY_CPU, -1 };
		return 0;
	}
	if (b != K_FUNCTION && b != K_LINE && b != K_ADDRESS)
		return -1;
	if (a == K_MODULE) {
		*out = (struct report_sort){ single[b], FLAT_GROUP_MODULE };
		return 0;
	}
	if (a == K_FUNCTION && b != K_FUNCTION) {
		*out = (struct report_sort){ single[b], FLAT_GROUP_FUNCTION };
		return 0;
	}
	return -1;
}

int report_sort_parse(const char *spec, struct report_sort *out, char *err, size_t n)
{
	enum key k[3];
	size_t nk = 0;
	const char *s = spec;

	for (;;) {
		size_t len = strcspn(s, ",");
		if (nk == 3)
			break;
		k[nk] = key_of(s, len);
		if (k[nk] == K_NONE) {
			const char *names[sizeof aliases / sizeof aliases[0]], *close;
			char word[64];

			for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
				names[i] = aliases[i].name;
			snprintf(word, sizeof word, "%.*s", (int)len, s);
			close = opt_closest(word, names, sizeof names / sizeof names[0]);
			snprintf(err, n, "--sort takes function, line, address, cpu or module (or two: "
				 "see --help), not '%s'%s%s%s", word, close ? "; did you mean " : "",
				 close ? close : "", close ? "?" : "");
			return -1;
		}
		nk++;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (nk == 1) {
		*out = (struct report_sort){ single[k[0]], -1 };
		return 0;
	}
	if (nk == 2 && !pair(k[0], k[1], out))
		return 0;
	snprintf(err, n, "--sort %s: not a combination a report shows (" SORT_KEYS_HELP ")", spec);
	return -1;
}

const char *report_sort_title(const struct report_sort *s, char *buf, size_t n)
{
	const char *row = s->sort == FLAT_BY_LINE ? "line" : s->sort == FLAT_BY_ADDRESS ?
		"address" : s->sort == FLAT_BY_CPU ? "cpu" : s->sort == FLAT_BY_MODULE ?
		"module" : "function";

	if (s->group < 0)
		snprintf(buf, n, "%s", row);
	else
		snprintf(buf, n, "%s, %s", key_names[s->group == FLAT_GROUP_MODULE ? K_MODULE :
						     K_FUNCTION], row);
	return buf;
}
