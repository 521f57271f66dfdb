/* SPDX-License-Identifier: BSD-2-Clause */
/* An M-mode RISC-V kernel's use of the installed library (tests/e2e/test_install.sh links
 * it, through pkg-config and through CMake; it is not run): its own trap handler hands
 * interrupts to bmprof, its own UART write is the stream. */
#include <stddef.h>
#include <stdint.h>
#include "bmprof_riscv64.h"

void *memset(void *d, int c, size_t n);
void start(void);
void trap(uint64_t mcause, uint64_t mepc, const uint64_t *frame);

static volatile uint8_t *const uart = (volatile uint8_t *)0x10000000u;

static int uart_write(void *ctx, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	(void)ctx;
	for (size_t i = 0; i < len; i++)
		*uart = p[i];
	return (int)len;
}

static const struct bmprof_out out = { uart_write, 0 };

void *memset(void *d, int c, size_t n)
{
	uint8_t *a = d;

	while (n--)
		*a++ = (uint8_t)c;
	return d;
}

void trap(uint64_t mcause, uint64_t mepc, const uint64_t *frame)
{
	if (mcause >> 63) {
		bmprof_rv_irq(mcause & ~(1ull << 63), mepc, frame);
		bmprof_rv_irq_exit();
	}
}

void start(void)
{
	static const uint8_t id[4] = { 1, 2, 3, 4 };
	struct bmprof_rv_config c = { .hz = 1000, .out = &out };

	if (bmprof_rv_init(&c) == BMPROF_RV_OK && bmprof_rv_announce(id, sizeof id) == 0) {
		bmprof_rv_start();
		bmprof_rv_flush();
	}
	for (;;)
		;
}
