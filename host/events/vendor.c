/* SPDX-License-Identifier: BSD-2-Clause */
/* Vendor event names through libpfm4: see vendor.h. */
#include "events/vendor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib.h>

/* IA32_PERFEVTSELx / PERF_CTLx bits that select an event (events.h); libpfm4 also sets the
 * privilege, interrupt and enable bits, which the target sets itself. */
#define X86_SELECT (0xffffull | 1ull << 18 | 1ull << 21 | 1ull << 23 | 0xffull << 24)
#define AMD_SELECT_HI (0xfull << 32)

int vendor_events_have_libpfm(void)
{
	return 1;
}

/* libpfm4 once per process, encoding for every PMU model it has, not only the host's
 * (LIBPFM_ENCODE_INACTIVE, which it reads in pfm_initialize: set only for that call). */
static int init(void)
{
	static int done, ok;
	const char *was;
	char *saved = NULL;

	if (done)
		return ok;
	done = 1;
	was = getenv("LIBPFM_ENCODE_INACTIVE");
	if (was && !(saved = strdup(was)))
		return 0;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	ok = pfm_initialize() == PFM_SUCCESS;
	if (saved)
		setenv("LIBPFM_ENCODE_INACTIVE", saved, 1);
	else
		unsetenv("LIBPFM_ENCODE_INACTIVE");
	free(saved);
	return ok;
}

static int pmu_info(pfm_pmu_t p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof *info);
	info->size = sizeof *info;
	return pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->name;
}

/* The libpfm4 PMU named [s, s + n) (case ignored), with its info; -1 if none. */
static int find_pmu(const char *s, size_t n, pfm_pmu_info_t *info)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		if (pmu_info(p, info) && strlen(info->name) == n && !strncasecmp(info->name, s, n))
			return (int)p;
	}
	return -1;
}

/* "'foo' is not a libpfm4 PMU model (close: A, B)" into err. */
static void close_pmus(const char *s, size_t n, char *err, size_t errlen)
{
	struct events_close c;
	pfm_pmu_info_t info;
	char close[256];
	pfm_pmu_t p;

	events_close_init(&c, s, n);
	pfm_for_all_pmus(p) {
		if (pmu_info(p, &info) && info.type == PFM_PMU_TYPE_CORE)
			events_close_offer(&c, "", info.name);
	}
	events_close_text(&c, close, sizeof close);
	snprintf(err, errlen, "'%.*s' is not a libpfm4 PMU model%s%s%s", (int)n, s,
		 *close ? " (close: " : "", close, *close ? ")" : "");
}

/* The core PMU libpfm4 detects on this host; -1 if none. */
static int host_pmu(pfm_pmu_info_t *info)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		if (pmu_info(p, info) && info->is_present && info->type == PFM_PMU_TYPE_CORE)
			return (int)p;
	}
	return -1;
}

static int vendor_of(const char *pmu)
{
	if (!strncmp(pmu, "amd64", 5))
		return EVENT_AMD;
	if (!strncmp(pmu, "arm", 3))
		return EVENT_ARM;
	return EVENT_INTEL;
}

/* The close names of the events (and EVENT.UMASK) of PMU p to want, into c. */
static void offer_pmu(struct events_close *c, const pfm_pmu_info_t *pi)
{
	char prefix[64];

	snprintf(prefix, sizeof prefix, "%s::", pi->name);
	for (int i = pi->first_event; i != -1; i = pfm_get_event_next(i)) {
		pfm_event_info_t ei = { .size = sizeof ei };
		int a;

		if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS)
			continue;
		events_close_offer(c, prefix, ei.name);
		pfm_for_each_event_attr(a, &ei) {
			pfm_event_attr_info_t ai = { .size = sizeof ai };
			char both[128];

			if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
			    ai.type != PFM_ATTR_UMASK)
				continue;
			snprintf(both, sizeof both, "%s.%s", ei.name, ai.name);
			events_close_offer(c, prefix, both);
		}
	}
}

/* The Intel fixed-counter-only encodings (event 0, umask n: fixed counter n - 1) as the
 * words the target puts on those counters. 0, or -1 with err set for one it has no word
 * for. */
static int fixed_word(const char *name, uint64_t code, struct event_req *e, char *err,
		      size_t errlen)
{
	static const char *const words[] = { NULL, "instructions", "cycles", "ref-cycles" };
	uint64_t umask = code >> 8 & 0xff;

	if (umask >= sizeof words / sizeof words[0] || !words[umask] || code & ~0xff00ull) {
		snprintf(err, errlen, "%s (event select 0, umask %#llx) counts only on a fixed "
			 "counter the target has no word for: use its _P form on a "
			 "general-purpose counter", name, (unsigned long long)umask);
		return -1;
	}
	e->word = words[umask];
	e->nalt = 0;
	return 0;
}

/* The encoding libpfm4 gave for PMU pi as e's alternative. 0, or -1 with err set. */
static int set_encoding(const char *name, const pfm_pmu_info_t *pi,
			const pfm_pmu_encode_arg_t *arg, struct event_req *e, char *err,
			size_t errlen)
{
	int v = vendor_of(pi->name);
	uint64_t code = arg->codes[0];

	if (arg->count != 1) {
		snprintf(err, errlen, "%s needs %d registers programmed (an extra one such as a "
			 "load latency or an offcore response mask), the target programs only the "
			 "event select: pick another event", name, arg->count);
		return -1;
	}
	if (v == EVENT_ARM) {
		code &= 0xffff;
	} else {
		if (v == EVENT_INTEL && code >> 32) {
			snprintf(err, errlen, "%s sets bits above 31 of IA32_PERFEVTSELx (intx, "
				 "intxcp), which the target does not program", name);
			return -1;
		}
		code &= X86_SELECT | (v == EVENT_AMD ? AMD_SELECT_HI : 0);
		if (v == EVENT_INTEL && !(code & 0xff))
			return fixed_word(name, code, e, err, errlen);
	}
	e->word = NULL;
	e->nalt = 1;
	e->alt[0] = (struct event_alt){ (uint8_t)v, code };
	return 0;
}

/* "skl (Intel Skylake)" */
static const char *title(const pfm_pmu_info_t *pi, char *buf, size_t n)
{
	snprintf(buf, n, "libpfm4's %s (%s)", pi->name, pi->desc ? pi->desc : "");
	return buf;
}

/* Encode full (MODEL::EVENT...) for PMU pi. user is the name as given, for messages. 0; -2
 * when pi has no such event, -1 for anything else wrong, with err set. */
static int encode(const char *user, const char *full, const pfm_pmu_info_t *pi,
		  struct event_req *e, char *err, size_t errlen)
{
	pfm_pmu_encode_arg_t arg = { .size = sizeof arg };
	char t[160], close[512];
	struct events_close c;
	int r;

	if (pi->type != PFM_PMU_TYPE_CORE) {
		snprintf(err, errlen, "%s is not a core PMU (an uncore or OS PMU): the target "
			 "programs the core's counters only", title(pi, t, sizeof t));
		return -1;
	}
	r = pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (r == PFM_SUCCESS) {
		r = set_encoding(user, pi, &arg, e, err, errlen);
		free(arg.codes);
		return r;
	}
	events_close_init(&c, full, strlen(full));
	offer_pmu(&c, pi);
	events_close_text(&c, close, sizeof close);
	snprintf(err, errlen, "%s: %s for %s%s%s%s", user, pfm_strerror(r), title(pi, t, sizeof t),
		 *close ? ": did you mean " : "", close, *close ? "?" : "");
	return r == PFM_ERR_NOTFOUND ? -2 : -1;
}

int vendor_events_resolve(const char *name, struct event_req *e, char *err, size_t errlen)
{
	const char *dc = strstr(name, "::"), *dflt = getenv(VENDOR_EVENTS_PMU_ENV);
	pfm_pmu_info_t pi;
	char full[160];

	if (errlen)
		err[0] = 0;
	if (!init()) {
		snprintf(err, errlen, "libpfm4 did not initialize");
		return 1;
	}
	if (dc) {
		if (find_pmu(name, (size_t)(dc - name), &pi) < 0) {
			close_pmus(name, (size_t)(dc - name), err, errlen);
			return 1;
		}
		return encode(name, name, &pi, e, err, errlen) ? -1 : 0;
	}
	if (dflt && *dflt) {
		if (find_pmu(dflt, strlen(dflt), &pi) < 0) {
			snprintf(err, errlen, "%s=%s is not a libpfm4 PMU model (e.g. skl, icl, "
				 "spr, amd64_fam19h_zen3)", VENDOR_EVENTS_PMU_ENV, dflt);
			return -1;
		}
	} else if (host_pmu(&pi) < 0) {
		snprintf(err, errlen, "libpfm4 knows no PMU model for this host's CPU: give "
			 "one, MODEL::EVENT (skl::, icl::, spr::, amd64_fam19h_zen3::...), or set "
			 "%s=MODEL", VENDOR_EVENTS_PMU_ENV);
		return 1;
	}
	if (snprintf(full, sizeof full, "%s::%s", pi.name, name) >= (int)sizeof full)
		return 1;
	switch (encode(name, full, &pi, e, err, errlen)) {
	case 0:
		return 0;
	case -2:
		return 1;
	default:
		return -1;
	}
}

#else

int vendor_events_have_libpfm(void)
{
	return 0;
}

int vendor_events_resolve(const char *name, struct event_req *e, char *err, size_t errlen)
{
	(void)name;
	(void)e;
	snprintf(err, errlen, "x86 vendor event names need libpfm4, which this bmprof was built "
		 "without: install libpfm4-dev (scripts/deps.sh) and rebuild");
	return 1;
}

#endif
