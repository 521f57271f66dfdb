/* SPDX-License-Identifier: BSD-2-Clause */
/* Measuring blocks in the harness image under QEMU (docs/bmprof-bhive.md): the blocks go
 * to the image in batches through a fw_cfg file, its result lines come back on the
 * console. */
#ifndef BMPROF_BHIVE_RUN_H
#define BMPROF_BHIVE_RUN_H

#include "bhive/bhive_csv.h"
#include "bhive/bhive_result.h"

enum bhive_arch { BHIVE_ARCH_X86_64, BHIVE_ARCH_AARCH64 };

struct bhive_run {
	int arch;                        /* enum bhive_arch: the blocks' and the harness's */
	const char *image;               /* the harness ELF */
	const char *qemu;                /* NULL: from the ELF */
	int accel, icount;               /* enum qemu_accel */
	unsigned timeout;                /* seconds per batch; 0 none */
	unsigned max_faults;
	unsigned retries;                /* passes again over the blocks left unstable */
	int progress;                    /* a line on stderr updated in place */
	int show_timings;                /* each round's clean timings on stderr */
	int unstable_first;              /* the first pass judges every timed block unstable
					  * (BHIVE_IN_UNSTABLE: tests the retries) */
	/* filled in */
	struct bhive_result *res;        /* one per block */
	char clock[8];                   /* "pmc", "tsc" */
	int accel_used;
	unsigned batches;
	size_t retried, retried_ok;      /* blocks unstable at first; measured on a retry */
};

/* Where the harness image for arch is: BMPROF_BHIVE_IMAGE (x86-64) or
 * BMPROF_BHIVE_IMAGE_AARCH64, else lib/bmprof/bhive-ARCH.elf beside the running bmprof's
 * bin/. 0, or -1 with err. */
int bhive_image_path(int arch, char *out, size_t n, char *err, size_t errlen);

/* Measure every block: r->res gets one result each. 0, or an exit status (the reason
 * printed) when QEMU or the image failed. */
int bhive_run(struct bhive_run *r, const struct bhive_blocks *b);
void bhive_run_free(struct bhive_run *r);

/* The result row's detail (docs/bmprof-bhive.md) into out. */
void bhive_detail(const struct bhive_run *r, const struct bhive_result *x, char *out,
		  size_t n);
/* Core cycles per clock unit when the block was measured: 1 with the core cycle counter,
 * from the calibration beside it with the TSC; -1 when that failed. */
double bhive_core_per_tick_of(const struct bhive_run *r, const struct bhive_result *x);
/* Cycles per iteration, or -1 when there is no measurement. */
double bhive_cycles(const struct bhive_run *r, const struct bhive_result *x);

#endif
