/* SPDX-License-Identifier: BSD-2-Clause */
/* The board note of a Cortex-M image (boot/cortexm/note.S): which QEMU board and CPU boot
 * it, and where its config area is, which `bmprof qemu` fills with QEMU's generic loader
 * (the MPS boards have no fw_cfg). */
#ifndef BMPROF_CM_BOARD_H
#define BMPROF_CM_BOARD_H

#include <stddef.h>
#include <stdint.h>

#define CM_BOARD_NOTE_NAME "bmprof"
#define CM_BOARD_NOTE_TYPE 1

struct cm_board {
	char machine[32];        /* QEMU -M: "mps2-an385" */
	char cpu[32];            /* QEMU -cpu: "cortex-m3" */
	uint32_t config_addr;    /* the config area */
	uint32_t config_size;    /* its bytes; the text must leave one for the NUL */
};

/* The board note of the ELF at path: 1 with b filled, 0 if it has none, -1 with a one-line
 * reason in err (unreadable, a malformed note). */
int cm_board_read(const char *path, struct cm_board *b, char *err, size_t n);

#endif
