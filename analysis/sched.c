/* SPDX-License-Identifier: BSD-2-Clause */
/* The static schedule of a basic block on a pipeline model (sched.h).
 *
 * Assumptions, the same for every model:
 * - Registers are renamed: only true (read-after-write) dependencies delay an instruction;
 *   memory dependencies (store to load) are not seen.
 * - A result is ready `latency` cycles after issue; a load's (or a memory operand's) adds
 *   the model's load_latency, except for the base register a load or store updates (x86
 *   push/pop/call/ret on rsp, AArch64 sp and pre/post-indexed addressing), which is an
 *   address add.
 * - Each class has its own units; classes do not share ports. A unit stays busy `busy`
 *   cycles per instruction.
 * - A system instruction (IC_SYSTEM) is serializing: it waits until everything before it
 *   has completed, and nothing after it starts before it completes.
 * In order: an instruction issues in the cycle of the one before it if the group has room,
 * its operands are ready and a unit is free, else in the first cycle where all three hold.
 * A loop's first instruction starts a new group (the taken branch ends the one before).
 * Out of order: instructions enter the window in order, alloc_width per cycle; each
 * executes as soon as its operands are ready and a unit is free (oldest first, no window
 * limit), completes latency cycles later, and retires in order, at most width per cycle,
 * in the cycle it completes at the earliest. M is the distance between retirements.
 * Blocking (in order, Cortex-M): one execute stage; an instruction holds it its class's
 * busy cycles (instead of a unit) and the next starts after that, except that a load or
 * store right after a load or store starts 1 cycle after it (address and data phases
 * overlap).
 * Loops run LOOP_ITERS times (fewer for long blocks) and the last iteration is reported. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

#define LOOP_ITERS 16
#define LOOP_MAX_INSNS 4096     /* dynamic instructions scheduled for a loop, at most */
#define NREGS 128

enum why { WHY_NONE, WHY_SLOT, WHY_DEP, WHY_UNIT };

/* Units in use per cycle and class, and the last instruction that took one. */
struct resv {
	uint8_t *use;
	int32_t *occ;
	size_t cap;    /* cycles */
	int64_t full[IC__COUNT];   /* every cycle before it has all units of the class taken */
};

static int resv_grow(struct resv *r, size_t cycles)
{
	size_t cap = r->cap ? r->cap : 256;

	if (cycles <= r->cap)
		return 0;
	while (cap < cycles)
		cap *= 2;
	uint8_t *use = realloc(r->use, cap * IC__COUNT);
	if (!use)
		return -1;
	r->use = use;
	int32_t *occ = realloc(r->occ, cap * IC__COUNT * sizeof *occ);
	if (!occ)
		return -1;
	r->occ = occ;
	memset(use + r->cap * IC__COUNT, 0, (cap - r->cap) * IC__COUNT);
	r->cap = cap;
	return 0;
}

/* The first cycle >= t with a unit of class cls free for busy cycles; taken by insn j.
 * *by: the instruction that held the unit at t when it had to wait. -1 on no memory. */
static int64_t resv_take(struct resv *r, unsigned cls, unsigned units, unsigned busy,
			 int64_t t, int32_t j, int32_t *by)
{
	int64_t s = t;

	*by = -1;
	if (units == 0)
		units = 1;
	if (busy == 0)
		busy = 1;
	if (s < r->full[cls]) {
		*by = r->occ[(size_t)s * IC__COUNT + cls];
		s = r->full[cls];
	}
	for (;;) {
		if (resv_grow(r, (size_t)s + busy + 1))
			return -1;
		unsigned k = 0;
		while (k < busy && r->use[((size_t)s + k) * IC__COUNT + cls] < units)
			k++;
		if (k == busy)
			break;
		if (*by < 0)
			*by = r->occ[((size_t)s + k) * IC__COUNT + cls];
		s += k + 1;
	}
	for (unsigned k = 0; k < busy; k++) {
		size_t x = ((size_t)s + k) * IC__COUNT + cls;
		r->use[x]++;
		r->occ[x] = j;
	}
	while ((size_t)r->full[cls] < r->cap &&
	       r->use[(size_t)r->full[cls] * IC__COUNT + cls] >= units)
		r->full[cls]++;
	return s;
}

/* The base register an access updates: a plain address add, not a load result. */
static int is_writeback(const struct uarch *u, const struct insn *in, unsigned reg)
{
	if (in->cls != IC_LOAD && in->cls != IC_STORE && in->cls != IC_BRANCH)
		return 0;
	if (u->arch == 1)                       /* x86-64: rsp */
		return reg == 4;
	if (reg == 31)                          /* AArch64: sp */
		return 1;
	/* "ldr x1, [x0], #8" or "ldr x1, [x0, #8]!": x0 is read and written */
	return (strstr(in->text, "]!") || strstr(in->text, "], ")) && insn_regs_has(&in->rd, reg);
}

static unsigned insn_latency(const struct uarch *u, const struct insn *in)
{
	unsigned lat = u->cls[in->cls < IC__COUNT ? in->cls : IC_OTHER].latency;

	if (in->cls == IC_LOAD || (in->mem & INSN_MEM_LOAD))
		lat += u->load_latency;
	return lat;
}

/* Per dynamic instruction. */
struct dyn {
	int64_t start;     /* in order: issue; out of order: execute */
	int64_t done;      /* result ready (completion) */
	int64_t retire;    /* out of order */
	int32_t culprit;   /* dynamic index */
	uint8_t why;       /* enum why */
};

struct state {
	int64_t avail[NREGS];
	int32_t prod[NREGS];
	int64_t barrier;      /* nothing starts before: completion of the last system insn */
	int32_t barrier_by;
	int64_t all_done;     /* latest completion so far */
	int32_t all_done_by;
};

/* Earliest start from operands and serialization, from t on; records why it moved. */
static int64_t operands(const struct state *s, const struct insn *in, int64_t t,
			struct dyn *d)
{
	for (unsigned w = 0; w < 2; w++)
		for (uint64_t b = in->rd.w[w]; b; b &= b - 1) {
			unsigned r = w * 64 + (unsigned)__builtin_ctzll(b);
			if (s->prod[r] >= 0 && s->avail[r] > t) {
				t = s->avail[r];
				d->why = WHY_DEP;
				d->culprit = s->prod[r];
			}
		}
	if (s->barrier > t) {
		t = s->barrier;
		d->why = WHY_DEP;
		d->culprit = s->barrier_by;
	}
	if (in->cls == IC_SYSTEM && s->all_done > t) {
		t = s->all_done;
		d->why = WHY_DEP;
		d->culprit = s->all_done_by;
	}
	return t;
}

static void results(const struct uarch *u, struct state *s, const struct insn *in,
		    struct dyn *d, int32_t j)
{
	unsigned lat = insn_latency(u, in);

	d->done = d->start + lat;
	for (unsigned w = 0; w < 2; w++)
		for (uint64_t b = in->wr.w[w]; b; b &= b - 1) {
			unsigned r = w * 64 + (unsigned)__builtin_ctzll(b);
			s->avail[r] = is_writeback(u, in, r) ? d->start + u->cls[IC_ALU].latency :
				      d->done;
			s->prod[r] = j;
		}
	if (d->done > s->all_done || s->all_done_by < 0) {
		s->all_done = d->done;
		s->all_done_by = j;
	}
	if (in->cls == IC_SYSTEM) {
		s->barrier = d->done;
		s->barrier_by = j;
	}
}

static int run(const struct uarch *u, const struct insn *insns, size_t n, size_t total,
	       struct dyn *dy)
{
	struct resv rv = { 0 };
	struct state s;
	unsigned width = u->width ? u->width : 1;
	unsigned aw = u->alloc_width ? u->alloc_width : width;
	int64_t slot = 0, rcyc = 0;      /* current issue/alloc cycle, retire cycle */
	int64_t held = 0;                /* blocking: the execute stage is free from here */
	int prev_mem = 0;
	unsigned nslot = 0, nret = 0;    /* instructions in them so far */
	int rc = 0;

	memset(&s, 0, sizeof s);
	for (unsigned r = 0; r < NREGS; r++)
		s.prod[r] = -1;
	s.barrier_by = s.all_done_by = -1;
	for (size_t j = 0; j < total; j++) {
		const struct insn *in = &insns[j % n];
		unsigned cls = in->cls < IC__COUNT ? in->cls : IC_OTHER;
		struct dyn *d = &dy[j];
		int32_t by;

		d->why = WHY_NONE;
		d->culprit = -1;
		/* the in-order slot: issue group (in order) or allocation group (out of order) */
		if (j > 0 && (nslot >= (u->out_of_order ? aw : width) ||
			      (!u->out_of_order && j % n == 0))) {
			slot++;
			nslot = 0;
			d->why = WHY_SLOT;
		}
		int64_t t = operands(&s, in, slot, d);
		int mem = cls == IC_LOAD || cls == IC_STORE;
		if (u->blocking && j > 0) {
			int64_t h = mem && prev_mem ? dy[j - 1].start + 1 : held;
			if (h > t) {
				t = h;
				d->why = WHY_UNIT;
				d->culprit = (int32_t)j - 1;
			}
		}
		int64_t x = resv_take(&rv, cls, u->cls[cls].units,
				      u->blocking ? 1 : u->cls[cls].busy, t, (int32_t)j, &by);
		if (x < 0) {
			rc = -1;
			break;
		}
		if (x > t) {
			d->why = WHY_UNIT;
			d->culprit = by;
		}
		d->start = x;
		held = x + (u->cls[cls].busy ? u->cls[cls].busy : 1);
		prev_mem = mem;
		if (!u->out_of_order) {
			if (x > slot) {
				slot = x;
				nslot = 0;
			}
		}
		nslot++;
		results(u, &s, in, d, (int32_t)j);
		if (u->out_of_order) {
			int64_t r = d->done > rcyc ? d->done : rcyc;
			if (r == rcyc && j > 0 && nret >= width)
				r++;
			if (r != rcyc) {
				rcyc = r;
				nret = 0;
			}
			nret++;
			d->retire = r;
		}
	}
	free(rv.use);
	free(rv.occ);
	return rc;
}

/* Why an out-of-order instruction retired when it did, given it is an issue point. */
static void ooo_reason(const struct uarch *u, const struct insn *in, const struct dyn *d,
		       int64_t prev_retire, size_t n, struct sched_insn *o, size_t i)
{
	if (d->done <= prev_retire) {           /* ready in time: the retire group was full */
		o->reason = SCHED_WIDTH;
		return;
	}
	if (d->why == WHY_DEP || d->why == WHY_UNIT) {
		o->reason = d->why == WHY_DEP ? SCHED_DEPENDENCY : SCHED_UNIT_BUSY;
		o->culprit = d->culprit >= 0 ? (int32_t)((size_t)d->culprit % n) : -1;
		return;
	}
	if (insn_latency(u, in) > 1 && o->M > 1) {
		o->reason = SCHED_LATENCY;
		o->culprit = (int32_t)i;
		return;
	}
	if (d->why == WHY_SLOT)                 /* it entered the window late */
		o->reason = SCHED_WIDTH;
}

int sched_block(const struct uarch *u, const struct insn *insns, size_t n, int loop,
		struct sched_insn *out)
{
	size_t iters = 1;

	if (n == 0 || !u || !insns || !out)
		return -1;
	if (loop) {
		iters = LOOP_MAX_INSNS / n;
		if (iters > LOOP_ITERS)
			iters = LOOP_ITERS;
		if (iters < 2)
			iters = 2;
	}
	size_t total = n * iters, first = total - n;
	struct dyn *dy = calloc(total, sizeof *dy);
	if (!dy)
		return -1;
	if (run(u, insns, n, total, dy)) {
		free(dy);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t j = first + i;
		const struct dyn *d = &dy[j];
		struct sched_insn *o = &out[i];
		int64_t at = u->out_of_order ? d->retire : d->start;
		int64_t prev = j > 0 ? (u->out_of_order ? dy[j - 1].retire : dy[j - 1].start) : 0;
		int64_t m = j > 0 ? at - prev : 1 + at;

		if (j == 0 && u->out_of_order)      /* empty pipeline: retires when it completes */
			m = at > 1 ? at : 1;
		o->M = (uint32_t)m;
		o->stall = m > 1 ? (uint32_t)(m - 1) : 0;
		o->reason = SCHED_NONE;
		o->culprit = -1;
		if (m == 0)
			continue;
		if (u->out_of_order) {
			ooo_reason(u, &insns[i], d, prev, n, o, i);
		} else if (d->why == WHY_DEP || d->why == WHY_UNIT) {
			o->reason = d->why == WHY_DEP ? SCHED_DEPENDENCY : SCHED_UNIT_BUSY;
			o->culprit = d->culprit >= 0 ? (int32_t)((size_t)d->culprit % n) : -1;
		} else if (d->why == WHY_SLOT) {
			o->reason = SCHED_WIDTH;
		}
	}
	free(dy);
	return 0;
}
