/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared-memory transport in a QEMU run (shm_qemu.c). */
#ifndef BMPROF_SHM_QEMU_H
#define BMPROF_SHM_QEMU_H

#include "profile/capture.h"
#include "run/shm.h"

/* QEMU's arguments for the ivshmem device backed by f (and, for arch "aarch64" without
 * firmware, uefi 0, the machine option its runtime needs), followed by the user's nuser
 * arguments; *n set. calloc'd (shm_qemu_args_free); NULL if out of memory. */
char **shm_qemu_args(const struct shm_file *f, const char *arch, int uefi, char *const *user,
		     int nuser, int *n);
void shm_qemu_args_free(char **v);
/* The runtime config with transport=shm added: config, or freq=FREQ when config is NULL.
 * malloc'd; NULL if out of memory. */
char *shm_qemu_config(const char *config, unsigned long freq);
/* After the run: the rings' totals into the profile's meta (shm_*), a summary line on
 * stderr when verbose, and an error for each inconsistency. stopped: bmprof stopped QEMU
 * (timeout, signal, stall), so the image never reached its final flush, and a ring may
 * hold one record reserved and not yet written (counted in shm_cut_frames, not as lost).
 * -1 (reported) if the image never set up the rings. */
int shm_qemu_conclude(struct capture *cap, const struct shm_consumer *c, int verbose,
		      int stopped);

#endif
