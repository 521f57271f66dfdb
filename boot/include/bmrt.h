/* SPDX-License-Identifier: BSD-2-Clause */
/* The bmprof boot runtimes (x86-64, AArch64), as a program sees them.
 *
 * The runtime boots, starts sampling, calls the program's `int main(void)`, and when main
 * returns (or bm_exit is called) stops sampling, sends what was sampled, and powers QEMU
 * off with main's return value. Console text goes to the UART (x86-64: COM1; AArch64: the
 * PL011), interleaved with the profile stream; the host separates the two. Each console
 * call (bm_printf, bm_puts, bm_putchar) reaches it whole, whichever CPU makes it. The
 * runtime's own messages are not console text: they travel as LOG frames, and bmprof
 * prints them on its stderr ("bmprof: target: ...").
 *
 * Programs are freestanding: no libc. memcpy, memmove, memset and memcmp are provided.
 * Built with LIBC=newlib (docs/image.md), a program has newlib's C library and libm
 * instead, over the syscall layer in boot/common/newlib/; these calls stay available.
 */
#ifndef BMRT_H
#define BMRT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* printf as glibc formats it, character for character: %d %i %u %o %x %X %p %s %c %% and
 * for double %f %F %e %E %g %G (exact digits, rounded to nearest, ties to even; inf, nan),
 * flags - + space # 0, width and precision (digits or *), length hh h l ll z j t (L as ll
 * for integers). %p prints 0x0 for NULL (glibc: "(nil)"). Not supported: long double
 * (%Lf %Le %Lg), %a, %A and %n: the directive is printed as written ("%Lf") and its
 * argument skipped, so the following ones still print right; another unknown conversion
 * character is printed as written and takes no argument. The floating-point conversions
 * use about 1.5 KiB of stack. Returns the characters written. */
int bm_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bm_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int bm_puts(const char *s);          /* s and a newline */
int bm_putchar(int c);
int bm_write(const void *buf, size_t n);   /* n bytes as they are; returns n */

/* Ends the program as if main returned code, from any CPU. */
#ifdef __cplusplus
__attribute__((noreturn)) void bm_exit(int code);
#else
_Noreturn void bm_exit(int code);
#endif

/* CPUs. The runtime starts every CPU the firmware lists (x86-64: the ACPI MADT), up to
 * the image's maximum (8 unless built otherwise), and samples on each. CPU 0 runs main;
 * the others (1 .. bm_ncpus()-1) idle, and are sampled idling, until bm_run_on gives them
 * a function. When the run ends (main returns, bm_exit, an exception), every CPU is
 * stopped where it is, whatever it runs: wait for the functions you started (bm_wait)
 * before returning from main if their work matters.
 *
 *   bm_ncpus()             the number of CPUs running (1 if there is only the boot CPU)
 *   bm_cpu_id()            the calling CPU's index, 0 .. bm_ncpus()-1
 *   bm_run_on(cpu, fn, a)  start fn(a) on idle CPU cpu (not 0) and return at once;
 *                          0, or -1 if cpu is out of range, 0, or busy with a function
 *   bm_wait(cpu)           return when the function last started on cpu has returned (at
 *                          once if none runs; not for cpu 0 or the calling CPU)
 *
 * Functions on different CPUs run concurrently: share data with the __atomic builtins. */
unsigned bm_ncpus(void);
unsigned bm_cpu_id(void);
int bm_run_on(unsigned cpu, void (*fn)(void *), void *arg);
void bm_wait(unsigned cpu);

/* A free-running counter, and its rate in Hz: on x86-64 the TSC, as calibrated at boot;
 * on AArch64 the generic timer's virtual count CNTVCT_EL0, at CNTFRQ_EL0; on Cortex-M
 * SysTick, counted on to 64 bits, at the processor clock; on RISC-V the time CSR (mtime), at
 * the timebase (10 MHz on QEMU virt). */
#if defined(__aarch64__)
static inline uint64_t bm_cycles(void)
{
	uint64_t v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}
#elif defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
uint64_t bm_cycles(void);   /* Cortex-M: SysTick extended to 64 bits, at the CPU clock */
#elif defined(__riscv)
static inline uint64_t bm_cycles(void)
{
	uint64_t v;
	__asm__ volatile("rdtime %0" : "=r"(v) : : "memory");
	return v;
}
#else
static inline uint64_t bm_cycles(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#endif
uint64_t bm_cycles_hz(void);

/* Phases: bm_phase("name") starts a new phase, on every CPU, and names it: samples taken
 * from then on belong to it (until the next bm_phase), so one run profiles several boot
 * stages or test cases apart (bmprof report --phase NAME, and a column per phase). Samples
 * before the first call are in no phase ("(start)" in reports). Names are cut at 63 bytes;
 * two phases may have the same name (their samples are reported together). Returns the
 * phase's id (1 ..), or -1 past the 1023rd phase (later samples stay in the last one). Any
 * CPU, outside interrupt handlers; ring 3 too. */
int bm_phase(const char *name);

/* Run-time parameters: the value of NAME=VALUE given to the run (bmprof qemu --param
 * NAME=VALUE, config param=NAME=VALUE), or def when it was not given. Names are letters,
 * digits and '_' (up to 31); values are 64-bit numbers. */
uint64_t bm_param(const char *name, uint64_t def);

/* The program's privilege: x86-64 runs main in ring 3 when asked (bmprof qemu --user,
 * config user=1); then console calls, bm_run_on, bm_wait, bm_exit and everything above
 * work as in ring 0, and privileged instructions (hlt, moves to control registers, MSR
 * access) fault and end the run. Functions started with bm_run_on run in ring 0. */

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#ifdef __cplusplus
}
#endif

#endif
