/* SPDX-License-Identifier: BSD-2-Clause */
/* A Cortex-M firmware's use of the installed library (tests/e2e/test_install.sh links it,
 * through pkg-config and through CMake, for every CPU installed; it is not run): its own
 * vector table with SysTick on bmprof's entry, its own UART write as the stream, the
 * recovery descriptor kept by the link. */
#include <stddef.h>
#include <stdint.h>
#include "bmprof_cortexm.h"

void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void reset(void);

static uint32_t stack[256];
static volatile uint32_t *const uart_data = (volatile uint32_t *)0x40004000u;

static int uart_write(void *ctx, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	(void)ctx;
	for (size_t i = 0; i < len; i++)
		*uart_data = p[i];
	return (int)len;
}

static const struct bmprof_out out = { uart_write, 0 };

__attribute__((used, section(".vectors"))) void (*const vectors[16])(void) = {
	[0] = (void (*)(void))(uintptr_t)(stack + 256),
	[1] = reset,
	[15] = bmprof_cm_systick_entry,
};

void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *a = d;
	const uint8_t *b = s;

	while (n--)
		*a++ = *b++;
	return d;
}

void *memset(void *d, int c, size_t n)
{
	uint8_t *a = d;

	while (n--)
		*a++ = (uint8_t)c;
	return d;
}

void reset(void)
{
	static const uint8_t id[4] = { 1, 2, 3, 4 };
	struct bmprof_cm_config c = { .hz = 1000, .sysclk_hz = 25000000, .out = &out };

	if (bmprof_cm_init(&c) == BMPROF_CM_OK && bmprof_cm_announce(id, sizeof id) == 0) {
		bmprof_cm_start();
		bmprof_cm_flush();
	}
	for (;;)
		;
}
