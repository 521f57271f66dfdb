/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for bmprof bhive's inputs: the blocks reader (bhive_csv_parse), the
 * capstone check of each block it accepts (bhive_precheck) and the AArch64 encoding check
 * (bhive_precheck_a64), the accesses described to the harness (bhive_accesses: inside
 * the block, in increasing order, at most a line each, as the harness requires), the
 * harness's result lines
 * (bhive_parse_line, bhive_parse_clock, on every input line) and the result rows.
 *
 * Input: a blocks file. Checked for any input: parsing fails with one line naming the
 * file and a line of it, and holds nothing; or succeeds with blocks whose hex is lower
 * case, twice their length, on increasing lines; each block's row has exactly four
 * columns, and the rows parse back into the same blocks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_io.h"
#include "bhive/bhive_access.h"
#include "bhive/bhive_csv.h"
#include "bhive/bhive_result.h"

static void check_accesses(int a64, const struct bhive_block *k)
{
	static struct bhive_in_access acc[BHIVE_MAX_ACCESS];
	unsigned n = bhive_accesses(a64, k->code, k->len, acc, BHIVE_MAX_ACCESS);

	for (unsigned i = 0; i < n; i++) {
		CHECK((size_t)acc[i].at + acc[i].len <= k->len && acc[i].len);
		CHECK(acc[i].size >= 1 && acc[i].size <= BHIVE_LINE);
		CHECK(!i || acc[i].at > acc[i - 1].at);
	}
}

static void check_blocks(const struct bhive_blocks *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct bhive_block *k = &b->v[i];
		unsigned insns;
		size_t bad;
		CHECK(k->len >= 1 && strlen(k->hex) == 2 * k->len);
		for (const char *h = k->hex; *h; h++)
			CHECK((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f'));
		CHECK(!i || k->line > b->v[i - 1].line);
		int st = bhive_precheck(k->code, k->len, &insns, &bad);
		CHECK(st == BHIVE_OK || st == BHIVE_CONTROL_FLOW || st == BHIVE_UNDECODABLE);
		CHECK(st != BHIVE_UNDECODABLE || bad < k->len);
		st = bhive_precheck_a64(k->code, k->len, &insns, &bad);
		CHECK(st == BHIVE_OK || st == BHIVE_CONTROL_FLOW || st == BHIVE_UNDECODABLE);
		CHECK(insns == k->len / 4);
		CHECK(st != BHIVE_UNDECODABLE || (k->len % 4 && bad == k->len - k->len % 4));
		check_accesses(0, k);
		check_accesses(1, k);
	}
}

static void check_rows(const struct bhive_blocks *b, const char *detail)
{
	char *text = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct bhive_blocks back;

	CHECK(f);
	fprintf(f, "%s\n", BHIVE_CSV_HEADER);
	for (size_t i = 0; i < b->n; i++)
		bhive_csv_row(f, b->v[i].hex, i % 2 ? -1 : 1.5, "ok", detail);
	fclose(f);
	for (const char *l = strchr(text, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
		unsigned commas = 0;
		for (const char *c = l; *c != '\n'; c++)
			commas += *c == ',';
		CHECK(commas == 3);
	}
	CHECK(bhive_csv_parse(text, len, "rows", &back, err, sizeof err) == 0);
	CHECK(back.n == b->n);
	for (size_t i = 0; i < b->n; i++)
		CHECK(!strcmp(back.v[i].hex, b->v[i].hex));
	bhive_blocks_free(&back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bhive_blocks b;
	char err[512], *text = malloc(size + 1), clock[8];
	struct bhive_result r;
	uint32_t idx;

	CHECK(text);
	memcpy(text, data, size);
	text[size] = 0;
	if (bhive_csv_parse(text, size, "b.csv", &b, err, sizeof err)) {
		CHECK(!strncmp(err, "b.csv:", 6) && !strchr(err, '\n'));
		CHECK(b.n == 0 && !b.v);
	} else {
		check_blocks(&b);
		check_rows(&b, text);   /* the input as a detail: commas and newlines go */
		bhive_blocks_free(&b);
	}
	for (char *l = text, *nl; l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		if (!bhive_parse_line(l, &idx, &r))
			CHECK(r.status >= 0 && r.status < BHIVE_NSTATUS && r.have);
		bhive_parse_clock(l, clock, sizeof clock);
	}
	free(text);
	return 0;
}
