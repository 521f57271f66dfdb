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

/* Each rip-relative operand's disp32 lies inside its instruction, inside the block. */
static int rips_fit(const struct bhive_in_rip *rip, const struct bhive_in_block *b)
{
	for (unsigned k = 0; k < b->nrip; k++)
		if (rip[k].disp_at + 4u > rip[k].end_at || rip[k].end_at > b->len)
			return 0;
	return 1;
}

/* Each access lies inside the block, in the order of their offsets. */
static int accs_fit(const struct bhive_in_access *acc, const struct bhive_in_block *b)
{
	for (unsigned k = 0; k < b->nacc; k++)
		if ((unsigned)acc[k].at + acc[k].len > b->len || !acc[k].size ||
		    (k && acc[k].at <= acc[k - 1].at))
			return 0;
	return 1;
}

static int malformed(const struct bhive_in_block *b, uint64_t at, uint64_t code_end, int n,
		     unsigned cal_len)
{
	const struct bhive_in_rip *rip = (const void *)(input + code_end);
	const uint64_t acc_at = code_end + b->nrip * sizeof *rip;

	return at + sizeof *b > (uint64_t)n ||
	       acc_at + b->nacc * sizeof(struct bhive_in_access) > (uint64_t)n ||
	       b->nacc > BHIVE_MAX_ACCESS || !accs_fit((const void *)(input + acc_at), b) ||
	       b->len == 0 || b->len % BHIVE_INSN_BYTES || b->len > BHIVE_MAX_BLOCK ||
	       !b->u_lo || b->u_hi <= b->u_lo || (uint64_t)b->len * (b->u_lo + b->u_hi) +
	       (uint64_t)cal_len * (BHIVE_CAL_LO + BHIVE_CAL_HI) + BHIVE_CODE_SLACK > BHIVE_CODE_MAX ||
	       b->nrip > (BHIVE_RIP_OPERANDS ? BHIVE_MAX_RIP : 0) || b->rip_align > 63 ||
	       !rips_fit(rip, b);
}

int main(void)
{
	const struct bhive_in_header *h = (const void *)input;
	int n = fwcfg_read_file(BHIVE_FWCFG_NAME, (char *)input, sizeof input);
	uint64_t at = sizeof *h;
	unsigned cal_len, write_frames;

	if (n < (int)sizeof *h || n > (int)sizeof input || h->magic != BHIVE_MAGIC) {
		bm_printf("@bhive-error no block list in fw_cfg " BHIVE_FWCFG_NAME "\n");
		return 2;
	}
	bhive_opts.show_timings = h->flags & BHIVE_IN_TIMINGS;
	bhive_opts.unstable = h->flags & BHIVE_IN_UNSTABLE;
	if (h->max_faults)
		bhive_opts.max_faults = h->max_faults;
	bhive_opts.pmc = arch_start();
	arch_cal(&cal_len);
	write_frames = space_set_write_frames(arch_write_frames());
	bm_printf("@bhive-clock %s\n", bhive_opts.pmc ? "pmc" : arch_clock);
	bm_printf("@bhive-frames %u\n", write_frames);
	for (uint32_t i = 0; i < h->count; i++) {
		const struct bhive_in_block *b = (const void *)(input + at);
		const uint64_t code_end = at + ((sizeof *b + b->len + 3) & ~3ull);
		const struct bhive_in_rip *rip = (const void *)(input + code_end);
		struct measure m = { 0 };
		if (malformed(b, at, code_end, n, cal_len)) {
			bm_printf("@bhive-error block %u is malformed\n", i);
			return 2;
		}
		const struct bhive_in_access *acc = (const void *)(rip + b->nrip);
		measure(input + at + sizeof *b, b, rip, acc, &m);
		report(b->index, b->len, &m);
		at = code_end + b->nrip * sizeof *rip + b->nacc * sizeof *acc;
	}
	bm_printf("@bhive-end %u\n", h->count);
	return 0;
}
