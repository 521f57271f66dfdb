/* SPDX-License-Identifier: BSD-2-Clause */
/* Instructions that may be absent: semihosting's HLT #0xF000 (QEMU without -semihosting
 * treats it as undefined) and the PSCI conduits (HVC without EL2 firmware, SMC without
 * EL3). Each is the first instruction of its function; bmrt_probe_skip() recognises an
 * undefined-instruction exception at one of them and resumes after it with x0 = -1. */
	.text
	.globl bmrt_semihost, bmrt_psci_hvc, bmrt_psci_smc
	.globl bmrt_trap_semihost, bmrt_trap_hvc, bmrt_trap_smc

/* x0 = operation, x1 = parameter block; returns x0 */
	.type bmrt_semihost, %function
bmrt_semihost:
bmrt_trap_semihost:
	hlt #0xf000
	ret
	.size bmrt_semihost, . - bmrt_semihost

/* x0 = PSCI function id, x1..x3 its arguments (SMCCC); returns x0 */
	.type bmrt_psci_hvc, %function
bmrt_psci_hvc:
bmrt_trap_hvc:
	hvc #0
	ret
	.size bmrt_psci_hvc, . - bmrt_psci_hvc

	.type bmrt_psci_smc, %function
bmrt_psci_smc:
bmrt_trap_smc:
	smc #0
	ret
	.size bmrt_psci_smc, . - bmrt_psci_smc

	.section .note.GNU-stack, "", %progbits
