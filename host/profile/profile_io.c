/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading and writing profile files: see profile_io.h. */
#include "profile/profile_bound.h"
#include "profile/profile_io.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writer ---- */

static char *concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);

	if (s) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb + 1);
	}
	return s;
}

static int put(struct profile_writer *w, const void *p, size_t n)
{
	if (w->err)
		return -1;
	if (fwrite(p, 1, n, w->f) != n) {
		w->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int profile_writer_frame(struct profile_writer *w, uint8_t type, const void *payload,
			 uint16_t len)
{
	uint8_t hdr[BMPROF_FRAME_HDR] = { BMPROF_MAGIC0, BMPROF_MAGIC1, BMPROF_MAGIC2,
					  BMPROF_MAGIC3, type, 0 };
	uint8_t tail[BMPROF_FRAME_CRC];
	uint32_t crc;

	bmprof_put16(hdr + 6, len);
	crc = bmprof_crc32(0, hdr + 4, 4);
	crc = bmprof_crc32(crc, payload, len);
	bmprof_put32(tail, crc);
	if (put(w, hdr, sizeof(hdr)) || put(w, payload, len) || put(w, tail, sizeof(tail)))
		return -1;
	return 0;
}

int profile_writer_raw(struct profile_writer *w, const void *frame, size_t len)
{
	return put(w, frame, len);
}

static int emit_frame(void *ctx, const uint8_t *payload, uint16_t len)
{
	return profile_writer_frame(ctx, BMPROF_FRAME_HOST_META, payload, len);
}

int profile_writer_open(struct profile_writer *w, const char *path, char *err, size_t errlen)
{
	static const struct bm_kv format = { "format", PROFILE_FORMAT };

	memset(w, 0, sizeof(*w));
	w->path = strdup(path);
	/* unique: two runs writing the same profile never mix their frames */
	w->tmp = concat(path, ".tmp.XXXXXX");
	if (!w->path || !w->tmp) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	int fd = mkstemp(w->tmp);
	mode_t mask = umask(0);

	umask(mask);
	if (fd >= 0 && (fchmod(fd, 0666 & ~mask) || !(w->f = fdopen(fd, "wb")))) {
		close(fd);
		unlink(w->tmp);
		fd = -1;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", w->tmp, strerror(errno));
		goto fail;
	}
	if (profile_meta_frames(&format, 1, emit_frame, w)) {
		snprintf(err, errlen, "cannot write %s: %s", w->tmp, strerror(w->err));
		profile_writer_abort(w);
		return -1;
	}
	return 0;
fail:
	free(w->path);
	free(w->tmp);
	memset(w, 0, sizeof(*w));
	return -1;
}

void profile_writer_abort(struct profile_writer *w)
{
	if (w->f) {
		fclose(w->f);
		w->f = NULL;
	}
	if (w->tmp)
		unlink(w->tmp);
	free(w->path);
	free(w->tmp);
	memset(w, 0, sizeof(*w));
}

int profile_writer_close(struct profile_writer *w, char *err, size_t errlen)
{
	struct stat st;
	char *old = NULL;
	int e;

	if (!w->f) {
		snprintf(err, errlen, "profile file not open");
		return -1;
	}
	e = w->err;
	if (!e && (fflush(w->f) || fsync(fileno(w->f))))
		e = errno;
	if (fclose(w->f) && !e)
		e = errno;
	w->f = NULL;
	if (e) {
		snprintf(err, errlen, "cannot write %s: %s", w->tmp, strerror(e));
		goto fail;
	}
	if (!lstat(w->path, &st)) {
		old = concat(w->path, ".old");
		if (!old || rename(w->path, old)) {
			snprintf(err, errlen, "cannot rename %s to %s.old: %s", w->path, w->path,
				 old ? strerror(errno) : "out of memory");
			goto fail;
		}
	}
	if (rename(w->tmp, w->path)) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", w->tmp, w->path,
			 strerror(errno));
		goto fail;
	}
	free(old);
	free(w->path);
	free(w->tmp);
	memset(w, 0, sizeof(*w));
	return 0;
fail:
	free(old);
	profile_writer_abort(w);
	return -1;
}

/* ---- payload encoders ---- */

int profile_meta_frames(const struct bm_kv *kv, size_t n,
			int (*emit)(void *ctx, const uint8_t *payload, uint16_t len), void *ctx)
{
	/* the largest entry: 1 + 255 + 2 + value, and it must fit one payload */
	const size_t vmax = BMPROF_WIRE_MAX_PAYLOAD - 3 - 255;
	uint8_t *buf = malloc(BMPROF_WIRE_MAX_PAYLOAD);
	size_t used = 0, i;
	int r = 0;

	if (!buf)
		return -1;
	for (i = 0; i < n && !r; i++) {
		size_t kl = strlen(kv[i].key), vl = strlen(kv[i].value);

		if (kl > 255)
			kl = 255;
		if (vl > vmax)
			vl = vmax;
		if (used + 3 + kl + vl > BMPROF_WIRE_MAX_PAYLOAD) {
			r = emit(ctx, buf, (uint16_t)used);
			used = 0;
		}
		buf[used] = (uint8_t)kl;
		memcpy(buf + used + 1, kv[i].key, kl);
		bmprof_put16(buf + used + 1 + kl, (uint16_t)vl);
		memcpy(buf + used + 3 + kl, kv[i].value, vl);
		used += 3 + kl + vl;
	}
	if (!r && used)
		r = emit(ctx, buf, (uint16_t)used);
	free(buf);
	return r;
}

void profile_stream_encode(const struct reader_stats *st, uint8_t out[PROFILE_STREAM_LEN])
{
	bmprof_put64(out, st->frames_ok);
	bmprof_put64(out + 8, st->frames_bad_crc);
	bmprof_put64(out + 16, st->frames_unknown);
	bmprof_put64(out + 24, st->bytes_skipped);
	bmprof_put64(out + 32, st->truncated ? 1 : 0);
}

/* ---- loading ---- */

struct load {
	struct profile *p;
	struct reader r;
	int first_seen;
	int not_profile;           /* the first frame is not a bmprof-profile HOST_META */
	uint8_t first_type;
	const char *format;        /* the format value the first frame named, if any */
};

static void load_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	struct load *l = ctx;

	if (l->not_profile)
		return;
	if (!l->first_seen) {
		l->first_seen = 1;
		l->first_type = type;
		if (type != BMPROF_FRAME_HOST_META ||
		    profile_apply_frame(l->p, type, payload, len) ||
		    !(l->format = profile_meta(l->p, "format")) ||
		    strcmp(l->format, PROFILE_FORMAT))
			l->not_profile = 1;
		return;
	}
	/* Unknown frames were counted when the stream was captured (HOST_STREAM says how many);
	 * they are not counted again here. */
	profile_apply_frame(l->p, type, payload, len);
}

static const char *type_name(uint8_t t)
{
	switch (t) {
	case BMPROF_FRAME_HELLO: return "HELLO";
	case BMPROF_FRAME_EVENT: return "EVENT";
	case BMPROF_FRAME_SAMPLES: return "SAMPLES";
	case BMPROF_FRAME_STACKS: return "STACKS";
	case BMPROF_FRAME_STACK_SAMPLES: return "STACK_SAMPLES";
	case BMPROF_FRAME_RAW_SAMPLES: return "RAW_SAMPLES";
	case BMPROF_FRAME_TOTALS: return "TOTALS";
	case BMPROF_FRAME_END: return "END";
	case BMPROF_FRAME_HOST_STREAM: return "HOST_STREAM";
	default: return NULL;
	}
}

/* A string from the file that can go into a one-line message as it is. */
static int printable(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (n == 64 || s[n] < 0x20 || s[n] > 0x7e)
			return 0;
	return 1;
}

static int not_profile_err(const char *path, struct load *l, char *err, size_t errlen)
{
	const char *tn = type_name(l->first_type);

	if (!l->first_seen && !l->r.st.text_bytes && !l->r.st.bytes_skipped)
		snprintf(err, errlen, "%s is empty: not a bmprof profile", path);
	else if (!l->first_seen)
		snprintf(err, errlen, "%s is not a bmprof profile (no bmprof frames in it)", path);
	else if (l->format && !strncmp(l->format, "bmprof-profile-", 15) && printable(l->format))
		snprintf(err, errlen, "%s has profile format %s; this bmprof reads %s: use a newer "
			 "bmprof", path, l->format, PROFILE_FORMAT);
	else if (l->first_type == BMPROF_FRAME_HELLO)
		snprintf(err, errlen, "%s is a raw bmprof stream, not a profile: turn it into one "
			 "with bmprof record --from %s", path, path);
	else if (tn)
		snprintf(err, errlen, "%s is not a bmprof profile (it starts with a %s frame, "
			 "not the format header)", path, tn);
	else
		snprintf(err, errlen, "%s is not a bmprof profile (it does not start with the "
			 "format header)", path);
	return -1;
}

/* Push bytes until the first frame shows the input is not a profile. */
static void load_push(struct load *l, const uint8_t *data, size_t n)
{
	const size_t piece = 65536;

	while (n && !l->not_profile) {
		size_t k = n < piece ? n : piece;

		reader_push(&l->r, data, k);
		data += k;
		n -= k;
		/* a profile starts with its header frame and holds no text: bytes before a
		 * first frame settle it, however long the file (/dev/zero, a sparse file) */
		if (!l->first_seen && (l->r.st.text_bytes || l->r.st.bytes_skipped))
			l->not_profile = 1;
	}
}

static int read_all(FILE *f, struct load *l)
{
	uint8_t buf[65536];
	size_t n;

	while (!l->not_profile && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		load_push(l, buf, n);
	return ferror(f) ? -1 : 0;
}

/* After the last push: finish the reader and judge what was loaded. */
static int load_end(const char *name, struct load *l, char *err, size_t errlen)
{
	struct reader_stats *st = &l->r.st;
	struct profile *p = l->p;

	reader_finish(&l->r);
	reader_free(&l->r);
	if (l->not_profile || !l->first_seen)
		return not_profile_err(name, l, err, errlen);
	if (profile_settle(p)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (p->over_cap) {
		profile_bound_exceeded(err, errlen, name, p->max_entries);
		return -1;
	}

	/* damage to the file itself, counted with what the capture rejected; a profile file
	 * holds no text, so bytes outside frames are damage too */
	p->frames_bad_crc += st->frames_bad_crc;
	p->bytes_skipped += st->bytes_skipped + st->text_bytes;
	if (st->truncated || !p->have_stream)
		p->file_truncated = 1;
	if (p->file_truncated) {
		snprintf(err, errlen, "%s is cut short: loaded the %llu intact frames before the "
			 "cut", name, (unsigned long long)st->frames_ok);
		return 1;
	}
	if (st->frames_bad_crc || st->bytes_skipped || st->text_bytes) {
		snprintf(err, errlen, "%s is damaged: skipped %llu bad frames (%llu bytes)", name,
			 (unsigned long long)st->frames_bad_crc,
			 (unsigned long long)(st->bytes_skipped + st->text_bytes));
		return 1;
	}
	return 0;
}

/* The bound on p's entries, unless the caller set one. 0, or -1 with the reason. */
static int bound(struct profile *p, char *err, size_t errlen)
{
	return p->max_entries ? 0 : profile_bound(&p->max_entries, err, errlen);
}

int profile_load(const char *path, struct profile *p, char *err, size_t errlen)
{
	struct load l = { .p = p };
	FILE *f;
	int e;

	if (bound(p, err, errlen))
		return -1;
	f = bm_fopen_regular(path, "a profile", err, errlen);
	if (!f) {
		if (errno == ENOENT && access(path, F_OK))
			snprintf(err, errlen, "%s: no such file (record a profile with bmprof qemu "
				 "or bmprof record first)", path);
		return -1;
	}
	if (reader_init(&l.r, load_frame, NULL, &l)) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (read_all(f, &l)) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		fclose(f);
		reader_free(&l.r);
		return -1;
	}
	fclose(f);
	return load_end(path, &l, err, errlen);
}

int profile_load_mem(const void *data, size_t len, const char *name, struct profile *p,
		     char *err, size_t errlen)
{
	struct load l = { .p = p };

	if (bound(p, err, errlen))
		return -1;
	if (reader_init(&l.r, load_frame, NULL, &l)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	load_push(&l, data, len);
	return load_end(name, &l, err, errlen);
}
