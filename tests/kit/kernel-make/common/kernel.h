/* SPDX-License-Identifier: BSD-2-Clause */
/* The test kernel's own interfaces, beside doc_env.h's. */
#ifndef KERNEL_H
#define KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* arch */
void arch_init(void);                 /* interrupt controller, vectors */
void irq_enable(void);
void irq_disable(void);
__attribute__((noreturn)) void machine_exit(int code);
void arch_ticks_start(void);          /* the kernel's own periodic interrupt, if it has one */
void arch_ticks_stop(void);
extern const char *const arch_name;

/* console: the console lock of docs/integration-x86_64.md (console-lock.c), printk.c */
extern unsigned long console_dropped;   /* text interrupt handlers could not print */
size_t kformat(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* the workload: 50:30:20 units of the same loop */
uint64_t work_a(uint64_t seed);
uint64_t work_b(uint64_t seed);
uint64_t work_c(uint64_t seed);

#endif
