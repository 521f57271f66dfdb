/* The bmprof x86-64 boot runtime, as a program sees it.
 *
 * The runtime boots, starts sampling, calls the program's `int main(void)`, and when main
 * returns (or bm_exit is called) stops sampling, sends what was sampled, and powers QEMU
 * off with main's return value. Console text goes to COM1, interleaved with the profile
 * stream; the host separates the two.
 *
 * Programs are freestanding: no libc. memcpy, memmove, memset and memcmp are provided.
 */
#ifndef BMRT_H
#define BMRT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* printf subset: %d %i %u %x %X %p %s %c %%, length l ll z h hh, flags '-' '0'
 * '#', width (number or *), precision for %s (.N or .*). No floating point. */
int bm_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bm_vprintf(const char *fmt, va_list ap);
int bm_puts(const char *s);          /* s and a newline */
int bm_putchar(int c);

/* Ends the program as if main returned code. */
_Noreturn void bm_exit(int code);

/* The time-stamp counter, and its rate in Hz as calibrated at boot. */
static inline uint64_t bm_cycles(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
uint64_t bm_cycles_hz(void);

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
