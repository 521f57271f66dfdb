/* The EL1 generic timer, virtual (CNTV) or physical (CNTP), used as a compare-value
 * deadline timer: it interrupts while enabled, unmasked and its count is at or past CVAL;
 * writing a later CVAL takes the (level) interrupt down. Each timer is compared with its
 * own count (CNTVCT_EL0 or CNTPCT_EL0), which tick at the same CNTFRQ_EL0 rate. */
#include "bmprof_aarch64.h"
#include "a64.h"

#define CTL_ENABLE 1u

uint64_t timer_now(uint8_t which)
{
	a64_isb();
	if (which == BMPROF_A64_TIMER_PHYSICAL)
		return a64_read(cntpct_el0);
	return a64_read(cntvct_el0);
}

void timer_set(uint8_t which, uint64_t cval)
{
	if (which == BMPROF_A64_TIMER_PHYSICAL) {
		a64_write(cntp_cval_el0, cval);
		a64_write(cntp_ctl_el0, CTL_ENABLE);
	} else {
		a64_write(cntv_cval_el0, cval);
		a64_write(cntv_ctl_el0, CTL_ENABLE);
	}
	a64_isb();
}

void timer_off(uint8_t which)
{
	if (which == BMPROF_A64_TIMER_PHYSICAL)
		a64_write(cntp_ctl_el0, 0);
	else
		a64_write(cntv_ctl_el0, 0);
	a64_isb();
}
