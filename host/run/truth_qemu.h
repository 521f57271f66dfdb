/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact counts of one run of an image (analysis/truth.h), from QEMU TCG with the
 * insn_count plugin (host/qemu-plugin/insn_count.c) and the -d int log read from a FIFO
 * as QEMU writes it. */
#ifndef BMPROF_TRUTH_QEMU_H
#define BMPROF_TRUTH_QEMU_H

#include <stddef.h>
#include <stdint.h>
#include "truth.h"

struct truth_range { uint64_t start, end; };   /* [start, end) */

struct truth_run {
	const char *image;        /* the ELF */
	const char *qemu;         /* --qemu PATH, or NULL */
	unsigned timeout;         /* seconds; 0: none */
	const char *config;       /* opt/bmprof/config text (freq=, user=, the params) */
	unsigned long freq;       /* the config's freq= (meta only) */
	int icount;               /* -icount shift=0, as the profile run */
	int user;                 /* the config's user=1 (meta only) */
	/* count only these addresses; none: everything, firmware included */
	const struct truth_range *ranges;
	size_t nranges;
	const char *out;          /* also save the run's profile here; NULL: none */
	int stacks;               /* also the calling contexts (the plugin's stacks=1) */
	/* filled in */
	int exit_status;          /* image_exit_status: main's value, or 124/126/130 */
	double seconds;           /* QEMU's wall time */
	struct truth_raw raw;     /* with stacks: the plugin's counts as read (the caller frees
				     it with truth_raw_free) */
};

/* The plugin's path: $BMPROF_INSN_COUNT, else ../lib/bmprof/insn_count.so beside the
 * running bmprof (/proc/self/exe). 0, or -1 with one line in err naming the missing file
 * and the fix (make). */
int truth_plugin_path(char *out, size_t n, char *err, size_t errlen);

/* The addresses where interrupts and exceptions enter the image's code (bmprof's runtimes'
 * and sampler's entry points that its symbol table names), malloc'd (*out NULL when
 * none). 0, or -1 out of memory. */
int truth_exception_entries(const char *elf, uint64_t **out, size_t *n);

/* Run the image once and count. The image's console goes to stderr. 0, or -1 with the
 * reason printed (no plugin, QEMU could not run or wrote no counts, out of memory). */
int truth_qemu_run(struct truth_run *r, struct truth *t);

#endif
