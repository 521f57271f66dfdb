/* A small JSON reader for bmprof topdown's counts files (host/json.c only writes JSON):
 * the whole text into a tree of values. */
#ifndef BMPROF_TOPDOWN_JSON_H
#define BMPROF_TOPDOWN_JSON_H

#include <stddef.h>

enum tj_type { TJ_NULL, TJ_BOOL, TJ_NUM, TJ_STR, TJ_ARR, TJ_OBJ };

struct tj {
	int type;             /* enum tj_type */
	int b;                /* TJ_BOOL */
	double num;           /* TJ_NUM */
	char *str;            /* TJ_STR (NUL-terminated; embedded NULs are refused) */
	struct tj *items;     /* TJ_ARR, TJ_OBJ: n values */
	char **keys;          /* TJ_OBJ: n keys */
	size_t n;
};

/* Parse text[0..len) into *v. 0, or -1 with "line N: what" in err (v is then empty). */
int tj_parse(const char *text, size_t len, struct tj *v, char *err, size_t n);
void tj_free(struct tj *v);
/* The member key of an object (the last one if repeated), or NULL. */
const struct tj *tj_get(const struct tj *obj, const char *key);

#endif
