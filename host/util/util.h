/* SPDX-License-Identifier: BSD-2-Clause */
/* Small helpers shared by the host tool: error printing and allocation that report a
 * problem instead of exiting, and hex formatting. */
#ifndef BMPROF_UTIL_H
#define BMPROF_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* "bmprof: <message>\n" on stderr, one line whatever the message holds: control bytes
 * (and backslashes) are written escaped, as bm_escape does. */
void bm_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* n bytes of s to f with every byte below 0x20 and DEL as \xNN and a backslash as \\:
 * for a string from a file a user hands over (a path, a name, a target's text). */
void bm_escape(FILE *f, const char *s, size_t n);
/* The same into buf (n bytes, truncated, always terminated); returns buf. NULL s: "". */
const char *bm_safe(char *buf, size_t n, const char *s);

/* Like malloc/calloc/realloc/strdup, but on failure print "bmprof: out of memory" and
 * return NULL; the caller still handles NULL. */
void *bm_malloc(size_t n);
void *bm_calloc(size_t n, size_t size);
void *bm_realloc(void *p, size_t n);
char *bm_strdup(const char *s);

/* Lower-case hex of n bytes into out (2n + 1 bytes, truncated to outlen); returns out. */
char *bm_hex(char *out, size_t outlen, const uint8_t *b, size_t n);

/* argv joined by spaces, an argument with characters the shell treats specially put in
 * single quotes: for the "command" meta key. NULL (reported) if out of memory. */
char *bm_join_args(int argc, char *const argv[]);

/* Open path for reading only if it is a regular file: never waits on a FIFO or a device,
 * never takes a terminal. The fd, or -1 with one line in err ("PATH is a FIFO, not an ELF
 * file: pass the file itself"; what names what was wanted, with its article). */
int bm_open_regular(const char *path, const char *what, char *err, size_t n);
FILE *bm_fopen_regular(const char *path, const char *what, char *err, size_t n);

/* Exit statuses of the commands that run an image besides main's own return value
 * (docs/bmprof.md). */
#define EXIT_USAGE 2
#define EXIT_TIMEOUT 124
#define EXIT_FAILED 125        /* bmprof could not do its job */
#define EXIT_CRASHED 126       /* the image did not end normally */
#define EXIT_INTERRUPTED 130

#endif
