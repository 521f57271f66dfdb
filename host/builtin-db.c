/* bmprof db: the profile database (host/profile/db.h). docs/bmprof-db.md is its manual. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "profile/db.h"
#include "profile/diff_load.h"
#include "profile/profile_io.h"
#include "util/util.h"

static const char usage[] =
	"usage: bmprof db [--db DIR] init\n"
	"       bmprof db [--db DIR] add [--commit C] [--tag [KEY=]VALUE]... [--elf ELF] PROFILE...\n"
	"       bmprof db [--db DIR] ls [QUERY]\n"
	"       bmprof db [--db DIR] show ID\n"
	"       bmprof db [--db DIR] rm ID...\n"
	"       bmprof db [--db DIR] epoch new [--note TEXT] | epoch ls\n"
	"\n"
	"A database of profiles in directory DIR (--db, or $BMPROF_DB): each profile added is\n"
	"copied in with its metadata (build-id, image, machine, accelerator, CPU, time), its\n"
	"tags and its samples per function, in the current epoch. bmprof diff and bmprof stats\n"
	"take db:QUERY for the profiles a query selects:\n"
	"  KEY=VALUE[,KEY=VALUE...]   KEY: a tag (commit, or a --tag key), id, epoch, build_id,\n"
	"                             image, machine, accel, cpu, arch; tag=VALUE: any tag\n"
	"                             with that value; epoch=current; last=N: the newest N\n"
	"                             that match\n"
	"e.g. bmprof diff db:commit=abc123 db:commit=def456\n";

static const char *arch_name(uint8_t a)
{
	return a == BMPROF_ARCH_X86_64 ? "x86_64" : a == BMPROF_ARCH_AARCH64 ? "aarch64" : NULL;
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

static int add_profiles(struct db *db, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tag", required_argument, NULL, 't' },
		{ "commit", required_argument, NULL, 'c' },
		{ "elf", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	struct db_tag tags[argc > 0 ? argc : 1];
	size_t ntags = 0;
	const char *elf = NULL;
	int ch;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (ch) {
		case 't': {
			char *eq = strchr(optarg, '=');
			if (eq == optarg || !*optarg) {
				bm_err("db add: --tag takes KEY=VALUE or VALUE, not '%s'", optarg);
				return 2;
			}
			if (!eq) {      /* a bare VALUE is the tag "tag" */
				tags[ntags++] = (struct db_tag){ "tag", optarg };
				break;
			}
			*eq = 0;
			tags[ntags++] = (struct db_tag){ optarg, eq + 1 };
			break;
		}
		case 'c': tags[ntags++] = (struct db_tag){ "commit", optarg }; break;
		case 'E': elf = optarg; break;
		case ':':
			bm_err("db add: %s needs an argument (bmprof db --help)", argv[optind - 1]);
			return 2;
		default:
			bm_err("db add: unknown option %s (bmprof db --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		bm_err("db add: name the profile files to add");
		return 2;
	}
	for (int i = optind; i < argc; i++)
		if (add_one(db, argv[i], elf, tags, ntags))
			return 1;
	return 0;
}

int cmd_db(int argc, char **argv)
{
	const char *dir = NULL;
	char err[1024];
	struct db *db;
	int i = 1, rc = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			dir = argv[++i];
		else if (!strncmp(argv[i], "--db=", 5))
			dir = argv[i] + 5;
		else {
			bm_err("db: unknown option %s (bmprof db --help)", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		bm_err("db: name a command: init, add, ls, show, rm or epoch (bmprof db --help)");
		return 2;
	}
	const char *sub = argv[i];
	int sargc = argc - i;
	char **sargv = argv + i;
	if (strcmp(sub, "init") && strcmp(sub, "add") && strcmp(sub, "ls") && strcmp(sub, "show") &&
	    strcmp(sub, "rm") && strcmp(sub, "epoch")) {
		bm_err("db: unknown command '%s' (init, add, ls, show, rm, epoch)", sub);
		return 2;
	}
	if (!(db = db_open(dir, !strcmp(sub, "init"), err, sizeof err))) {
		bm_err("%s", err);
		return 1;
	}
	if (!strcmp(sub, "init")) {
		printf("profile database in %s\n", db_dir(dir));
		rc = 0;
	} else if (!strcmp(sub, "add")) {
		rc = add_profiles(db, sargc, sargv);
	} else if (!strcmp(sub, "ls")) {
		int64_t *ids = NULL;
		size_t n;
		if (sargc > 2) {
			bm_err("db ls: one query at most");
			rc = 2;
		} else if (db_select(db, sargc == 2 ? sargv[1] : "", &ids, &n, err, sizeof err) ||
			   db_print_list(db, ids, n, err, sizeof err)) {
			bm_err("%s", err);
		} else {
			rc = 0;
		}
		free(ids);
	} else if (!strcmp(sub, "show")) {
		int64_t id;
		if (sargc != 2) {
			bm_err("db show: name one profile id");
			rc = 2;
		} else if (!parse_id(sargv[1], &id)) {
			int r = db_print_one(db, id, err, sizeof err);
			if (r < 0)
				bm_err("%s", err);
			else if (r > 0)
				bm_err("db show: no profile %" PRId64 " (bmprof db ls lists them)", id);
			rc = r ? 1 : 0;
		}
	} else if (!strcmp(sub, "rm")) {
		rc = sargc < 2 ? 2 : 0;
		if (rc)
			bm_err("db rm: name the profile ids to remove");
		for (int k = 1; k < sargc && !rc; k++) {
			int64_t id;
			int r;
			if (parse_id(sargv[k], &id)) {
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
	} else {   /* epoch */
		int64_t e;
		if (sargc >= 2 && !strcmp(sargv[1], "new") && (sargc == 2 || (sargc == 4 &&
		    !strcmp(sargv[2], "--note")))) {
			if (db_epoch_new(db, sargc == 4 ? sargv[3] : NULL, &e, err, sizeof err)) {
				bm_err("%s", err);
			} else {
				printf("epoch %" PRId64 " started: profiles added go to it\n", e);
				rc = 0;
			}
		} else if (sargc == 2 && !strcmp(sargv[1], "ls")) {
			rc = db_print_epochs(db, err, sizeof err) ? (bm_err("%s", err), 1) : 0;
		} else {
			bm_err("db epoch: new [--note TEXT] or ls");
			rc = 2;
		}
	}
	db_close(db);
	return rc;
}
