/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the x86-64 UEFI runtime. */
#ifndef BMRT_UEFI_X86_H
#define BMRT_UEFI_X86_H

#include <stdint.h>

/* idt.c: one IDT gate pointed at entry, and back. */
struct bmrt_idt_hook {
	unsigned vector;
	int hooked;
	uint64_t saved[2];      /* the original gate */
	uint64_t original;      /* its handler's address */
};
int bmrt_idt_hook(struct bmrt_idt_hook *h, unsigned vector, void (*entry)(void));
void bmrt_idt_unhook(struct bmrt_idt_hook *h);

/* timer_hook.S: the firmware timer vector's new handler. It records the interrupted RIP
 * (bmprof_x86_tick), calls the firmware's handler (bmrt_uefi_fw_timer) through an
 * interrupt frame of its own, and after that returns, drains full buffers
 * (bmprof_x86_irq_exit) like the plain runtime's interrupt exit. */
void bmrt_uefi_timer_entry(void);
extern uint64_t bmrt_uefi_fw_timer;

/* exception_entry.S, exception.c: the entries of the CPU exceptions a program can cause
 * (vector v's at [v], 0 for the vectors left to the firmware) and their handler. */
#define BMRT_UEFI_EXC_VECTORS 20
extern const uint64_t bmrt_uefi_exc_entries[BMRT_UEFI_EXC_VECTORS];

/* start.c: stop sampling, put the IDT gates and the firmware's timer period back */
void bmrt_uefi_restore(void);

#endif
