/* SPDX-License-Identifier: BSD-2-Clause */
/* The UART lock of the AArch64 and RISC-V runtimes: one CPU writes at a time. A ticket
 * lock (first come, first served, so a CPU that drains often cannot starve another's
 * console). uart_lock() takes it (1) or finds this CPU holding it already (0: an exception
 * in the middle of console output, the final flush after one), and uart_unlock() is given
 * that result. On AArch64 a waiter sleeps in WFE until a holder lets go with SEV (its
 * ticket is taken with an exclusive load/store pair: the MMU is on whenever the UART is
 * used). Not in boot/common itself: each runtime that uses it names it (mk/core.mk). */
#include "bmrt.h"
#include "../rt_common.h"

#if defined(__aarch64__)
#define WAIT() __asm__ volatile("wfe")
#define WAKE() __asm__ volatile("dsb ish; sev" : : : "memory")
#else
#define WAIT() __asm__ volatile("nop")
#define WAKE() ((void)0)
#endif

static struct {
	volatile uint32_t next;      /* the next ticket */
	volatile uint32_t serving;   /* the ticket that holds the lock */
	volatile uint32_t owner;     /* the holder's CPU index + 1; 0: none */
} lk;

int uart_lock(void)
{
	uint32_t me = bm_cpu_id() + 1, t;

	if (__atomic_load_n(&lk.owner, __ATOMIC_RELAXED) == me)
		return 0;
	t = __atomic_fetch_add(&lk.next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lk.serving, __ATOMIC_ACQUIRE) != t)
		WAIT();
	lk.owner = me;
	return 1;
}

void uart_unlock(int taken)
{
	if (!taken)
		return;
	lk.owner = 0;
	__atomic_store_n(&lk.serving, lk.serving + 1, __ATOMIC_RELEASE);
	WAKE();
}

void uart_unlock_mine(void)
{
	uart_unlock(__atomic_load_n(&lk.owner, __ATOMIC_RELAXED) == bm_cpu_id() + 1);
}
