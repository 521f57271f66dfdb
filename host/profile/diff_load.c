/* SPDX-License-Identifier: BSD-2-Clause */
/* Profiles as buckets (diff_load.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/diff_load.h"
#include "profile/db.h"
#include "profile/profile_io.h"
#include "symbol/symname.h"
#include "util/util.h"

char *run_key(const struct flat_row *r, enum flat_sort sort)
{
	char buf[1024], safe[1024];
	const char *mod = r->module ? r->module : "", *bang = r->module ? "!" : "";

	if (r->outside && r->region_hi && !r->symbol)
		snprintf(buf, sizeof buf, "[%s 0x%" PRIx64 "-0x%" PRIx64 "]",
			 r->module ? r->module : "firmware", r->region_lo, r->region_hi - 1);
	else if (sort == FLAT_BY_LINE)
		if (r->file)
			snprintf(buf, sizeof buf, "%s:%u", resolve_short_path(r->file), r->line);
		else
			snprintf(buf, sizeof buf, "%s%s%s:??", mod, bang,
				 r->function ? r->function : r->symbol ? r->symbol : "[unknown]");
	else if (!r->symbol)
		snprintf(buf, sizeof buf, "[unknown]");
	else if (sort == FLAT_BY_ADDRESS)
		snprintf(buf, sizeof buf, "%s%s%s+0x%" PRIx64, mod, bang, r->symbol, r->offset);
	else   /* a function and its compiler clones are one bucket */
		snprintf(buf, sizeof buf, "%s%s%.*s", mod, bang, (int)symname_base_len(r->symbol),
			 r->symbol);
	/* names and paths from the ELF and the firmware's modules, printed as keys */
	return bm_strdup(bm_safe(safe, sizeof safe, buf));
}

/* in enum flat_sort's order */
const char *const run_by_names[] = { "function|func|sym", "line|srcline", "address|addr",
				     NULL };

int run_db_dir_cb(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	db_set_dir(arg);
	return 0;
}

static int is_clone(const struct flat_row *r, enum flat_sort sort)
{
	return sort == FLAT_BY_FUNCTION && r->symbol && !(r->outside && r->region_hi) &&
	       r->symbol[symname_base_len(r->symbol)];
}

struct key_at {
	const char *key;
	size_t i;
};

static int cmp_key_at(const void *pa, const void *pb)
{
	const struct key_at *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* One bucket per key: a clone's row added to the first row of its key, in row order. */
static void fold_keys(struct loaded_run *lr)
{
	struct key_at *k = bm_calloc(lr->n ? lr->n : 1, sizeof *k);
	size_t n = 0;

	for (size_t i = 0; i < lr->n; i++)
		k[i] = (struct key_at){ lr->keys[i], i };
	qsort(k, lr->n, sizeof *k, cmp_key_at);
	for (size_t a = 0, b; a < lr->n; a = b)
		for (b = a + 1; b < lr->n && !strcmp(k[a].key, k[b].key); b++) {
			lr->counts[k[a].i] += lr->counts[k[b].i];
			lr->clones[k[a].i] |= lr->clones[k[b].i];
			free(lr->keys[k[b].i]);
			lr->keys[k[b].i] = NULL;
		}
	free(k);
	for (size_t i = 0; i < lr->n; i++)
		if (lr->keys[i]) {
			lr->keys[n] = lr->keys[i];
			lr->counts[n] = lr->counts[i];
			lr->clones[n++] = lr->clones[i];
		}
	lr->n = n;
}

int run_has_clones(const struct loaded_run *lr, const char *key)
{
	for (size_t i = 0; i < lr->n; i++)
		if (!strcmp(lr->keys[i], key))
			return lr->clones[i];
	return 0;
}

int run_load(struct loaded_run *lr, const char *path, const char *elf, const char *event,
	     enum flat_sort sort, char *err, size_t errlen)
{
	int rc;

	memset(lr, 0, sizeof *lr);
	lr->path = bm_strdup(path);
	profile_init(&lr->prof);
	rc = profile_load(path, &lr->prof, lr->warning, sizeof lr->warning);
	if (rc < 0) {
		snprintf(err, errlen, "%s", lr->warning);
		goto fail;
	}
	if (rc == 0)
		lr->warning[0] = 0;
	if (resolve_event(&lr->prof, event, &lr->event, err, errlen) ||
	    resolve_open(&lr->r, &lr->prof, path, elf, err, errlen))
		goto fail;
	if (resolve_pcs(&lr->r, &lr->prof) ||
	    flat_compute(&lr->prof, lr->event, lr->r.info, lr->r.ninfo, sort, &lr->flat)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	lr->n = lr->flat.nrows;
	lr->keys = bm_calloc(lr->n ? lr->n : 1, sizeof *lr->keys);
	lr->counts = bm_calloc(lr->n ? lr->n : 1, sizeof *lr->counts);
	lr->clones = bm_calloc(lr->n ? lr->n : 1, sizeof *lr->clones);
	for (size_t i = 0; i < lr->n; i++) {
		lr->keys[i] = run_key(&lr->flat.rows[i], sort);
		lr->counts[i] = lr->flat.rows[i].samples;
		lr->clones[i] = is_clone(&lr->flat.rows[i], sort);
	}
	fold_keys(lr);
	return 0;
fail:
	run_free(lr);
	return -1;
}

struct bucket_run run_buckets(const struct loaded_run *lr)
{
	struct bucket_run b = { (const char *const *)lr->keys, lr->counts, lr->n, lr->flat.total };
	return b;
}

void run_free(struct loaded_run *lr)
{
	for (size_t i = 0; i < lr->n; i++)
		free(lr->keys[i]);
	free(lr->keys);
	free(lr->counts);
	free(lr->clones);
	flat_free(&lr->flat);
	resolve_close(&lr->r);
	profile_free(&lr->prof);
	free(lr->path);
	memset(lr, 0, sizeof *lr);
}
