/* SPDX-License-Identifier: BSD-2-Clause */
/* The summary's note on TCG timings (bhive_note.h). KVM runs only guests of the host's own
 * architecture, so on another host --accel kvm is no advice. */
#include <stdio.h>
#include <string.h>

#include "bhive/bhive_note.h"
#include "bhive/bhive_run.h"

void bhive_tcg_note(int arch, int icount, const char *host_arch, char *out, size_t n)
{
	const char *name = arch == BHIVE_ARCH_AARCH64 ? "aarch64" : "x86_64";
	const char *what = icount ? "instructions (-icount)" : "host time";

	if (!host_arch[0] || !strcmp(host_arch, name))
		snprintf(out, n, "under TCG the cycles are QEMU's %s, not a CPU's (use --accel kvm "
			 "for timings)", what);
	else
		snprintf(out, n, "under TCG the cycles are QEMU's %s, not a CPU's (KVM cannot run "
			 "%s blocks on this %s host: for timings, run bmprof bhive --arch %s "
			 "--accel kvm on an %s host)", what, name, host_arch, name, name);
}
