/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BMPROF_IMAGE_RUN_H
#define BMPROF_IMAGE_RUN_H

#include <limits.h>
#include "profile/capture.h"
#include "run/cm_board.h"
#include "run/qemu.h"
#include "run/recover.h"
#include "util/util.h"

/* Booting an image in QEMU and capturing its stream, for bmprof qemu and bmprof stat
 * (image_run.c). The image's console goes to stdout as it arrives.
 *
 *   struct image_run r = { .image = ..., .accel = ..., ... };
 *   if (image_run(&r)) return EXIT_FAILED;     (the reason is printed)
 *   ... capture_profile(r.cap), r.res ...
 *   rc = image_exit_status(&r);
 *   image_run_free(&r);
 */
struct image_run {
	const char *image;       /* the ELF as given */
	const char *qemu;        /* --qemu PATH, or NULL: from the ELF's machine */
	const char *out;         /* profile file to write; NULL keeps the stream in memory */
	enum qemu_accel accel;
	int icount;
	int tcg_single;          /* TCG in one thread (qemu_opts.tcg_single) */
	unsigned smp;            /* CPUs (-smp N, meta "smp"); 0: not given */
	unsigned timeout;        /* seconds; 0: none */
	unsigned long freq;      /* the timer's rate (config freq=) */
	const char *config;      /* the whole opt/bmprof/config text, or NULL: freq= alone */
	char **extra;            /* QEMU arguments after -- */
	int nextra;
	const char *command;     /* meta "command" */
	const char *step;        /* which of several runs this is ("run 2/3"), first on the
				  * status line; NULL: none */
	const struct bm_kv *meta;  /* more meta keys */
	size_t nmeta;
	int shm;                 /* the stream over shared-memory rings (docs/transport-shm.md) */
	size_t shm_size;         /* 0: SHM_DEFAULT_SIZE */
	unsigned shm_delay_us;   /* testing knob: the consumer sleeps this long per record */
	int shm_at_end;          /* testing knob: the consumer waits for the final flush */
	const char *firmware_log;    /* x86-64: the debug console into this file (meta
				      * firmware_log); NULL or "": none */
	const char *firmware_debug;  /* meta firmware_debug; NULL or "": none */
	const char *params;      /* --param NAME=VALUE,... for the meta "params"; NULL or "":
				  * none (the config carries them) */
	int user;                /* main in ring 3 (config user=1, meta "user_mode"): x86-64
				  * images booted directly only */
	unsigned flush_ms;       /* the periodic flush (config flush_ms=, meta "flush_ms"); 0 off */
	int progress_flush;      /* flush_ms not chosen: PROGRESS_FLUSH_MS when stderr is a
				  * terminal (the status line counts what arrives) */
	unsigned cpu_wait_ms;    /* config cpu_wait_ms= (meta "cpu_wait_ms"); 0: the image's own */
	unsigned stack_depth;    /* call stacks of at most this many frames (config stack_depth=,
				  * meta "stack_depth"); 0: off */
	int raw;                 /* raw samples with the registers (config raw=1, meta
				  * "data_space") */
	double stall;            /* stop QEMU when no frame arrived for this many seconds (after
				  * the first; meta "stall"); 0: never */
	/* the image's console text, as it arrives; NULL: to stdout */
	void (*on_text)(void *ctx, const char *text, size_t len);
	void *text_ctx;
	int recover;             /* when bmprof stops QEMU (timeout, signal, stall), read the
				  * samples the image still holds from its memory first */
	/* filled in by image_run */
	int recovered;           /* the profile holds what was read from the image's memory */
	struct recover_result rec;
	int shm_unused;          /* shm asked for, but the image sent over serial (reported) */
	char abs_image[PATH_MAX];  /* the ELF: symbolized, and booted unless abs_efi is set */
	char abs_efi[PATH_MAX];    /* the UEFI application booted (qemu_uefi.h), or "" */
	const struct qemu_machine *machine;
	struct cm_board board;   /* a Cortex-M image's board note (board.machine[0] != 0) */
	int accel_used;          /* QEMU_ACCEL_KVM or QEMU_ACCEL_TCG */
	struct qemu_result res;
	struct capture *cap;     /* finished when image_run returns */
};

/* Check the image, pick QEMU and the accelerator, write the config to a temporary file
 * (removed afterwards), run QEMU and capture its stream. SIGPIPE is ignored from then on:
 * a closed stdout loses console text, not the profile. 0 when QEMU ran (r->res and r->cap
 * are set; the profile is not saved), or -1 with the reason printed. */
int image_run(struct image_run *r);
/* The messages for a run that did not end with the image's END frame. */
void image_say_how_it_ended(const struct image_run *r);
/* main()'s return value (low 8 bits) when the image exited normally, else EXIT_TIMEOUT,
 * EXIT_CRASHED or EXIT_INTERRUPTED. */
int image_exit_status(const struct image_run *r);
void image_run_free(struct image_run *r);

#endif
