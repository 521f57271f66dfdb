/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile database (db.h), on SQLite. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "profile/db.h"
#include "util/outfile.h"
#include "util/util.h"

#define BUSY_TIMEOUT_MS 60000
#define SCHEMA_VERSION "1"
/* A database is a file a user hands over. What one operation (an add, a query, a listing)
 * may cost, whatever the file holds: SQLite virtual-machine steps (counted every
 * STEP_CHECK; 5e8 is far beyond what bmprof's queries take on a million profiles), and the
 * length of any one value. */
#define STEP_CHECK 10000
#define STEP_CHECKS 50000
#define VALUE_MAX (1 << 20)

struct db {
	sqlite3 *h;
	char *dir, *file;
	unsigned long checks;    /* progress-handler calls in this operation */
};

static const char *set_dir;

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS info(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE IF NOT EXISTS epochs(id INTEGER PRIMARY KEY, created TEXT, note TEXT);"
	"CREATE TABLE IF NOT EXISTS profiles(id INTEGER PRIMARY KEY, epoch INTEGER NOT NULL,"
	" file TEXT, source TEXT, added TEXT, recorded TEXT, build_id TEXT, image TEXT,"
	" machine TEXT, accel TEXT, cpu TEXT, arch TEXT, samples INTEGER, elf TEXT);"
	"CREATE TABLE IF NOT EXISTS tags(profile INTEGER, key TEXT, value TEXT,"
	" PRIMARY KEY(profile, key));"
	"CREATE TABLE IF NOT EXISTS functions(profile INTEGER, name TEXT, samples INTEGER);"
	"CREATE INDEX IF NOT EXISTS tags_kv ON tags(key, value);"
	"CREATE INDEX IF NOT EXISTS functions_profile ON functions(profile);"
	"INSERT OR IGNORE INTO info VALUES('schema', '" SCHEMA_VERSION "');"
	"INSERT OR IGNORE INTO epochs(id, created, note) VALUES(1, datetime('now'), 'first');";

const char *db_dir(const char *dir)
{
	const char *e;

	if (dir && *dir)
		return dir;
	if (set_dir && *set_dir)
		return set_dir;
	e = getenv(DB_ENV);
	return e && *e ? e : NULL;
}

void db_set_dir(const char *dir)
{
	set_dir = dir;
}

/* The one-line error for a failed SQLite call: corruption says what to do. */
static int sqlerr(struct db *db, int rc, const char *what, char *err, size_t errlen)
{
	rc &= 0xff;
	if (rc == SQLITE_INTERRUPT)
		snprintf(err, errlen, "%s: its queries run past %d million steps: the database is "
			 "damaged or not bmprof's: move it aside and run bmprof db init --db %s",
			 db->file, STEP_CHECK * STEP_CHECKS / 1000000, db->dir);
	else if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
		snprintf(err, errlen, "%s: not a usable profile database (%s): move it aside and "
			 "run bmprof db init --db %s, or restore it from a backup", db->file,
			 sqlite3_errstr(rc), db->dir);
	else
		snprintf(err, errlen, "%s: %s: %s", db->file, what, sqlite3_errmsg(db->h));
	return -1;
}

static int exec(struct db *db, const char *sql, char *err, size_t errlen)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : sqlerr(db, rc, sql, err, errlen);
}

static int over_budget(void *ctx)
{
	struct db *db = ctx;

	return ++db->checks > STEP_CHECKS;
}

/* An operation starts: its steps are counted from here. */
static void budget(struct db *db)
{
	db->checks = 0;
}

/* SQLite's own defences for a file from elsewhere (besides schema_is_ours): no schema-stored
 * code runs (triggers, views, functions with side effects), no write corrupts the file, and
 * the bounds above. */
static void harden(struct db *db)
{
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, VALUE_MAX);
	sqlite3_progress_handler(db->h, STEP_CHECK, over_budget, db);
}

/* Every object of the file's schema is one of bmprof's, as SQLite stores them (taken from
 * the schema made in memory): a view, a trigger, a generated column or an index expression
 * in a handed-over file is someone else's, and could make a query do anything. 0, or -1
 * with err. */
static int schema_is_ours(struct db *db, char *err, size_t errlen)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *mine = NULL, *theirs = NULL;
	int rc = -1, st;

	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(ref, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(ref, "SELECT 1 FROM sqlite_master WHERE type IS ?1 AND name IS ?2 "
			       "AND tbl_name IS ?3 AND sql IS ?4", -1, &mine, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot check its schema: out of memory", db->file);
		goto out;
	}
	st = sqlite3_prepare_v2(db->h, "SELECT type, name, tbl_name, sql FROM sqlite_master", -1,
				&theirs, NULL);
	if (st != SQLITE_OK) {
		sqlerr(db, st, "read", err, errlen);
		goto out;
	}
	while ((st = sqlite3_step(theirs)) == SQLITE_ROW) {
		sqlite3_reset(mine);
		for (int i = 0; i < 4; i++)
			sqlite3_bind_value(mine, i + 1, sqlite3_column_value(theirs, i));
		if (sqlite3_step(mine) == SQLITE_ROW)
			continue;
		const unsigned char *type = sqlite3_column_text(theirs, 0);
		const unsigned char *name = sqlite3_column_text(theirs, 1);
		snprintf(err, errlen, "%s: not a bmprof profile database: its %s '%s' is not one "
			 "bmprof makes: move it aside and run bmprof db init --db %s", db->file,
			 type ? (const char *)type : "object", name ? (const char *)name : "",
			 db->dir);
		goto out;
	}
	if (st != SQLITE_DONE) {
		sqlerr(db, st, "read", err, errlen);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(mine);
	sqlite3_finalize(theirs);
	sqlite3_close(ref);
	return rc;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db->dir);
	free(db->file);
	free(db);
}

struct db *db_open(const char *dir, int create, char *err, size_t errlen)
{
	const char *d = db_dir(dir);
	struct db *db;
	struct stat st;
	char sub[4096];

	if (!d) {
		snprintf(err, errlen, "no profile database named: give --db DIR or set %s", DB_ENV);
		return NULL;
	}
	db = bm_calloc(1, sizeof *db);
	db->dir = bm_strdup(d);
	db->file = bm_malloc(strlen(d) + sizeof DB_FILE + 1);
	sprintf(db->file, "%s/%s", d, DB_FILE);
	snprintf(sub, sizeof sub, "%s/profiles", d);
	if (create) {
		char img[4096];
		snprintf(img, sizeof img, "%s/images", d);
		if ((mkdir(d, 0777) && errno != EEXIST) || (mkdir(sub, 0777) && errno != EEXIST) ||
		    (mkdir(img, 0777) && errno != EEXIST)) {
			snprintf(err, errlen, "%s: cannot create the database directory: %s", d,
				 strerror(errno));
			goto fail;
		}
	} else if (stat(db->file, &st)) {
		snprintf(err, errlen, "%s: no profile database here (bmprof db init --db %s "
			 "creates one)", db->file, d);
		goto fail;
	}
	int rc = sqlite3_open_v2(db->file, &db->h, SQLITE_OPEN_READWRITE |
				 (create ? SQLITE_OPEN_CREATE : 0), NULL);
	if (rc != SQLITE_OK) {
		if (db->h)
			sqlerr(db, rc, "open", err, errlen);
		else
			snprintf(err, errlen, "%s: cannot open: %s", db->file, sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(db->h, BUSY_TIMEOUT_MS);
	harden(db);
	/* the first read finds a damaged file */
	if (exec(db, "SELECT count(*) FROM sqlite_master", err, errlen) ||
	    schema_is_ours(db, err, errlen))
		goto fail;
	/* times as SQLite's date functions read them: +HH:MM, where older adds wrote +HHMM */
	if (!create && exec(db, "UPDATE profiles SET recorded = substr(recorded, 1, 22) || ':' || "
			    "substr(recorded, 23) WHERE length(recorded) = 24 AND substr(recorded, "
			    "11, 1) = 'T' AND substr(recorded, 20, 1) IN ('+', '-') AND "
			    "substr(recorded, 21) GLOB '[0-9][0-9][0-9][0-9]'", err, errlen))
		goto fail;
	if (create && exec(db, "BEGIN IMMEDIATE", err, errlen))
		goto fail;
	if (create && (exec(db, schema, err, errlen) || exec(db, "COMMIT", err, errlen)))
		goto fail;
	if (!create) {
		sqlite3_stmt *s;
		rc = sqlite3_prepare_v2(db->h, "SELECT value FROM info WHERE key = 'schema'", -1,
					&s, NULL);
		if (rc != SQLITE_OK) {
			if ((rc & 0xff) == SQLITE_ERROR)
				snprintf(err, errlen, "%s: not a bmprof profile database (no schema): "
					 "move it aside and run bmprof db init --db %s", db->file,
					 db->dir);
			else
				sqlerr(db, rc, "read", err, errlen);
			goto fail;
		}
		sqlite3_finalize(s);
	}
	return db;
fail:
	db_close(db);
	return NULL;
}

static int prepare(struct db *db, const char *sql, sqlite3_stmt **s, char *err, size_t errlen)
{
	int rc = sqlite3_prepare_v2(db->h, sql, -1, s, NULL);
	return rc == SQLITE_OK ? 0 : sqlerr(db, rc, "prepare", err, errlen);
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static int step_done(struct db *db, sqlite3_stmt *s, char *err, size_t errlen)
{
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : sqlerr(db, rc, "write", err, errlen);
}

int db_epoch_current(struct db *db, int64_t *epoch, char *err, size_t errlen)
{
	sqlite3_stmt *s;

	budget(db);

	if (prepare(db, "SELECT max(id) FROM epochs", &s, err, errlen))
		return -1;
	int rc = sqlite3_step(s);
	*epoch = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 1;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : sqlerr(db, rc, "read", err, errlen);
}

int db_epoch_new(struct db *db, const char *note, int64_t *epoch, char *err, size_t errlen)
{
	sqlite3_stmt *s;

	budget(db);

	if (exec(db, "BEGIN IMMEDIATE", err, errlen))
		return -1;
	if (prepare(db, "INSERT INTO epochs(created, note) VALUES(datetime('now'), ?)", &s, err,
		    errlen))
		goto fail;
	bind_text(s, 1, note);
	if (step_done(db, s, err, errlen))
		goto fail;
	*epoch = sqlite3_last_insert_rowid(db->h);
	return exec(db, "COMMIT", err, errlen);
fail:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Copy src (a regular file) to dst, whole or not at all. */
static int copy_file(const char *src, const char *dst, char *err, size_t errlen)
{
	char buf[65536];
	FILE *in = bm_fopen_regular(src, "a file to store", err, errlen);
	struct outfile out;
	size_t n;
	int ok = 1;

	if (!in)
		return -1;
	if (outfile_open(&out, dst, err, errlen)) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		ok &= fwrite(buf, 1, n, out.f) == n;
	ok &= !ferror(in);
	fclose(in);
	if (!ok) {
		snprintf(err, errlen, "%s: cannot copy it in: %s", dst, strerror(errno));
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out, err, errlen);
}

static char *stored_path(const struct db *db, const char *file)
{
	char *p = bm_malloc(strlen(db->dir) + strlen(file) + 16);
	sprintf(p, "%s/profiles/%s", db->dir, file);
	return p;
}

/* images/BUILDID.elf: the ELF, copied in once per build-id. 0 with *name (malloc'd, the
 * path under the directory), or -1 with err. */
static int store_elf(struct db *db, const char *elf, const char *build_id, char **name,
		     char *err, size_t errlen)
{
	char dst[4200], dir[4200];
	struct stat st;

	*name = bm_malloc(strlen(build_id) + 16);
	sprintf(*name, "images/%s.elf", build_id);
	snprintf(dir, sizeof dir, "%s/images", db->dir);
	snprintf(dst, sizeof dst, "%s/%s", db->dir, *name);
	if (!stat(dst, &st))
		return 0;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
		goto fail;
	}
	if (copy_file(elf, dst, err, errlen))
		goto fail;
	return 0;
fail:
	free(*name);
	*name = NULL;
	return -1;
}

/* A profile's date ("2026-11-26T08:21:42+0000", strftime's %z) as SQLite's date functions
 * read it ("...+00:00"); other text as it is, NULL as NULL. */
static const char *iso_time(char *buf, size_t n, const char *t)
{
	size_t len = t ? strlen(t) : 0;

	if (len != 24 || (t[19] != '+' && t[19] != '-') || strspn(t + 20, "0123456789") != 4)
		return t;
	snprintf(buf, n, "%.22s:%s", t, t + 22);
	return buf;
}

int db_add(struct db *db, const char *path, const struct db_profile_meta *m,
	   const struct db_tag *tags, size_t ntags, const char *const *functions,
	   const uint64_t *counts, size_t nfunctions, int64_t *id, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int64_t epoch;
	char file[64], *dst = NULL, abspath[4096], recorded[40];

	budget(db);
	if (exec(db, "BEGIN IMMEDIATE", err, errlen))
		return -1;
	if (db_epoch_current(db, &epoch, err, errlen) ||
	    prepare(db, "INSERT INTO profiles(epoch, source, added, recorded, build_id, image, "
		    "machine, accel, cpu, arch, samples) VALUES(?, ?, strftime('%Y-%m-%dT%H:%M:%SZ',"
		    " 'now'), ?, ?, ?, ?, ?, ?, ?, ?)", &s, err, errlen))
		goto fail;
	sqlite3_bind_int64(s, 1, epoch);
	bind_text(s, 2, realpath(path, abspath) ? abspath : path);
	bind_text(s, 3, iso_time(recorded, sizeof recorded, m->recorded));
	bind_text(s, 4, m->build_id);
	bind_text(s, 5, m->image);
	bind_text(s, 6, m->machine);
	bind_text(s, 7, m->accel);
	bind_text(s, 8, m->cpu);
	bind_text(s, 9, m->arch);
	sqlite3_bind_int64(s, 10, (sqlite3_int64)m->samples);
	if (step_done(db, s, err, errlen))
		goto fail;
	*id = sqlite3_last_insert_rowid(db->h);
	snprintf(file, sizeof file, "%" PRId64 ".data", *id);
	if (prepare(db, "UPDATE profiles SET file = ? WHERE id = ?", &s, err, errlen))
		goto fail;
	bind_text(s, 1, file);
	sqlite3_bind_int64(s, 2, *id);
	if (step_done(db, s, err, errlen))
		goto fail;
	for (size_t i = 0; i < ntags; i++) {
		if (prepare(db, "INSERT OR REPLACE INTO tags VALUES(?, ?, ?)", &s, err, errlen))
			goto fail;
		sqlite3_bind_int64(s, 1, *id);
		bind_text(s, 2, tags[i].key);
		bind_text(s, 3, tags[i].value);
		if (step_done(db, s, err, errlen))
			goto fail;
	}
	if (nfunctions && prepare(db, "INSERT INTO functions VALUES(?, ?, ?)", &s, err, errlen))
		goto fail;
	for (size_t i = 0; i < nfunctions; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, *id);
		bind_text(s, 2, functions[i]);
		sqlite3_bind_int64(s, 3, (sqlite3_int64)counts[i]);
		int rc = sqlite3_step(s);
		if (rc != SQLITE_DONE) {
			sqlite3_finalize(s);
			sqlerr(db, rc, "write", err, errlen);
			goto fail;
		}
	}
	if (nfunctions)
		sqlite3_finalize(s);
	/* the copies last, so a failed copy rolls the rows back; the commit makes them visible */
	if (m->elf && m->build_id) {
		char *name;
		if (store_elf(db, m->elf, m->build_id, &name, err, errlen) ||
		    prepare(db, "UPDATE profiles SET elf = ? WHERE id = ?", &s, err, errlen)) {
			free(name);
			goto fail;
		}
		bind_text(s, 1, name);
		sqlite3_bind_int64(s, 2, *id);
		free(name);
		if (step_done(db, s, err, errlen))
			goto fail;
	}
	dst = stored_path(db, file);
	if (copy_file(path, dst, err, errlen))
		goto fail;
	if (exec(db, "COMMIT", err, errlen)) {
		unlink(dst);
		goto fail;
	}
	free(dst);
	return 0;
fail:
	free(dst);
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static const char *const columns[] = { "id", "epoch", "build_id", "image", "machine", "accel",
				       "cpu", "arch" };

static int is_column(const char *k)
{
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (!strcmp(columns[i], k))
			return 1;
	return 0;
}

static int valid_key(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_' || *k == '-' || *k == '.'))
			return 0;
	return 1;
}

int db_select(struct db *db, const char *query, int64_t **ids, size_t *n, char *err,
	      size_t errlen)
{
	char *q = bm_strdup(query ? query : ""), *save = NULL, *tok;
	/* a condition is at most ~110 characters and a token at least "k=v," */
	char *sql = bm_malloc(256 + (strlen(q) + 1) * 64), cur[32];
	const char *vals[64][2];
	size_t nv = 0, cap = 0;
	long long last = -1;
	sqlite3_stmt *s = NULL;
	int rc = -1;

	budget(db);
	*ids = NULL;
	*n = 0;
	strcpy(sql, "SELECT id FROM profiles p WHERE 1");
	for (tok = strtok_r(q, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq || !valid_key((*eq = 0, tok)) || nv == 64) {
			snprintf(err, errlen, "db query '%s': want KEY=VALUE[,KEY=VALUE...] (keys: a tag, tag, "
				 "id, epoch, build_id, image, machine, accel, cpu, arch, last)", query);
			goto out;
		}
		const char *v = eq + 1;
		if (!strcmp(tok, "last")) {
			char *end;
			last = strtoll(v, &end, 10);
			if (end == v || *end || last < 0) {
				snprintf(err, errlen, "db query '%s': last= takes a count", query);
				goto out;
			}
			continue;
		}
		if (!strcmp(tok, "epoch") && !strcmp(v, "current")) {
			int64_t e;
			if (db_epoch_current(db, &e, err, errlen))
				goto out;
			snprintf(cur, sizeof cur, "%" PRId64, e);
			v = cur;
		}
		if (is_column(tok)) {
			sprintf(sql + strlen(sql), " AND CAST(p.%s AS TEXT) = ?", tok);
			vals[nv][0] = NULL;
		} else if (!strcmp(tok, "tag")) {   /* any tag with this value */
			strcat(sql, " AND EXISTS (SELECT 1 FROM tags t WHERE t.profile = p.id AND "
			       "t.value = ?)");
			vals[nv][0] = NULL;
		} else {
			strcat(sql, " AND EXISTS (SELECT 1 FROM tags t WHERE t.profile = p.id AND "
			       "t.key = ? AND t.value = ?)");
			vals[nv][0] = tok;
		}
		vals[nv++][1] = v;
	}
	strcat(sql, " ORDER BY id DESC LIMIT ?");
	if (prepare(db, sql, &s, err, errlen))
		goto out;
	int b = 1;
	for (size_t i = 0; i < nv; i++) {
		if (vals[i][0])
			bind_text(s, b++, vals[i][0]);
		bind_text(s, b++, vals[i][1]);
	}
	sqlite3_bind_int64(s, b, last);
	int st;
	while ((st = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*ids = bm_realloc(*ids, cap * sizeof **ids);
		}
		(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	if (st != SQLITE_DONE) {
		sqlerr(db, st, "read", err, errlen);
		free(*ids);
		*ids = NULL;
		*n = 0;
		goto out;
	}
	for (size_t i = 0; i < *n / 2; i++) {   /* oldest first */
		int64_t t = (*ids)[i];
		(*ids)[i] = (*ids)[*n - 1 - i];
		(*ids)[*n - 1 - i] = t;
	}
	rc = 0;
out:
	sqlite3_finalize(s);
	free(sql);
	free(q);
	return rc;
}

/* A stored name as db_add writes it, nothing else: "ID.data" for a profile, and
 * "images/HEX.elf" for an ELF. A database is a file a user hands over: a name that would
 * lead out of its directory (or anywhere else) is damage, never followed. */
static int stored_name_ok(const char *v, int elf)
{
	const char *p = v;
	size_t n;

	if (elf) {
		if (strncmp(p, "images/", 7))
			return 0;
		p += 7;
		n = strspn(p, "0123456789abcdef");
		return n && n <= 2 * 64 && !strcmp(p + n, ".elf");
	}
	n = strspn(p, "0123456789");
	return n && n <= 20 && !strcmp(p + n, ".data");
}

/* Column col ("file" or "elf") of profile id, checked, as a path under the database
 * directory into *path (malloc'd; NULL for an elf that was never stored). 0; 1 if there is
 * no such profile; -1 with err if the column is missing where it must be, or damaged. */
static int stored_column(struct db *db, int64_t id, const char *col, char **path, char *err,
			 size_t errlen)
{
	sqlite3_stmt *s;
	char sql[64];
	int elf = !strcmp(col, "elf"), rc = 1, st;

	budget(db);

	*path = NULL;
	snprintf(sql, sizeof sql, "SELECT %s FROM profiles WHERE id = ?", col);
	if (prepare(db, sql, &s, err, errlen))
		return -1;
	sqlite3_bind_int64(s, 1, id);
	st = sqlite3_step(s);
	if (st == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(s, 0);

		rc = 0;
		if ((v || !elf) && (!v || !stored_name_ok((const char *)v, elf))) {
			snprintf(err, errlen, "%s: profile %" PRId64 " has %s %s column (the database "
				 "is damaged): remove it with bmprof db rm --db %s %" PRId64, db->file,
				 id, v ? "a bad" : "no", col, db->dir, id);
			rc = -1;
		} else if (v && elf) {
			*path = bm_malloc(strlen(db->dir) + strlen((const char *)v) + 2);
			sprintf(*path, "%s/%s", db->dir, (const char *)v);
		} else if (v) {
			*path = stored_path(db, (const char *)v);
		}
	} else if (st != SQLITE_DONE) {
		sqlerr(db, st, "read", err, errlen);
		rc = -1;
	}
	sqlite3_finalize(s);
	return rc;
}

int db_profile_path(struct db *db, int64_t id, char **path, char *err, size_t errlen)
{
	return stored_column(db, id, "file", path, err, errlen);
}

int db_profile_elf(struct db *db, int64_t id, char **path, char *err, size_t errlen)
{
	return stored_column(db, id, "elf", path, err, errlen);
}

int db_remove(struct db *db, int64_t id, char *err, size_t errlen)
{
	char *path = NULL;
	static const char *const del[] = { "DELETE FROM tags WHERE profile = ?",
					    "DELETE FROM functions WHERE profile = ?",
					    "DELETE FROM profiles WHERE id = ?" };
	sqlite3_stmt *s;
	/* a damaged row is removed all the same; only its file, not known, stays */
	int rc = db_profile_path(db, id, &path, err, errlen);

	budget(db);
	if (rc > 0)
		return 1;
	if (exec(db, "BEGIN IMMEDIATE", err, errlen))
		goto fail;
	for (size_t i = 0; i < 3; i++) {
		if (prepare(db, del[i], &s, err, errlen))
			goto fail;
		sqlite3_bind_int64(s, 1, id);
		if (step_done(db, s, err, errlen))
			goto fail;
	}
	if (exec(db, "COMMIT", err, errlen))
		goto fail;
	if (path)
		unlink(path);
	free(path);
	if (rc == 0)
		err[0] = 0;
	else
		snprintf(err, errlen, "%s: profile %" PRId64 " named no usable file (the database "
			 "was damaged): its rows are removed, no file was deleted", db->file, id);
	return 0;
fail:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	free(path);
	return -1;
}

/* Column i as text for the terminal, "-" for NULL: a database is a file a user hands over,
 * so control bytes are escaped (bm_safe) and a value never spans lines. */
static const char *col(sqlite3_stmt *s, int i, char *buf, size_t n)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? bm_safe(buf, n, (const char *)t) : "-";
}

/* "k=v k=v" of a profile's tags into buf. */
static void tags_text(struct db *db, int64_t id, char *buf, size_t n)
{
	sqlite3_stmt *s;
	size_t used = 0;
	char k[256], v[512];

	buf[0] = 0;
	if (sqlite3_prepare_v2(db->h, "SELECT key, value FROM tags WHERE profile = ? ORDER BY key",
			       -1, &s, NULL))
		return;
	sqlite3_bind_int64(s, 1, id);
	while (sqlite3_step(s) == SQLITE_ROW && used < n) {
		int w = snprintf(buf + used, n - used, "%s%s=%s", used ? " " : "",
				 col(s, 0, k, sizeof k), col(s, 1, v, sizeof v));
		if (w < 0)
			break;
		used += (size_t)w;
	}
	sqlite3_finalize(s);
}

int db_print_list(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	char tags[1024], c[7][128];

	budget(db);
	if (prepare(db, "SELECT id, epoch, added, substr(build_id, 1, 12), samples, machine, "
		    "accel FROM profiles WHERE id = ?", &s, err, errlen))
		return -1;
	printf("%6s %5s  %-20s  %-12s  %9s  %-12s %-5s  %s\n", "id", "epoch", "added", "build-id",
	       "samples", "machine", "accel", "tags");
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, ids[i]);
		if (sqlite3_step(s) != SQLITE_ROW)
			continue;
		tags_text(db, ids[i], tags, sizeof tags);
		printf("%6s %5s  %-20s  %-12s  %9s  %-12s %-5s  %s\n", col(s, 0, c[0], sizeof c[0]),
		       col(s, 1, c[1], sizeof c[1]), col(s, 2, c[2], sizeof c[2]),
		       col(s, 3, c[3], sizeof c[3]), col(s, 4, c[4], sizeof c[4]),
		       col(s, 5, c[5], sizeof c[5]), col(s, 6, c[6], sizeof c[6]), tags);
	}
	sqlite3_finalize(s);
	return 0;
}

int db_print_one(struct db *db, int64_t id, char *err, size_t errlen)
{
	static const char *const names[] = { "id", "epoch", "file", "source", "added", "recorded",
					     "build_id", "image", "machine", "accel", "cpu",
					     "arch", "samples", "elf" };
	sqlite3_stmt *s;
	char tags[4096], c[2][512];

	budget(db);
	if (prepare(db, "SELECT id, epoch, file, source, added, recorded, build_id, image, "
		    "machine, accel, cpu, arch, samples, elf FROM profiles WHERE id = ?", &s, err, errlen))
		return -1;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		return 1;
	}
	for (int i = 0; i < 14; i++) {
		const unsigned char *t = sqlite3_column_text(s, i);

		printf("%-10s ", names[i]);
		if (t)   /* whole, escaped */
			bm_escape(stdout, (const char *)t, (size_t)sqlite3_column_bytes(s, i));
		else
			putchar('-');
		putchar('\n');
	}
	sqlite3_finalize(s);
	tags_text(db, id, tags, sizeof tags);
	printf("%-10s %s\n", "tags", tags);
	if (prepare(db, "SELECT samples, name FROM functions WHERE profile = ? ORDER BY samples "
		    "DESC, name LIMIT 20", &s, err, errlen))
		return -1;
	sqlite3_bind_int64(s, 1, id);
	printf("functions (top 20):\n");
	while (sqlite3_step(s) == SQLITE_ROW)
		printf("  %10s  %s\n", col(s, 0, c[0], sizeof c[0]), col(s, 1, c[1], sizeof c[1]));
	sqlite3_finalize(s);
	return 0;
}

int db_print_epochs(struct db *db, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	char c[4][256];

	budget(db);
	if (prepare(db, "SELECT e.id, e.created, (SELECT count(*) FROM profiles p WHERE p.epoch "
		    "= e.id), e.note FROM epochs e ORDER BY e.id", &s, err, errlen))
		return -1;
	printf("%5s  %-19s  %8s  %s\n", "epoch", "created", "profiles", "note");
	while (sqlite3_step(s) == SQLITE_ROW)
		printf("%5s  %-19s  %8s  %s\n", col(s, 0, c[0], sizeof c[0]),
		       col(s, 1, c[1], sizeof c[1]), col(s, 2, c[2], sizeof c[2]),
		       col(s, 3, c[3], sizeof c[3]));
	sqlite3_finalize(s);
	return 0;
}

int db_select_paths(const char *dir, const char *query, char ***paths, char ***elfs,
		    size_t *n, char *err, size_t errlen)
{
	struct db *db = db_open(dir, 0, err, errlen);
	int64_t *ids;

	*paths = *elfs = NULL;
	*n = 0;
	if (!db)
		return -1;
	if (db_select(db, query, &ids, n, err, errlen)) {
		db_close(db);
		return -1;
	}
	*paths = bm_calloc(*n ? *n : 1, sizeof **paths);
	*elfs = bm_calloc(*n ? *n : 1, sizeof **elfs);
	int rc = 0;
	for (size_t i = 0; i < *n && !rc; i++)
		rc = db_profile_path(db, ids[i], &(*paths)[i], err, errlen) ||
		     db_profile_elf(db, ids[i], &(*elfs)[i], err, errlen) ? -1 : 0;
	if (rc) {
		for (size_t i = 0; i < *n; i++) {
			free((*paths)[i]);
			free((*elfs)[i]);
		}
		free(*paths);
		free(*elfs);
		*paths = *elfs = NULL;
		*n = 0;
	}
	free(ids);
	db_close(db);
	return rc;
}
