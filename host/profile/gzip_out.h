/* SPDX-License-Identifier: BSD-2-Clause */
/* A gzip writer that compresses on worker threads, for outputs of hundreds of MB (a pprof
 * export of millions of sampled pcs). pigz's scheme: the input is cut in blocks, each
 * deflated on its own (primed with the 32 KiB before it) and ended on a byte boundary, the
 * blocks written in order as one gzip member with the CRCs combined: any gzip reader
 * reads it. */
#ifndef BMPROF_GZIP_OUT_H
#define BMPROF_GZIP_OUT_H

#include <stddef.h>
#include <stdio.h>

struct gzip_out;

/* A writer to f at zlib level (1-9) on up to threads workers (at least one). NULL when out
 * of memory or a thread cannot start. */
struct gzip_out *gzip_out_open(FILE *f, int level, unsigned threads);
/* Compress n more bytes. 0, or -1 once writing failed (then for good). */
int gzip_out_write(struct gzip_out *g, const void *p, size_t n);
/* Finish the stream and free g. 0, or -1 if anything failed (the output is then not a
 * whole gzip file). */
int gzip_out_close(struct gzip_out *g);

#endif
