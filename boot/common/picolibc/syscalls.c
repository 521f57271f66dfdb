/* SPDX-License-Identifier: BSD-2-Clause */
/* picolibc's streams and system calls, for a RISC-V program linked with it (make image
 * ARCH=riscv64 LIBC=newlib: picolibc is newlib's libc and libm with a stdio of its own,
 * which writes through the FILE objects a program defines).
 *
 * Only the runtime's public calls are used (bmrt.h: bm_write, bm_exit, bm_cycles,
 * bm_cycles_hz). There are no files and no other processes:
 *   - stdout and stderr write to the console, in order with bm_printf's text: stdout by
 *     whole lines (or BUF_BYTES, or at fflush and at exit), stderr at once; each write is
 *     whole under the console's lock. stdin reads end-of-file;
 *   - fd 0, 1 and 2 are terminals (isatty 1); write on fd 1 or 2 reaches the console too;
 *     open fails with ENOSYS (fopen then too), any other fd with EBADF, lseek on the
 *     console with ESPIPE;
 *   - the heap is the image's heap region (linker script: __bmrt_heap_start ..
 *     __bmrt_heap_end, its size set at link time): sbrk past it fails with ENOMEM (this
 *     sbrk, not picolibc's, which leaves errno alone);
 *   - times and gettimeofday count from power-on (bm_cycles), not the calendar;
 *   - getpid is 1; kill of pid 1 ends the run with 128 + the signal (abort: 134), other
 *     pids fail with ESRCH; _exit ends the run through bm_exit.
 * The end of the run: bm_exit (main's return is one) first calls bmrt_libc_exit, which
 * here runs picolibc's exit() once: atexit handlers, then _exit, which writes what stdout
 * holds and goes back into bm_exit.
 *
 * errno is thread-local in picolibc: every hart's tp points at the image's one TLS block
 * (boot/riscv64/entry.S), so errno, like stdio and malloc (no locks), belongs to one hart
 * at a time; functions without state (string.h, math.h) are safe on every hart. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "bmrt.h"

#define PID 1
#define BUF_BYTES 256

void bmrt_libc_exit(int code);
int kill(pid_t pid, int sig);
int open(const char *path, int flags, ...);
int gettimeofday(struct timeval *restrict tv, void *restrict tz);

extern char __bmrt_heap_start[], __bmrt_heap_end[];

static int exiting;
static char *brk = __bmrt_heap_start;
static char out_buf[BUF_BYTES];
static size_t out_len;

static int fail(int err)
{
	errno = err;
	return -1;
}

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

static int is_console(int fd)
{
	return fd >= 0 && fd <= 2;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (fd != 1 && fd != 2)
		return fail(EBADF);
	out_flush(stdout);
	return bm_write(buf, n);
}

ssize_t read(int fd, void *buf, size_t n)
{
	(void)buf;
	(void)n;
	return fd == 0 ? 0 : fail(EBADF);
}

void *sbrk(ptrdiff_t incr)
{
	char *old = brk;

	if (incr > __bmrt_heap_end - brk || incr < __bmrt_heap_start - brk) {
		errno = ENOMEM;
		return (void *)-1;
	}
	brk += incr;
	return old;
}

int open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	return fail(ENOSYS);
}

int close(int fd)
{
	return is_console(fd) ? 0 : fail(EBADF);
}

off_t lseek(int fd, off_t offset, int whence)
{
	(void)offset;
	(void)whence;
	return fail(is_console(fd) ? ESPIPE : EBADF);
}

int isatty(int fd)
{
	if (is_console(fd))
		return 1;
	errno = EBADF;
	return 0;
}

pid_t getpid(void)
{
	return PID;
}

int kill(pid_t pid, int sig)
{
	if (pid != PID)
		return fail(ESRCH);
	_exit(128 + sig);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	uint64_t c = bm_cycles(), hz = bm_cycles_hz();

	(void)tz;
	if (tv && hz) {
		tv->tv_sec = (time_t)(c / hz);
		tv->tv_usec = (suseconds_t)(c % hz * 1000000 / hz);
	}
	return 0;
}

/* All of it is the program's user time, in CLOCKS_PER_SEC units (clock() adds the user
 * and system times). */
clock_t times(struct tms *t)
{
	uint64_t c = bm_cycles(), hz = bm_cycles_hz();
	clock_t now = hz ? (clock_t)(c / hz * CLOCKS_PER_SEC + c % hz * CLOCKS_PER_SEC / hz) : 0;

	if (t)
		*t = (struct tms){ .tms_utime = now };
	return now;
}

_Noreturn void _exit(int code)
{
	exiting = 1;
	out_flush(stdout);
	bm_exit(code);
}

void bmrt_libc_exit(int code)
{
	if (exiting)
		return;
	exiting = 1;
	exit(code);
}
