/* SPDX-License-Identifier: BSD-2-Clause */
/* Capturing a live stream: one object owns the frame reader, the profile model and the
 * profile file writer. Bytes pushed in (from a serial device, a pipe, QEMU's serial output)
 * are split into console text, handed to on_text at once, and frames, each applied to the
 * model and appended verbatim to the profile file; the runtime's messages (LOG frames) are
 * also handed to on_log as they arrive, HELLO or not. The model ends up exactly as
 * profile_load() of the saved file gives it.
 *
 *   struct capture *c = capture_open(&opts, err, sizeof err);
 *   while ((n = read(fd, buf, sizeof buf)) > 0 && !capture_ended(c))
 *           capture_push(c, buf, n);
 *   capture_finish(c);                     end of input
 *   summary_print(stderr, capture_profile(c), ...);
 *   capture_save(c, err, sizeof err);      or skip it to discard the file
 *   capture_free(c);
 */
#ifndef BMPROF_CAPTURE_H
#define BMPROF_CAPTURE_H

#include <stddef.h>
#include "profile.h"
#include "profile/profile_io.h"
#include "host/reader.h"

struct capture_opts {
	const char *path;          /* profile file to write; NULL keeps the profile in memory */
	const char *elf;           /* meta "elf" (made absolute); NULL if not known */
	const char *accel;         /* meta "accel" ("tcg", "kvm", "board"); NULL to leave out */
	const char *command;       /* meta "command"; NULL to leave out */
	const struct bm_kv *meta;  /* more meta keys, written after the ones above */
	size_t nmeta;
	void (*on_text)(void *ctx, const char *text, size_t len);  /* console text; NULL drops */
	/* a LOG frame's message (text not terminated, not escaped); NULL: not shown */
	void (*on_log)(void *ctx, uint8_t level, const char *text, size_t len);
	void *ctx;
};

struct capture;

/* Opens PATH.tmp (when a path is given) and writes the meta frames, with "date" (local
 * time, ISO 8601) and "host" (host name) added. NULL with a reason in err. */
struct capture *capture_open(const struct capture_opts *o, char *err, size_t errlen);
/* Feed received bytes. Returns 0, or -1 once writing the file has failed (the model and
 * the console keep going; capture_save() reports the error). */
int capture_push(struct capture *c, const void *buf, size_t len);
/* Feed one whole frame (magic to CRC) from a transport that delivers frames as records
 * (the shared-memory rings): it does not go through the byte reader, so a record that
 * arrives while capture_push's bytes stop inside a frame (or inside its magic) cannot
 * split that frame. A record that is not one good frame is counted as a bad frame and
 * its bytes as skipped. Returns as capture_push. */
int capture_push_frame(struct capture *c, const void *buf, size_t len);
/* More HOST_META keys, found during the run (into the file and the model). 0 or -1. */
int capture_meta(struct capture *c, const struct bm_kv *kv, size_t n);
/* An END frame has arrived. */
int capture_ended(const struct capture *c);
/* No more input from the target: a partial frame is counted as truncated. Idempotent;
 * capture_finish() does it too. */
void capture_end_input(struct capture *c);
/* A frame in the target's format that the host built (the samples it recovered from a
 * stopped target's memory), into the file and the model; after capture_end_input(), before
 * capture_finish(). 0, or -1 if the file could not be written. */
int capture_add_frame(struct capture *c, uint8_t type, const uint8_t *payload, uint16_t len);
/* End of input: a partial frame is counted as truncated, and the reader's statistics are
 * written as the HOST_STREAM frame and applied to the model. Idempotent; after it,
 * capture_profile() is complete (frames_ok, frames_bad_crc, ... are filled in). */
void capture_finish(struct capture *c);
/* Finish if needed, then close the file and rename it into place (PATH.old keeps a file
 * that was there). 0, or -1 with a reason in err. Without a path it does nothing. */
int capture_save(struct capture *c, char *err, size_t errlen);
struct profile *capture_profile(struct capture *c);
/* The reader's counters so far (text_bytes, frames_ok, ...). */
const struct reader_stats *capture_stats(const struct capture *c);
/* Free everything; a file not saved is removed (PATH is left as it was). */
void capture_free(struct capture *c);

#endif
