/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof db: the profile database (host/profile/db.h). docs/bmprof-db.md is its manual. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "profile/db.h"
#include "profile/diff_load.h"
#include "profile/profile_io.h"
#include "util/options.h"
#include "util/util.h"

static const char description[] =
	"A database of profiles in directory DIR (--db, or $BMPROF_DB): each profile added is "
	"copied in with its metadata (build-id, image, machine, accelerator, CPU, time), its "
	"tags and its samples per function, in the current epoch. bmprof diff and bmprof stats "
	"take db:QUERY for the profiles a query selects.";

static const char tail[] =
	"A QUERY is KEY=VALUE[,KEY=VALUE...]; KEY: a tag (commit, or a --tag key), id, epoch,\n"
	"build_id, image, machine, accel, cpu, arch; tag=VALUE: any tag with that value;\n"
	"epoch=current; last=N: the newest N that match.\n"
	"e.g. bmprof diff db:commit=abc123 db:commit=def456\n";

/* What the command line said. */
struct db_cli {
	const char *dir, *elf, *note;
	struct db_tag *tags;       /* room for one per argument */
	size_t ntags;
};

static const char *arch_name(uint8_t a)
{
	return a == BMPROF_ARCH_X86_64 ? "x86_64" : a == BMPROF_ARCH_AARCH64 ? "aarch64" :
	       a == BMPROF_ARCH_CORTEX_M ? "cortex-m" :
	       a == BMPROF_ARCH_RISCV64 ? "riscv64" : NULL;
}

static int parse_id(const char *s, int64_t *id)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || *end || v < 1) {
		bm_err("db: '%s' is not a profile id (bmprof db ls lists them)", s);
		return -1;
	}
	*id = v;
	return 0;
}

static int add_one(struct db *db, const char *path, const char *elf, const struct db_tag *tags,
		   size_t ntags)
{
	struct loaded_run lr;
	struct profile p;
	struct db_profile_meta m = { 0 };
	char err[1024], id[2 * BMPROF_BUILD_ID_MAX + 1] = "", cpu[128] = "";
	int64_t pid, epoch;
	int rc, have_rows;

	profile_init(&p);
	if (profile_load(path, &p, err, sizeof err) < 0) {
		bm_err("%s", err);
		profile_free(&p);
		return -1;
	}
	if (p.hello.build_id_len)
		bm_hex(id, sizeof id, p.hello.build_id, p.hello.build_id_len);
	if (p.have_hello)
		snprintf(cpu, sizeof cpu, "%s family %" PRIu32 " model 0x%" PRIx32 " stepping %" PRIu32,
			 p.hello.vendor[0] ? p.hello.vendor : "unknown", p.hello.family, p.hello.model,
			 p.hello.stepping);
	m.build_id = id[0] ? id : NULL;
	m.cpu = cpu[0] ? cpu : NULL;
	m.arch = p.have_hello ? arch_name(p.hello.arch) : NULL;
	m.image = profile_meta(&p, "elf");
	m.machine = profile_meta(&p, "host");
	m.accel = profile_meta(&p, "accel");
	m.recorded = profile_meta(&p, "date");
	m.samples = p.total;
	have_rows = !run_load(&lr, path, elf, NULL, FLAT_BY_FUNCTION, err, sizeof err);
	if (!have_rows)
		fprintf(stderr, "bmprof: warning: %s: stored without per-function rows or its ELF "
			"(%s)\n", path, err);
	else if (lr.r.build_id_checked)
		m.elf = lr.r.elf;
	rc = db_add(db, path, &m, tags, ntags, have_rows ? (const char *const *)lr.keys : NULL,
		    have_rows ? lr.counts : NULL, have_rows ? lr.n : 0, &pid, err, sizeof err);
	if (have_rows)
		run_free(&lr);
	profile_free(&p);
	if (rc) {
		bm_err("%s", err);
		return -1;
	}
	if (!db_epoch_current(db, &epoch, err, sizeof err))
		printf("added %s as profile %" PRId64 " (epoch %" PRId64 ")\n", path, pid, epoch);
	return 0;
}

/* --tag [KEY=]VALUE, --commit C (o->value: the struct db_cli) */
static int tag(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct db_cli *d = o->value;
	char *eq = strchr(arg, '=');

	if (!strcmp(o->long_name, "commit")) {
		d->tags[d->ntags++] = (struct db_tag){ "commit", arg };
		return 0;
	}
	if (eq == arg || !*arg) {
		bm_err("db add: --tag takes KEY=VALUE or VALUE, not '%s'", arg);
		return -1;
	}
	if (!eq) {      /* a bare VALUE is the tag "tag" */
		d->tags[d->ntags++] = (struct db_tag){ "tag", arg };
		return 0;
	}
	*eq = 0;        /* one of argv's strings */
	d->tags[d->ntags++] = (struct db_tag){ arg, eq + 1 };
	return 0;
}

static int add_profiles(struct db *db, const struct db_cli *d, const struct opt_args *a)
{
	if (!a->n) {
		bm_err("db add: name the profile files to add");
		return 2;
	}
	for (int i = 0; i < a->n; i++)
		if (add_one(db, a->v[i], d->elf, d->tags, d->ntags))
			return 1;
	return 0;
}

static int list(struct db *db, const struct opt_args *a)
{
	int64_t *ids = NULL;
	char err[1024];
	size_t n;
	int rc = 1;

	if (a->n > 1) {
		bm_err("db ls: one query at most");
		rc = 2;
	} else if (db_select(db, a->n ? a->v[0] : "", &ids, &n, err, sizeof err) ||
		   db_print_list(db, ids, n, err, sizeof err)) {
		bm_err("%s", err);
	} else {
		rc = 0;
	}
	free(ids);
	return rc;
}

static int show(struct db *db, const struct opt_args *a)
{
	char err[1024];
	int64_t id;
	int r;

	if (a->n != 1) {
		bm_err("db show: name one profile id");
		return 2;
	}
	if (parse_id(a->v[0], &id))
		return 1;
	r = db_print_one(db, id, err, sizeof err);
	if (r < 0)
		bm_err("%s", err);
	else if (r > 0)
		bm_err("db show: no profile %" PRId64 " (bmprof db ls lists them)", id);
	return r ? 1 : 0;
}

static int remove_ids(struct db *db, const struct opt_args *a)
{
	char err[1024];
	int rc = a->n < 1 ? 2 : 0;

	if (rc)
		bm_err("db rm: name the profile ids to remove");
	for (int k = 0; k < a->n && !rc; k++) {
		int64_t id;
		int r;

		if (parse_id(a->v[k], &id)) {
			rc = 2;
		} else if ((r = db_remove(db, id, err, sizeof err)) < 0) {
			bm_err("%s", err);
			rc = 1;
		} else if (r == 0 && err[0]) {
			bm_err("%s", err);
		} else if (r > 0) {
			bm_err("db rm: no profile %" PRId64 " (bmprof db ls lists them)", id);
			rc = 1;
		}
	}
	return rc;
}

static int epoch(struct db *db, const struct db_cli *d, const char *sub)
{
	char err[1024];
	int64_t e;

	if (!strcmp(sub, "db epoch ls"))
		return db_print_epochs(db, err, sizeof err) ? (bm_err("%s", err), 1) : 0;
	if (db_epoch_new(db, d->note, &e, err, sizeof err)) {
		bm_err("%s", err);
		return 1;
	}
	printf("epoch %" PRId64 " started: profiles added go to it\n", e);
	return 0;
}

/* The subcommand a names, on db. */
static int run(struct db *db, const struct db_cli *d, const struct opt_args *a)
{
	const char *sub = a->sub->name;

	if (a->dash_given || (a->n && strstr(sub, "epoch"))) {
		bm_err("%s: unexpected argument '%s' (bmprof %s --help)", sub,
		       a->n ? a->v[0] : "--", sub);
		return 2;
	}
	if (!strcmp(sub, "db init")) {
		printf("profile database in %s\n", db_dir(d->dir));
		return 0;
	}
	if (!strcmp(sub, "db add"))
		return add_profiles(db, d, a);
	if (!strcmp(sub, "db ls"))
		return list(db, a);
	if (!strcmp(sub, "db show"))
		return show(db, a);
	if (!strcmp(sub, "db rm"))
		return remove_ids(db, a);
	return epoch(db, d, sub);
}

int cmd_db(int argc, char **argv)
{
	struct db_tag tags[argc > 0 ? argc : 1];
	struct db_cli d = { .tags = tags };
	const struct opt db_opts[] = {
		OPT_STRING(0, "db", &d.dir, "DIR", "the database (default $BMPROF_DB)"),
		OPT_END(),
	};
	const struct opt add_opts[] = {
		OPT_CALLBACK(0, "commit", &d, "C", "tag the profiles commit=C", tag),
		OPT_CALLBACK_F(0, "tag", &d, "[KEY=]VALUE", "tag the profiles KEY=VALUE (a bare "
			       "VALUE: tag=VALUE); repeatable", tag, OPT_MULTI),
		OPT_STRING(0, "elf", &d.elf, "ELF", "the image's ELF (default: the one each "
			   "profile names)"),
		OPT_END(),
	};
	const struct opt new_opts[] = {
		OPT_STRING(0, "note", &d.note, "TEXT", "a note on the epoch"),
		OPT_END(),
	};
	const struct opt none[] = { OPT_END() };
	const struct opt_cmd epoch_subs[] = {
		{ .name = "db epoch new", .opts = new_opts },
		{ .name = "db epoch ls", .opts = none },
		{ 0 },
	};
	const struct opt_cmd subs[] = {
		{ .name = "db init", .opts = none },
		{ .name = "db add", .args = "PROFILE...", .opts = add_opts },
		{ .name = "db ls", .args = "[QUERY]", .opts = none },
		{ .name = "db show", .args = "ID", .opts = none },
		{ .name = "db rm", .args = "ID...", .opts = none },
		{ .name = "db epoch", .opts = none, .subs = epoch_subs },
		{ 0 },
	};
	const struct opt_cmd cmd = { .name = "db", .opts = db_opts, .subs = subs,
				     .description = description, .tail = tail };
	struct opt_args a;
	char err[1024];
	struct db *db;
	int rc = opt_parse(&cmd, argc, argv, &a);

	if (rc >= 0)
		return rc;
	if ((db = db_open(d.dir, a.sub == &subs[0], err, sizeof err))) {
		rc = run(db, &d, &a);
		db_close(db);
	} else {
		bm_err("%s", err);
		rc = 1;
	}
	opt_args_free(&a);
	return rc;
}
