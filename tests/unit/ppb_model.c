/* SPDX-License-Identifier: BSD-2-Clause */
/* The PPB register model (ppb_model.h). */
#include <string.h>
#include "ppb_model.h"

const struct pm_board pm_m3 = { "cortex-m3", 1, 1, 0, 0, 0, 0, PM_STRICT };
const struct pm_board pm_m0plus_like = { "dwt-without-cyccnt", 1, 1, 1, 0, 0, 0, PM_STRICT };
const struct pm_board pm_m55 = { "cortex-m55", 1, 1, 0, 8, 16, 1, PM_STRICT };
const struct pm_board pm_qemu = { "qemu-mps2", 0, 0, 0, 0, 0, 0, PM_QEMU };

struct pm_state pm;

#define DEMCR 0xE000EDFCu
#define DHCSR 0xE000EDF0u
#define DFSR 0xE000ED30u
#define TRCENA (1u << 24)
#define MON_EN (1u << 16)
#define MON_PEND (1u << 17)
#define ITM 0xE0000000u
#define DWT 0xE0001000u
#define PMU 0xE0003000u

void pm_reset(const struct pm_board *b)
{
	memset(&pm, 0, sizeof pm);
	pm.b = b;
	pm.itm_locked = 1;
	if (b->dwt)
		pm.dwt_ctrl = (4u << 28) | (b->nocyccnt ? 1u << 25 : 0);   /* NUMCOMP 4 */
}

void pm_log_clear(void)
{
	pm.nlog = 0;
}

static void logw(uint32_t a, uint32_t v, uint8_t size)
{
	if (pm.nlog == PM_LOG_MAX)
		fail_msg("register model: more than %d writes", PM_LOG_MAX);
	pm.log[pm.nlog++] = (struct pm_write){ a, v, size };
}

void pm_expect(const struct pm_write *want, unsigned n)
{
	for (unsigned i = 0; i < n && i < pm.nlog; i++)
		if (want[i].addr != pm.log[i].addr || want[i].val != pm.log[i].val ||
		    want[i].size != pm.log[i].size)
			fail_msg("write %u: got %#x <- %#x (%u bytes), want %#x <- %#x (%u bytes)", i,
				 pm.log[i].addr, pm.log[i].val, pm.log[i].size, want[i].addr,
				 want[i].val, want[i].size);
	if (n != pm.nlog)
		fail_msg("%u writes, want %u", pm.nlog, n);
}

/* Whether a part exists; a lacking part fails a strict model, or is RAZ/WI. */
static int part(int have, uint32_t a)
{
	if (have)
		return 1;
	if (pm.b->lack != PM_QEMU)
		fail_msg("%s: access to %#x, a part this board does not have", pm.b->name, a);
	return 0;
}

static void swo_put(uint8_t c)
{
	if (pm.nswo == PM_SWO_MAX)
		fail_msg("register model: SWO capture full");
	pm.swo[pm.nswo++] = c;
}

static void stim_write(unsigned port, uint32_t v, unsigned size)
{
	if (!(pm.demcr & TRCENA) || !(pm.itm_tcr & 1) || !(pm.itm_ter[port / 32] >> (port % 32) & 1))
		return;
	swo_put((uint8_t)(port << 3 | (size == 4 ? 3 : size)));
	for (unsigned i = 0; i < size; i++)
		swo_put((uint8_t)(v >> 8 * i));
}

static uint32_t itm_read(uint32_t off)
{
	if (!(pm.demcr & TRCENA))
		return 0;
	if (off < 0x400) {
		if (pm.busy) {
			pm.busy--;
			return 0;
		}
		return pm.itm_tcr & 1;   /* FIFOREADY while the ITM is on */
	}
	if (off >= 0xE00 && off < 0xE20)
		return pm.itm_ter[(off - 0xE00) / 4];
	switch (off) {
	case 0xE40: return pm.itm_tpr;
	case 0xE80: return pm.itm_tcr;
	case 0xFB4: return pm.itm_locked ? 3 : 1;   /* LSR: SLI, SLK */
	}
	fail_msg("ITM: read of unknown offset %#x", off);
	return 0;
}

static void itm_write(uint32_t off, uint32_t v, unsigned size)
{
	if (off < 0x400) {
		stim_write(off / 4, v, size);
		return;
	}
	if (size != 4)
		fail_msg("ITM: %u-byte write of a control register %#x", size, off);
	if (off == 0xFB0) {
		pm.itm_locked = v != 0xC5ACCE55u;
		return;
	}
	if (!(pm.demcr & TRCENA) || pm.itm_locked)
		return;
	if (off >= 0xE00 && off < 0xE20)
		pm.itm_ter[(off - 0xE00) / 4] = v;
	else if (off == 0xE40)
		pm.itm_tpr = v;
	else if (off == 0xE80)
		pm.itm_tcr = v & 0x007F0F3Fu;
	else
		fail_msg("ITM: write of unknown offset %#x", off);
}

static uint32_t dwt_read(uint32_t off)
{
	if (!(pm.demcr & TRCENA))
		return 0;
	if (off == 0)
		return pm.dwt_ctrl;
	if (off == 4) {
		uint32_t v = pm.cyccnt;

		if (pm.dwt_ctrl & 1)
			pm.cyccnt += 3;   /* the read itself takes cycles */
		return v;
	}
	fail_msg("DWT: read of unknown offset %#x", off);
	return 0;
}

static void dwt_write(uint32_t off, uint32_t v)
{
	if (!(pm.demcr & TRCENA))
		return;
	if (off == 0) {
		pm.dwt_ctrl = (pm.dwt_ctrl & ~1u) | (pm.b->nocyccnt ? 0 : (v & 1));
	} else if (off == 4) {
		if (!pm.b->nocyccnt)
			pm.cyccnt = v;
	} else {
		fail_msg("DWT: write of unknown offset %#x", off);
	}
}

static uint32_t pmu_type(void)
{
	return pm.b->pmu_n | (pm.b->pmu_width - 1) << 8 | (pm.b->pmu_cc ? 1u << 14 : 0);
}

static uint32_t valid_bits(void)
{
	return ((1u << pm.b->pmu_n) - 1) | (pm.b->pmu_cc ? 1u << 31 : 0);
}

static uint32_t pmu_read(uint32_t off)
{
	unsigned n = pm.b->pmu_n;

	if (off < 4 * n)
		return pm.evcntr[off / 4];
	if (off >= 0x400 && off < 0x400 + 4 * n)
		return pm.evtyper[(off - 0x400) / 4];
	switch (off) {
	case 0x07C: return pm.ccntr;
	case 0xC00: case 0xC20: return pm.cnten;
	case 0xC40: case 0xC60: return pm.inten;
	case 0xC80: case 0xCC0: return pm.ovs;
	case 0xE00: return pmu_type();
	case 0xE04: return pm.pmu_ctrl;
	}
	fail_msg("PMU: read of unimplemented offset %#x", off);
	return 0;
}

static void pmu_write(uint32_t off, uint32_t v)
{
	unsigned n = pm.b->pmu_n;
	uint32_t m = valid_bits(), w = (1u << pm.b->pmu_width) - 1;

	if (off < 4 * n) {
		pm.evcntr[off / 4] = v & w;
		return;
	}
	if (off >= 0x400 && off < 0x400 + 4 * n) {
		pm.evtyper[(off - 0x400) / 4] = v & 0xFFFF;
		return;
	}
	switch (off) {
	case 0x07C: pm.ccntr = v; return;
	case 0xC00: pm.cnten |= v & m; return;
	case 0xC20: pm.cnten &= ~v; return;
	case 0xC40: pm.inten |= v & m; return;
	case 0xC60: pm.inten &= ~v; return;
	case 0xC80: pm.ovs &= ~v; return;
	case 0xCC0: pm.ovs |= v & m; return;
	case 0xE04: pm.pmu_ctrl = v & 0xA01; return;   /* E, FZO, TRO; P and C reset */
	}
	fail_msg("PMU: write of unimplemented offset %#x", off);
}

void pm_count(unsigned ctr, uint64_t n)
{
	uint32_t bit = ctr == 31 ? 1u << 31 : 1u << ctr;
	uint64_t width = ctr == 31 ? 32 : pm.b->pmu_width, max = (1ull << width) - 1;
	uint32_t *c = ctr == 31 ? &pm.ccntr : &pm.evcntr[ctr];

	if (!(pm.demcr & TRCENA) || !(pm.pmu_ctrl & 1) || !(pm.cnten & bit))
		return;
	if (*c + n > max) {
		pm.ovs |= bit;
		if ((pm.inten & bit) && (pm.demcr & MON_EN)) {
			pm.dfsr |= 1u << 5;
			pm.demcr |= MON_PEND;
			pm.debugmon++;
		}
	}
	*c = (uint32_t)((*c + n) & max);
}

uint32_t mmio_rd32(uint32_t a)
{
	pm.reads++;
	if (a == DEMCR)
		return pm.demcr;
	if (a == DHCSR)
		return pm.dhcsr;
	if (a == DFSR)
		return pm.dfsr;
	if (a >= ITM && a < ITM + 0x1000)
		return part(pm.b->itm, a) ? itm_read(a - ITM) : 0;
	if (a >= DWT && a < DWT + 0x1000)
		return part(pm.b->dwt, a) ? dwt_read(a - DWT) : 0;
	if (a >= PMU && a < PMU + 0x1000)
		return part(pm.b->pmu_n || pm.b->pmu_cc, a) && (pm.demcr & TRCENA) ?
			pmu_read(a - PMU) : 0;
	fail_msg("read of unknown address %#x", a);
	return 0;
}

static void wr(uint32_t a, uint32_t v, uint8_t size)
{
	logw(a, v, size);
	if (size != 4 && !(a >= ITM && a < ITM + 0x400))
		fail_msg("%u-byte write to %#x", size, a);
	if (a == DEMCR)
		pm.demcr = v & 0x011F07F1u;
	else if (a == DFSR)
		pm.dfsr &= ~v;
	else if (a >= ITM && a < ITM + 0x1000) {
		if (part(pm.b->itm, a))
			itm_write(a - ITM, v, size);
	} else if (a >= DWT && a < DWT + 0x1000) {
		if (part(pm.b->dwt, a))
			dwt_write(a - DWT, v);
	} else if (a >= PMU && a < PMU + 0x1000) {
		if (part(pm.b->pmu_n || pm.b->pmu_cc, a) && (pm.demcr & TRCENA))
			pmu_write(a - PMU, v);
	} else {
		fail_msg("write of unknown address %#x", a);
	}
}

void mmio_wr32(uint32_t a, uint32_t v)
{
	wr(a, v, 4);
}

void mmio_wr16(uint32_t a, uint16_t v)
{
	wr(a, v, 2);
}

void mmio_wr8(uint32_t a, uint8_t v)
{
	wr(a, v, 1);
}
