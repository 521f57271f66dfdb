/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M unwind's frame at given pcs, for test_cm_unwind_cfi.sh: the image's .text
 * (a raw dump, its address given), then lines "FUNCTION-START PC" (hex) on stdin; prints
 * "PC CFA-BASE CFA-OFF RA-OFF R7-OFF" (cm_frame_at with the pc interrupted there) or
 * "PC -1". */
#include <stdio.h>
#include <stdlib.h>
#include "../../target/arch/cortexm/unwind.c"

static uint16_t text[1 << 21];

int main(int argc, char **argv)
{
	struct bmprof_unwind_env e = { 0 };
	unsigned long base, fn, pc;
	struct cm_frame f;
	FILE *in;
	size_t n;

	if (argc != 3 || !(in = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: cm_frames TEXT.bin TEXT-ADDRESS <queries\n");
		return 2;
	}
	n = fread(text, 1, sizeof text, in);
	fclose(in);
	base = strtoul(argv[2], 0, 16);
	e.code = (struct bmprof_range){ (uintptr_t)text, (uintptr_t)text + n };
	while (scanf("%lx %lx", &fn, &pc) == 2) {
		if (cm_frame_at(&e, (uintptr_t)text + fn - base, (uintptr_t)text + pc - base, 1, &f))
			printf("%lx -1\n", pc);
		else
			printf("%lx %d %d %d %d\n", pc, f.cfa_base, (int)f.cfa_off, (int)f.ra_off,
			       (int)f.r7_off);
	}
	return 0;
}
