/* SPDX-License-Identifier: BSD-2-Clause */
/* Profile files (default name bmprof.data). A profile file is a frame stream in the wire
 * format of transport/wire.h:
 *
 *   HOST_META      "format" = "bmprof-profile-1" (always the first frame)
 *   HOST_META ...  the capture's keys: elf, accel, command, date, host, ...
 *   every frame received from the target, verbatim, in arrival order
 *   HOST_STREAM    what the reader rejected while receiving
 *
 * docs/profile-format.md describes it. The writer writes PATH.tmp and renames it over PATH
 * when closed; a file already at PATH is first renamed to PATH.old.
 */
#ifndef BMPROF_PROFILE_IO_H
#define BMPROF_PROFILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "profile.h"
#include "host/reader.h"

#define PROFILE_FORMAT "bmprof-profile-1"
#define PROFILE_DEFAULT_PATH "bmprof.data"
#define PROFILE_STREAM_LEN 40u     /* HOST_STREAM payload: five u64 */

struct bm_kv {
	const char *key, *value;
};

struct profile_writer {
	FILE *f;
	char *path, *tmp;
	int err;                   /* errno of the first failed write; 0 if none */
};

/* Create PATH.tmp and write the format frame. 0, or -1 with a reason in err. */
int profile_writer_open(struct profile_writer *w, const char *path, char *err, size_t errlen);
/* Build a frame (header and CRC) around payload and append it. 0, or -1 (see w->err). */
int profile_writer_frame(struct profile_writer *w, uint8_t type, const void *payload,
			 uint16_t len);
/* Append bytes that already form a whole frame (as reader_raw_frame() gives them). */
int profile_writer_raw(struct profile_writer *w, const void *frame, size_t len);
/* Flush, sync, close and rename into place. 0, or -1 with a reason in err; on failure
 * PATH.tmp is removed and PATH is left as it was. */
int profile_writer_close(struct profile_writer *w, char *err, size_t errlen);
/* Close and remove PATH.tmp, leaving PATH untouched. Safe after close or a failed open. */
void profile_writer_abort(struct profile_writer *w);

/* Encode kv[0..n) as HOST_META payloads, as many as needed (a key is cut to 255 bytes, a
 * value so that one entry fits a frame), calling emit once per payload. Returns 0, or the
 * first non-zero value emit returned. */
int profile_meta_frames(const struct bm_kv *kv, size_t n,
			int (*emit)(void *ctx, const uint8_t *payload, uint16_t len), void *ctx);
void profile_stream_encode(const struct reader_stats *st, uint8_t out[PROFILE_STREAM_LEN]);

/* Read a profile file into p (initialized by the caller). Returns 0; 1 if the file is
 * damaged or cut short but its intact frames were loaded (p->file_truncated is set for a
 * cut-short file; err says what is wrong); -1 if it cannot be used (missing, unreadable,
 * not a bmprof profile, more distinct entries than the bound; err says why). The samples
 * are settled (profile_settle). */
int profile_load(const char *path, struct profile *p, char *err, size_t errlen);
/* The same for a profile already in memory; name stands for the file in messages. */
int profile_load_mem(const void *data, size_t len, const char *name, struct profile *p,
		     char *err, size_t errlen);

#endif
