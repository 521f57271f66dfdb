/* SPDX-License-Identifier: BSD-2-Clause */
/* Declarative command-line options: see options.h. */
#include "util/options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define HELP_COL 26     /* where the help text starts in --help */
#define WIDTH 90
#define MAX_DEPTH 4     /* subcommands of subcommands */

static int is_end(const struct opt *o) { return o->type == OPT_T_END; }
static int shown(const struct opt *o)
{
	return o->type != OPT_T_GROUP && !(o->flags & OPT_HIDDEN);
}
static int takes_arg(const struct opt *o)
{
	return o->type != OPT_T_BOOL && o->type != OPT_T_GROUP && (o->type != OPT_T_CALLBACK ||
								   o->argh);
}

/* ---- messages ---- */

static const char *last_word(const char *name)
{
	return strrchr(name, ' ') ? strrchr(name, ' ') + 1 : name;
}

/* "bmprof report --help" */
static const char *help_cmd(const struct opt_cmd *c, char *buf, size_t n)
{
	snprintf(buf, n, "bmprof %s%s--help", c->name ? c->name : "", c->name ? " " : "");
	return buf;
}

/* One line, "bmprof: NAME: ..." */
static void say(const struct opt_cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct opt_cmd *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	bm_err("%s%s%s", c->name ? c->name : "", c->name ? ": " : "", msg);
}

const char *opt_name(const struct opt *o, char *buf, size_t n)
{
	if (o->long_name)
		snprintf(buf, n, "--%s", o->long_name);
	else
		snprintf(buf, n, "-%c", o->short_name);
	return buf;
}

/* "--name" or "-n": how the user spelled the option, for messages. */
static const char *spelled(const struct opt *o, char *buf, size_t n, int was_long)
{
	if (was_long || !o->short_name)
		return opt_name(o, buf, n);
	snprintf(buf, n, "-%c", o->short_name);
	return buf;
}

/* ---- "did you mean" ---- */

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

/* ---- finding the option ---- */

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
	char given[128], h[128];
	size_t n = 0;

	snprintf(given, sizeof given, "%.*s", (int)(len < 100 ? len : 100), name);
	help_cmd(c, h, sizeof h);
	if (ambiguous) {
		say(c, "--%s is ambiguous: say which (%s)", given, h);
		return;
	}
	for (const struct opt *o = c->opts; !is_end(o) && n < 128; o++)
		if (o->long_name && shown(o))
			names[n++] = o->long_name;
	if ((best = opt_closest(given, names, n)))
		say(c, "unknown option --%s; did you mean --%s? (%s)", given, best, h);
	else
		say(c, "unknown option --%s (%s)", given, h);
}

/* ---- values ---- */

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

static int set_ulong(const struct opt_cmd *c, const struct opt *o, const char *name,
		     const char *arg)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!errno && isdigit((unsigned char)*arg) && !*end && v >= o->min && v <= o->max) {
		*(unsigned long *)o->value = v;
		return 0;
	}
	if (o->max < LONG_MAX)
		say(c, "%s takes a number from %lu to %lu, not '%s'", name, o->min, o->max, arg);
	else if (o->min == 1)
		say(c, "%s takes a positive number, not '%s'", name, arg);
	else
		say(c, "%s takes a number of at least %lu, not '%s'", name, o->min, arg);
	return -1;
}

static int set_double(const struct opt_cmd *c, const struct opt *o, const char *name,
		      const char *arg)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(arg, &end);
	if (!errno && *arg && !*end && isfinite(v) && v >= o->dmin && v <= o->dmax) {
		*(double *)o->value = v;
		return 0;
	}
	if (isfinite(o->dmin) && isfinite(o->dmax))
		say(c, "%s takes a number from %g to %g, not '%s'", name, o->dmin, o->dmax, arg);
	else if (isfinite(o->dmin))
		say(c, "%s takes a number >= %g, not '%s'", name, o->dmin, arg);
	else
		say(c, "%s takes a number, not '%s'", name, arg);
	return -1;
}

/* choice (a "name|alias|..." entry) names s */
static int choice_is(const char *choice, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = choice; *p; p += strcspn(p, "|"), p += *p == '|') {
		if (strcspn(p, "|") == n && !strncmp(p, s, n))
			return 1;
	}
	return 0;
}

/* "a, b or c": the choices' first names */
static const char *choice_list(const struct opt *o, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t k = 0; o->choices[k] && used < n; k++)
		used += (size_t)snprintf(buf + used, n - used, "%s%.*s",
					 k ? (o->choices[k + 1] ? ", " : " or ") : "",
					 (int)strcspn(o->choices[k], "|"), o->choices[k]);
	return buf;
}

static int set_choice(const struct opt_cmd *c, const struct opt *o, const char *name,
		      const char *arg)
{
	char list[256], first[16][32];
	const char *names[16], *best;
	size_t k;

	for (k = 0; o->choices[k]; k++)
		if (choice_is(o->choices[k], arg)) {
			*(int *)o->value = (int)k;
			return 0;
		}
	for (k = 0; o->choices[k] && k < 16; k++) {
		snprintf(first[k], sizeof first[k], "%.*s", (int)strcspn(o->choices[k], "|"),
			 o->choices[k]);
		names[k] = first[k];
	}
	choice_list(o, list, sizeof list);
	if ((best = opt_closest(arg, names, k)))
		say(c, "%s takes %s, not '%s'; did you mean %s?", name, list, arg, best);
	else
		say(c, "%s takes %s, not '%s'", name, list, arg);
	return -1;
}

/* arg onto l, and l into a->lists the first time */
static int add_to_list(struct opt_args *a, struct opt_list *l, const char *arg)
{
	const char **v;

	if (!l->n) {
		struct opt_list **ls = realloc(a->lists, (size_t)(a->nlists + 1) * sizeof *ls);

		if (!ls) {
			bm_err("out of memory");
			return -1;
		}
		a->lists = ls;
		ls[a->nlists++] = l;
	}
	if (!(v = realloc(l->v, (l->n + 1) * sizeof *v))) {
		bm_err("out of memory");
		return -1;
	}
	l->v = v;
	v[l->n++] = arg;
	return 0;
}

static int set_value(const struct opt_cmd *c, struct opt_args *a, const struct opt *o,
		     const char *arg, int neg, int was_long)
{
	char name[80];

	spelled(o, name, sizeof name, was_long);
	switch (o->type) {
	case OPT_T_BOOL:
		*(int *)o->value = !neg;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_ULONG:
		return set_ulong(c, o, name, arg);
	case OPT_T_DOUBLE:
		return set_double(c, o, name, arg);
	case OPT_T_CHOICE:
		return set_choice(c, o, name, arg);
	case OPT_T_CALLBACK:
		return o->cb(o, arg, c) ? -1 : 0;
	case OPT_T_LIST:
		return add_to_list(a, o->value, arg);
	}
	return -1;
}

/* o was given: into a->seen, then its value. */
static int given(const struct opt_cmd *c, struct opt_args *a, const struct opt *o,
		 const char *arg, int neg, int was_long)
{
	const struct opt **s = realloc(a->seen, (size_t)(a->nseen + 1) * sizeof *s);

	if (!s) {
		bm_err("out of memory");
		return -1;
	}
	a->seen = s;
	s[a->nseen++] = o;
	return set_value(c, a, o, arg, neg, was_long);
}

const struct opt *opt_given(const struct opt_args *a, const char *long_name)
{
	for (int i = 0; i < a->nseen; i++)
		if (a->seen[i]->long_name && !strcmp(a->seen[i]->long_name, long_name))
			return a->seen[i];
	return NULL;
}

/* ---- parsing ---- */

void opt_args_free(struct opt_args *a)
{
	for (int i = 0; i < a->nlists; i++) {
		free(a->lists[i]->v);
		a->lists[i]->v = NULL;
		a->lists[i]->n = 0;
	}
	free(a->lists);
	free(a->v);
	free(a->dash);
	free(a->seen);
	memset(a, 0, sizeof *a);
}

/* One "--name[=value]" at argv[*i]. 0, or -1 (printed). */
static int long_opt(const struct opt_cmd *c, struct opt_args *a, int argc, char **argv, int *i)
{
	const char *s = argv[*i] + 2, *eq = strchr(s, '=');
	size_t len = eq ? (size_t)(eq - s) : strlen(s);
	int neg, amb;
	const struct opt *o = by_long(c->opts, s, len, &neg, &amb);
	char name[80], h[128];

	if (!o) {
		unknown_long(c, s, len, amb);
		return -1;
	}
	opt_name(o, name, sizeof name);
	if (!takes_arg(o)) {
		if (eq) {
			say(c, "%s takes no value", name);
			return -1;
		}
		return given(c, a, o, NULL, neg, 1);
	}
	if (eq)
		return given(c, a, o, eq + 1, 0, 1);
	if (*i + 1 >= argc) {
		say(c, "%s needs %s (%s)", name, o->argh, help_cmd(c, h, sizeof h));
		return -1;
	}
	return given(c, a, o, argv[++*i], 0, 1);
}

/* "-abc", "-n5", "-n 5" at argv[*i]. 0, or -1 (printed). */
static int short_opts(const struct opt_cmd *c, struct opt_args *a, int argc, char **argv,
		      int *i)
{
	const char *s = argv[*i] + 1;
	char h[128];

	help_cmd(c, h, sizeof h);
	for (; *s; s++) {
		const struct opt *o = by_short(c->opts, *s);

		if (!o) {
			if (s == argv[*i] + 1 && s[1])
				say(c, "unknown option -%c (in '%s'; %s)", *s, argv[*i], h);
			else
				say(c, "unknown option -%c (%s)", *s, h);
			return -1;
		}
		if (!takes_arg(o)) {
			if (given(c, a, o, NULL, 0, 0))
				return -1;
			continue;
		}
		if (s[1])
			return given(c, a, o, s + 1, 0, 0);
		if (*i + 1 >= argc) {
			say(c, "-%c needs %s (%s)", *s, o->argh, h);
			return -1;
		}
		return given(c, a, o, argv[++*i], 0, 0);
	}
	return 0;
}

static int parse_in(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a,
		    int depth);

/* argv[0] names one of c's subcommands: the rest is its. 0, or -1 (printed). */
static int subcommand(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a,
		      int depth)
{
	const char *names[32], *best, *w;
	char list[256] = "", h[128];
	size_t n = 0, used = 0;

	for (const struct opt_cmd *s = c->subs; s->name; s++) {
		w = strrchr(s->name, ' ') ? strrchr(s->name, ' ') + 1 : s->name;
		if (!strcmp(w, argv[0]) && depth < MAX_DEPTH) {
			a->sub = s;
			return parse_in(s, argc, argv, a, depth + 1);
		}
		if (n < 32)
			names[n++] = w;
		if (used < sizeof list)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
						 used ? ", " : "", w);
	}
	help_cmd(c, h, sizeof h);
	if ((best = opt_closest(argv[0], names, n)))
		say(c, "unknown command '%s'; did you mean '%s'? (%s)", argv[0], best, h);
	else
		say(c, "unknown command '%s' (%s; %s)", argv[0], list, h);
	return -1;
}

static int parse_in(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a,
		    int depth)
{
	for (int i = 1; i < argc; i++) {
		char *s = argv[i];
		int r;

		if (!strcmp(s, "--")) {
			a->dash_given = 1;
			for (i++; i < argc; i++)
				if (push(&a->dash, &a->ndash, argv[i]))
					return -1;
			break;
		}
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			opt_usage(c, stdout);
			return 1;
		}
		if (!strcmp(s, "--man-options")) {
			opt_man_options(c, stdout);
			return 1;
		}
		if (s[0] == '-' && s[1] == '-')
			r = long_opt(c, a, argc, argv, &i);
		else if (s[0] == '-' && s[1])
			r = short_opts(c, a, argc, argv, &i);
		else if (c->subs)
			return subcommand(c, argc - i, argv + i, a, depth);
		else
			r = push(&a->v, &a->n, s);
		if (r)
			return -1;
	}
	if (c->subs && (!a->sub || a->sub == c)) {
		char h[128], list[256] = "";
		size_t used = 0;

		for (const struct opt_cmd *s = c->subs; s->name && used < sizeof list; s++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
						 used ? ", " : "", last_word(s->name));
		say(c, "name a command: %s (%s)", list, help_cmd(c, h, sizeof h));
		return -1;
	}
	return 0;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a)
{
	int r;

	memset(a, 0, sizeof *a);
	r = parse_in(c, argc, argv, a, 0);
	if (!r)
		return -1;
	opt_args_free(a);
	return r > 0 ? 0 : 2;
}

/* ---- --help ---- */

/* Words wrapped to WIDTH, continuation lines at column indent. */
struct wrap {
	FILE *f;
	int col, indent;
};

static void word(struct wrap *w, const char *s, size_t n)
{
	if (w->col > w->indent && w->col + 1 + (int)n > WIDTH) {
		fprintf(w->f, "\n%*s", w->indent, "");
		w->col = w->indent;
	} else if (w->col > 0) {
		fputc(' ', w->f);
		w->col++;
	}
	fprintf(w->f, "%.*s", (int)n, s);
	w->col += (int)n;
}

/* "[-i FILE]", "[--sort function|line]...": o in the synopsis */
static void synopsis_opt(struct wrap *w, const struct opt *o)
{
	char buf[256];
	size_t k = (size_t)snprintf(buf, sizeof buf, "[");

	if (o->short_name)
		k += (size_t)snprintf(buf + k, sizeof buf - k, "-%c", o->short_name);
	else
		k += (size_t)snprintf(buf + k, sizeof buf - k, "--%s", o->long_name);
	if (o->type == OPT_T_CHOICE) {
		for (size_t i = 0; o->choices[i] && k < sizeof buf; i++)
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%.*s", i ? "|" : " ",
					      (int)strcspn(o->choices[i], "|"), o->choices[i]);
	} else if (takes_arg(o) && k < sizeof buf) {
		k += (size_t)snprintf(buf + k, sizeof buf - k, " %s", o->argh);
	}
	if (k < sizeof buf)
		snprintf(buf + k, sizeof buf - k, "]%s", o->flags & OPT_MULTI ? "..." : "");
	word(w, buf, strlen(buf));
}


/* One form of the command for each of its subcommands (or of its args lines): chain holds
 * the commands from the verb down to c. */
static void forms(FILE *f, const struct opt_cmd **chain, int depth, int *nforms)
{
	const struct opt_cmd *c = chain[depth - 1];

	if (c->subs && depth < MAX_DEPTH) {
		for (const struct opt_cmd *s = c->subs; s->name; s++) {
			chain[depth] = s;
			forms(f, chain, depth + 1, nforms);
		}
		return;
	}
	for (const char *args = c->args ? c->args : "", *nl; ; args = nl + 1) {
		struct wrap w = { f, 0, 0 };
		int first = args == c->args || !c->args;

		nl = strchr(args, '\n');
		fputs((*nforms)++ ? "      " : "usage:", f);
		w.col = 6;
		w.indent = 7;
		word(&w, "bmprof", 6);
		for (int d = 0; d < depth; d++) {
			const char *name = d ? last_word(chain[d]->name) : chain[d]->name;

			if (name)
				word(&w, name, strlen(name));
			if (d == 0)
				w.indent = w.col + 1 < 40 ? w.col + 1 : 40;
			for (const struct opt *o = chain[d]->opts; !is_end(o) && (first || d < depth - 1);
			     o++)
				if (shown(o))
					synopsis_opt(&w, o);
			if (!first && d == depth - 1)
				word(&w, "[OPTIONS]", 9);
		}
		if (*args)
			word(&w, args, nl ? (size_t)(nl - args) : strlen(args));
		fputc('\n', f);
		if (!nl)
			break;
	}
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

/* "  -i, --input FILE" into buf */
static void lhs(const struct opt *o, char *buf, size_t n)
{
	size_t k = o->short_name ? (size_t)snprintf(buf, n, "  -%c%s", o->short_name,
						    o->long_name ? "," : "")
				 : (size_t)snprintf(buf, n, "     ");
	if (o->long_name)
		k += (size_t)snprintf(buf + k, n - k, " --%s", o->long_name);
	if (takes_arg(o) && k < n)
		snprintf(buf + k, n - k, " %s", o->argh);
}

static void option_lines(const struct opt_cmd *c, FILE *f)
{
	char left[128];

	for (const struct opt *o = c->opts; !is_end(o); o++) {
		if (o->type == OPT_T_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (!shown(o))
			continue;
		lhs(o, left, sizeof left);
		if ((int)strlen(left) + 1 > HELP_COL)
			fprintf(f, "%s\n%*s", left, HELP_COL, "");
		else
			fprintf(f, "%-*s", HELP_COL, left);
		wrapped(f, o->help, HELP_COL);
	}
}

static int has_shown(const struct opt_cmd *c)
{
	for (const struct opt *o = c->opts; !is_end(o); o++)
		if (shown(o))
			return 1;
	return 0;
}

/* The subcommands' options, each under a heading of its name. */
static void sub_option_lines(const struct opt_cmd *c, FILE *f, int depth)
{
	for (const struct opt_cmd *s = c->subs; s && s->name && depth < MAX_DEPTH; s++) {
		if (has_shown(s)) {
			fprintf(f, "\nbmprof %s:\n", s->name);
			option_lines(s, f);
		}
		sub_option_lines(s, f, depth + 1);
	}
}

void opt_usage(const struct opt_cmd *c, FILE *f)
{
	const struct opt_cmd *chain[MAX_DEPTH + 1] = { c };
	int nforms = 0;

	forms(f, chain, 1, &nforms);
	if (c->description) {
		fputc('\n', f);
		wrapped(f, c->description, 0);
	}
	fputc('\n', f);
	option_lines(c, f);
	sub_option_lines(c, f, 0);
	fprintf(f, "%-*sthis text\n", HELP_COL, "  -h, --help");
	if (c->tail)
		fprintf(f, "\n%s", c->tail);
}

/* ---- the man page ---- */

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

static void man_entries(const struct opt_cmd *c, FILE *f)
{
	for (const struct opt *o = c->opts; !is_end(o); o++) {
		if (o->type == OPT_T_GROUP) {
			fputs(".SS ", f);
			roff(f, o->help);
			fputc('\n', f);
			continue;
		}
		if (!shown(o))
			continue;
		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR%s", o->short_name, o->long_name ? ", " : "");
		if (o->long_name) {
			fputs("\\fB\\-\\-", f);
			roff(f, o->long_name);
			fputs("\\fR", f);
		}
		if (takes_arg(o)) {
			fputs(" \\fI", f);
			roff(f, o->argh);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, o->help);
		fputc('\n', f);
	}
}

static void man_subs(const struct opt_cmd *c, FILE *f, int depth)
{
	for (const struct opt_cmd *s = c->subs; s && s->name && depth < MAX_DEPTH; s++) {
		if (has_shown(s)) {
			fputs(".SS bmprof ", f);
			roff(f, s->name);
			fputc('\n', f);
			man_entries(s, f);
		}
		man_subs(s, f, depth + 1);
	}
}

void opt_man_options(const struct opt_cmd *c, FILE *f)
{
	fputs(".SH OPTIONS\n", f);
	man_entries(c, f);
	man_subs(c, f, 0);
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nprint the usage and exit\n", f);
}
