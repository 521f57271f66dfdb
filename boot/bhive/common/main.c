/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness (docs/bmprof-bhive.md): reads the blocks from the fw_cfg file
 * BHIVE_FWCFG_NAME, measures each (measure.c) and prints one result line per block
 * (transport/bhive.h). main runs in the runtime's privilege level with interrupts off;
 * only the block runs unprivileged (run.c), in an address space of its own (space.c). */
#include "bmrt.h"
#include "measure.h"
#include "opts.h"
#include "report.h"

struct bhive_opts bhive_opts = { .max_faults = BHIVE_MAX_FAULTS };
static uint8_t input[BHIVE_IN_MAX] __attribute__((aligned(8)));

static int malformed(const struct bhive_in_block *b, uint64_t at, int n, unsigned cal_len)
{
	return at + sizeof *b > (uint64_t)n || at + sizeof *b + b->len > (uint64_t)n ||
	       b->len == 0 || b->len % BHIVE_INSN_BYTES || b->len > BHIVE_MAX_BLOCK ||
	       !b->u_lo || b->u_hi <= b->u_lo || (uint64_t)b->len * (b->u_lo + b->u_hi) +
	       (uint64_t)cal_len * (BHIVE_CAL_LO + BHIVE_CAL_HI) + BHIVE_CODE_SLACK > BHIVE_CODE_MAX;
}

int main(void)
{
	const struct bhive_in_header *h = (const void *)input;
	int n = fwcfg_read_file(BHIVE_FWCFG_NAME, (char *)input, sizeof input);
	uint64_t at = sizeof *h;
	unsigned cal_len;

	if (n < (int)sizeof *h || n > (int)sizeof input || h->magic != BHIVE_MAGIC) {
		bm_printf("@bhive-error no block list in fw_cfg " BHIVE_FWCFG_NAME "\n");
		return 2;
	}
	bhive_opts.show_timings = h->flags & BHIVE_IN_TIMINGS;
	if (h->max_faults)
		bhive_opts.max_faults = h->max_faults;
	bhive_opts.pmc = arch_start();
	arch_cal(&cal_len);
	bm_printf("@bhive-clock %s\n", bhive_opts.pmc ? "pmc" : arch_clock);
	for (uint32_t i = 0; i < h->count; i++) {
		const struct bhive_in_block *b = (const void *)(input + at);
		struct measure m = { 0 };
		if (malformed(b, at, n, cal_len)) {
			bm_printf("@bhive-error block %u is malformed\n", i);
			return 2;
		}
		measure(input + at + sizeof *b, b->len, b->u_lo, b->u_hi, &m);
		report(b->index, b->len, &m);
		at += (sizeof *b + b->len + 3) & ~3ull;
	}
	bm_printf("@bhive-end %u\n", h->count);
	return 0;
}
