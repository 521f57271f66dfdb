/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for bmprof diff's and stats' inputs: several profiles loaded and
 * symbolized (run_load through loaded_runs_load), keyed by function, line or address,
 * merged into one bucket matrix, compared (diff_compute with every combining function)
 * and summarized (stats_table_compute); then the verbs on the same files (bmprof diff
 * text and JSON, bmprof stats JSON).
 *
 * Input: byte 0 holds flags: bits 0-1 the key (function, line, address, function), bit 2
 * fixes the frames' CRCs (fixcrc.h), bit 3 symbolizes against the ELF each profile names
 * (image.elf beside it) instead of passing it. The profiles follow, separated by SEP; the
 * first half (at least one) is the base side, the rest the new side (the first again when
 * there is only one). Checked for any input: loading fails with one bmprof message or
 * succeeds; a run's buckets add up to its samples; the matrix's keys are sorted and
 * unique and each run's column adds up to its buckets; shares lie in [0, 100] and a
 * p-value in [0, 1] (or is NaN: not tested); stats' mean lies in [min, max]; the verbs'
 * stderr lines are bmprof messages and their JSON parses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_io.h"
#include "builtin.h"
#include "diff.h"
#include "fixcrc.h"
#include "profile/profile_set.h"

#define SEP "\n=next=\n"
#define MAX_RUNS 6

static char elf[512];

static void check_runs(const struct loaded_runs *lr)
{
	for (size_t i = 0; i < lr->n; i++) {
		const struct loaded_run *r = &lr->runs[i];
		uint64_t sum = 0;

		for (size_t k = 0; k < r->n; k++) {
			CHECK(r->keys[k] && r->keys[k][0]);
			sum += r->counts[k];
		}
		CHECK(sum == r->flat.total && lr->totals[i] == r->flat.total);
	}
}

static void check_matrix(const struct loaded_runs *lr, const struct bucket_matrix *m)
{
	CHECK(m->nruns == lr->n);
	for (size_t k = 1; k < m->nkeys; k++)
		CHECK(strcmp(m->keys[k - 1], m->keys[k]) < 0);
	for (size_t r = 0; r < m->nruns; r++) {
		uint64_t sum = 0;

		for (size_t k = 0; k < m->nkeys; k++)
			sum += m->count[k * m->nruns + r];
		CHECK(sum == lr->totals[r]);
	}
}

static void compare(const struct bucket_matrix *m, const uint64_t *totals, size_t nbase)
{
	static const struct diff_opts opts[] = {
		{ .combine = DIFF_RATIO, .min_count = 1, .alpha = 0.01 },
		{ .combine = DIFF_WDIFF, .w1 = 2, .w2 = 3, .min_count = 0, .alpha = 0.05 },
		{ .combine = DIFF_SATURATION, .l1 = 1, .l2 = 2, .ms = 50, .min_count = 5,
		  .alpha = 0.01 },
		{ .combine = DIFF_SATURATION, .l1 = 1, .l2 = 4, .ms = 80, .power = 1,
		  .alpha = 0.01 },
		{ .combine = DIFF_DELTA, .min_count = 10, .alpha = 0.01 },
	};
	struct diff_result r;
	struct stats_table t;

	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		CHECK(diff_compute(m, totals, nbase, &opts[i], &r) == 0);
		CHECK(r.nrows + r.nfiltered == (nbase && nbase < m->nruns ? m->nkeys : 0));
		for (size_t k = 0; k < r.nrows; k++) {
			const struct diff_row *d = &r.rows[k];

			CHECK(d->share1 >= 0 && d->share1 <= 100 && d->share2 >= 0 &&
			      d->share2 <= 100 + 1e-9);
			CHECK(!isnan(d->delta) && !isnan(d->m1) && !isnan(d->m2));
			CHECK(isnan(d->p) || (d->p >= 0 && d->p <= 1));
		}
		diff_free(&r);
	}
	CHECK(stats_table_compute(m, 1, &t) == 0);
	for (size_t k = 0; k < t.nrows; k++) {
		const struct stats_summary *s = &t.rows[k].s;

		CHECK(s->n == m->nruns && s->min <= s->mean + 1e-9 && s->mean <= s->max + 1e-9);
		CHECK(!isnan(s->sd) && !isnan(s->range));
	}
	stats_table_free(&t);
}

/* bmprof VERB args..., captured and checked. */
static void verb(int (*fn)(int, char **), char **args, int argc, int max_rc, int json)
{
	char *argv[2 * MAX_RUNS + 8];
	struct fuzz_capture c;
	int rc;

	memcpy(argv, args, (size_t)argc * sizeof *argv);
	argv[argc] = NULL;
	fuzz_capture_begin(&c);
	rc = fn(argc, argv);
	fuzz_capture_end(&c);
	CHECK(rc >= 0 && rc <= max_rc);
	fuzz_check_messages(c.ebuf, c.elen);
	CHECK(rc == 0 || c.elen);
	if (!rc && json)
		CHECK(fuzz_valid_json(c.obuf, c.olen));
	else if (!rc)
		fuzz_check_text(argv[0], c.obuf, c.olen);
	fuzz_capture_free(&c);
}

static void verbs(char paths[][512], size_t n, size_t nbase)
{
	char words[8][32] = { "diff", "--all", "--min-count", "1", "--json", "--", "stats" };
	char *a[2 * MAX_RUNS + 8];
	int k = 0;

	a[k++] = words[0];
	a[k++] = words[1];
	a[k++] = words[2];
	a[k++] = words[3];
	for (size_t i = 0; i < nbase; i++)
		a[k++] = paths[i];
	a[k++] = words[5];
	for (size_t i = nbase; i < n; i++)
		a[k++] = paths[i];
	if (n == 1)
		a[k++] = paths[0];
	verb(cmd_diff, a, k, 3, 0);
	memmove(a + 2, a + 1, (size_t)(k - 1) * sizeof *a);
	a[1] = words[4];
	verb(cmd_diff, a, k + 1, 3, 1);

	k = 0;
	a[k++] = words[6];
	a[k++] = words[4];
	a[k++] = words[2];
	a[k++] = words[3];
	for (size_t i = 0; i < n; i++)
		a[k++] = paths[i];
	verb(cmd_stats, a, k, 1, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum flat_sort sorts[4] = { FLAT_BY_FUNCTION, FLAT_BY_LINE, FLAT_BY_ADDRESS,
						 FLAT_BY_FUNCTION };
	static char paths[MAX_RUNS][512];
	struct profile_set a = { 0 }, b = { 0 };
	struct loaded_runs lr;
	struct bucket_matrix m;
	struct fuzz_capture c;
	uint8_t *buf;
	size_t n = 0, nbase, at = 1;
	int rc;

	if (!elf[0]) {
		fuzz_data_copy("image-x86_64.elf", "image.elf", elf, sizeof elf);
		for (int i = 0; i < MAX_RUNS; i++) {
			char name[16];

			snprintf(name, sizeof name, "run%d.data", i);
			fuzz_path(paths[i], sizeof paths[i], name);
		}
	}
	if (!size)
		return 0;
	buf = malloc(size);
	CHECK(buf);
	memcpy(buf, data, size);
	while (n < MAX_RUNS) {
		uint8_t *end = memmem(buf + at, size - at, SEP, strlen(SEP));
		size_t len = end ? (size_t)(end - buf) - at : size - at;

		if (buf[0] & 4)
			fix_crcs(buf + at, len);
		fuzz_write(paths[n++], buf + at, len);
		if (!end)
			break;
		at += len + strlen(SEP);
	}
	nbase = n > 1 ? n / 2 : 1;
	for (size_t i = 0; i < n; i++)
		profile_set_add_args(i < nbase ? &a : &b, (char *[]){ paths[i] }, 1);
	if (n == 1)
		profile_set_add_args(&b, (char *[]){ paths[0] }, 1);

	fuzz_capture_begin(&c);
	rc = loaded_runs_load(&lr, &a, &b, buf[0] & 8 ? NULL : elf, NULL, sorts[buf[0] & 3]);
	if (!rc)
		rc = loaded_runs_merge(&lr, &m);
	fuzz_capture_end(&c);
	fuzz_check_messages(c.ebuf, c.elen);
	if (!rc) {
		check_runs(&lr);
		check_matrix(&lr, &m);
		compare(&m, lr.totals, a.n);
		bucket_matrix_free(&m);
	} else {
		CHECK(c.elen);
	}
	fuzz_capture_free(&c);
	loaded_runs_free(&lr);
	profile_set_free(&a);
	profile_set_free(&b);
	verbs(paths, n, nbase);
	free(buf);
	return 0;
}
