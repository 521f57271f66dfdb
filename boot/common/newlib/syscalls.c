/* SPDX-License-Identifier: BSD-2-Clause */
/* newlib's system calls, for a program linked with newlib (make image LIBC=newlib), and
 * picolibc's on RISC-V (by their plain names; its streams: boot/common/picolibc/stdio.c).
 *
 * Only the runtime's public calls are used (bmrt.h: bm_write, bm_exit, bm_cycles,
 * bm_cycles_hz), so any runtime that provides those can link this file as it is. There
 * are no files and no other processes:
 *   - fd 1 and 2 (stdout, stderr) write to the console, each write whole under the
 *     console's lock, in order with bm_printf's text; fd 0 reads end-of-file; the three
 *     are terminals (isatty 1, fstat S_IFCHR), so stdout is line-buffered and stderr not;
 *   - open and stat fail with ENOSYS, any other fd with EBADF; fork, execve and link too;
 *   - the heap is the image's heap region (linker script: __bmrt_heap_start ..
 *     __bmrt_heap_end, its size set at link time): sbrk past it fails with ENOMEM;
 *   - gettimeofday and times count from power-on (bm_cycles), not the calendar;
 *   - getpid is 1; kill of pid 1 ends the run with 128 + the signal (abort: 134), other
 *     pids fail with ESRCH; _exit ends the run through bm_exit.
 * The end of the run: bm_exit (main's return is one) first calls bmrt_libc_exit, which
 * here runs newlib's exit() once: atexit handlers, then every stream flushed, then _exit,
 * back into bm_exit.
 *
 * Reentrancy: newlib is built without locks (--disable-newlib-multithread) and with one
 * reentrancy structure (_impure_ptr, global), so stdio, malloc and errno belong to one CPU
 * at a time; functions without state (string.h, math.h) are safe on every CPU. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "bmrt.h"

#define PID 1

#ifndef _READ_WRITE_RETURN_TYPE
#define _READ_WRITE_RETURN_TYPE ssize_t   /* picolibc's read and write */
#endif

extern char __bmrt_heap_start[], __bmrt_heap_end[];

void bmrt_libc_exit(int code);
void bmrt_libc_flush(void);
void _init(void);
void _fini(void);
int _close(int fd);
int _execve(const char *path, char *const argv[], char *const envp[]);
int _fork(void);
int _fstat(int fd, struct stat *st);
int _getpid(void);
int _gettimeofday(struct timeval *tv, void *tz);
int _isatty(int fd);
int _kill(int pid, int sig);
int _link(const char *from, const char *to);
off_t _lseek(int fd, off_t offset, int whence);
int _open(const char *path, int flags, ...);
_READ_WRITE_RETURN_TYPE _read(int fd, void *buf, size_t n);
void *_sbrk(ptrdiff_t incr);
int _stat(const char *path, struct stat *st);
clock_t _times(struct tms *t);
int _unlink(const char *path);
int _wait(int *status);
_READ_WRITE_RETURN_TYPE _write(int fd, const void *buf, size_t n);

static int exiting;
static char *brk = __bmrt_heap_start;

static int is_console(int fd)
{
	return fd >= 0 && fd <= 2;
}

static int fail(int err)
{
	errno = err;
	return -1;
}

_READ_WRITE_RETURN_TYPE _write(int fd, const void *buf, size_t n)
{
	if (fd != 1 && fd != 2)
		return fail(EBADF);
	return bm_write(buf, n);
}

_READ_WRITE_RETURN_TYPE _read(int fd, void *buf, size_t n)
{
	(void)buf;
	(void)n;
	return fd == 0 ? 0 : fail(EBADF);
}

void *_sbrk(ptrdiff_t incr)
{
	char *old = brk;

	if (incr > __bmrt_heap_end - brk || incr < __bmrt_heap_start - brk) {
		errno = ENOMEM;
		return (void *)-1;
	}
	brk += incr;
	return old;
}

int _open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	return fail(ENOSYS);
}

int _close(int fd)
{
	return is_console(fd) ? 0 : fail(EBADF);
}

off_t _lseek(int fd, off_t offset, int whence)
{
	(void)offset;
	(void)whence;
	return fail(is_console(fd) ? ESPIPE : EBADF);
}

int _fstat(int fd, struct stat *st)
{
	if (!is_console(fd))
		return fail(EBADF);
	memset(st, 0, sizeof *st);
	st->st_mode = S_IFCHR;
	return 0;
}

int _isatty(int fd)
{
	if (is_console(fd))
		return 1;
	errno = EBADF;
	return 0;
}

int _stat(const char *path, struct stat *st)
{
	(void)path;
	(void)st;
	return fail(ENOSYS);
}

int _link(const char *from, const char *to)
{
	(void)from;
	(void)to;
	return fail(ENOSYS);
}

int _unlink(const char *path)
{
	(void)path;
	return fail(ENOSYS);
}

int _fork(void)
{
	return fail(ENOSYS);
}

int _execve(const char *path, char *const argv[], char *const envp[])
{
	(void)path;
	(void)argv;
	(void)envp;
	return fail(ENOSYS);
}

int _wait(int *status)
{
	(void)status;
	return fail(ECHILD);
}

int _getpid(void)
{
	return PID;
}

int _kill(int pid, int sig)
{
	if (pid != PID)
		return fail(ESRCH);
	_exit(128 + sig);
}

int _gettimeofday(struct timeval *tv, void *tz)
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
clock_t _times(struct tms *t)
{
	uint64_t c = bm_cycles(), hz = bm_cycles_hz();
	clock_t now = hz ? (clock_t)(c / hz * CLOCKS_PER_SEC + c % hz * CLOCKS_PER_SEC / hz) : 0;

	if (t)
		*t = (struct tms){ .tms_utime = now };
	return now;
}

/* Streams the C library does not flush at exit itself (picolibc's stdout: its stdio.c
 * defines this); newlib's exit() flushes its own. */
__attribute__((weak)) void bmrt_libc_flush(void) {}

_Noreturn void _exit(int code)
{
	exiting = 1;
	bmrt_libc_flush();
	bm_exit(code);
}

void bmrt_libc_exit(int code)
{
	if (exiting)
		return;
	exiting = 1;
	exit(code);
}

/* libm's wrappers set errno (EDOM, ERANGE) as math_errhandling says only in POSIX mode;
 * a libm built in IEEE mode (Debian's arm-none-eabi newlib) starts in IEEE mode, so the
 * mode is defined here, which keeps libm's own definition out of the link. */
#ifdef _LIB_VERSION
_LIB_VERSION_TYPE _LIB_VERSION = _POSIX_;
#endif

/* newlib's __libc_fini_array (which its atexit code refers to) calls _fini, which a hosted
 * link takes from the compiler's crti.o; the runtime has no .init/.fini code. Weak and
 * empty, for the C libraries that refer to them (Debian's arm-none-eabi newlib). */
__attribute__((weak)) void _init(void) {}
__attribute__((weak)) void _fini(void) {}

/* The same calls by their plain names, which a newlib configured for a generic ELF target
 * (x86_64-elf) calls instead; weak, so a program may define its own. */
#define PLAIN(name) extern __typeof__(_##name) name __attribute__((weak, alias("_" #name)))
PLAIN(close);
PLAIN(execve);
PLAIN(fork);
PLAIN(fstat);
PLAIN(getpid);
PLAIN(gettimeofday);
PLAIN(isatty);
PLAIN(kill);
PLAIN(link);
PLAIN(lseek);
PLAIN(open);
PLAIN(read);
PLAIN(sbrk);
PLAIN(stat);
PLAIN(times);
PLAIN(unlink);
PLAIN(wait);
PLAIN(write);
