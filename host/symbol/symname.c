/* SPDX-License-Identifier: BSD-2-Clause */
/* Names of functions as a reader knows them (symname.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/symname.h"

#ifdef BMPROF_HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

/* The words GCC's clone suffixes are made of (each may be followed by ".N"). */
static const char *const clone_words[] = {
	"constprop", "isra", "part", "cold", "lto_priv", "localalias", "clone", "specialized",
};

static int is_number(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int is_clone_word(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof clone_words / sizeof clone_words[0]; i++)
		if (strlen(clone_words[i]) == n && !memcmp(clone_words[i], s, n))
			return 1;
	return 0;
}

/* Whether s (after a '.') is a chain of clone words and numbers that starts with a word. */
static int is_clone_suffix(const char *s)
{
	int first = 1;

	while (*s) {
		size_t n = strcspn(s, ".");
		if (!is_clone_word(s, n) && (first || !is_number(s, n)))
			return 0;
		first = 0;
		s += n;
		if (*s == '.' && !*++s)
			return 0;
	}
	return !first;
}

size_t symname_base_len(const char *raw)
{
	for (const char *d = strchr(raw, '.'); d; d = strchr(d + 1, '.'))
		if (d > raw && is_clone_suffix(d + 1))
			return (size_t)(d - raw);
	return strlen(raw);
}

int symname_can_demangle(void)
{
#ifdef BMPROF_HAVE_LIBIBERTY
	return 1;
#else
	return 0;
#endif
}

/* The first len bytes of raw demangled (or as they are) into buf. */
static const char *demangle(char *buf, size_t n, const char *raw, size_t len)
{
	snprintf(buf, n, "%.*s", (int)len, raw);
#ifdef BMPROF_HAVE_LIBIBERTY
	if (len > 2 && raw[0] == '_' && raw[1] == 'Z') {
		char *d = cplus_demangle(buf, DMGL_PARAMS | DMGL_ANSI);
		if (d) {
			snprintf(buf, n, "%s", d);
			free(d);
		}
	}
#endif
	return buf;
}

const char *symname_base(char *buf, size_t n, const char *raw)
{
	return demangle(buf, n, raw, symname_base_len(raw));
}

const char *symname_display(char *buf, size_t n, const char *raw)
{
	size_t len = symname_base_len(raw), used;

	demangle(buf, n, raw, len);
	used = strlen(buf);
	if (raw[len] && used < n)
		snprintf(buf + used, n - used, " [clone %s]", raw + len);
	return buf;
}

int symname_names(const char *raw, const char *name)
{
	char buf[1024];
	size_t len = symname_base_len(raw), n = strlen(name);

	if (!strcmp(raw, name) || (len == n && !strncmp(raw, name, n)))
		return 1;
	symname_base(buf, sizeof buf, raw);
	if (!strcmp(buf, name) || (!strncmp(buf, name, n) && buf[n] == '(' && !strchr(name, '(')))
		return 1;
	return !strcmp(symname_display(buf, sizeof buf, raw), name);
}
