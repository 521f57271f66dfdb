/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's files (docs/bmprof-bhive.md): the blocks in BHive's dataset format (one
 * block a line: its bytes in hex, then optionally a comma and more columns, ignored), and
 * the results, one CSV row a block: hex,cycles,status,detail. */
#ifndef BMPROF_BHIVE_CSV_H
#define BMPROF_BHIVE_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BHIVE_CSV_MAX_HEX 65536          /* hex digits of one block (longer: malformed) */
#define BHIVE_CSV_MAX_FILE (1024ul << 20) /* bytes of one blocks file */

struct bhive_block {
	char *hex;                       /* as given, lower case */
	uint8_t *code;
	size_t len;
	unsigned line;                   /* 1-based, in the file */
};

struct bhive_blocks {
	struct bhive_block *v;
	size_t n, cap;
};

/* Blocks from text (n bytes) into b: 0, or -1 with "NAME:LINE: what is wrong" in err
 * (b then holds nothing). Blank lines are skipped, and a first line that starts with
 * "hex" (a header) too. */
int bhive_csv_parse(const char *text, size_t n, const char *name, struct bhive_blocks *b,
		    char *err, size_t errlen);
/* The same from a file ("-": standard input). */
int bhive_csv_read(const char *path, struct bhive_blocks *b, char *err, size_t errlen);
void bhive_blocks_free(struct bhive_blocks *b);

#define BHIVE_CSV_HEADER "hex,cycles,status,detail"
/* One result row; cycles < 0: no measurement (the column stays empty). detail holds no
 * comma, quote or newline (they are replaced by ';', '\'' and ' '). */
void bhive_csv_row(FILE *f, const char *hex, double cycles, const char *status,
		   const char *detail);

#endif
