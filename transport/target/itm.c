/* SPDX-License-Identifier: BSD-2-Clause */
/* The ITM transport and the two-sink tee (bmprof_itm.h). Freestanding. */
#include "bmprof_itm.h"

/* A host test defines BMPROF_MMIO_MODEL and supplies these over a register model. */
#ifndef BMPROF_MMIO_MODEL
static inline uint32_t mmio_rd32(uint32_t a)
{
	return *(volatile uint32_t *)(uintptr_t)a;
}

static inline void mmio_wr32(uint32_t a, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)a = v;
}

static inline void mmio_wr16(uint32_t a, uint16_t v)
{
	*(volatile uint16_t *)(uintptr_t)a = v;
}

static inline void mmio_wr8(uint32_t a, uint8_t v)
{
	*(volatile uint8_t *)(uintptr_t)a = v;
}
#endif

static uint32_t ter_bit(uint32_t port)
{
	return 1u << (port % 32);
}

int bmprof_itm_enable(struct bmprof_itm *t, int timestamps, int unprivileged)
{
	uint32_t tcr, ter;

	if (!t || t->port >= BMPROF_ITM_PORTS)
		return -1;
	mmio_wr32(BMPROF_DEMCR, mmio_rd32(BMPROF_DEMCR) | BMPROF_DEMCR_TRCENA);
	mmio_wr32(BMPROF_ITM_LAR, BMPROF_ITM_UNLOCK);
	tcr = mmio_rd32(BMPROF_ITM_TCR);
	if (!(tcr & BMPROF_ITM_TCR_ITMENA)) {
		tcr = BMPROF_ITM_TCR_ITMENA | BMPROF_ITM_TCR_SYNCENA | BMPROF_ITM_TCR_BUSID(1);
		if (timestamps)
			tcr |= BMPROF_ITM_TCR_TSENA;
		mmio_wr32(BMPROF_ITM_TCR, tcr);
		mmio_wr32(BMPROF_ITM_TPR, unprivileged ? 0xFFFFFFFFu : 0);
	}
	ter = BMPROF_ITM_TER(t->port / 32);
	mmio_wr32(ter, mmio_rd32(ter) | ter_bit(t->port));
	if (!(mmio_rd32(BMPROF_ITM_TCR) & BMPROF_ITM_TCR_ITMENA) ||
	    !(mmio_rd32(ter) & ter_bit(t->port)))
		return -1;
	return 0;
}

/* Wait for room in the FIFO: 0, or -1 after spin_limit polls. */
static int ready(struct bmprof_itm *t, uint32_t stim)
{
	uint32_t limit = t->spin_limit ? t->spin_limit : BMPROF_ITM_DEFAULT_SPINS;

	for (uint32_t i = 0; i < limit; i++)
		if (mmio_rd32(stim) & BMPROF_ITM_STIM_READY)
			return 0;
	t->timeouts++;
	return -1;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int bmprof_itm_write(void *ctx, const void *buf, size_t len)
{
	struct bmprof_itm *t = ctx;
	const uint8_t *p = buf;
	uint32_t stim;

	if (!t || t->port >= BMPROF_ITM_PORTS || (len && !p))
		return -1;
	if (!(mmio_rd32(BMPROF_ITM_TCR) & BMPROF_ITM_TCR_ITMENA) ||
	    !(mmio_rd32(BMPROF_ITM_TER(t->port / 32)) & ter_bit(t->port))) {
		t->refused++;
		return -1;
	}
	stim = BMPROF_ITM_STIM(t->port);
	for (; len >= 4; p += 4, len -= 4) {
		if (ready(t, stim))
			return -1;
		mmio_wr32(stim, le32(p));
	}
	if (len >= 2) {
		if (ready(t, stim))
			return -1;
		mmio_wr16(stim, (uint16_t)(p[0] | p[1] << 8));
		p += 2;
		len -= 2;
	}
	if (len) {
		if (ready(t, stim))
			return -1;
		mmio_wr8(stim, p[0]);
	}
	return 0;
}

int bmprof_tee_write(void *ctx, const void *buf, size_t len)
{
	const struct bmprof_tee *t = ctx;
	int ra = -1, rb = -1;

	if (!t)
		return -1;
	if (t->a && t->a->write)
		ra = t->a->write(t->a->ctx, buf, len);
	if (t->b && t->b->write)
		rb = t->b->write(t->b->ctx, buf, len);
	return ra && rb ? -1 : 0;
}
