/* Small helpers shared by the host tool: error printing and allocation that report a
 * problem instead of exiting, and hex formatting. */
#ifndef BMPROF_UTIL_H
#define BMPROF_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* "bmprof: <message>\n" on stderr. */
void bm_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

#endif
