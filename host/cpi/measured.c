/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's results as measured block cycles (measured.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpi/measured.h"

#define LINE_MAX_BYTES (1u << 20)   /* a block of 512 KiB of code is not a basic block */

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* One line (without its newline): 1 added, 0 skipped, -1 malformed (why in err). */
static int one_line(struct block_times *t, char *line, uint8_t *buf, const char **why)
{
	char *comma = strchr(line, ','), *cyc, *end;
	size_t nhex = comma ? (size_t)(comma - line) : strlen(line);
	double c;

	if (!comma) {
		*why = "no cycles column (want hex,cycles,...)";
		return -1;
	}
	if (!nhex || nhex % 2) {
		*why = "the block's hex has an odd number of digits or none";
		return -1;
	}
	for (size_t i = 0; i < nhex; i += 2) {
		int hi = hexval(line[i]), lo = hexval(line[i + 1]);
		if (hi < 0 || lo < 0) {
			*why = "the block is not hex";
			return -1;
		}
		buf[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	cyc = comma + 1;
	if (*cyc == ',' || !*cyc)
		return 0;   /* not measured */
	errno = 0;
	c = strtod(cyc, &end);
	if (end == cyc || (*end && *end != ',') || errno || !isfinite(c) || c <= 0 || c > 1e9) {
		*why = "the cycles column is not a positive number";
		return -1;
	}
	if (block_times_add(t, buf, (uint32_t)(nhex / 2), c)) {
		*why = "out of memory";
		return -1;
	}
	return 1;
}

int measured_load(const char *path, struct block_times *t, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long no = 0;
	uint8_t *buf = malloc(LINE_MAX_BYTES / 2);
	int rc = 0;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (stat(path, &st) || !(f = fopen(path, "r"))) {
		snprintf(err, errlen, "--measured %s: %s", path, strerror(errno));
		free(buf);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--measured %s: not a regular file (want bmprof bhive's "
			 "results, a CSV file)", path);
		fclose(f);
		free(buf);
		return -1;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		const char *why = NULL;
		no++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (!n || (no == 1 && !strncmp(line, "hex", 3)))
			continue;
		if ((size_t)n >= LINE_MAX_BYTES)
			why = "the line is too long for a basic block";
		else if (one_line(t, line, buf, &why) >= 0)
			continue;
		snprintf(err, errlen, "--measured %s:%lu: %s", path, no, why);
		rc = -1;
		break;
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "--measured %s: %s", path, strerror(errno));
		rc = -1;
	}
	free(line);
	free(buf);
	fclose(f);
	return rc;
}
