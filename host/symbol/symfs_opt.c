/* SPDX-License-Identifier: BSD-2-Clause */
/* --symfs DIR (symfs_opt.h). */
#include "symbol/symfs_opt.h"

#include "util/util.h"

int symfs_opt_cb(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	if (!*arg) {
		bm_err("%s: --symfs needs a directory", c->name);
		return -1;
	}
	elf_find_add_dir(arg);
	return 0;
}
