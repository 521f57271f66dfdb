/* Exact counts of one run of an image (analysis/truth.h), from QEMU TCG with one
 * instruction per block and its execution log read from a FIFO as QEMU writes it. */
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
	const char *config;       /* opt/bmprof/config text (freq=0 and the program's params) */
	/* log only these addresses (QEMU -dfilter); none: everything, firmware included */
	const struct truth_range *ranges;
	size_t nranges;
	truth_insn_fn classify;   /* rep and branch instructions (may be NULL) */
	void *ctx;
	/* filled in */
	int exit_status;          /* image_exit_status: main's value, or 124/126/130 */
	double seconds;           /* QEMU's wall time */
};

/* Run the image once and count. The image's console goes to stderr. 0, or -1 with the
 * reason printed (QEMU could not run, out of memory). */
int truth_qemu_run(struct truth_run *r, struct truth *t);

#endif
