/* SPDX-License-Identifier: BSD-2-Clause */
/* Live stream capture: reader + profile model + profile file. See capture.h. */
#include "profile/capture.h"
#include "profile/profile_bound.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct capture {
	struct reader reader;
	struct profile profile;
	struct profile_writer writer;
	int writing;               /* the file is open */
	int write_failed;
	int ended;
	int input_ended;
	int finished;
	void (*on_text)(void *ctx, const char *text, size_t len);
	void (*on_log)(void *ctx, uint8_t level, const char *text, size_t len);
	void *ctx;
};

static void show_log(struct capture *c, const uint8_t *payload, uint16_t len)
{
	const char *text;
	size_t n;
	uint8_t level;

	if (c->on_log && !profile_log_decode(payload, len, &level, &text, &n))
		c->on_log(c->ctx, level, text, n);
}

/* A good frame, raw (n bytes, magic to CRC): into the file verbatim and into the model. */
static void apply_frame(struct capture *c, const uint8_t *raw, size_t n)
{
	uint8_t type = raw[4];
	const uint8_t *payload = raw + BMPROF_FRAME_HDR;
	uint16_t len = bmprof_get16(raw + 6);

	if (c->writing && profile_writer_raw(&c->writer, raw, n))
		c->write_failed = 1;
	switch (profile_apply_frame(&c->profile, type, payload, len)) {
	case 1:
		reader_count_unknown(&c->reader);
		break;
	case 0:
		if (type == BMPROF_FRAME_END)
			c->ended = 1;
		if (type == BMPROF_FRAME_LOG)
			show_log(c, payload, len);
		break;
	}
}

static void on_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	struct capture *c = ctx;
	size_t n;
	const uint8_t *raw = reader_raw_frame(&c->reader, &n);

	(void)type, (void)payload, (void)len;   /* all of it is in raw */
	apply_frame(c, raw, n);
}

static void on_text(void *ctx, const char *text, size_t len)
{
	struct capture *c = ctx;

	if (c->on_text)
		c->on_text(c->ctx, text, len);
}

/* A host frame: into the file and into the model, so both say the same. */
static int host_frame(struct capture *c, uint8_t type, const uint8_t *payload, uint16_t len)
{
	profile_apply_frame(&c->profile, type, payload, len);
	if (c->writing && profile_writer_frame(&c->writer, type, payload, len)) {
		c->write_failed = 1;
		return -1;
	}
	return 0;
}

static int emit_meta(void *ctx, const uint8_t *payload, uint16_t len)
{
	return host_frame(ctx, BMPROF_FRAME_HOST_META, payload, len);
}

static int write_meta(struct capture *c, const struct capture_opts *o)
{
	struct bm_kv *kv = calloc(o->nmeta + 5, sizeof(*kv));
	char elf[PATH_MAX], date[64] = "", host[256] = "";
	time_t now = time(NULL);
	struct tm tm;
	size_t n = 0;
	int r;

	if (!kv)
		return -1;
	if (o->elf)
		kv[n++] = (struct bm_kv){ "elf", realpath(o->elf, elf) ? elf : o->elf };
	if (o->accel)
		kv[n++] = (struct bm_kv){ "accel", o->accel };
	if (o->command)
		kv[n++] = (struct bm_kv){ "command", o->command };
	if (localtime_r(&now, &tm) && strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm))
		kv[n++] = (struct bm_kv){ "date", date };
	if (!gethostname(host, sizeof(host) - 1) && host[0])
		kv[n++] = (struct bm_kv){ "host", host };
	if (o->nmeta)
		memcpy(kv + n, o->meta, o->nmeta * sizeof(*kv));
	n += o->nmeta;
	r = profile_meta_frames(kv, n, emit_meta, c);
	free(kv);
	return r;
}

struct capture *capture_open(const struct capture_opts *o, char *err, size_t errlen)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c || reader_init(&c->reader, on_frame, on_text, c)) {
		free(c);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	profile_init(&c->profile);
	if (profile_bound(&c->profile.max_entries, err, errlen)) {
		capture_free(c);
		return NULL;
	}
	c->on_text = o->on_text;
	c->on_log = o->on_log;
	c->ctx = o->ctx;
	if (o->path) {
		if (profile_writer_open(&c->writer, o->path, err, errlen)) {
			capture_free(c);
			return NULL;
		}
		c->writing = 1;
	}
	if (profile_set_meta(&c->profile, "format", PROFILE_FORMAT) || write_meta(c, o)) {
		if (c->writer.err)
			snprintf(err, errlen, "cannot write %s: %s", c->writer.tmp,
				 strerror(c->writer.err));
		else
			snprintf(err, errlen, "out of memory");
		capture_free(c);
		return NULL;
	}
	return c;
}

int capture_meta(struct capture *c, const struct bm_kv *kv, size_t n)
{
	return profile_meta_frames(kv, n, emit_meta, c);
}

int capture_push(struct capture *c, const void *buf, size_t len)
{
	reader_push(&c->reader, buf, len);
	return c->write_failed ? -1 : 0;
}

int capture_push_frame(struct capture *c, const void *buf, size_t len)
{
	const uint8_t *f = buf;

	if (len >= BMPROF_FRAME_HDR + BMPROF_FRAME_CRC && f[0] == BMPROF_MAGIC0 &&
	    f[1] == BMPROF_MAGIC1 && f[2] == BMPROF_MAGIC2 && f[3] == BMPROF_MAGIC3 &&
	    bmprof_get16(f + 6) == len - BMPROF_FRAME_HDR - BMPROF_FRAME_CRC &&
	    bmprof_crc32(0, f + 4, (unsigned long)len - 8) == bmprof_get32(f + len - 4)) {
		c->reader.st.frames_ok++;
		apply_frame(c, f, len);
	} else {
		c->reader.st.frames_bad_crc++;
		c->reader.st.bytes_skipped += len;
	}
	return c->write_failed ? -1 : 0;
}

int capture_ended(const struct capture *c)
{
	return c->ended;
}

void capture_end_input(struct capture *c)
{
	if (c->input_ended)
		return;
	c->input_ended = 1;
	reader_finish(&c->reader);
}

int capture_add_frame(struct capture *c, uint8_t type, const uint8_t *payload, uint16_t len)
{
	return host_frame(c, type, payload, len);
}

void capture_finish(struct capture *c)
{
	uint8_t st[PROFILE_STREAM_LEN];

	if (c->finished)
		return;
	c->finished = 1;
	capture_end_input(c);
	profile_stream_encode(&c->reader.st, st);
	host_frame(c, BMPROF_FRAME_HOST_STREAM, st, sizeof(st));
	/* out of memory leaves the samples unsorted, their counts still right */
	profile_settle(&c->profile);
}

int capture_save(struct capture *c, char *err, size_t errlen)
{
	capture_finish(c);
	if (!c->writing)
		return 0;
	c->writing = 0;
	return profile_writer_close(&c->writer, err, errlen);
}

struct profile *capture_profile(struct capture *c)
{
	return &c->profile;
}

const struct reader_stats *capture_stats(const struct capture *c)
{
	return &c->reader.st;
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	if (c->writing)
		profile_writer_abort(&c->writer);
	reader_free(&c->reader);
	profile_free(&c->profile);
	free(c);
}
