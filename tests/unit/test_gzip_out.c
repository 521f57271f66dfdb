/* SPDX-License-Identifier: BSD-2-Clause */
/* The parallel gzip writer: what it writes inflates, as one gzip member, to exactly what it
 * was given, across many blocks written in pieces of every size, and for nothing at all. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>

#include "profile/gzip_out.h"

/* Write n bytes of data through the writer in pieces, read the file back inflated. */
static void round_trip(const uint8_t *data, size_t n, unsigned threads)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	struct gzip_out *g = gzip_out_open(f, 1, threads);
	assert_non_null(g);
	for (size_t off = 0, piece = 1; off < n; piece = piece * 3 % 70001 + 1) {
		size_t k = n - off < piece ? n - off : piece;
		assert_int_equal(gzip_out_write(g, data + off, k), 0);
		off += k;
	}
	assert_int_equal(gzip_out_close(g), 0);

	long size = ftell(f);
	assert_true(size > 18);
	uint8_t *z = malloc((size_t)size), *out = malloc(n + 1);
	assert_non_null(z);
	assert_non_null(out);
	rewind(f);
	assert_int_equal(fread(z, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	z_stream s;
	memset(&s, 0, sizeof s);
	assert_int_equal(inflateInit2(&s, 15 + 16), Z_OK);
	s.next_in = z;
	s.avail_in = (uInt)size;
	s.next_out = out;
	s.avail_out = (uInt)(n + 1);
	assert_int_equal(inflate(&s, Z_FINISH), Z_STREAM_END);   /* CRC and length checked */
	assert_int_equal(s.total_out, n);
	assert_int_equal(s.avail_in, 0);                         /* one member, nothing after */
	assert_memory_equal(out, data, n);
	inflateEnd(&s);
	free(z);
	free(out);
}

static void test_many_blocks(void **state)
{
	const size_t n = 5u << 20;   /* five 1 MiB blocks and a bit */
	uint8_t *d = malloc(n + 12345);
	uint32_t x = 1;
	assert_non_null(d);
	for (size_t i = 0; i < n + 12345; i++) {
		x = x * 1103515245u + 12345u;
		/* repeats at every distance a block's dictionary covers, and noise */
		d[i] = i >= 4096 && (x >> 28) < 12 ? d[i - 1 - (x >> 8) % 4096] : (uint8_t)(x >> 20);
	}
	round_trip(d, n + 12345, 2);
	round_trip(d, n, 1);
	round_trip(d, 1000, 3);
	free(d);
	(void)state;
}

static void test_empty(void **state)
{
	round_trip((const uint8_t *)"", 0, 2);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_blocks),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
