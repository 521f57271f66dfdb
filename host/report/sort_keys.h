/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report --sort KEY[,KEY]: the keys and the combinations a report can show. */
#ifndef BMPROF_SORT_KEYS_H
#define BMPROF_SORT_KEYS_H

#include <stddef.h>
#include "flat.h"

/* What --sort asks for: the rows (sort), and optionally grouped by a first key. */
struct report_sort {
	enum flat_sort sort;
	int group;               /* -1: none; else enum flat_group */
};

/* The combinations, for --help and messages. */
#define SORT_KEYS_HELP "function (default), line, address, cpu, module; or two of them: " \
	"cpu,function, module,function, module,line, module,address, function,line, " \
	"function,address"

/* Parse spec ("function", "module,line", aliases: func, sym, symbol; srcline; addr;
 * mod, dso). 0, or -1 with the reason (one line) in err. */
int report_sort_parse(const char *spec, struct report_sort *out, char *err, size_t n);
/* "module, function": the keys as the title names them. */
const char *report_sort_title(const struct report_sort *s, char *buf, size_t n);

#endif
