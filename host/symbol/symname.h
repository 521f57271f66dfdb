/* SPDX-License-Identifier: BSD-2-Clause */
/* Function names as a reader knows them. An ELF symbol is the linker's name: a C++ one is
 * mangled (_ZN3Foo3runEm), and GCC names the copies it makes of a function after it with a
 * suffix (foo.constprop.0: constants propagated; foo.isra.0: arguments rewritten; foo.part.0:
 * a part split out; foo.cold: the cold blocks moved away; .lto_priv.N, .localalias,
 * .clone.N, .specialized.N). Shown, the mangled name is demangled (libiberty's
 * cplus_demangle when bmprof is built with it, else left as it is) and a clone is its
 * function's name with the suffix noted as c++filt notes it: "foo [clone .constprop.0]".
 * Report rows stay keyed by the symbol (a clone is other code); diff, stats, db and pprof
 * key a function and its clones by the function's name, and annotate and cpi find a
 * function by any of these names (symbolizer_find_function_like). */
#ifndef BMPROF_SYMNAME_H
#define BMPROF_SYMNAME_H

#include <stddef.h>

/* The length of raw's name before a GCC clone suffix (strlen(raw) when it has none). */
size_t symname_base_len(const char *raw);
/* The name to show: demangled, a clone's suffix noted ("foo [clone .constprop.0]"). */
const char *symname_display(char *buf, size_t n, const char *raw);
/* The function's name: demangled, without a clone suffix ("foo" for foo.constprop.0). */
const char *symname_base(char *buf, size_t n, const char *raw);
/* Whether name is what a reader calls the function of symbol raw: the symbol itself or
 * without a clone suffix, demangled (with or without its parameter list), or shown
 * ("foo [clone .isra.0]"). */
int symname_names(const char *raw, const char *name);
/* Whether names are demangled (bmprof was built with libiberty). */
int symname_can_demangle(void);

#endif
