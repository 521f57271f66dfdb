/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile database (docs/bmprof-db.md): a directory holding profiles.sqlite and, under
 * profiles/, a copy of every profile added. Each profile has a row of metadata (build-id,
 * image, machine, QEMU accelerator, CPU identity, time, samples), the user's tags (commit=,
 * any --tag k=v), its samples per function, and the epoch it was added in (DCPI's epochs:
 * `db epoch new` starts the next one; profiles added go to the current one).
 *
 * Writers take SQLite's write lock for a whole add (BEGIN IMMEDIATE) and wait for it (busy
 * timeout), so processes adding at once lose nothing.
 *
 * Queries (db:QUERY on the command line): KEY=VALUE[,KEY=VALUE...], all must hold. KEY is a
 * tag (commit, or any --tag key), or one of id, epoch, build_id, image, machine, accel,
 * cpu, arch; tag=VALUE is any tag with that value; epoch=current is the current epoch;
 * last=N keeps the newest N matches.
 * Profiles come oldest first. An empty query selects every profile.
 */
#ifndef BMPROF_DB_H
#define BMPROF_DB_H

#include <stddef.h>
#include <stdint.h>

struct db;

#define DB_FILE "profiles.sqlite"
#define DB_ENV "BMPROF_DB"

/* The directory: dir, else $BMPROF_DB, else db_set_dir's. NULL if none is named. */
const char *db_dir(const char *dir);
/* The --db given to a command, for db: queries it expands. */
void db_set_dir(const char *dir);

/* Open (create: make the directory and the schema; else it must exist). NULL with a
 * one-line reason in err, naming the file and what to do. */
struct db *db_open(const char *dir, int create, char *err, size_t errlen);
void db_close(struct db *db);

struct db_tag { const char *key, *value; };

/* Add the profile file at path: copy it in, with its metadata, tags and per-function
 * samples (functions: n names with counts; may be 0). elf, when not NULL, is the image's
 * ELF (checked against the profile's build-id): it is copied in too, once per build-id, so
 * the profile still symbolizes after the image is rebuilt. 0 with *id set, or -1 with err. */
struct db_profile_meta {
	const char *build_id, *image, *machine, *accel, *cpu, *arch, *recorded;
	uint64_t samples;
	const char *elf;
};
int db_add(struct db *db, const char *path, const struct db_profile_meta *m,
	   const struct db_tag *tags, size_t ntags, const char *const *functions,
	   const uint64_t *counts, size_t nfunctions, int64_t *id, char *err, size_t errlen);

/* Epochs: start the next (it becomes current); the current one. */
int db_epoch_new(struct db *db, const char *note, int64_t *epoch, char *err, size_t errlen);
int db_epoch_current(struct db *db, int64_t *epoch, char *err, size_t errlen);

/* The ids a query selects, oldest first. 0 with *ids (malloc'd) and *n, or -1 with err. */
int db_select(struct db *db, const char *query, int64_t **ids, size_t *n, char *err,
	      size_t errlen);
/* The stored file of a profile into *path (malloc'd): 0; 1 if no such id; -1 with err when
 * the database names no file or one db_add would not have written (never followed). */
int db_profile_path(struct db *db, int64_t id, char **path, char *err, size_t errlen);
/* The stored ELF of a profile into *path (malloc'd; NULL if none was stored): the same. */
int db_profile_elf(struct db *db, int64_t id, char **path, char *err, size_t errlen);
/* Remove a profile (its rows and its file). 0 (with err set when the row named no usable
 * file: the rows are gone, no file was touched); 1 if no such id; -1 with err. */
int db_remove(struct db *db, int64_t id, char *err, size_t errlen);

/* Print profiles: one line each (ls), or everything about one (show; 1 if no such id). */
int db_print_list(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen);
int db_print_one(struct db *db, int64_t id, char *err, size_t errlen);
int db_print_epochs(struct db *db, char *err, size_t errlen);

/* The paths of the stored profiles a query selects, in the database db_dir(dir) names, and
 * of their stored ELFs (NULL where none). 0 with *paths and *elfs (malloc'd, each malloc'd)
 * and *n set, or -1 with a one-line reason in err. */
int db_select_paths(const char *dir, const char *query, char ***paths, char ***elfs,
		    size_t *n, char *err, size_t errlen);

#endif
