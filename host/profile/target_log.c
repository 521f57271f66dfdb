/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's messages on a terminal: see target_log.h. */
#include "profile/target_log.h"

#include <string.h>

#include "wire.h"
#include "wire_text.h"

const char *target_log_level(uint8_t level, char *buf, size_t len)
{
	if (level >= BMPROF_LOG_ERROR && level <= BMPROF_LOG_INFO)
		return bmprof_log_level_name(level);
	snprintf(buf, len, "level %u", level);
	return buf;
}

/* One byte's escaped form into e (at most 5 bytes with the NUL). */
static const char *escape_byte(unsigned char c, char *e)
{
	switch (c) {
	case '\\': return "\\\\";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	}
	if (c >= 0x20 && c < 0x7f) {
		e[0] = (char)c;
		e[1] = 0;
	} else {
		snprintf(e, 5, "\\x%02x", c);
	}
	return e;
}

char *target_log_escape(char *buf, size_t len, const char *text, size_t n)
{
	size_t o = 0;
	char e[5];

	if (!len)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = escape_byte((unsigned char)text[i], e);
		size_t k = strlen(s);
		if (o + k + 1 > len)
			break;
		memcpy(buf + o, s, k + 1);
		o += k;
	}
	return buf;
}

void target_log_print(FILE *f, uint8_t level, const char *text, size_t n)
{
	char lv[16], e[5];
	const char *name = target_log_level(level, lv, sizeof lv);

	fputs("bmprof: target: ", f);
	if (level != BMPROF_LOG_INFO)
		fprintf(f, "%s: ", name);
	for (size_t i = 0; i < n && i < TARGET_LOG_SHOWN; i++)
		fputs(escape_byte((unsigned char)text[i], e), f);
	if (n > TARGET_LOG_SHOWN)
		fputs("...", f);
	fputc('\n', f);
	fflush(f);
}
