/* SPDX-License-Identifier: BSD-2-Clause */
/* Synchronous exceptions, through the CPU architectural protocol's handler slot
 * (EXCEPT_AARCH64_SYNCHRONOUS_EXCEPTIONS), which replaces the firmware's register dump:
 * the HLT of a semihosting probe (hlt.S) that is undefined is skipped with x0 = -1; any
 * other one is the program's fault: one message (EC, ELR, ESR, FAR) and the run ends
 * with an END frame of reason exception, like the plain runtime. A fault while ending
 * powers off at once. */
#include "bmrt.h"
#include "uefi_a64.h"

#define EC_UNKNOWN 0x00
#define ISS_FNV (1u << 10)   /* data/instruction abort: FAR not valid */

static EFI_GUID cpu_arch_guid = { 0x26baccb1, 0x6f42, 0x11d4,
				  { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
static int depth;
static int hooked;   /* on_sync is installed: an undefined HLT returns */

static int far_valid(uint32_t ec, uint64_t esr)
{
	switch (ec) {
	case 0x20: case 0x21: case 0x24: case 0x25:
		return !(esr & ISS_FNV);
	case 0x22: case 0x34: case 0x35:
		return 1;
	default:
		return 0;
	}
}

static void on_sync(INTN type, BMRT_EFI_CONTEXT_A64 *r)
{
	uint32_t ec = (uint32_t)(r->esr >> 26 & 0x3F);
	int has_far = far_valid(ec, r->esr);
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_EXCEPTION };
	struct bmrt_msg m;

	(void)type;
	if (ec == EC_UNKNOWN && r->elr == (uintptr_t)bmrt_hlt_insn) {
		r->x[0] = (uint64_t)-1;
		r->elr += 4;
		return;
	}
	bmrt_ending = 1;
	if (++depth > 1)
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception EC 0x%02x at elr=0x%016lx esr=0x%08lx", ec, r->elr,
		     r->esr);
	if (has_far)
		bmrt_msg_add(&m, " far=0x%016lx", r->far);
	bmrt_msg_add(&m, " sp=0x%016lx", r->sp);
	bmrt_msg_send(&m);
	e.vector = ec;
	e.fault_pc = r->elr;
	e.fault_addr = has_far ? r->far : 0;
	bmrt_finish(&e, BMRT_EXIT_EXCEPTION);
}

void bmrt_exception_setup(void)
{
	BMRT_CPU_ARCH *cpu;

	if (EFI_ERROR(bmrt_efi_st->BootServices->LocateProtocol(&cpu_arch_guid, 0, (void **)&cpu)) ||
	    EFI_ERROR(cpu->RegisterInterruptHandler(cpu, BMRT_EXCEPT_SYNC, on_sync))) {
		bmrt_log(BMRT_WARN, "cannot hook synchronous exceptions: a fault shows the "
			 "firmware's register dump and sends no profile, and QEMU's exit status "
			 "does not carry main's return value");
		return;
	}
	hooked = 1;
}

/* With QEMU -semihosting: SYS_EXIT_EXTENDED, QEMU exits with status (value << 1) | 1.
 * Returns -1 without semihosting, or without on_sync to survive finding that out. */
int bmrt_semihost_exit(uint8_t exit_value)
{
	uint64_t block[2] = { 0x20026 /* ADP_Stopped_ApplicationExit */,
			      (uint64_t)exit_value << 1 | 1 };

	if (!hooked)
		return -1;
	return (int)bmrt_hlt_semihost(0x20 /* SYS_EXIT_EXTENDED */, block);
}
