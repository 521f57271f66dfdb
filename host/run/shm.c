/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared-memory transport, host side. See shm.h and docs/transport-shm.md. */
#include "run/shm.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "wire.h"

#define IDLE_SLEEP_NS 200000L    /* between polls that found nothing */

int shm_file_create(struct shm_file *f, size_t size, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	memset(f, 0, sizeof *f);
	if (!dir || !*dir)
		dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(f->path, sizeof f->path, "%s/bmprof-shm-XXXXXX", dir);
	fd = mkstemp(f->path);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create the shared-memory file %s: %s (set TMPDIR to "
			 "a writable directory)", f->path, strerror(errno));
		f->path[0] = 0;
		return -1;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		snprintf(err, errlen, "cannot size the shared-memory file %s to %zu bytes: %s",
			 f->path, size, strerror(errno));
		goto fail;
	}
	f->base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f->base == MAP_FAILED) {
		f->base = NULL;
		snprintf(err, errlen, "cannot map the shared-memory file %s: %s", f->path,
			 strerror(errno));
		goto fail;
	}
	close(fd);
	f->size = size;
	__atomic_store_n((uint32_t *)((uint8_t *)f->base + BMPROF_RING_H_ATTACHED), 1,
			 __ATOMIC_RELEASE);
	return 0;
fail:
	close(fd);
	unlink(f->path);
	f->path[0] = 0;
	return -1;
}

void shm_file_destroy(struct shm_file *f)
{
	if (f->base)
		munmap(f->base, f->size);
	if (f->path[0])
		unlink(f->path);
	f->base = NULL;
	f->path[0] = 0;
}

int shm_parse_size(const char *s, size_t *out, char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!errno && isdigit((unsigned char)*s)) {
		if ((*end == 'K' || *end == 'k') && !end[1])
			v <<= 10, end++;
		else if ((*end == 'M' || *end == 'm') && !end[1])
			v <<= 20, end++;
	}
	if (errno || !isdigit((unsigned char)*s) || *end || v < SHM_MIN_SIZE ||
	    v > SHM_MAX_SIZE || (v & (v - 1))) {
		snprintf(err, errlen, "--shm-size takes a power of two from 16K to 1024M (e.g. "
			 "4M), not '%s'", s);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

/* ---- the consumer ---- */

static uint32_t rd32(const uint8_t *b, size_t off)
{
	return __atomic_load_n((const uint32_t *)(b + off), __ATOMIC_ACQUIRE);
}

static uint16_t rd16(const uint8_t *b, size_t off)
{
	return __atomic_load_n((const uint16_t *)(b + off), __ATOMIC_RELAXED);
}

static uint64_t *ctl64(const struct shm_consumer *c, unsigned i, unsigned off)
{
	return (uint64_t *)(c->base + BMPROF_RING_HDR_SIZE + (size_t)i * BMPROF_RING_CTL_SIZE + off);
}

void shm_consumer_init(struct shm_consumer *c, void *base, size_t size,
		       void (*push)(void *ctx, const void *buf, size_t n), void *ctx)
{
	memset(c, 0, sizeof *c);
	c->base = base;
	c->size = size;
	c->push = push;
	c->ctx = ctx;
}

/* The header, once the target has written it: 1 when it describes rings that fit. */
static int attach(struct shm_consumer *c)
{
	uint32_t ds, off, n;

	if (c->nrings)
		return 1;
	if (c->size < BMPROF_RING_HDR_SIZE || rd32(c->base, BMPROF_RING_H_MAGIC) != BMPROF_RING_MAGIC)
		return 0;
	n = rd16(c->base, BMPROF_RING_H_NRINGS);
	ds = rd32(c->base, BMPROF_RING_H_DATA_SIZE);
	off = rd32(c->base, BMPROF_RING_H_DATA_OFF);
	if (rd16(c->base, BMPROF_RING_H_VERSION) != BMPROF_RING_VERSION || !n ||
	    n > BMPROF_RING_MAX || ds < BMPROF_RING_MIN_DATA || (ds & (ds - 1)) ||
	    rd32(c->base, BMPROF_RING_H_CTL_OFF) != BMPROF_RING_HDR_SIZE ||
	    off < BMPROF_RING_HDR_SIZE + n * BMPROF_RING_CTL_SIZE ||
	    (uint64_t)off + (uint64_t)n * ds > c->size) {
		for (unsigned i = 0; i < BMPROF_RING_MAX; i++)
			c->st[i].corrupt = 1;
		return 0;
	}
	c->data_size = ds;
	c->data_off = off;
	c->nrings = n;
	return 1;
}

static void copy_out(const struct shm_consumer *c, unsigned i, uint64_t pos, uint8_t *d,
		     uint32_t n)
{
	const uint8_t *data = c->base + c->data_off + (size_t)i * c->data_size;
	uint32_t mask = c->data_size - 1, at = (uint32_t)pos & mask, first = c->data_size - at;

	if (first > n)
		first = n;
	memcpy(d, data + at, first);
	memcpy(d + first, data, n - first);
}

static void pause_us(unsigned us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static size_t poll_ring(struct shm_consumer *c, unsigned i)
{
	struct shm_ring_stats *s = &c->st[i];
	uint64_t *headp = ctl64(c, i, BMPROF_RING_C_HEAD), *tailp = ctl64(c, i, BMPROF_RING_C_TAIL);
	uint64_t head, tail;
	size_t n = 0;

	if (s->corrupt)
		return 0;
	head = __atomic_load_n(headp, __ATOMIC_ACQUIRE);
	tail = __atomic_load_n(tailp, __ATOMIC_RELAXED);
	while (tail != head) {
		uint8_t rh[BMPROF_RING_REC_HDR];
		uint32_t seq, len, gap;
		uint64_t rec;

		if (head - tail < BMPROF_RING_REC_HDR || head - tail > c->data_size) {
			s->corrupt = 1;
			break;
		}
		copy_out(c, i, tail, rh, sizeof rh);
		seq = bmprof_get32(rh);
		len = bmprof_get32(rh + 4);
		rec = BMPROF_RING_REC_HDR + (((uint64_t)len + 7) & ~7ull);
		if (len < BMPROF_FRAME_HDR + BMPROF_FRAME_CRC || len > sizeof c->rec - 8 ||
		    rec > head - tail) {
			s->corrupt = 1;
			break;
		}
		copy_out(c, i, tail + BMPROF_RING_REC_HDR, c->rec, len);
		tail += rec;
		__atomic_store_n(tailp, tail, __ATOMIC_RELEASE);
		gap = seq - (uint32_t)c->expect[i];
		s->gaps += gap;
		c->expect[i] += (uint64_t)gap + 1;
		s->records++;
		s->bytes += len;
		c->push(c->ctx, c->rec, len);
		n++;
		if (c->delay_us)
			pause_us(c->delay_us);
		if (tail == head)
			head = __atomic_load_n(headp, __ATOMIC_ACQUIRE);
		if (c->stop && c->delay_us)
			break;
	}
	return n;
}

size_t shm_consumer_poll(struct shm_consumer *c)
{
	size_t n = 0;

	if (!attach(c))
		return 0;
	/* HELLO is ring 0's first record: the other rings wait for it */
	for (unsigned i = 0; i < c->nrings && (i == 0 || c->st[0].records); i++)
		n += poll_ring(c, i);
	return n;
}

/* hold: until the producers' final flush begins, nothing is consumed */
static int held(const struct shm_consumer *c)
{
	return c->hold && !(rd32(c->base, BMPROF_RING_H_FLAGS) & BMPROF_RING_F_FINAL);
}

static void *consume(void *arg)
{
	struct shm_consumer *c = arg;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
		if (held(c) || !shm_consumer_poll(c))
			pause_us(IDLE_SLEEP_NS / 1000);
	return NULL;
}

/* The thread never takes SIGINT or SIGTERM: they go to the thread that waits for them
 * (qemu_run's), which stops QEMU. */
int shm_consumer_start(struct shm_consumer *c)
{
	sigset_t stop, old;
	int rc;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	c->stop = 0;
	rc = pthread_create(&c->thread, NULL, consume, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -1;
	c->running = 1;
	return 0;
}

void shm_consumer_stop(struct shm_consumer *c)
{
	unsigned delay = c->delay_us;

	if (c->running) {
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
		pthread_join(c->thread, NULL);
		c->running = 0;
	}
	/* The producers are gone: take the rest at full speed. */
	c->delay_us = 0;
	c->stop = 0;
	while (shm_consumer_poll(c))
		;
	c->delay_us = delay;
}

void shm_consumer_totals(const struct shm_consumer *c, struct shm_totals *t)
{
	memset(t, 0, sizeof *t);
	t->nrings = c->nrings;
	t->agree = 1;
	for (unsigned i = 0; i < BMPROF_RING_MAX; i++)
		t->corrupt |= c->st[i].corrupt;
	if (!c->nrings)
		return;
	t->final = (rd32(c->base, BMPROF_RING_H_FLAGS) & BMPROF_RING_F_FINAL) != 0;
	for (unsigned i = 0; i < c->nrings; i++) {
		struct shm_ring_stats *s = &t->ring[i];
		uint64_t lost;

		*s = c->st[i];
		s->seq = __atomic_load_n(ctl64(c, i, BMPROF_RING_C_SEQ), __ATOMIC_ACQUIRE);
		s->dropped_records = __atomic_load_n(ctl64(c, i, BMPROF_RING_C_DROP_REC),
						     __ATOMIC_RELAXED);
		s->dropped_bytes = __atomic_load_n(ctl64(c, i, BMPROF_RING_C_DROP_BYTES),
						   __ATOMIC_RELAXED);
		lost = s->seq >= c->expect[i] ? s->gaps + (s->seq - c->expect[i]) : s->gaps;
		s->lost = lost;
		if (lost != s->dropped_records || s->seq < c->expect[i])
			t->agree = 0;
		t->records += s->records;
		t->bytes += s->bytes;
		t->dropped_records += s->dropped_records;
		t->dropped_bytes += s->dropped_bytes;
		t->lost_records += lost;
	}
}
