/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for bmprof topdown's inputs: a counts file (td_input_json) or a
 * profile's COUNTS (td_input_profile), the family chosen for the CPU they name, the tree
 * computed and printed as text and JSON; then the verb itself on the same file
 * (bmprof topdown -i FILE, with --json, and --per-function against the fixed ELF).
 *
 * Input: byte 0 holds flags: bit 0 fixes the CRCs of the frames in the rest (fixcrc.h),
 * bits 1-2 the level (1 + value), bit 3 --show-all. The file follows: JSON when it starts
 * with '{' (after white space), else a profile. Checked for any input: a refusal is one
 * line; the tree's nodes have their parents before them and no NaN; text output is plain
 * text, JSON output parses; every stderr line of the verb is one bmprof message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_io.h"
#include "builtin.h"
#include "util/util.h"
#include "fixcrc.h"
#include "profile/profile_io.h"
#include "topdown.h"
#include "topdown/topdown_input.h"
#include "topdown/topdown_print.h"

static void check_tree(const struct td_tree *t)
{
	CHECK(t->n <= TD_MAX_NODES);
	for (unsigned i = 0; i < t->n; i++) {
		const struct td_node *nd = &t->node[i];

		CHECK(nd->parent < (int)i && nd->parent >= -1);
		CHECK(nd->state == TD_NODE_MISSING || !isnan(nd->value));
		CHECK(memchr(nd->why, 0, sizeof nd->why));
	}
}

/* The tree of in at level, printed both ways. */
static void analyse(const char *name, const struct td_input *in, unsigned level, int all)
{
	static struct td_model m;
	static struct td_tree t;
	char err[512];
	struct fuzz_capture c;

	err[0] = 0;
	if (topdown_select(&m, in->arch, in->vendor, in->family, in->model,
			   in->family_name[0] ? in->family_name : NULL, err, sizeof err)) {
		CHECK(err[0] && !strchr(err, '\n'));
		return;
	}
	err[0] = 0;
	if (topdown_compute(&m, &in->counts, level, &t, err, sizeof err)) {
		CHECK(err[0] && !strchr(err, '\n'));
		return;
	}
	check_tree(&t);

	struct td_report r = { name, &m, in, &t, level, all, NULL, NULL };
	fuzz_capture_begin(&c);
	topdown_print_text(stdout, &r);
	size_t text = fuzz_capture_mark();
	CHECK(topdown_print_json(stdout, &r) == 0);
	fuzz_capture_end(&c);
	fuzz_check_text("the text output", c.obuf, text);
	CHECK(fuzz_valid_json(c.obuf + text, c.olen - text));
	CHECK(!c.elen);
	fuzz_capture_free(&c);
}

static int is_json(const uint8_t *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i < n && s[i] == '{';
}

/* bmprof topdown ARGS... -i path, captured and checked; its exit status. */
static int verb(const char *path, const char *a1, const char *a2, const char *a3, int json)
{
	char *argv[8], buf[8][512];
	const char *args[] = { "topdown", "-i", path, a1, a2, a3 };
	int argc = 0, rc;
	struct fuzz_capture c;

	for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
		if (args[i]) {
			snprintf(buf[argc], sizeof buf[argc], "%s", args[i]);
			argv[argc] = buf[argc];
			argc++;
		}
	argv[argc] = NULL;
	fuzz_capture_begin(&c);
	rc = cmd_topdown(argc, argv);
	fuzz_capture_end(&c);
	CHECK(rc == 0 || rc == EXIT_FAILED);
	fuzz_check_messages(c.ebuf, c.elen);
	CHECK(rc == 0 || c.elen);
	if (!rc && json)
		CHECK(fuzz_valid_json(c.obuf, c.olen));
	else if (!rc)
		fuzz_check_text(argv[0], c.obuf, c.olen);
	fuzz_capture_free(&c);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct td_input in;
	static char path[512];
	char err[512], level[2];
	uint8_t *file;
	size_t n;
	int all, rc;

	if (!path[0]) {
		char elf[512];

		fuzz_data_copy("image-x86_64.elf", "image.elf", elf, sizeof elf);
		fuzz_path(path, sizeof path, "counts.in");
	}
	if (!size)
		return 0;
	n = size - 1;
	file = malloc(n + 1);
	CHECK(file);
	memcpy(file, data + 1, n);
	file[n] = 0;
	if (data[0] & 1)
		fix_crcs(file, n);
	level[0] = (char)('1' + ((data[0] >> 1) & 3));
	level[1] = 0;
	all = data[0] >> 3 & 1;

	err[0] = 0;
	if (is_json(file, n)) {
		rc = td_input_json("fuzz.json", (const char *)file, n, &in, err, sizeof err);
	} else {
		struct profile p;

		profile_init(&p);
		rc = profile_load_mem(file, n, "fuzz.data", &p, err, sizeof err) < 0 ? -1 :
		     td_input_profile(&p, &in, err, sizeof err);
		profile_free(&p);
	}
	if (rc) {
		CHECK(err[0] && !strchr(err, '\n'));
	} else {
		CHECK(in.counts.n <= TD_MAX_COUNTS);
		analyse("fuzz", &in, (unsigned)(level[0] - '0'), all);
	}

	fuzz_write(path, file, n);
	verb(path, "--level", level, all ? "--show-all" : NULL, 0);
	verb(path, "--json", NULL, NULL, 1);
	if (!is_json(file, n))
		verb(path, "--per-function", NULL, NULL, 0);
	free(file);
	return 0;
}
