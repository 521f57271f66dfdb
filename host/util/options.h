/* SPDX-License-Identifier: BSD-2-Clause */
/* One declarative table of options per command: it parses the command line and writes the
 * command's --help (the synopsis too) and the OPTIONS section of its man page, so the three
 * never disagree (Linux perf's parse-options is the model).
 *
 *   const struct opt opts[] = {
 *           OPT_STRING('i', "input", &c.input, "FILE", "the profile (default bmprof.data)"),
 *           OPT_ULONG('n', "limit", &c.limit, "N", "at most N rows", 1, 1000000),
 *           OPT_BOOL(0, "json", &c.json, "JSON on stdout"),
 *           OPT_END(),
 *   };
 *   const struct opt_cmd cmd = { .name = "report", .args = "[PROFILE]", .opts = opts };
 *   int rc = opt_parse(&cmd, argc, argv, &a);   // -1: go on; else exit with rc
 *   ...
 *   opt_args_free(&a);
 *
 * Options may come anywhere among the positional arguments (which keep their order) until
 * "--"; what follows "--" is left for the command. Long options take "--name=value" or
 * "--name value" and may be shortened to any unambiguous prefix; short ones "-n 5", "-n5",
 * and flags combine ("-ab"). A boolean takes "--no-name" too. Every error is one line that
 * names the offending option and, for a mistyped one, the closest that exists. "-h" and
 * "--help" print the usage; the hidden "--man-options" prints the man page's OPTIONS
 * section. A command with subcommands (opt_cmd.subs) takes its own options before the
 * subcommand's name, and the subcommand's table the rest. */
#ifndef BMPROF_OPTIONS_H
#define BMPROF_OPTIONS_H

#include <limits.h>
#include <math.h>
#include <stdio.h>

enum opt_type {
	OPT_T_END, OPT_T_GROUP, OPT_T_BOOL, OPT_T_STRING, OPT_T_ULONG, OPT_T_DOUBLE,
	OPT_T_CHOICE, OPT_T_CALLBACK, OPT_T_LIST,
};

/* flags */
#define OPT_NONEG 1     /* a boolean without --no-NAME */
#define OPT_HIDDEN 2    /* parsed, not shown in --help or the man page (testing knobs) */
#define OPT_MULTI 4     /* repeatable: "..." after it in the synopsis */

struct opt;
struct opt_cmd;
/* A callback: arg is the option's argument (NULL for one that takes none), o->value what
 * the table gave it. 0, or -1 with the problem printed (one line, naming the option). */
typedef int opt_cb(const struct opt *o, const char *arg, const struct opt_cmd *c);

/* What an OPT_LIST collects: every argument, in order (pointers into argv). */
struct opt_list {
	const char **v;
	size_t n;
};

struct opt {
	int type;
	char short_name;                 /* 0: none */
	const char *long_name;           /* NULL: none */
	void *value;                     /* int *, const char **, unsigned long *, double *,
					  * struct opt_list *; a callback's own */
	const char *argh;                /* the argument's name in --help ("FILE"); NULL: none */
	const char *help;                /* the text; a group's heading */
	int flags;
	unsigned long min, max;          /* ULONG: the range */
	double dmin, dmax;               /* DOUBLE: the range (finite numbers only) */
	/* CHOICE: NULL-terminated; an entry may name aliases after '|' ("function|func");
	 * value is an int, the entry's index */
	const char *const *choices;
	opt_cb *cb;                      /* CALLBACK */
};

#define OPT_END() { .type = OPT_T_END }
#define OPT_GROUP(h) { .type = OPT_T_GROUP, .help = (h) }
#define OPT_BOOL(s, l, v, h) { .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), \
	.value = (v), .help = (h) }
#define OPT_STRING(s, l, v, a, h) { .type = OPT_T_STRING, .short_name = (s), \
	.long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_ULONG(s, l, v, a, h, lo, hi) { .type = OPT_T_ULONG, .short_name = (s), \
	.long_name = (l), .value = (v), .argh = (a), .help = (h), .min = (lo), .max = (hi) }
#define OPT_DOUBLE(s, l, v, a, h) OPT_DOUBLE_RANGE(s, l, v, a, h, -HUGE_VAL, HUGE_VAL)
#define OPT_DOUBLE_RANGE(s, l, v, a, h, lo, hi) { .type = OPT_T_DOUBLE, .short_name = (s), \
	.long_name = (l), .value = (v), .argh = (a), .help = (h), .dmin = (lo), .dmax = (hi) }
#define OPT_CHOICE(s, l, v, a, h, c) { .type = OPT_T_CHOICE, .short_name = (s), \
	.long_name = (l), .value = (v), .argh = (a), .help = (h), .choices = (c) }
/* a (NULL: no argument); v is handed to cb as o->value; f: flags (OPT_MULTI, ...) */
#define OPT_CALLBACK(s, l, v, a, h, cb) OPT_CALLBACK_F(s, l, v, a, h, cb, 0)
#define OPT_CALLBACK_F(s, l, v, a, h, f, fl) { .type = OPT_T_CALLBACK, .short_name = (s), \
	.long_name = (l), .value = (v), .argh = (a), .help = (h), .cb = (f), .flags = (fl) }
/* repeatable: every argument into the struct opt_list v (freed by opt_args_free) */
#define OPT_LIST(s, l, v, a, h) { .type = OPT_T_LIST, .short_name = (s), .long_name = (l), \
	.value = (v), .argh = (a), .help = (h), .flags = OPT_MULTI }
/* a testing knob: parsed like OPT_ULONG, not shown */
#define OPT_ULONG_HIDDEN(s, l, v, a, h, lo, hi) { .type = OPT_T_ULONG, .short_name = (s), \
	.long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = OPT_HIDDEN, \
	.min = (lo), .max = (hi) }

struct opt_cmd {
	const char *name;                /* "report", "db add": messages' prefix; NULL for
					  * bmprof itself */
	/* the positional arguments in the synopsis ("IMAGE [-- QEMU-ARGS...]"); a '\n'
	 * starts another form of the command */
	const char *args;
	const char *description;         /* a paragraph after the synopsis */
	const struct opt *opts;          /* ends with OPT_END() */
	const char *tail;                /* after the options: exit status, examples (or NULL) */
	void *ctx;                       /* for callbacks (c->ctx) */
	const struct opt_cmd *subs;      /* subcommands, ending with one whose name is NULL */
};

/* The positional arguments, in order, and what came after "--". */
struct opt_args {
	int n;
	char **v;                        /* argv's own strings */
	int ndash;
	char **dash;
	int dash_given;                  /* a "--" was there */
	const struct opt_cmd *sub;       /* the subcommand named (the innermost), or NULL */
	const struct opt **seen;         /* the options given, in order (entries of the table:
					  * valid while it is) */
	int nseen;
	struct opt_list **lists;         /* the OPT_LIST lists filled: emptied with a */
	int nlists;
};

/* Parse argv (argv[0] is the command's name). -1: parsed, go on; 0: --help (or
 * --man-options) was printed; 2: a usage error was printed. Free a with opt_args_free
 * after -1 (the other results leave nothing to free). */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, struct opt_args *a);
/* Frees the argument arrays and empties the OPT_LIST lists that were filled. */
void opt_args_free(struct opt_args *a);
/* The option of that long name was given (o: the entry, else NULL). */
const struct opt *opt_given(const struct opt_args *a, const char *long_name);
/* "--name" (or "-n" when it has no long name) into buf. */
const char *opt_name(const struct opt *o, char *buf, size_t n);
/* --help: synopsis, description, the options by group (a subcommand's under its name),
 * tail. */
void opt_usage(const struct opt_cmd *c, FILE *f);
/* The options as a man page's OPTIONS section (troff -man). */
void opt_man_options(const struct opt_cmd *c, FILE *f);
/* Among names (n of them), the one closest to s, if close enough to be a likely typo;
 * else NULL. */
const char *opt_closest(const char *s, const char *const *names, size_t n);

#endif
