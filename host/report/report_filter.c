/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report's filters and grouped orders (report_filter.h). */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_filter.h"
#include "symbol/symname.h"
#include "util/util.h"

static int parse_u64(const char *s, size_t len, int base, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof buf || s[0] == '-' || s[0] == '+')
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*v = strtoull(buf, &end, base);
	return errno || *end || end == buf ? -1 : 0;
}

static int parse_cpus(const char *spec, struct profile_filter *f)
{
	char safe[128];

	for (const char *s = spec;; ) {
		size_t len = strcspn(s, ",");
		uint64_t c;
		if (parse_u64(s, len, 10, &c) || c >= PROFILE_MAX_CPUS) {
			bm_err("report: --cpu takes CPU numbers below %u separated by commas (0,2), "
			       "not '%s'", PROFILE_MAX_CPUS, bm_safe(safe, sizeof safe, spec));
			return -1;
		}
		f->cpus[c / 64] |= (uint64_t)1 << (c % 64);
		if (!s[len])
			break;
		s += len + 1;
	}
	f->by_cpu = 1;
	return 0;
}

static int parse_range(const char *spec, struct profile_filter *f)
{
	const char *dash = strchr(spec, '-');
	char safe[128];

	if (!dash || parse_u64(spec, (size_t)(dash - spec), 16, &f->lo) ||
	    parse_u64(dash + 1, strlen(dash + 1), 16, &f->hi) || f->hi < f->lo) {
		bm_err("report: --addr-range takes LO-HI, runtime addresses in hex with LO <= HI "
		       "(0x6001000-0x6001fff), not '%s'", bm_safe(safe, sizeof safe, spec));
		return -1;
	}
	f->by_addr = 1;
	return 0;
}

int report_filter_parse(const struct report_filter_opts *o, struct profile_filter *f)
{
	memset(f, 0, sizeof *f);
	if (o->cpus && parse_cpus(o->cpus, f))
		return -1;
	if (o->range && parse_range(o->range, f))
		return -1;
	return 0;
}

static void note(struct report *rp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct report *rp, const char *fmt, ...)
{
	va_list ap;

	if (rp->nfilters == sizeof rp->filters / sizeof rp->filters[0])
		return;
	va_start(ap, fmt);
	vsnprintf(rp->filters[rp->nfilters++], sizeof rp->filters[0], fmt, ap);
	va_end(ap);
}

int report_filter_samples(struct report *rp, struct profile *p, const struct profile_filter *f,
			  const struct report_filter_opts *o)
{
	uint64_t before = p->total, seen[PROFILE_MAX_CPUS / 64] = { 0 };
	char safe[256];

	if (!f->by_cpu && !f->by_addr)
		return 0;
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].count && p->samples[i].cpu < PROFILE_MAX_CPUS)
			seen[p->samples[i].cpu / 64] |= (uint64_t)1 << (p->samples[i].cpu % 64);
	for (unsigned c = 0; f->by_cpu && c < PROFILE_MAX_CPUS; c++)
		if ((f->cpus[c / 64] >> (c % 64) & 1) && !(seen[c / 64] >> (c % 64) & 1)) {
			bm_err("report: CPU %u has no samples in %s (bmprof report --sort cpu shows "
			       "which CPUs have)", c, rp->input);
			return -1;
		}
	if (profile_filter_apply(p, f)) {
		bm_err("out of memory");
		return -1;
	}
	if (f->by_addr && !p->total) {
		bm_err("report: no samples at 0x%" PRIx64 "-0x%" PRIx64 " in %s (--addr-range takes "
		       "runtime addresses: bmprof report --sort address shows them)", f->lo, f->hi,
		       rp->input);
		return -1;
	}
	rp->cpus_kept = f->by_cpu;
	if (f->by_cpu)
		note(rp, "--cpu %s", bm_safe(safe, sizeof safe, o->cpus));
	if (f->by_addr)
		note(rp, "--addr-range 0x%" PRIx64 "-0x%" PRIx64, f->lo, f->hi);
	note(rp, "kept %" PRIu64 " of the run's %" PRIu64 " samples (the accounting above is the "
	     "whole run's; percentages below are of the samples kept)", p->total, before);
	return 0;
}

/* Whether name ("f", or a firmware function as "MODULE!f") names the row's function. */
static int names_row(const struct flat_row *r, const char *name)
{
	const char *bang = strchr(name, '!');

	if (bang && bang != name) {
		size_t mlen = (size_t)(bang - name);
		if (!r->module || strlen(r->module) != mlen || strncmp(r->module, name, mlen))
			return 0;
		name = bang + 1;
	}
	return *name && symname_names(r->symbol, name);
}

/* Whether the row's function is one of names ("a,b,c"). */
static int named(const struct flat_row *r, const char *names)
{
	char one[512];

	if (!r->symbol)
		return 0;
	for (const char *s = names;; ) {
		size_t len = strcspn(s, ",");
		snprintf(one, sizeof one, "%.*s", (int)len, s);
		if (len && names_row(r, one))
			return 1;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int report_filter_symbols(struct report *rp, const char *names)
{
	struct flat_result *res = &rp->flat, *ph = &rp->by_phase;
	size_t m = 0;
	uint64_t kept = 0;
	char safe[512];

	for (size_t i = 0; i < res->nrows; i++) {
		if (!named(&res->rows[i], names))
			continue;
		kept += res->rows[i].samples;
		if (ph->nrows)
			ph->rows[m] = ph->rows[i];
		res->rows[m++] = res->rows[i];
	}
	if (!m) {
		bm_err("report: no sampled function is named %s in %s (bmprof report lists them)",
		       bm_safe(safe, sizeof safe, names), rp->input);
		return -1;
	}
	res->nrows = m;
	if (ph->nrows)
		ph->nrows = m;
	note(rp, "--symbols %s: %zu row%s, %" PRIu64 " samples (%.2f%%; percentages are of all "
	     "samples)", bm_safe(safe, sizeof safe, names), m, m == 1 ? "" : "s", kept,
	     res->total ? 100.0 * (double)kept / (double)res->total : 0.0);
	return 0;
}

int report_group_rows(struct report *rp, const struct report_sort *s)
{
	size_t n = rp->flat.nrows;
	size_t *perm;
	int rc = 0;

	if (s->group < 0 || !n)
		return 0;
	perm = malloc(n * sizeof *perm);
	if (!perm || flat_group_order(&rp->flat, (enum flat_group)s->group, perm) ||
	    flat_permute(rp->flat.rows, n, perm) ||
	    (rp->by_phase.nrows && flat_permute(rp->by_phase.rows, n, perm))) {
		bm_err("out of memory");
		rc = -1;
	}
	free(perm);
	return rc;
}
