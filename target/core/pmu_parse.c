/* SPDX-License-Identifier: BSD-2-Clause */
/* Event specs: ID:ENC:PERIOD[:NAME[:GROUP]] with ENC a '/'-separated list of
 * [vendor.]CODE alternatives (bmprof_pmu.h). */
#include "pmu_internal.h"

struct span {
	const char *s;
	unsigned n;
};

static const struct {
	const char *word;
	uint8_t kind;
	uint64_t gp[5];          /* by enum bmprof_pmu_vendor; 0: none */
} words[] = {
	/* Intel: architectural events 3CH/00H, C0H/00H, 3CH/01H; AMD: PMCx076, PMCx0C0;
	 * Arm: CPU_CYCLES, INST_RETIRED, CNT_CYCLES (constant frequency cycles);
	 * RISC-V: the SBI PMU's hardware events 1 and 2, as QEMU's mhpmevent takes them */
	{ "cycles", BMPROF_FIXED_CYCLES, { 0, 0x3c, 0x76, 0x11, 0x1 } },
	{ "instructions", BMPROF_FIXED_INSTRUCTIONS, { 0, 0xc0, 0xc0, 0x08, 0x2 } },
	{ "ref-cycles", BMPROF_FIXED_REF_CYCLES, { 0, 0x13c, 0, 0x4004 } },
	/* Intel TOPDOWN.SLOTS (fixed counter 3; architectural event A4H/01H on a GP counter)
	 * and the PERF_METRICS fields, which only the fixed-counter pair can count */
	{ "topdown-slots", BMPROF_FIXED_SLOTS, { 0, 0x1a4, 0, 0 } },
	{ "topdown-retiring", BMPROF_FIXED_TD_RETIRING, { 0 } },
	{ "topdown-bad-spec", BMPROF_FIXED_TD_BAD_SPEC, { 0 } },
	{ "topdown-fe-bound", BMPROF_FIXED_TD_FE_BOUND, { 0 } },
	{ "topdown-be-bound", BMPROF_FIXED_TD_BE_BOUND, { 0 } },
	{ "topdown-heavy-ops", BMPROF_FIXED_TD_HEAVY_OPS, { 0 } },
	{ "topdown-br-mispredict", BMPROF_FIXED_TD_BR_MISPREDICT, { 0 } },
	{ "topdown-fetch-lat", BMPROF_FIXED_TD_FETCH_LAT, { 0 } },
	{ "topdown-mem-bound", BMPROF_FIXED_TD_MEM_BOUND, { 0 } },
};

static const char *const vendors[] = { 0, "intel", "amd", "arm", "riscv" };
#define NVENDORS (sizeof vendors / sizeof vendors[0])

#define NWORDS (sizeof words / sizeof words[0])

uint64_t bmprof_pmu_word_encoding(uint8_t word, uint8_t vendor)
{
	for (unsigned i = 0; i < NWORDS; i++)
		if (words[i].kind == word && vendor < NVENDORS)
			return words[i].gp[vendor];
	return 0;
}

static int is(struct span a, const char *lit)
{
	unsigned i = 0;
	while (i < a.n && lit[i] && a.s[i] == lit[i])
		i++;
	return i == a.n && !lit[i];
}

/* Split off the part of *rest before the first sep (all of it if there is none). */
static struct span cut(struct span *rest, char sep)
{
	struct span a = { rest->s, 0 };
	while (a.n < rest->n && rest->s[a.n] != sep)
		a.n++;
	if (a.n < rest->n) {
		rest->s += a.n + 1;
		rest->n -= a.n + 1;
	} else {
		rest->s += a.n;
		rest->n = 0;
	}
	return a;
}

static int dec(struct span a, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!a.n)
		return -1;
	for (unsigned i = 0; i < a.n; i++) {
		unsigned d = (unsigned)(a.s[i] - '0');
		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int hex(struct span a, uint64_t *out)
{
	uint64_t v = 0;
	if (a.n > 2 && a.s[0] == '0' && (a.s[1] == 'x' || a.s[1] == 'X')) {
		a.s += 2;
		a.n -= 2;
	}
	if (!a.n || a.n > 16)
		return -1;
	for (unsigned i = 0; i < a.n; i++) {
		char c = a.s[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
		if (d > 15)
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

/* One alternative: its vendor (0: any) and either a word kind or a hex code. */
static int alternative(struct span a, uint8_t *vendor, uint8_t *kind, uint64_t *code)
{
	unsigned dot = 0;
	*vendor = BMPROF_VENDOR_ANY;
	while (dot < a.n && a.s[dot] != '.')
		dot++;
	if (dot < a.n) {
		struct span v = { a.s, dot };
		*vendor = 0xff;
		for (uint8_t i = 1; i < NVENDORS; i++)
			if (is(v, vendors[i]))
				*vendor = i;
		if (*vendor == 0xff)
			return -1;
		a.s += dot + 1;
		a.n -= dot + 1;
	}
	*kind = BMPROF_FIXED_NONE;
	for (unsigned i = 0; i < NWORDS; i++)
		if (is(a, words[i].word))
			*kind = words[i].kind;
	return *kind ? 0 : hex(a, code);
}

/* Pick the first alternative for vendor into e. Returns -1 if one is malformed; leaves e
 * UNAVAILABLE / BAD_ENCODING if none is for vendor. */
static int choose(struct bmprof_pmu_event *e, struct span enc, uint8_t vendor)
{
	int found = 0;
	if (!enc.n)
		return -1;
	e->status = BMPROF_EVST_UNAVAILABLE;
	e->reason = BMPROF_EVR_BAD_ENCODING;
	while (enc.n || enc.s[-1] == '/') {
		struct span a = cut(&enc, '/');
		uint8_t v, kind;
		uint64_t code = 0;
		if (alternative(a, &v, &kind, &code))
			return -1;
		if (found || (v != BMPROF_VENDOR_ANY && v != vendor))
			continue;
		found = 1;
		e->status = BMPROF_EVST_ACTIVE;
		e->reason = BMPROF_EVR_NONE;
		e->fixed = kind;
		e->encoding = kind ? bmprof_pmu_word_encoding(kind, vendor) : code;
		if (kind && !e->encoding)
			e->flags |= BMPROF_PMUEV_NO_GP;
	}
	return 0;
}

static void copy_name(struct bmprof_pmu_event *e, struct span a)
{
	unsigned n = a.n < BMPROF_PMU_NAME_MAX - 1 ? a.n : BMPROF_PMU_NAME_MAX - 1;
	for (unsigned i = 0; i < n; i++)
		e->name[i] = a.s[i];
	e->name[n] = 0;
}

/* The word, r<hex> for a code, or the encoding text when nothing was chosen. */
static void default_name(struct bmprof_pmu_event *e, struct span enc)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = 0, shift = 60;

	if (e->reason == BMPROF_EVR_BAD_ENCODING) {
		copy_name(e, enc);
		return;
	}
	for (unsigned i = 0; i < NWORDS; i++)
		if (e->fixed == words[i].kind) {
			for (const char *w = words[i].word; *w; w++)
				e->name[n++] = *w;
			e->name[n] = 0;
			return;
		}
	e->name[n++] = 'r';
	while (shift && !(e->encoding >> shift))
		shift -= 4;
	for (;; shift -= 4) {
		e->name[n++] = digits[e->encoding >> shift & 0xf];
		if (!shift)
			break;
	}
	e->name[n] = 0;
}

static int fail(struct bmprof_pmu *p, const char *why)
{
	p->error = why;
	return -1;
}

int bmprof_pmu_parse_event(struct bmprof_pmu *p, const char *text, unsigned len, uint8_t vendor)
{
	struct span rest = { text, len }, f[5];
	struct bmprof_pmu_event e = { .counter = BMPROF_PMU_NONE, .group = BMPROF_PMU_NONE,
				      .user_group = BMPROF_PMU_NONE };
	unsigned nf = 0;
	uint64_t id, period, group;

	if (p->nevents == BMPROF_PMU_MAX_EVENTS)
		return fail(p, "too many events (at most 16)");
	if (!text || !len || text[len - 1] == ':')
		return fail(p, "want ID:ENC:PERIOD[:NAME[:GROUP]]");
	while (rest.n && nf < 5)
		f[nf++] = cut(&rest, ':');
	if (rest.n || nf < 3)
		return fail(p, "want ID:ENC:PERIOD[:NAME[:GROUP]]");
	if (dec(f[0], 0xffff, &id) || id == 0)
		return fail(p, "ID: want a number 1..65535 (0 is the timer's)");
	for (unsigned i = 0; i < p->nevents; i++)
		if (p->ev[i].id == id)
			return fail(p, "ID: this event id is taken");
	e.id = (uint16_t)id;
	if (choose(&e, f[1], vendor))
		return fail(p, "ENC: want [intel.|amd.|arm.|riscv.]HEX or cycles, instructions, "
			       "ref-cycles, alternatives separated by '/'");
	if (dec(f[2], UINT64_MAX, &period) || (period && period < BMPROF_PMU_MIN_PERIOD))
		return fail(p, "PERIOD: want 0 (count only) or a number of events, at least 10000");
	e.period = period;
	e.jitter = period / 16;
	if (nf > 3 && (f[3].n >= BMPROF_PMU_NAME_MAX || (f[3].n == 0 && nf == 4)))
		return fail(p, "NAME: want 1..31 characters (empty only before a GROUP)");
	if (nf > 4) {
		if (dec(f[4], 254, &group))
			return fail(p, "GROUP: want a number 0..254");
		e.user_group = (uint8_t)group;
	}
	if (nf > 3 && f[3].n)
		copy_name(&e, f[3]);
	else
		default_name(&e, f[1]);
	p->ev[p->nevents++] = e;
	p->error = 0;
	return 0;
}

int bmprof_pmu_parse_spec(struct bmprof_pmu *p, const char *spec, uint8_t vendor)
{
	unsigned n = 0;

	while (spec && spec[n])
		n++;
	return bmprof_pmu_parse_event(p, spec, n, vendor);
}
