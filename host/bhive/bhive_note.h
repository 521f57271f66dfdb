/* SPDX-License-Identifier: BSD-2-Clause */
/* What bmprof bhive's summary says after measuring under TCG. */
#ifndef BMPROF_BHIVE_NOTE_H
#define BMPROF_BHIVE_NOTE_H

#include <stddef.h>

/* The note into out: TCG's cycles are QEMU's (instructions with icount, else host time),
 * and how to get a CPU's: --accel kvm where KVM can run the harness of arch (enum
 * bhive_arch) on a host_arch (uname -m; "" unknown) host, else a host of arch's own. */
void bhive_tcg_note(int arch, int icount, const char *host_arch, char *out, size_t n);

#endif
