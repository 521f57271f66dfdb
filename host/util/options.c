/* SPDX-License-Identifier: BSD-2-Clause */
/* Declarative command-line options: see options.h. */
#include "util/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define HELP_COL 26     /* where the help text starts in --help */
#define WIDTH 90

static int is_end(const struct opt *o) { return o->type == OPT_T_END; }
static int takes_arg(const struct opt *o)
{
	return o->type != OPT_T_BOOL && o->type != OPT_T_GROUP && (o->type != OPT_T_CALLBACK ||
								   o->argh);
}

/* Edit distance with adjacent transpositions (optimal string alignment), capped at 9. */
static unsigned distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned d[3][64];

	if (n > 62 || m > 62)
		return 9;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned *cur = d[i % 3], *prev = d[(i - 1) % 3], *pp = d[(i + 1) % 3];

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= m; j++) {
			unsigned c = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < c)
				c = pp[j - 2] + 1;
			cur[j] = c;
		}
	}
	return d[n % 3][m] < 9 ? d[n % 3][m] : 9;
}

const char *opt_closest(const char *s, const char *const *names, size_t n)
{
	const char *best = NULL;
	unsigned bd = 9, limit = strlen(s) <= 3 ? 1 : strlen(s) <= 6 ? 2 : 3;

	for (size_t i = 0; i < n; i++) {
		unsigned d = distance(s, names[i]);

		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return bd <= limit ? best : NULL;
}

static const struct opt *by_short(const struct opt *opts, char ch)
{
	for (const struct opt *o = opts; !is_end(o); o++)
		if (o->short_name == ch && o->type != OPT_T_GROUP)
			return o;
	return NULL;
}

/* The option a long name (or an unambiguous prefix of one) means; *neg for --no-NAME of
 * a boolean. NULL with *ambiguous set when a prefix fits several. */
static const struct opt *by_long(const struct opt *opts, const char *name, size_t len,
				 int *neg, int *ambiguous)
{
	const struct opt *hit = NULL;
	int nhits = 0;

	*neg = *ambiguous = 0;
	for (int pass = 0; pass < 2; pass++) {
		const char *n = name;
		size_t l = len;

		if (pass == 1) {   /* --no-NAME */
			if (len <= 3 || strncmp(name, "no-", 3))
				break;
			n += 3;
			l -= 3;
		}
		for (const struct opt *o = opts; !is_end(o); o++) {
			if (!o->long_name || o->type == OPT_T_GROUP ||
			    (pass && (o->type != OPT_T_BOOL || (o->flags & OPT_NONEG))))
				continue;
			if (strlen(o->long_name) == l && !strncmp(o->long_name, n, l)) {
				*neg = pass;
				return o;
			}
			if (!strncmp(o->long_name, n, l)) {
				hit = o;
				nhits++;
				*neg = pass;
			}
		}
	}
	if (nhits == 1)
		return hit;
	*ambiguous = nhits > 1;
	return NULL;
}

static void unknown_long(const struct opt_cmd *c, const char *name, size_t len, int ambiguous)
{
	const char *names[128], *best;
	char given[128];
	size_t n = 0;

	snprintf(given, sizeof given, "%.*s", (int)(len < 100 ? len : 100), name);
	if (ambiguous) {
		bm_err("%s: --%s is ambiguous: say which (bmprof %s --help)", c->name, given,
		       c->name);
		return;
	}
	for (const struct opt *o = c->opts; !is_end(o) && n < 128; o++)
		if (o->long_name && !(o->flags & OPT_HIDDEN))
			names[n++] = o->long_name;
	if ((best = opt_closest(given, names, n)))
		bm_err("%s: unknown option --%s; did you mean --%s? (bmprof %s --help)", c->name,
		       given, best, c->name);
	else
		bm_err("%s: unknown option --%s (bmprof %s --help)", c->name, given, c->name);
}

/* "--name" or "-n": how the user spelled the option, for messages. */
static const char *spelled(const struct opt *o, char *buf, size_t n, int was_long)
{
	if (was_long || !o->short_name)
		snprintf(buf, n, "--%s", o->long_name);
	else
		snprintf(buf, n, "-%c", o->short_name);
	return buf;
}

static int set_value(const struct opt_cmd *c, const struct opt *o, const char *arg, int neg,
		     int was_long)
{
	char name[80], *end;

	spelled(o, name, sizeof name, was_long);
	switch (o->type) {
	case OPT_T_BOOL:
		*(int *)o->value = !neg;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_ULONG: {
		unsigned long v;

		errno = 0;
		v = strtoul(arg, &end, 0);
		if (errno || !*arg || *end || *arg == '-' || v < o->min || v > o->max) {
			bm_err("%s: %s takes a number from %lu to %lu, not '%s'", c->name, name,
			       o->min, o->max, arg);
			return -1;
		}
		*(unsigned long *)o->value = v;
		return 0;
	}
	case OPT_T_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || !*arg || *end) {
			bm_err("%s: %s takes a number, not '%s'", c->name, name, arg);
			return -1;
		}
		*(double *)o->value = v;
		return 0;
	}
	case OPT_T_CHOICE: {
		char list[256] = "";
		size_t used = 0, k;

		for (k = 0; o->choices[k]; k++)
			if (!strcmp(o->choices[k], arg)) {
				*(int *)o->value = (int)k;
				return 0;
			}
		for (k = 0; o->choices[k] && used < sizeof list; k++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
						 k ? (o->choices[k + 1] ? ", " : " or ") : "",
						 o->choices[k]);
		const char *best = opt_closest(arg, (const char *const *)o->choices, k);
		if (best)
			bm_err("%s: %s takes %s, not '%s'; did you mean %s?", c->name, name, list,
			       arg, best);
		else
			bm_err("%s: %s takes %s, not '%s'", c->name, name, list, arg);
		return -1;
	}
	case OPT_T_CALLBACK:
		return o->cb(o, arg, c->ctx) ? -1 : 0;
	}
	return -1;
}

static int push(char ***v, int *n, char *s)
{
	char **nv = realloc(*v, (size_t)(*n + 2) * sizeof **v);

	if (!nv) {
		bm_err("out of memory");
		return -1;
	}
	*v = nv;
	nv[(*n)++] = s;
	nv[*n] = NULL;
	return 0;
}

void opt_args_free(struct opt_args *a)
{
	free(a->v);
	free(a->dash);
	memset(a, 0, sizeof *a);
}

static int is_help(const char *s)
{
	return !strcmp(s, "--help") || !strcmp(s, "-h");
}

/* One "--name[=value]" at argv[*i]. 0, or -1 (printed). */
static int long_opt(const struct opt_cmd *c, int argc, char **argv, int *i)
{
	const char *s = argv[*i] + 2, *eq = strchr(s, '=');
	size_t len = eq ? (size_t)(eq - s) : strlen(s);
	int neg, amb;
	const struct opt *o = by_long(c->opts, s, len, &neg, &amb);
	char name[80];

	if (!o) {
		unknown_long(c, s, len, amb);
		return -1;
	}
	spelled(o, name, sizeof name, 1);
	if (!takes_arg(o)) {
		if (eq) {
			bm_err("%s: %s takes no value", c->name, name);
			return -1;
		}
		return set_value(c, o, NULL, neg, 1);
	}
	if (eq)
		return set_value(c, o, eq + 1, 0, 1);
	if (*i + 1 >= argc) {
		bm_err("%s: %s needs %s (bmprof %s --help)", c->name, name, o->argh, c->name);
		return -1;
	}
	return set_value(c, o, argv[++*i], 0, 1);
}

/* "-abc", "-n5", "-n 5" at argv[*i]. 0, or -1 (printed). */
static int short_opts(const struct opt_cmd *c, int argc, char **argv, int *i)
{
	const char *s = argv[*i] + 1;

	for (; *s; s++) {
		const struct opt *o = by_short(c->opts, *s);

		if (!o) {
			if (s == argv[*i] + 1 && s[1])
				bm_err("%s: unknown option -%c (in '%s'; bmprof %s --help)", c->name,
				       *s, argv[*i], c->name);
			else
				bm_err("%s: unknown option -%c (bmprof %s --help)", c->name, *s,
				       c->name);
			return -1;
		}
		if (!takes_arg(o)) {
			if (set_value(c, o, NULL, 0, 0))
				return -1;
			continue;
		}
		if (s[1])
			return set_value(c, o, s + 1, 0, 0);
		if (*i + 1 >= argc) {
			bm_err("%s: -%c needs %s (bmprof %s --help)", c->name, *s, o->argh, c->name);
			return -1;
		}
		return set_value(c, o, argv[++*i], 0, 0);
	}
	return 0;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a)
{
	memset(a, 0, sizeof *a);
	for (int i = 1; i < argc; i++) {
		char *s = argv[i];
		int r = 0;

		if (!strcmp(s, "--")) {
			a->dash_given = 1;
			for (i++; i < argc; i++)
				if (push(&a->dash, &a->ndash, argv[i]))
					goto fail;
			break;
		}
		if (is_help(s)) {
			opt_usage(c, stdout);
			opt_args_free(a);
			return 0;
		}
		if (s[0] == '-' && s[1] == '-')
			r = long_opt(c, argc, argv, &i);
		else if (s[0] == '-' && s[1])
			r = short_opts(c, argc, argv, &i);
		else
			r = push(&a->v, &a->n, s);
		if (r)
			goto fail;
	}
	return -1;
fail:
	opt_args_free(a);
	return 2;
}

/* "  -i, --input FILE" into buf */
static void lhs(const struct opt *o, char *buf, size_t n)
{
	size_t k = o->short_name ? (size_t)snprintf(buf, n, "  -%c%s", o->short_name,
						    o->long_name ? "," : "")
				 : (size_t)snprintf(buf, n, "     ");
	if (o->long_name)
		k += (size_t)snprintf(buf + k, n - k, " --%s", o->long_name);
	if (o->argh && k < n)
		snprintf(buf + k, n - k, " %s", o->argh);
}

/* text wrapped from column col to WIDTH, the first line already at col */
static void wrapped(FILE *f, const char *text, int col)
{
	int at = col;

	while (*text) {
		size_t w = strcspn(text, " \n");

		if (at > col && at + 1 + (int)w > WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)w, text);
		at += (int)w;
		text += w;
		if (*text == '\n') {
			fprintf(f, "\n%*s", col, "");
			at = col;
			text++;
		} else if (*text) {
			text++;
		}
	}
	fputc('\n', f);
}

void opt_usage(const struct opt_cmd *c, FILE *f)
{
	char left[128];

	fprintf(f, "usage: %s\n", c->usage);
	if (c->description) {
		fputc('\n', f);
		wrapped(f, c->description, 0);
	}
	fputc('\n', f);
	for (const struct opt *o = c->opts; !is_end(o); o++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->type == OPT_T_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		lhs(o, left, sizeof left);
		if ((int)strlen(left) + 1 > HELP_COL)
			fprintf(f, "%s\n%*s", left, HELP_COL, "");
		else
			fprintf(f, "%-*s", HELP_COL, left);
		wrapped(f, o->help, HELP_COL);
	}
	fprintf(f, "  -h, --help              this text\n");
	if (c->tail)
		fprintf(f, "\n%s", c->tail);
}

/* text with troff's special characters escaped */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		if (*s == '\n' && (s[1] == '.' || s[1] == '\''))
			fputs("\\&", f);
	}
}

void opt_man_options(const struct opt_cmd *c, FILE *f)
{
	fputs(".SH OPTIONS\n", f);
	for (const struct opt *o = c->opts; !is_end(o); o++) {
		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->type == OPT_T_GROUP) {
			fputs(".SS ", f);
			roff(f, o->help);
			fputc('\n', f);
			continue;
		}
		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR%s", o->short_name, o->long_name ? ", " : "");
		if (o->long_name) {
			fputs("\\fB\\-\\-", f);
			roff(f, o->long_name);
			fputs("\\fR", f);
		}
		if (o->argh) {
			fputs(" \\fI", f);
			roff(f, o->argh);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, o->help);
		fputc('\n', f);
	}
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nprint the usage and exit\n", f);
}
