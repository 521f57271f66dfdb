/* SPDX-License-Identifier: BSD-2-Clause */
/* The exception entry points of an image, for the insn_count plugin's shadow call stack
 * (truth_qemu.h): where an interrupt or exception enters the image's code. bmprof's own
 * runtimes and sampler name theirs: on x86-64 the IDT's targets (the sampler's timer, PMI
 * and NMI entries, the runtime's 32 exception stubs, its IPI and stray-interrupt entries),
 * on AArch64 the 16 slots of the EL1 vector table, on RISC-V the runtime's trap entry
 * (mtvec, direct mode). */
#include <stdio.h>
#include <stdlib.h>

#include "run/truth_qemu.h"
#include "symbol/elf_symbol.h"

static const char *const x86_names[] = {
	"bmprof_x86_timer_entry", "bmprof_x86_pmi_entry", "bmprof_x86_nmi_entry",
	"bmrt_isr_ignore", "bmrt_isr_ipi",
};

static int add(uint64_t **v, size_t *n, size_t *cap, uint64_t a)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		uint64_t *p = realloc(*v, c * sizeof *p);
		if (!p)
			return -1;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = a;
	return 0;
}

static int add_sym(const char *elf, const char *name, uint64_t stride, unsigned count,
		   uint64_t **v, size_t *n, size_t *cap)
{
	uint64_t a, size;
	char err[256];

	if (elf_symbol(elf, name, &a, &size, err, sizeof err))
		return 0;
	for (unsigned k = 0; k < count; k++)
		if (add(v, n, cap, a + k * stride))
			return -1;
	return 0;
}

int truth_exception_entries(const char *elf, uint64_t **out, size_t *n)
{
	size_t cap = 0;
	char name[32];

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < sizeof x86_names / sizeof *x86_names; i++)
		if (add_sym(elf, x86_names[i], 0, 1, out, n, &cap))
			goto oom;
	for (int v = 0; v < 32; v++) {
		snprintf(name, sizeof name, "exc_%d", v);
		if (add_sym(elf, name, 0, 1, out, n, &cap))
			goto oom;
	}
	if (add_sym(elf, "bmrt_vectors", 0x80, 16, out, n, &cap) ||
	    add_sym(elf, "bmrt_trap_entry", 0, 1, out, n, &cap))
		goto oom;
	return 0;
oom:
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}
