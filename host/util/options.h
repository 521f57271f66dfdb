/* SPDX-License-Identifier: BSD-2-Clause */
/* One declarative table of options per command: it parses the command line and writes the
 * command's --help and the OPTIONS section of its man page, so the three never disagree
 * (Linux perf's parse-options is the model).
 *
 *   static const struct opt opts[] = {
 *           OPT_STRING('i', "input", &c.input, "FILE", "the profile (default bmprof.data)"),
 *           OPT_ULONG('n', "limit", &c.limit, "N", "at most N rows", 0, 1000000),
 *           OPT_BOOL(0, "json", &c.json, "JSON on stdout"),
 *           OPT_END(),
 *   };
 *   static const struct opt_cmd cmd = { "report", "bmprof report [OPTIONS]", "...", opts };
 *   int rc = opt_parse(&cmd, argc, argv, &pos);   // -1: go on; else exit with rc
 *
 * Options may come anywhere among the positional arguments (which keep their order) until
 * "--"; what follows "--" is left for the command. Long options take "--name=value" or
 * "--name value" and may be shortened to any unambiguous prefix; short ones "-n 5", "-n5",
 * and flags combine ("-ab"). A boolean takes "--no-name" too. Every error is one line that
 * names the offending option and, for a mistyped one, the closest that exists. */
#ifndef BMPROF_OPTIONS_H
#define BMPROF_OPTIONS_H

#include <stdio.h>

enum opt_type {
	OPT_T_END, OPT_T_GROUP, OPT_T_BOOL, OPT_T_STRING, OPT_T_ULONG, OPT_T_DOUBLE,
	OPT_T_CHOICE, OPT_T_CALLBACK,
};

/* flags */
#define OPT_NONEG 1     /* a boolean without --no-NAME */
#define OPT_HIDDEN 2    /* parsed, not shown in --help (testing knobs) */

struct opt;
/* A callback: arg is the option's argument (NULL for one that takes none); 0, or -1 with
 * the problem printed (one line, naming the option). */
typedef int opt_cb(const struct opt *o, const char *arg, void *ctx);

struct opt {
	int type;
	char short_name;                 /* 0: none */
	const char *long_name;           /* NULL: none */
	void *value;                     /* int *, const char **, unsigned long *, double * */
	const char *argh;                /* the argument's name in --help ("FILE"); NULL: none */
	const char *help;                /* the text; a group's heading */
	int flags;
	unsigned long min, max;          /* ULONG: the range */
	const char *const *choices;      /* CHOICE: NULL-terminated; value is an int index */
	opt_cb *cb;                      /* CALLBACK */
};

#define OPT_END() { OPT_T_END, 0, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL }
#define OPT_GROUP(h) { OPT_T_GROUP, 0, NULL, NULL, NULL, (h), 0, 0, 0, NULL, NULL }
#define OPT_BOOL(s, l, v, h) { OPT_T_BOOL, (s), (l), (v), NULL, (h), 0, 0, 0, NULL, NULL }
#define OPT_STRING(s, l, v, a, h) { OPT_T_STRING, (s), (l), (v), (a), (h), 0, 0, 0, NULL, NULL }
#define OPT_ULONG(s, l, v, a, h, lo, hi) \
	{ OPT_T_ULONG, (s), (l), (v), (a), (h), 0, (lo), (hi), NULL, NULL }
#define OPT_DOUBLE(s, l, v, a, h) { OPT_T_DOUBLE, (s), (l), (v), (a), (h), 0, 0, 0, NULL, NULL }
#define OPT_CHOICE(s, l, v, a, h, c) { OPT_T_CHOICE, (s), (l), (v), (a), (h), 0, 0, 0, (c), NULL }
/* a (NULL: no argument) */
#define OPT_CALLBACK(s, l, a, h, cb) { OPT_T_CALLBACK, (s), (l), NULL, (a), (h), 0, 0, 0, NULL, (cb) }
/* a testing knob: parsed like OPT_ULONG, not shown in --help */
#define OPT_ULONG_HIDDEN(s, l, v, a, h, lo, hi) \
	{ OPT_T_ULONG, (s), (l), (v), (a), (h), OPT_HIDDEN, (lo), (hi), NULL, NULL }

struct opt_cmd {
	const char *name;                /* "report": the prefix of messages */
	const char *usage;               /* the synopsis, one or more lines */
	const char *description;         /* a paragraph after the synopsis */
	const struct opt *opts;          /* ends with OPT_END() */
	const char *tail;                /* after the options: exit status, examples (or NULL) */
	void *ctx;                       /* given to callbacks */
};

/* The positional arguments, in order, and what came after "--" (dash is -1 without one). */
struct opt_args {
	int n;
	char **v;                        /* argv's own strings */
	int ndash;
	char **dash;
	int dash_given;                  /* a "--" was there */
};

/* Parse argv (argv[0] is the command's name). -1: parsed, go on; 0: --help was printed;
 * 2: a usage error was printed. a->v points into a copy of argv's pointers (freed with
 * opt_args_free). */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a);
void opt_args_free(struct opt_args *a);
/* --help: synopsis, description, the options by group, tail. */
void opt_usage(const struct opt_cmd *c, FILE *f);
/* The options as a man page's OPTIONS section (troff -man). */
void opt_man_options(const struct opt_cmd *c, FILE *f);
/* Among names (n of them), the one closest to s, if close enough to be a likely typo;
 * else NULL. */
const char *opt_closest(const char *s, const char *const *names, size_t n);

#endif
