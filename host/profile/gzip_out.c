/* SPDX-License-Identifier: BSD-2-Clause */
/* Parallel gzip writer (gzip_out.h). The caller's thread fills blocks and writes the
 * compressed ones out in order; workers deflate the blocks in between. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile/gzip_out.h"

#define BLOCK ((size_t)1 << 20)
#define DICT ((size_t)32768)
#define MAX_THREADS 8

enum { SLOT_EMPTY, SLOT_FILLED, SLOT_DONE };

struct slot {
	int state;
	int last;                  /* the final block: ends the deflate stream */
	uint64_t seq;
	unsigned char *in, *out;
	size_t nin, nout, cap_out;
	unsigned char dict[DICT];  /* the input before this block */
	size_t ndict;
	uLong crc;
	int failed;
};

struct gzip_out {
	FILE *f;
	int level, failed, stop;
	unsigned nthreads, nslots;
	pthread_t tid[MAX_THREADS];
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct slot *slots;
	uint64_t filling;          /* the block the caller is filling */
	uint64_t next_job;         /* the next block a worker takes */
	unsigned char prev[DICT];  /* the last input bytes so far, for the next block's dict */
	size_t nprev;
	uLong crc;
	uint64_t total;
};

static struct slot *slot_of(struct gzip_out *g, uint64_t seq)
{
	return &g->slots[seq % g->nslots];
}

/* Deflate one block into its out buffer (raw deflate, primed with its dictionary). */
static void compress_block(z_stream *z, struct slot *s)
{
	size_t bound = deflateBound(z, (uLong)s->nin) + 1024;

	s->failed = 1;
	if (bound > s->cap_out) {
		free(s->out);
		s->out = malloc(bound);
		s->cap_out = s->out ? bound : 0;
		if (!s->out)
			return;
	}
	if (deflateReset(z) != Z_OK ||
	    (s->ndict && deflateSetDictionary(z, s->dict, (uInt)s->ndict) != Z_OK))
		return;
	z->next_in = s->in;
	z->avail_in = (uInt)s->nin;
	z->next_out = s->out;
	z->avail_out = (uInt)s->cap_out;
	int rc = deflate(z, s->last ? Z_FINISH : Z_SYNC_FLUSH);
	/* room to spare: a block that filled its buffer may have had more to write */
	if ((s->last && rc != Z_STREAM_END) || (!s->last && rc != Z_OK) || z->avail_in ||
	    !z->avail_out)
		return;
	s->nout = s->cap_out - z->avail_out;
	s->crc = crc32(0L, s->in, (uInt)s->nin);
	s->failed = 0;
}

static void *worker(void *arg)
{
	struct gzip_out *g = arg;
	z_stream z;

	memset(&z, 0, sizeof z);
	int ok = deflateInit2(&z, g->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	pthread_mutex_lock(&g->lock);
	for (;;) {
		struct slot *s = slot_of(g, g->next_job);
		while (!g->stop && !(s->state == SLOT_FILLED && s->seq == g->next_job)) {
			pthread_cond_wait(&g->work, &g->lock);
			s = slot_of(g, g->next_job);
		}
		if (s->state != SLOT_FILLED || s->seq != g->next_job)
			break;
		g->next_job++;
		pthread_mutex_unlock(&g->lock);
		if (ok)
			compress_block(&z, s);
		else
			s->failed = 1;
		pthread_mutex_lock(&g->lock);
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&g->done);
	}
	pthread_mutex_unlock(&g->lock);
	if (ok)
		deflateEnd(&z);
	return NULL;
}

static int put(struct gzip_out *g, const void *p, size_t n)
{
	if (!g->failed && n && fwrite(p, 1, n, g->f) != n)
		g->failed = 1;
	return g->failed ? -1 : 0;
}

/* Wait for block seq, write it out and free its slot. */
static void drain(struct gzip_out *g, uint64_t seq)
{
	struct slot *s = slot_of(g, seq);

	pthread_mutex_lock(&g->lock);
	while (s->state != SLOT_DONE)
		pthread_cond_wait(&g->done, &g->lock);
	pthread_mutex_unlock(&g->lock);
	if (s->failed)
		g->failed = 1;
	else if (!put(g, s->out, s->nout))
		g->crc = crc32_combine(g->crc, s->crc, (z_off_t)s->nin);
	s->state = SLOT_EMPTY;
	s->nin = 0;
}

/* The slot for block seq, empty (its previous block written out). */
static struct slot *claim(struct gzip_out *g, uint64_t seq)
{
	struct slot *s = slot_of(g, seq);

	pthread_mutex_lock(&g->lock);
	int busy = s->state != SLOT_EMPTY;
	pthread_mutex_unlock(&g->lock);
	if (busy)
		drain(g, s->seq);
	s->seq = seq;
	s->nin = 0;
	s->last = 0;
	memcpy(s->dict, g->prev, g->nprev);
	s->ndict = g->nprev;
	return s;
}

/* Hand the block being filled to the workers. */
static void submit(struct gzip_out *g, int last)
{
	struct slot *s = slot_of(g, g->filling);

	/* the next block's dictionary: the last 32 KiB of everything so far */
	if (s->nin >= DICT) {
		memcpy(g->prev, s->in + s->nin - DICT, DICT);
		g->nprev = DICT;
	} else {
		size_t keep = g->nprev + s->nin > DICT ? DICT - s->nin : g->nprev;
		memmove(g->prev, g->prev + g->nprev - keep, keep);
		memcpy(g->prev + keep, s->in, s->nin);
		g->nprev = keep + s->nin;
	}
	g->total += s->nin;
	pthread_mutex_lock(&g->lock);
	s->last = last;
	s->state = SLOT_FILLED;
	pthread_cond_broadcast(&g->work);
	pthread_mutex_unlock(&g->lock);
	g->filling++;
}

/* Stop and join the workers, free everything. */
static void teardown(struct gzip_out *g)
{
	pthread_mutex_lock(&g->lock);
	g->stop = 1;
	pthread_cond_broadcast(&g->work);
	pthread_mutex_unlock(&g->lock);
	for (unsigned i = 0; i < g->nthreads; i++)
		pthread_join(g->tid[i], NULL);
	for (unsigned i = 0; i < g->nslots; i++) {
		free(g->slots[i].in);
		free(g->slots[i].out);
	}
	free(g->slots);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->work);
	pthread_cond_destroy(&g->done);
	free(g);
}

struct gzip_out *gzip_out_open(FILE *f, int level, unsigned threads)
{
	static const unsigned char header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	struct gzip_out *g = calloc(1, sizeof *g);
	unsigned want = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;

	if (!g)
		return NULL;
	g->f = f;
	g->level = level;
	g->nslots = 2 * want + 2;
	g->crc = crc32(0L, Z_NULL, 0);
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->work, NULL);
	pthread_cond_init(&g->done, NULL);
	g->slots = calloc(g->nslots, sizeof *g->slots);
	int ok = g->slots != NULL;
	for (unsigned i = 0; ok && i < g->nslots; i++)
		ok = (g->slots[i].in = malloc(BLOCK)) != NULL;
	for (; ok && g->nthreads < want; g->nthreads++)
		ok = !pthread_create(&g->tid[g->nthreads], NULL, worker, g);
	if (!ok) {
		if (!g->slots)
			g->nslots = 0;
		teardown(g);
		return NULL;
	}
	claim(g, 0);
	put(g, header, sizeof header);
	return g;
}

int gzip_out_write(struct gzip_out *g, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n && !g->failed) {
		struct slot *s = slot_of(g, g->filling);
		size_t k = BLOCK - s->nin < n ? BLOCK - s->nin : n;
		memcpy(s->in + s->nin, b, k);
		s->nin += k;
		b += k;
		n -= k;
		if (s->nin == BLOCK) {
			submit(g, 0);
			claim(g, g->filling);
		}
	}
	return g->failed ? -1 : 0;
}

int gzip_out_close(struct gzip_out *g)
{
	unsigned char trailer[8];
	int rc;

	submit(g, 1);
	/* every block still out, in order */
	for (uint64_t seq = g->filling > g->nslots ? g->filling - g->nslots : 0; seq < g->filling;
	     seq++) {
		struct slot *s = slot_of(g, seq);
		pthread_mutex_lock(&g->lock);
		int out = s->seq == seq && s->state != SLOT_EMPTY;
		pthread_mutex_unlock(&g->lock);
		if (out)
			drain(g, seq);
	}
	for (int i = 0; i < 4; i++) {
		trailer[i] = (unsigned char)(g->crc >> (8 * i));
		trailer[4 + i] = (unsigned char)(g->total >> (8 * i));
	}
	put(g, trailer, sizeof trailer);
	rc = g->failed ? -1 : 0;
	teardown(g);
	return rc;
}
