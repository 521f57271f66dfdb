/* SPDX-License-Identifier: BSD-2-Clause */
/* Text from a profile or an ELF (symbol names, paths, source lines) written into XML, SVG
 * or HTML: markup characters become entities, and bytes no such file may hold (control
 * bytes, bytes that are not UTF-8) are written as the text \xNN, so a hostile name can
 * neither break the document nor put markup or script into it. */
#ifndef BMPROF_MARKUP_H
#define BMPROF_MARKUP_H

#include <stdio.h>

void markup_escape(FILE *f, const char *s);
/* The same bytes written as \xNN into buf, but no entities: text for a plain-text format
 * (folded stacks) that the markup escaping then leaves alike. Returns buf. */
char *markup_plain(char *buf, size_t n, const char *s);
/* printf-style, the formatted text escaped. */
void markup_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
