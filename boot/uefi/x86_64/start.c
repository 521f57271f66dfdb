/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_uefi_start on x86-64: sampling inside the firmware's own timer interrupt.
 *
 * OVMF (and EDK II firmware generally) drives its timer tick from the LAPIC timer in
 * periodic mode, so bmprof cannot own that timer. Instead: the LVT timer entry gives the
 * firmware's vector; its IDT gate is pointed at bmrt_uefi_timer_entry, which records the
 * interrupted RIP and then runs the firmware's handler; and the tick is raised to the
 * requested frequency with EFI_TIMER_ARCH_PROTOCOL.SetTimerPeriod. Samples that land in
 * firmware code are firmware time and are kept. With PMU events that sample, the PMI comes
 * as an NMI through a hooked vector 2 as in the plain runtime. The exceptions a program
 * can cause are hooked too (exception.c). bmrt_uefi_restore puts the gates and the period
 * back. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "../../x86_64/rt.h"
#include "uefi_rt.h"
#include "uefi_x86.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_X86_DEFAULT_HZ
#endif

#define MSR_APIC_BASE 0x1B
#define APIC_X2APIC (1u << 10)
#define LVT_TIMER 0x320
#define LVT_MASKED (1u << 16)

/* EFI_TIMER_ARCH_PROTOCOL (PI spec, DXE architectural protocols); periods in 100 ns. */
typedef struct timer_arch timer_arch;
struct timer_arch {
	EFI_STATUS(EFIAPI *RegisterHandler)(timer_arch *self, void *notify);
	EFI_STATUS(EFIAPI *SetTimerPeriod)(timer_arch *self, UINT64 period);
	EFI_STATUS(EFIAPI *GetTimerPeriod)(timer_arch *self, UINT64 *period);
	EFI_STATUS(EFIAPI *GenerateSoftInterrupt)(timer_arch *self);
};

static struct bmrt_idt_hook timer_hook, nmi_hook, exc_hooks[BMRT_UEFI_EXC_VECTORS];
static timer_arch *timer;
static UINT64 fw_period;   /* the firmware's own, to put back */

uint64_t bm_cycles_hz(void) { return bmprof_x86_info()->tsc_hz; }

_Noreturn static void panic(const char *why)
{
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_PANIC };

	bmrt_log(BMRT_ERR, "cannot sample: %s", why);
	bmprof_emit_end(&bmrt_out, &e);
	bmrt_poweroff(BMRT_EXIT_PANIC);
}

static uint32_t lvt_timer(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	if (base & APIC_X2APIC)
		return (uint32_t)rdmsr(0x800 + (LVT_TIMER >> 4));
	return *(volatile uint32_t *)(uintptr_t)((base & 0xFFFFFFFFFF000ull) + LVT_TIMER);
}

static timer_arch *find_timer(void)
{
	EFI_GUID g = { 0x26baccb3, 0x6f42, 0x11d4,
		       { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
	void *p = NULL;

	if (bmrt_efi_st->BootServices->LocateProtocol(&g, NULL, &p) != EFI_SUCCESS)
		return NULL;
	return p;
}

static void say_events(const struct bmrt_config *rc)
{
	for (unsigned i = 0; i < rc->nevents; i++)
		if (bmprof_x86_info()->bad_events >> i & 1)
			bmrt_log(BMRT_WARN, "config: event=%s: %s; ignored", rc->events[i],
				 bmprof_x86_event_error(i));
	bmrt_report_events(bmprof_x86_pmu(), 0);
}

void bmrt_uefi_start(uint64_t load_bias)
{
	struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ, .timer = BMPROF_X86_TIMER_AUTO };
	struct bmprof_x86_config xc;
	struct bmprof_range code = { 0, 0 }, stack = { 0, 0 };
	uint32_t lvt;
	const uint8_t *id;
	uint8_t idlen;
	int err;

	bmrt_config_load(&rc);
	if (rc.timer != BMPROF_X86_TIMER_AUTO)
		bmrt_log(BMRT_WARN, "config: timer=: under UEFI the firmware's timer samples; ignored");
	if (rc.pmi != BMPROF_X86_PMI_NMI)
		bmrt_log(BMRT_WARN, "config: pmi=irq: under UEFI the PMI comes as an NMI");
	timer = find_timer();
	lvt = lvt_timer();
	if (rc.stack_depth)
		bmrt_uefi_ranges(&code, &stack);
	if (rc.freq && !timer)
		panic("the firmware has no EFI_TIMER_ARCH_PROTOCOL");
	if (rc.freq && ((lvt & LVT_MASKED) || (lvt & 0xFF) < 32))
		panic("the firmware's timer is not the local APIC timer (its LVT entry is masked)");
	/* boot services (RestoreTPL) turn interrupts back on: before the gates change */
	if (rc.transport == BMRT_TRANSPORT_SHM)
		bmrt_shm_start(1);
	cli();
	/* the program's faults end the run with an END frame (and the #GP handler recovers
	 * the PMU probe's MSR accesses, hence msr_fixup) */
	for (unsigned v = 0; v < BMRT_UEFI_EXC_VECTORS; v++)
		if (bmrt_uefi_exc_entries[v] &&
		    bmrt_idt_hook(&exc_hooks[v], v,
				  (void (*)(void))(uintptr_t)bmrt_uefi_exc_entries[v]))
			panic("the firmware's IDT has no gates for the CPU exceptions");
	xc = (struct bmprof_x86_config){
		.hz = rc.freq, .vector = (uint8_t)((lvt & 0xFF) < 32 ? 32 : lvt & 0xFF),
		.timer = BMPROF_X86_TIMER_EXTERNAL, .out = &bmrt_out, .events = rc.events,
		.nevents = rc.nevents, .mode = rc.mode, .pmi = BMPROF_X86_PMI_NMI, .msr_fixup = 1,
		.out_begin = bmrt_uefi_out_begin, .out_end = bmrt_uefi_out_end,
		.load_bias = load_bias, .flush_ms = rc.flush_ms, .stack_depth = rc.stack_depth,
		.raw = (uint8_t)rc.raw,
		.code = code,
	};
	err = bmprof_x86_init(&xc);
	if (err)
		panic(bmprof_x86_strerror(err));
	if (rc.stack_depth)
		bmprof_x86_set_stack(stack.lo, stack.hi);
	say_events(&rc);
	idlen = bmrt_build_id(&id);
	bmprof_x86_announce(id, idlen);
	if (rc.freq) {
		bmrt_uefi_fw_timer = 0;
		if (bmrt_idt_hook(&timer_hook, lvt & 0xFF, bmrt_uefi_timer_entry))
			panic("the firmware's IDT has no gate for its timer vector");
		bmrt_uefi_fw_timer = timer_hook.original;
	}
	if (bmprof_x86_info()->source == BMPROF_SOURCE_PMU &&
	    bmrt_idt_hook(&nmi_hook, 2, bmprof_x86_nmi_entry))
		panic("the firmware's IDT has no NMI gate");
	bmprof_x86_start();
	sti();
	if (rc.freq) {
		if (timer->GetTimerPeriod(timer, &fw_period) != EFI_SUCCESS)
			fw_period = 0;
		if (timer->SetTimerPeriod(timer, 10000000ull / rc.freq ? 10000000ull / rc.freq : 1)
		    != EFI_SUCCESS)
			bmrt_log(BMRT_WARN, "the firmware refused a %u Hz timer; sampling at its own "
				 "rate", rc.freq);
	}
}

void bmrt_uefi_restore(void)
{
	cli();
	bmprof_x86_stop();
	bmrt_idt_unhook(&timer_hook);
	bmrt_idt_unhook(&nmi_hook);
	for (unsigned v = 0; v < BMRT_UEFI_EXC_VECTORS; v++)
		bmrt_idt_unhook(&exc_hooks[v]);
	if (timer && fw_period) {
		sti();
		timer->SetTimerPeriod(timer, fw_period);
		fw_period = 0;
		cli();
	}
}
