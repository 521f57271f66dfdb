/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's messages (LOG frames, wire.h) as bmprof shows them: one line each,
 *   bmprof: target: [error: |warning: ]TEXT
 * the text escaped so that a stream cannot move the cursor, clear the screen or forge a
 * line of its own: printable ASCII as is, a backslash doubled, \n \r \t as those two
 * characters, every other byte as \xHH; at most TARGET_LOG_SHOWN bytes of it, then "...". */
#ifndef BMPROF_TARGET_LOG_H
#define BMPROF_TARGET_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TARGET_LOG_SHOWN 4096

void target_log_print(FILE *f, uint8_t level, const char *text, size_t n);
/* "error", "warning", "info", or "level N" in buf for another value */
const char *target_log_level(uint8_t level, char *buf, size_t len);
/* The escaped text alone, into buf (always terminated); returns buf. */
char *target_log_escape(char *buf, size_t len, const char *text, size_t n);

#endif
