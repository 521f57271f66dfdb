/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the AArch64 UEFI runtime: the firmware interfaces it uses (gnu-efi's
 * types, plus the ArmPkg protocols gnu-efi lacks) and what its files give each other. */
#ifndef BMRT_UEFI_A64_H
#define BMRT_UEFI_A64_H

#include <efi.h>
#include "bmprof_aarch64.h"
#include "../../aarch64/rt.h"
#include "uefi_rt.h"

/* MdePkg DebugSupport.h: what the firmware's exception entry saved. */
typedef struct {
	UINT64 x[29], fp, lr, sp;
	UINT64 v[32][2];
	UINT64 elr, spsr, fpsr, esr, far;
} BMRT_EFI_CONTEXT_A64;

/* ArmPkg HardwareInterrupt.h: the GIC driver's interface. A handler runs with IRQs masked
 * and ends with EndOfInterrupt. */
typedef VOID (*BMRT_HW_IRQ_HANDLER)(UINTN source, BMRT_EFI_CONTEXT_A64 *ctx);
typedef struct bmrt_hw_irq BMRT_HW_IRQ;
struct bmrt_hw_irq {
	EFI_STATUS (*RegisterInterruptSource)(BMRT_HW_IRQ *self, UINTN source,
					      BMRT_HW_IRQ_HANDLER handler);
	EFI_STATUS (*EnableInterruptSource)(BMRT_HW_IRQ *self, UINTN source);
	EFI_STATUS (*DisableInterruptSource)(BMRT_HW_IRQ *self, UINTN source);
	EFI_STATUS (*GetInterruptSourceState)(BMRT_HW_IRQ *self, UINTN source, BOOLEAN *on);
	EFI_STATUS (*EndOfInterrupt)(BMRT_HW_IRQ *self, UINTN source);
};

/* PI Cpu.h: EFI_CPU_ARCH_PROTOCOL, up to the member used. */
typedef VOID (*BMRT_CPU_HANDLER)(INTN type, BMRT_EFI_CONTEXT_A64 *ctx);
typedef struct bmrt_cpu_arch BMRT_CPU_ARCH;
struct bmrt_cpu_arch {
	VOID *FlushDataCache, *EnableInterrupt, *DisableInterrupt, *GetInterruptState, *Init;
	EFI_STATUS (*RegisterInterruptHandler)(BMRT_CPU_ARCH *self, INTN type,
					       BMRT_CPU_HANDLER handler);
};
#define BMRT_EXCEPT_SYNC 0   /* EXCEPT_AARCH64_SYNCHRONOUS_EXCEPTIONS */

/* Set once the run ends: from then on IRQs stay masked and nothing changes the TPL. */
extern volatile int bmrt_ending;

/* irq.c: the sampler's interrupts through the firmware's GIC driver, the periodic drain:
 * bmrt_irq_init before bmprof_a64_init, bmrt_irq_quiet(1) .. (0) around it,
 * bmrt_irq_enable as its irq_enable, bmrt_irq_setup after it */
EFI_STATUS bmrt_irq_init(void);
void bmrt_irq_quiet(int quiet);
void bmrt_irq_enable(uint32_t intid, int enable);
EFI_STATUS bmrt_irq_setup(void);

/* exception.c: program faults end the run; bmrt_semihost_exit probes semihosting */
void bmrt_exception_setup(void);
int bmrt_semihost_exit(uint8_t exit_value);

/* hlt.S: semihosting call; bmrt_hlt_insn is the HLT, skipped if it is undefined */
int64_t bmrt_hlt_semihost(uint64_t op, const void *arg);
extern const char bmrt_hlt_insn[];

#endif
