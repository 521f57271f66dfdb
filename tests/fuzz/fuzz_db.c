/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the profile database (host/profile/db.c): the input is the database file,
 * written as DIR/profiles.sqlite beside stored profiles and an ELF (DIR/profiles/1.data,
 * 2.data, 3.data, DIR/images/BUILDID.elf, fixed files), then read and written as the
 * verbs do: db ls (all, and a query), show, epoch ls; the stored paths of every selected
 * profile (db_profile_path, db_profile_elf); diff and stats on db: queries (the profiles
 * loaded, symbolized, keyed and compared); then db add, epoch new, rm, and ls again.
 *
 * SQLite checks its own file; what is fuzzed is bmprof's handling of every column as
 * untrusted (NULLs, other types, long strings, paths) and of schemas it did not write.
 * Checked for any input: each verb exits with one of its statuses, every stderr line is
 * one bmprof message, stdout is plain text; a stored path is under DIR and is one db_add
 * writes (DIR/profiles/N.data, DIR/images/HEX.elf); the directory is rebuilt for every
 * input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_io.h"
#include "builtin.h"
#include "profile/db.h"
#include "symbol/symbolize.h"
#include "util/util.h"

static char dir[512], elf_name[300];
static uint8_t *elf, *run_a, *run_b;
static size_t elf_len, run_a_len, run_b_len;

static void put(const char *name, const void *data, size_t len)
{
	char p[1024];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	fuzz_write(p, data, len);
}

static void setup_once(void)
{
	char p[512], err[256];
	struct symbolizer *s;
	const uint8_t *id;
	size_t idlen;
	char hex[2 * 64 + 1];

	fuzz_path(dir, sizeof dir, "db");
	elf = fuzz_data("image-x86_64.elf", &elf_len);
	run_a = fuzz_data("run-a.data", &run_a_len);
	run_b = fuzz_data("run-b.data", &run_b_len);
	/* db add's input, and the ELF its meta key names beside it */
	fuzz_write(fuzz_path(p, sizeof p, "add.data"), run_a, run_a_len);
	fuzz_write(fuzz_path(p, sizeof p, "image.elf"), elf, elf_len);
	s = symbolizer_open(p, err, sizeof err);
	CHECK(s);
	symbolizer_build_id(s, &id, &idlen);
	CHECK(idlen && idlen <= 64);
	snprintf(elf_name, sizeof elf_name, "images/%s.elf", bm_hex(hex, sizeof hex, id, idlen));
	symbolizer_close(s);
}

static void setup(const uint8_t *data, size_t size)
{
	char p[600];

	fuzz_rm_tree(dir);
	CHECK(mkdir(dir, 0700) == 0);
	snprintf(p, sizeof p, "%s/profiles", dir);
	CHECK(mkdir(p, 0700) == 0);
	snprintf(p, sizeof p, "%s/images", dir);
	CHECK(mkdir(p, 0700) == 0);
	put("profiles/1.data", run_a, run_a_len);
	put("profiles/2.data", run_b, run_b_len);
	put("profiles/3.data", run_a, run_a_len);
	put(elf_name, elf, elf_len);
	put(DB_FILE, data, size);
}

/* bmprof ARGV (NULL-terminated), captured and checked; its exit status. */
static int run(int (*fn)(int, char **), const char *const *args, int max_rc)
{
	char *argv[16], buf[16][600];
	int argc = 0, rc;
	struct fuzz_capture c;

	for (; args[argc]; argc++) {
		snprintf(buf[argc], sizeof buf[argc], "%s", args[argc]);
		argv[argc] = buf[argc];
	}
	argv[argc] = NULL;
	fuzz_capture_begin(&c);
	rc = fn(argc, argv);
	fuzz_capture_end(&c);
	db_set_dir(NULL);   /* --db kept a pointer into this argv */
	CHECK(rc >= 0 && rc <= max_rc);
	fuzz_check_messages(c.ebuf, c.elen);
	CHECK(rc == 0 || c.elen);
	fuzz_check_text(args[0], c.obuf, c.olen);
	fuzz_capture_free(&c);
	return rc;
}

/* A path db.c hands out: under DIR, as db_add names its files. */
static void check_stored(const char *path, int is_elf)
{
	size_t n = strlen(dir);
	const char *rest = path + n, *digits;

	CHECK(!strncmp(path, dir, n) && !strstr(rest, "/.."));
	if (is_elf) {
		CHECK(!strncmp(rest, "/images/", 8));
		digits = rest + 8;
		CHECK(strspn(digits, "0123456789abcdef") > 0);
		CHECK(!strcmp(digits + strspn(digits, "0123456789abcdef"), ".elf"));
	} else {
		CHECK(!strncmp(rest, "/profiles/", 10));
		digits = rest + 10;
		CHECK(strspn(digits, "0123456789") > 0);
		CHECK(!strcmp(digits + strspn(digits, "0123456789"), ".data"));
	}
}

static void stored_paths(void)
{
	char err[1024];
	struct db *db;
	int64_t *ids = NULL;
	size_t n = 0;

	err[0] = 0;
	if (!(db = db_open(dir, 0, err, sizeof err))) {
		CHECK(err[0]);
		return;
	}
	err[0] = 0;
	if (db_select(db, "", &ids, &n, err, sizeof err)) {
		CHECK(err[0] && !ids && !n);
	}
	for (size_t i = 0; i < n && i < 8; i++) {
		char *path = NULL;
		int rc;

		err[0] = 0;
		rc = db_profile_path(db, ids[i], &path, err, sizeof err);
		CHECK(rc >= -1 && rc <= 1 && (rc ? !path && (rc > 0 || err[0]) : path != NULL));
		if (path)
			check_stored(path, 0);
		free(path);
		path = NULL;
		err[0] = 0;
		rc = db_profile_elf(db, ids[i], &path, err, sizeof err);
		CHECK(rc >= -1 && rc <= 1 && (rc < 0 ? !path && err[0] : 1));
		if (path)
			check_stored(path, 1);
		free(path);
	}
	free(ids);
	db_close(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char add[512];

	if (!dir[0])
		setup_once();
	setup(data, size);
	fuzz_path(add, sizeof add, "add.data");

	const char *ls[] = { "db", "--db", dir, "ls", NULL };
	const char *ls_q[] = { "db", "--db", dir, "ls", "commit=abc,epoch=current", NULL };
	const char *show1[] = { "db", "--db", dir, "show", "1", NULL };
	const char *show2[] = { "db", "--db", dir, "show", "2", NULL };
	const char *epochs[] = { "db", "--db", dir, "epoch", "ls", NULL };
	const char *diff[] = { "diff", "--db", dir, "--min-count", "1", "db:id=1", "db:id=2",
			       NULL };
	const char *diff_all[] = { "diff", "--db", dir, "--by", "line", "db:last=2", "--",
				   "db:tag=x", NULL };
	const char *stats[] = { "stats", "--db", dir, "--min-count", "1", "db:", NULL };
	const char *addc[] = { "db", "--db", dir, "add", "--commit", "fz", "--tag", "k=v", add,
			       NULL };
	const char *epoch_new[] = { "db", "--db", dir, "epoch", "new", "--note", "fz", NULL };
	const char *rm[] = { "db", "--db", dir, "rm", "1", "3", NULL };

	if (run(cmd_db, ls, 1))
		return 0;   /* not a database it can open: the rest would say the same */
	run(cmd_db, ls_q, 1);
	run(cmd_db, show1, 1);
	run(cmd_db, show2, 1);
	run(cmd_db, epochs, 1);
	stored_paths();
	run(cmd_diff, diff, 3);
	run(cmd_diff, diff_all, 3);
	run(cmd_stats, stats, 1);
	run(cmd_db, addc, 1);
	run(cmd_db, epoch_new, 1);
	run(cmd_db, rm, 1);
	run(cmd_db, ls, 1);
	stored_paths();
	return 0;
}
