/* SPDX-License-Identifier: BSD-2-Clause */
/* picolibc's standard streams, for a RISC-V program linked with it (make image
 * ARCH=riscv64 LIBC=newlib: picolibc is newlib's libc and libm with a stdio of its own,
 * which writes through the FILE objects a program defines). Its system calls are newlib's
 * (boot/common/newlib/syscalls.c, by their plain names), which flush stdout at _exit
 * through bmrt_libc_flush below.
 *
 *   - stdout and stderr write to the console, in order with bm_printf's text: stdout by
 *     whole lines (or BUF_BYTES, or at fflush and at exit), stderr at once; each write is
 *     whole under the console's lock. stdin reads end-of-file.
 *
 * errno is thread-local in picolibc: every hart's tp points at the image's one TLS block
 * (boot/riscv64/entry.S), so errno, like stdio and malloc (no locks), belongs to one hart
 * at a time; functions without state (string.h, math.h) are safe on every hart. */
#include <stdio.h>

#include "bmrt.h"

#define BUF_BYTES 256

void bmrt_libc_flush(void);

static char out_buf[BUF_BYTES];
static size_t out_len;

static int out_flush(FILE *f)
{
	(void)f;
	if (out_len)
		bm_write(out_buf, out_len);
	out_len = 0;
	return 0;
}

static int out_put(char c, FILE *f)
{
	out_buf[out_len++] = c;
	if (c == '\n' || out_len == BUF_BYTES)
		out_flush(f);
	return (unsigned char)c;
}

static int err_put(char c, FILE *f)
{
	(void)f;
	bm_write(&c, 1);
	return (unsigned char)c;
}

static int in_get(FILE *f)
{
	(void)f;
	return _FDEV_EOF;
}

static FILE in_file = FDEV_SETUP_STREAM(NULL, in_get, NULL, _FDEV_SETUP_READ);
static FILE out_file = FDEV_SETUP_STREAM(out_put, NULL, out_flush, _FDEV_SETUP_WRITE);
static FILE err_file = FDEV_SETUP_STREAM(err_put, NULL, NULL, _FDEV_SETUP_WRITE);

FILE *const stdin = &in_file;
FILE *const stdout = &out_file;
FILE *const stderr = &err_file;

/* what stdout holds, written before the run ends (newlib/syscalls.c: _exit) */
void bmrt_libc_flush(void)
{
	out_flush(stdout);
}
