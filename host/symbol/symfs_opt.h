/* SPDX-License-Identifier: BSD-2-Clause */
/* --symfs DIR: the option table entry of the commands that find an image's ELF by its
 * build-id (elf_find.h). The directories are the command's until it calls
 * elf_find_clear_dirs. */
#ifndef BMPROF_SYMFS_OPT_H
#define BMPROF_SYMFS_OPT_H

#include "symbol/elf_find.h"
#include "util/options.h"

opt_cb symfs_opt_cb;

#define SYMFS_OPT OPT_CALLBACK_F(0, "symfs", NULL, "DIR", "look for the image's ELF by its " \
	"build-id under DIR (DIR/.build-id/XX/REST[.debug], DIR/.build-id/XX/REST/elf, " \
	"DIR/NAME) before $" ELF_FIND_ENV " and the other places; repeatable", symfs_opt_cb, \
	OPT_MULTI)

#endif
