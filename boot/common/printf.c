/* SPDX-License-Identifier: BSD-2-Clause */
/* bm_printf and bm_vprintf: the program's formatted console text, through the runtime's
 * printf engine (format.c) into the console (console.c).
 *
 * This is the one runtime file built with floating point allowed (the make rules' FP
 * objects; everything else is -mgeneral-regs-only), because a double argument arrives in
 * an FP/SIMD register: bm_printf's variadic prologue saves the argument registers (x86-64:
 * xmm0-7 only when the caller's %al says vector registers carry arguments; AArch64: q0-q7
 * always), and float_arg takes the double out of the va_list. The runtime itself never
 * calls these two (its messages go through bmrt_log), so no interrupt or exception path
 * touches an FP/SIMD register; the program calls them where its FP state is its own. The
 * boot code enables FP before any C runs (x86-64: CR0/CR4 in entry.S and ap.S; AArch64:
 * CPACR_EL1.FPEN in entry.S, on every CPU; UEFI: the firmware, as the UEFI specification
 * requires on both). */
#include "bmrt.h"
#include "format.h"
#include "rt_common.h"

static uint64_t float_arg(va_list *ap, int is_long)
{
	double d;
	uint64_t bits;

	if (is_long) {
		(void)va_arg(*ap, long double);
		return 0;
	}
	d = va_arg(*ap, double);
	__builtin_memcpy(&bits, &d, sizeof bits);
	return bits;
}

int bm_vprintf(const char *fmt, va_list ap)
{
	va_list aq;
	int n, t = bmrt_console_begin();

	va_copy(aq, ap);
	n = bmrt_vformat(&bmrt_console_sink, fmt, &aq, float_arg);
	va_end(aq);
	bmrt_console_end(t);
	return n;
}

int bm_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = bm_vprintf(fmt, ap);
	va_end(ap);
	return n;
}
