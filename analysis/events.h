/* SPDX-License-Identifier: BSD-2-Clause */
/* Hardware events by name: the event table (data in analysis/events/events.tsv, compiled
 * into analysis/events_table.c by tools/gen_events.py), the --event spec parser, the
 * target configuration lines it turns into, and the names of the wire's event status
 * fields. No I/O.
 *
 * A spec list is SPEC[,SPEC...], each SPEC one of
 *   NAME[:period=N|:freq=HZ]     a named event from the table (or an alias), case ignored
 *   rHEX[:period=N]              a raw encoding for whatever CPU runs the image
 *   x86/TERMS/[:period=N]        PERFEVTSEL fields: event=, umask=, cmask=, inv, edge, any
 *                                (cpu/TERMS/ is the same)
 *   arm/NUM/[:period=N]          a PMUv3 event number (arm/event=NUM/ is the same)
 *   {SPEC,SPEC,...}              a group: its members are always on the PMU together
 *   PMU::EVENT[:ATTR...][:period=N]  a vendor's event of one PMU model: libpfm4's names
 *                                (through the resolver the host gives), else bmprof's own
 *                                Arm models (events_models)
 *   EVENT[:ATTR...][:period=N]   a vendor's event of the default models: the resolver's for
 *                                x86, the Armv8/Armv9 common events for Arm
 * EVENT.UMASK is EVENT:UMASK. A vendor event is named in reports by events_short_name.
 * TERMS may also hold period=N and name=NAME. docs/events.md is the user's guide.
 */
#ifndef BMPROF_EVENTS_H
#define BMPROF_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

#define EVENTS_MAX 16              /* events one run may ask for (the target's table) */
#define EVENTS_NAME_MAX 31         /* the runtimes keep names of up to 31 characters */
#define EVENTS_MIN_PERIOD 10000u   /* the runtimes' smallest sampling period */
#define EVENTS_MAX_PERIOD (UINT64_MAX >> 1)
#define EVENTS_RAW_PERIOD 100000u  /* default period of a raw event */
#define EVENTS_CONFIG_MAX 1024     /* bytes of opt/bmprof/config the runtimes read */

enum event_vendor { EVENT_INTEL, EVENT_AMD, EVENT_ARM, EVENT_NVENDORS };
#define EVENT_ANY_VENDOR 0xffu

struct event_enc {
	int have;               /* the vendor has this event */
	uint64_t code;          /* PERFEVTSEL bits (x86) or PMUv3 event number (arm) */
	const char *source;     /* its name in the vendor's data */
};

struct event_def {
	const char *name;
	const char *aliases;    /* comma-separated; NULL if none */
	const char *word;       /* "cycles", "instructions", "ref-cycles": fixed counter; or NULL */
	uint64_t period;        /* default sampling period, in events */
	struct event_enc enc[EVENT_NVENDORS];
	const char *description;
};

extern const struct event_def events_table[];
extern const unsigned events_table_len;

/* The table entry whose name or alias is name (case ignored); NULL if none. */
const struct event_def *events_lookup(const char *name);
/* "cycles, instructions, ..." (the table's names) into buf. */
void events_known_names(char *buf, size_t n);

struct event_alt {
	uint8_t vendor;         /* enum event_vendor, or EVENT_ANY_VENDOR */
	uint64_t code;
};

/* One requested event. */
struct event_req {
	char name[EVENTS_NAME_MAX + 1];     /* the name reports use */
	const char *word;                   /* fixed-counter word, or NULL */
	struct event_alt alt[EVENT_NVENDORS];
	unsigned nalt;                      /* 0 when word is set */
	uint64_t period;                    /* 0: counted, not sampled */
	int group;                          /* index of its {...} group, -1 if none */
	const struct event_def *def;        /* NULL for a raw event */
};

struct event_list {
	struct event_req ev[EVENTS_MAX];
	unsigned n;
	unsigned ngroups;
};

/* Bmprof's own models of one vendor's PMU (Arm's published data, for the Arm cores): a
 * vendor name PMU::EVENT falls back to them when the resolver has no PMU of that name. */
struct event_model_event {
	const char *name;
	uint16_t code;          /* the PMUv3 event number */
	const char *description;
};

struct event_model {
	const char *pmu;        /* "arm_n1": libpfm4's name for the same core where it has one */
	const char *aliases;    /* other names of the model, comma-separated ("" if none) */
	const char *title;
	uint8_t vendor;         /* enum event_vendor */
	const char *source;     /* the data file it came from and its date */
	const struct event_model_event *events;
	unsigned nevents;
};

extern const struct event_model events_models[];
extern const unsigned events_models_len;

/* The model named pmu or one of its aliases (case ignored), and its event named name (case
 * ignored, '.' and ':' alike). NULL if none. */
const struct event_model *events_model_find(const char *pmu, size_t len);
const struct event_model_event *events_model_event(const struct event_model *m,
						   const char *name, size_t len);

/* Names close to a mistyped one: offer candidates, then read the best few. */
#define EVENTS_CLOSE_MAX 5
struct events_close {
	const char *want;
	size_t want_len;
	unsigned n;
	unsigned score[EVENTS_CLOSE_MAX];
	char name[EVENTS_CLOSE_MAX][80];
};

void events_close_init(struct events_close *c, const char *want, size_t len);
/* cand (prefix, then name; prefix may be ""): kept if close to want. */
void events_close_offer(struct events_close *c, const char *prefix, const char *name);
/* "A, B, C" (best first) into buf; "" when nothing was close. */
const char *events_close_text(const struct events_close *c, char *buf, size_t n);

/* Names the table does not know, resolved by the host (libpfm4). name is "PMU::EVENT..." or
 * an unqualified vendor name, without bmprof's :period=/:freq= modifiers. Returns 0 with
 * e->alt/e->nalt (or e->word) set; -1 with one line in err saying what is wrong (an
 * unknown event of a PMU it has, with close names; an event the target cannot program); 1
 * when it has no such PMU (qualified) or no default model or no such event (unqualified),
 * with err holding a hint for the user, possibly "". */
typedef int events_resolve_fn(const char *name, struct event_req *e, char *err, size_t errlen);

struct events_opts {
	int count;              /* counting (bmprof stat): periods are 0, :period/:freq ignored */
	uint64_t cycles_hz;     /* the cycle counter's rate for :freq= (0: unknown) */
	events_resolve_fn *resolve;     /* vendor names; NULL: only bmprof's own tables */
};

/* Parse a spec list and append its events to l (groups numbered after l's). 0, or -1
 * with one line in err naming the problem (l is then unchanged). */
int events_parse(struct event_list *l, const char *text, const struct events_opts *o,
		 char *err, size_t errlen);

/* The name a vendor event is reported under: the part after "::", characters other than
 * letters, digits, '-', '_', '.' and '+' as '.', cut to EVENTS_NAME_MAX ("skl::
 * MEM_LOAD_RETIRED:L1_MISS" is MEM_LOAD_RETIRED.L1_MISS). */
void events_short_name(const char *name, size_t len, char *out, size_t n);

/* One config setting for event e with id: "event=ID:ENC:PERIOD:NAME[:GROUP]" (no newline).
 * Returns its length, or -1 if buf is too small. */
int events_config_line(const struct event_req *e, unsigned id, char *buf, size_t n);
/* The whole opt/bmprof/config text, one setting per line: "mode=count" when count, then
 * "freq=FREQ" (the timer: sampling when no event samples, and the multiplexing tick), then
 * one event line per event, ids 1, 2, ... in order. Returns its length, or -1 if it does
 * not fit n bytes or EVENTS_CONFIG_MAX. */
int events_config(const struct event_list *l, int count, unsigned long freq, char *buf,
		  size_t n);

/* Names of the EVENT frame's fields, for JSON: "active", "unavailable", "fallback"; "none",
 * "no_pmu", "unsupported", "no_counter", "bad_encoding", "no_overflow"; "none", "gp",
 * "fixed", "timer". Unknown values give "unknown". */
const char *events_status_name(uint8_t status);
const char *events_reason_name(uint8_t reason);
const char *events_counter_kind_name(uint8_t kind);
/* The reason as a phrase: "no PMU on this CPU", "this CPU does not implement the event". */
const char *events_reason_text(uint8_t reason);
/* Where the event was counted: "PMU counter 2", "fixed counter 0", "cycle counter
 * PMCCNTR_EL0", "timer", "no counter". */
const char *events_counter_text(char *buf, size_t n, const struct profile_event *e,
				uint8_t arch);
/* One line on what happened to an event that is not plainly counted: "not counted: no PMU
 * on this CPU; sampled by the timer instead". Empty for an ACTIVE event. */
const char *events_status_text(char *buf, size_t n, const struct profile_event *e);

/* The run asked for events to sample on, but the timer sampled: HELLO says source timer
 * and an event fell back to it (FALLBACK), or an event meant to sample says PMU, or the
 * capture's "events" meta key asked for sampling events ("mode" is not "count"). */
int events_sampling_fell_back(const struct profile *p);

#endif
