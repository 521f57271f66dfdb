/* SPDX-License-Identifier: BSD-2-Clause */
/* The sampler's interrupts under UEFI. The firmware owns the GIC and VBAR_EL1, so the
 * sampler runs with gic = BMPROF_A64_GIC_NONE and its PPIs (the PMU's, INTID 23, and with a
 * timer the physical timer's, INTID 30: the firmware's own tick is the virtual timer) are
 * registered with ArmPkg's EFI_HARDWARE_INTERRUPT_PROTOCOL, which enables them in the GIC
 * (level-sensitive PPIs on QEMU virt) and calls the handler with the interrupted context;
 * the handler records ELR and ends the interrupt. Interrupts are taken while the
 * application runs below TPL_HIGH_LEVEL.
 *
 * Full overflow buffers are sent from program context, never inside the interrupt: from a
 * periodic timer event at TPL_CALLBACK, which skips a tick that finds the program inside
 * a console call (boot/uefi/common/console.c), so no frame lands inside its text. */
#include "bmrt.h"
#include "uefi_a64.h"

#define DRAIN_PERIOD 100000   /* 100 ns units: 10 ms */

static EFI_GUID hw_irq_guid = { 0x2890B3EA, 0x053D, 0x1643,
				{ 0xAD, 0x0C, 0xD6, 0x48, 0x08, 0xDA, 0x3F, 0xF1 } };
static BMRT_HW_IRQ *hw;
static EFI_EVENT drain_event;
static UINTN sources[2];
static unsigned nsources;

static void on_irq(UINTN source, BMRT_EFI_CONTEXT_A64 *ctx)
{
	const struct bmprof_regs r = { .pc = ctx->elr, .sp = ctx->sp, .fp = ctx->fp,
				       .lr = ctx->lr };

	bmprof_a64_handle_regs((uint32_t)source, &r);
	hw->EndOfInterrupt(hw, source);
}

static void on_drain_event(EFI_EVENT ev, void *ctx)
{
	(void)ev;
	(void)ctx;
	if (bmrt_ending || bmrt_uefi_out_begin())
		return;
	bmprof_a64_poll();
	bmrt_uefi_out_end();
}

/* CNTx_CTL_EL0.ENABLE of the timer behind intid: set if the firmware runs it. */
static int timer_enabled(uint32_t intid)
{
	uint64_t ctl;

	if (intid == BMPROF_A64_INTID_VTIMER)
		__asm__ volatile("mrs %0, cntv_ctl_el0" : "=r"(ctl));
	else
		__asm__ volatile("mrs %0, cntp_ctl_el0" : "=r"(ctl));
	return (int)(ctl & 1);
}

/* The firmware's timer driver registers every generic timer PPI though it runs only one
 * timer (ArmVirtQemu: the virtual one); the sampler takes over the other's PPI. */
static EFI_STATUS add(uint32_t intid, int timer)
{
	EFI_STATUS s = hw->RegisterInterruptSource(hw, intid, on_irq);

	if (s == EFI_ALREADY_STARTED && timer && !timer_enabled(intid) &&
	    !EFI_ERROR(hw->RegisterInterruptSource(hw, intid, 0)))
		s = hw->RegisterInterruptSource(hw, intid, on_irq);
	if (EFI_ERROR(s)) {
		bmrt_log(BMRT_ERR, "INTID %u: the firmware's GIC driver refused it (status "
			 "0x%lx)%s", intid, (unsigned long)s,
			 timer && timer_enabled(intid) ? ": it is the firmware's own tick; use "
			 "the other timer (timer=virtual or timer=physical)" : "");
		return s;
	}
	sources[nsources++] = intid;
	return EFI_SUCCESS;
}

static int registered(uint32_t intid)
{
	for (unsigned i = 0; i < nsources; i++)
		if (sources[i] == intid)
			return 1;
	return 0;
}

static int is_timer(uint32_t intid)
{
	return intid == BMPROF_A64_INTID_VTIMER || intid == BMPROF_A64_INTID_PTIMER;
}

/* The sampler's irq_enable (IRQs masked): the first enable registers the source. */
void bmrt_irq_enable(uint32_t intid, int enable)
{
	if (!registered(intid)) {
		if (enable)
			add(intid, is_timer(intid));
		return;
	}
	if (enable)
		hw->EnableInterruptSource(hw, intid);
	else
		hw->DisableInterruptSource(hw, intid);
}

EFI_STATUS bmrt_irq_init(void)
{
	EFI_STATUS s = bmrt_efi_st->BootServices->LocateProtocol(&hw_irq_guid, 0, (void **)&hw);

	if (EFI_ERROR(s))
		bmrt_log(BMRT_ERR, "no EFI_HARDWARE_INTERRUPT_PROTOCOL (ArmPkg) in this firmware");
	return s;
}

/* The firmware's tick, masked in the GIC while the sampler probes the PMU's interrupt
 * with IRQs masked, so that only the PMU can make an interrupt pending. */
void bmrt_irq_quiet(int quiet)
{
	for (uint32_t t = BMPROF_A64_INTID_VTIMER; t <= BMPROF_A64_INTID_PTIMER; t += 3)
		if (timer_enabled(t)) {
			if (quiet)
				hw->DisableInterruptSource(hw, t);
			else
				hw->EnableInterruptSource(hw, t);
		}
}

/* After bmprof_a64_init: the sources the run needs (so a refusal ends the run before it
 * starts) and the periodic drain. */
EFI_STATUS bmrt_irq_setup(void)
{
	EFI_BOOT_SERVICES *bs = bmrt_efi_st->BootServices;
	const struct bmprof_a64_info *in = bmprof_a64_info();
	EFI_STATUS s;

	if (in->timer_runs && in->hz && !registered(in->timer_intid) &&
	    EFI_ERROR((s = add(in->timer_intid, 1))))
		return s;
	if (in->source == BMPROF_SOURCE_PMU && !registered(in->pmu_intid) &&
	    EFI_ERROR((s = add(in->pmu_intid, 0))))
		return s;
	s = bs->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, on_drain_event, 0,
			    &drain_event);
	if (!EFI_ERROR(s))
		s = bs->SetTimer(drain_event, TimerPeriodic, DRAIN_PERIOD);
	if (EFI_ERROR(s))
		bmrt_log(BMRT_ERR, "no periodic timer event (status 0x%lx)", (unsigned long)s);
	return s;
}
