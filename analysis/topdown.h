/* SPDX-License-Identifier: BSD-2-Clause */
/* Top-Down analysis (Yasin, ISPASS 2014): which part of the pipeline a run was bound by.
 *
 * The data (analysis/topdown/{cpus,events,metrics}.tsv, compiled into analysis/topdown_table.c
 * by tools/gen_topdown.py) says, per CPU family, the events and the formula of every node of
 * the tree. This module picks the family for a CPU (topdown_select), evaluates the formulas
 * over counter totals (topdown_compute: signed values, missing events make nodes missing,
 * never zero), flags nodes against their thresholds, and plans the counter groups a run
 * needs (topdown_plan, topdown_plan.c). Formulas are parsed and evaluated by topdown_expr.c.
 * No I/O. docs/bmprof-topdown.md is the user's guide.
 */
#ifndef BMPROF_TOPDOWN_H
#define BMPROF_TOPDOWN_H

#include <stddef.h>
#include <stdint.h>

#define TD_ANY 0xffffffffu          /* td_cpu_def.cpu_family: any */
#define TD_MAX_NODES 48             /* nodes and auxiliaries of one family */
#define TD_MAX_EVENTS 48            /* events of one family */
#define TD_MAX_COUNTS 256           /* counter totals one analysis takes */
#define TD_NAME_MAX 64
#define TD_WHY_MAX 160
#define TD_AST_MAX 48               /* terms of one formula */
#define TD_MAX_LEVEL 4

/* ---- the tables (topdown_table.c) ---- */

struct td_cpu_def {
	const char *family;
	const char *arch;           /* "x86_64", "aarch64" */
	const char *vendor;         /* HELLO vendor, or "*" */
	uint32_t cpu_family;        /* or TD_ANY */
	const char *models;         /* "3a,3e", "10-1f,60-7f", "*" (hex) */
	double width;               /* #W; 0: unknown */
	unsigned gp;                /* general-purpose counters per thread */
	const char *source;
};

struct td_event_def {
	const char *family;
	const char *name;           /* the name formulas use */
	const char *word;           /* "cycles": may use the fixed cycle counter; or NULL */
	uint64_t code;              /* PERFEVTSEL / PERF_CTL bits, or the PMUv3 event number */
	uint32_t counters;          /* GP counters that can count it (bit i: counter i); 0: any */
	const char *vendor_event;
	const char *source;
};

struct td_metric_def {
	const char *family;
	const char *node;           /* "#..." for an auxiliary */
	const char *parent;         /* NULL at level 1 and for auxiliaries */
	unsigned level;             /* 1..4; 0 for auxiliaries */
	double threshold;           /* flagged when value > threshold; < 0: never */
	const char *expr;
	const char *source;
};

extern const struct td_cpu_def topdown_cpus[];
extern const unsigned topdown_cpus_len;
extern const struct td_event_def topdown_events[];
extern const unsigned topdown_events_len;
extern const struct td_metric_def topdown_metrics[];
extern const unsigned topdown_metrics_len;

/* ---- formulas (topdown_expr.c) ---- */

enum td_op { TD_NUM, TD_NAME, TD_ADD, TD_SUB, TD_MUL, TD_DIV, TD_NEG, TD_MIN, TD_MAX, TD_ALT };

struct td_term {
	uint8_t op;                 /* enum td_op */
	int8_t a, b;                /* operand terms; -1: none */
	double num;                 /* TD_NUM */
	const char *name;           /* TD_NAME: points into the formula text */
	unsigned name_len;
};

struct td_expr {
	struct td_term t[TD_AST_MAX];
	unsigned n;
	int root;
};

/* Parse text (which must outlive e): numbers, names, + - * / ( ), unary -, min(a, b),
 * max(a, b), a ?? b (lowest precedence). 0, or -1 with one line in err. */
int td_expr_parse(struct td_expr *e, const char *text, char *err, size_t n);

/* A value, or missing with the reason. */
struct td_value {
	double v;
	int missing;
	char why[TD_WHY_MAX];
};

/* Resolves a name: in_sub is set when the name stands under a subtraction (its operands
 * must come from the same counter group as the rest). Fills out; returns 0. */
typedef void td_resolve_fn(void *ctx, const char *name, unsigned len, int in_sub,
			   struct td_value *out);

/* Evaluate e. Missing operands make the result missing (a ?? b takes b when a is missing),
 * as does a division by zero; values are signed and never clamped. */
struct td_value td_expr_eval(const struct td_expr *e, td_resolve_fn *resolve, void *ctx);

/* Call fn for every name in e, with in_sub as td_resolve_fn gets it. */
void td_expr_names(const struct td_expr *e, void (*fn)(void *ctx, const char *name,
							 unsigned len, int in_sub),
		   void *ctx);

/* ---- one CPU family's model (topdown.c) ---- */

struct td_model {
	const struct td_cpu_def *cpu;
	const char *family;
	double width;
	unsigned gp;
	const struct td_metric_def *metric[TD_MAX_NODES];
	struct td_expr expr[TD_MAX_NODES];
	unsigned nmetrics;
	const struct td_event_def *event[TD_MAX_EVENTS];
	unsigned nevents;
};

/* The family for a CPU: arch "x86_64"/"aarch64", HELLO vendor, family and model; or, when
 * family_name is not NULL, that family by name (a counts file may name it), with the width
 * of its row for this CPU if it has one, else of its first row. 0, or -1 with
 * one line in err (no family for the CPU: Top-Down needs events bmprof has no table of). */
int topdown_select(struct td_model *m, const char *arch, const char *vendor,
		   uint32_t cpu_family, uint32_t model, const char *family_name, char *err,
		   size_t n);
/* The names of the families, comma-separated, into buf. */
void topdown_family_names(char *buf, size_t n);
/* Index of event / metric name in m, or -1. */
int topdown_event_index(const struct td_model *m, const char *name, unsigned len);
int topdown_metric_index(const struct td_model *m, const char *name, unsigned len);

/* Events metric i needs from one counter group: those of its formula, of the auxiliaries
 * it uses and of the nodes it names under a subtraction (recursively). A bit per model
 * event. */
uint64_t topdown_metric_events(const struct td_model *m, unsigned i);

/* ---- counter totals in, the tree out ---- */

enum td_count_state { TD_COUNTED, TD_UNSUPPORTED, TD_NOT_COUNTED };

struct td_count {
	char event[TD_NAME_MAX];    /* a model event's name */
	int group;                  /* the counter group it was counted in; -1: none given */
	int state;                  /* enum td_count_state */
	double value;               /* the raw total */
	double enabled, running;    /* time enabled and on a counter (any unit); 0 0: not known */
	char why[TD_WHY_MAX];       /* for the two not-counted states */
};

struct td_counts {
	struct td_count c[TD_MAX_COUNTS];
	unsigned n;
};

enum td_node_state { TD_NODE_OK, TD_NODE_MISSING };

struct td_node {
	const struct td_metric_def *def;
	int metric;                 /* index in the model */
	int parent;                 /* index in td_tree.node, -1 at level 1 */
	int state;                  /* enum td_node_state */
	double value;               /* signed, unclamped */
	int flagged;                /* value > threshold */
	int shown;                  /* level 1, or the parent shown and flagged */
	int group;                  /* the counter group its events came from (-1: none) */
	int mixed;                  /* some operands scaled from other groups (not exact) */
	char why[TD_WHY_MAX];       /* why missing */
};

struct td_tree {
	struct td_node node[TD_MAX_NODES];   /* depth first, in the table's order */
	unsigned n;
	int bad_spec_flagged;       /* Bad Speculation is flagged: the rest is suspect */
	int negative;               /* some node is below 0 */
	int above_one;              /* some node is above 1 */
	int mixed;                  /* some node combined groups by scaling */
};

/* Evaluate every node of m up to max_level over c. 0; -1 if c names an event twice in one
 * group (err says which). */
int topdown_compute(const struct td_model *m, const struct td_counts *c, unsigned max_level,
		    struct td_tree *t, char *err, size_t n);

/* v clamped into [0, 1] for display; *clamped set when it changed. */
double topdown_display_value(double v, int *clamped);

/* ---- per function, from sampled events (topdown_func.c) ---- */

/* A sampled event of the run: its id in the profile, the Top-Down event and group. */
struct td_func_event {
	uint16_t id;
	int group;
	const char *event;
};

struct profile;
/* The counts of one function: for each of the n events, its samples whose func_of[sample
 * index] is func, times the event's sampling period (an estimate of the function's share of
 * the count). An event the target could not count is entered as not counted. 0; -1 when the
 * counts table is full. */
int topdown_func_counts(const struct profile *p, const struct td_func_event *ev, unsigned n,
			const int *func_of, int func, struct td_counts *out);

/* ---- the group planner (topdown_plan.c) ---- */

#define TD_PLAN_MAX_GROUPS 32
#define TD_GROUP_MAX 16

/* The counters a run has. */
struct td_pmu {
	unsigned gp;                /* general-purpose counters */
	int fixed_cycles;           /* a fixed cycle counter (the "cycles" word goes there) */
	unsigned events_per_pass;   /* events one run can ask for (the runtime's table) */
};

struct td_group {
	uint64_t events;            /* a bit per model event */
	unsigned pass;              /* the run it is counted in */
};

struct td_plan {
	struct td_group g[TD_PLAN_MAX_GROUPS];
	unsigned ngroups;
	unsigned npasses;
	unsigned max_groups_per_pass;   /* time slices the runtime rotates through, at most */
	int node_group[TD_MAX_NODES];   /* per model metric: its group, -1 not wanted, -2 unplaceable */
	uint64_t wanted;                /* the metrics asked for */
};

/* Metrics of m up to max_level (auxiliaries excluded), a bit per model metric. */
uint64_t topdown_metrics_upto(const struct td_model *m, unsigned max_level);

/* Event groups for the metrics in wanted: every metric's events (topdown_metric_events) in
 * one group that fits pmu, groups shared where they fit (first fit, largest first), groups
 * packed into passes of at most pmu->events_per_pass events. A metric whose events cannot
 * fit one group is unplaceable (node_group -2). 0; -1 if there are more groups than
 * TD_PLAN_MAX_GROUPS. */
int topdown_plan(const struct td_model *m, uint64_t wanted, const struct td_pmu *pmu,
		 struct td_plan *p);

/* Whether the events (a bit per model event) fit pmu at once: a fixed counter for one
 * "cycles" event, GP counters (within each event's counter mask) for the rest. */
int topdown_group_fits(const struct td_model *m, uint64_t events, const struct td_pmu *pmu);

/* GP counters the events need (the cycles word on the fixed counter when there is one). */
unsigned topdown_group_gp(const struct td_model *m, uint64_t events, const struct td_pmu *pmu);

#endif
