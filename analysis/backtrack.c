/* SPDX-License-Identifier: BSD-2-Clause */
/* Apropos backtracking over a decoded procedure (backtrack.h). */
#include <string.h>

#include "backtrack.h"
#include "wire.h"

static const char *const status_names[] = { "ea", "ea-unknown", "branch-target", "no-memop",
					    "not-code", "undecodable" };
static const char *const why_names[] = { "", "clobbered", "not-captured", "segment",
					 "vector-index", "rep", "form" };

const char *bt_status_name(unsigned status)
{
	return status < sizeof status_names / sizeof status_names[0] ? status_names[status] : "?";
}

const char *bt_why_name(unsigned why)
{
	return why < sizeof why_names / sizeof why_names[0] ? why_names[why] : "?";
}

int bt_is_branch_target(const struct bt_code *c, size_t i)
{
	if (i == 0)
		return 1;
	if (i >= c->n)
		return 0;
	if (c->insns[i - 1].flow == INSN_FLOW_CALL)
		return 1;   /* a return point: entered by the callee's return */
	const struct cfg *g = c->cfg;
	if (!g || g->ninsns != c->n)
		return 0;
	const struct cfg_block *b = &g->blocks[g->block_of[i]];
	if (b->first != i)
		return 0;
	if (!b->nin)
		return 1;   /* nothing known enters it: entered from somewhere unknown */
	for (uint32_t k = 0; k < b->nin; k++)
		if (g->edges[g->in[b->in_at + k]].kind != CFG_EDGE_FALL)
			return 1;
	return 0;
}

/* The access of insns[j] an event of kind ev counts, or NULL. */
static const struct memop_access *access_for(const struct memop *m, unsigned ev, uint8_t *kind)
{
	if ((ev & BT_EV_LOAD) && m->ld.valid) {
		*kind = BT_EV_LOAD;
		return &m->ld;
	}
	if ((ev & BT_EV_STORE) && m->st.valid) {
		*kind = BT_EV_STORE;
		return &m->st;
	}
	return NULL;
}

static int writes(const struct bt_code *c, size_t k, unsigned dreg)
{
	unsigned r = memop_insn_reg_of_dwarf(c->arch, dreg);
	return r != MEMOP_NOREG && insn_regs_has(&c->insns[k].wr, r);
}

/* The first instruction in (j, i) that writes dreg, or 0 if none does. */
static size_t written_after(const struct bt_code *c, size_t j, size_t i, unsigned dreg)
{
	for (size_t k = j + 1; k < i; k++)
		if (writes(c, k, dreg))
			return k;
	return 0;
}

static int captured(const struct regfile *f, unsigned dreg)
{
	return dreg == MEMOP_NOREG || (f && regfile_has(f, dreg));
}

static uint64_t reg(const struct regfile *f, unsigned dreg)
{
	return dreg == MEMOP_NOREG ? 0 : f->r[dreg];
}

static uint64_t extend(uint64_t v, unsigned ext)
{
	if (ext == MEMOP_EXT_UXTW)
		return (uint32_t)v;
	if (ext == MEMOP_EXT_SXTW)
		return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	return v;
}

static void unknown(struct bt_result *r, unsigned why, unsigned dreg, uint64_t pc)
{
	r->status = BT_EA_UNKNOWN;
	r->why = (uint8_t)why;
	r->clobber_reg = (uint8_t)dreg;
	r->clobber_pc = pc;
}

/* Either register of a pair written after j (between j and i) or by j itself: the first
 * such, preferring one written between (clobber) over j's own write (self). */
static int clobbered(const struct bt_code *c, size_t j, size_t i, const uint8_t *regs,
		     size_t nregs, int self_counts, unsigned *dreg, size_t *at)
{
	size_t best = 0;
	for (size_t k = 0; k < nregs; k++) {
		size_t w;
		if (regs[k] == MEMOP_NOREG)
			continue;
		if ((w = written_after(c, j, i, regs[k])) && (!best || w < best)) {
			best = w;
			*dreg = regs[k];
		}
	}
	if (best) {
		*at = best;
		return 1;
	}
	for (size_t k = 0; self_counts && k < nregs; k++)
		if (regs[k] != MEMOP_NOREG && writes(c, j, regs[k])) {
			*dreg = regs[k];
			*at = j;
			return 1;
		}
	return 0;
}

static void address(const struct bt_code *c, size_t j, size_t i, const struct memop_access *a,
		    const struct regfile *f, struct bt_result *r)
{
	static const uint8_t why_of[] = { BT_WHY_NONE, BT_WHY_SEGMENT, BT_WHY_VECTOR_INDEX,
					  BT_WHY_REP, BT_WHY_FORM };
	uint8_t pre[2] = { a->base, a->index }, post[2] = { a->post_reg, a->post_index };
	unsigned dreg = MEMOP_NOREG, d2;
	size_t at = 0, at2;
	uint64_t ea;

	if (a->why != MEMOP_OK) {
		unknown(r, a->why < sizeof why_of ? why_of[a->why] : BT_WHY_FORM, MEMOP_NOREG, 0);
		return;
	}
	if (!clobbered(c, j, i, pre, 2, 1, &dreg, &at)) {
		for (size_t k = 0; k < 2; k++)
			if (!captured(f, pre[k])) {
				unknown(r, BT_WHY_NOT_CAPTURED, pre[k], 0);
				return;
			}
		ea = reg(f, a->base) + (extend(reg(f, a->index), a->ext) << a->shift) +
		     (uint64_t)a->disp;
	} else if (a->post_reg != MEMOP_NOREG &&
		   !clobbered(c, j, i, post, 2, 0, &d2, &at2) &&
		   (a->post_index == MEMOP_NOREG || !writes(c, j, a->post_index))) {
		for (size_t k = 0; k < 2; k++)
			if (!captured(f, post[k])) {
				unknown(r, BT_WHY_NOT_CAPTURED, post[k], 0);
				return;
			}
		ea = reg(f, a->post_reg) - (uint64_t)a->post_off - reg(f, a->post_index);
		r->flags |= BT_F_WRITEBACK;
	} else {
		unknown(r, BT_WHY_CLOBBERED, dreg, c->insns[at].addr);
		return;
	}
	r->status = BT_EA;
	r->ea = a->addr32 ? (uint32_t)ea : ea;
}

static void trigger(const struct bt_code *c, size_t j, size_t i, const struct memop_access *a,
		    uint8_t kind, struct bt_result *r)
{
	r->trigger_pc = c->insns[j].addr;
	r->kind = kind;
	r->base = a->base;
	r->index = a->index;
	r->size = a->size;
	r->disp = a->disp;
	r->skid = (uint32_t)(i - j - 1);
}

/* ---- past a branch target: every path through the CFG ----
 *
 * From the pc back over the CFG's edges (every predecessor of a block's first instruction)
 * for at most window instructions on each path: when every path reaches an access of the
 * event's kind and it is the same instruction on all of them, that instruction ran last
 * before the pc whichever way control came, so it is the trigger. Any path that meets the
 * procedure's entry, a return point, a block nothing known enters, undecodable bytes or
 * the window's end without one, or a CFG that misses some indirect jump's targets, and
 * the rule does not apply. Blocks the entry does not reach (padding after a return that
 * falls into a block) are no predecessors: in a CFG that knows every target they never
 * run. The address registers must be written on no path (nor by the
 * trigger other than a known writeback) for the address to be computed. */
#define PATH_VISITS 512u

struct paths {
	const struct bt_code *c;
	unsigned event;
	unsigned visits;
	long cand;                /* the trigger found on the paths so far; -1: none yet */
	unsigned depth;           /* the shortest path's skid */
	int fail;
	const uint8_t *regs;      /* the clobber pass: the address registers */
	size_t nregs;
	unsigned dreg;            /* a register written on a path, and where */
	size_t at;
};

/* The instructions that can run just before insns[x], into prev; how many, or -1 when not
 * all are known. */
static int preds(const struct bt_code *c, size_t x, size_t *prev, int cap)
{
	const struct cfg *g = c->cfg;
	const struct cfg_block *b;
	int n = 0;

	if (x == 0 || c->insns[x - 1].flow == INSN_FLOW_CALL)
		return -1;
	b = &g->blocks[g->block_of[x]];
	if (b->flags & CFG_BLOCK_UNREACHED)
		return -1;
	if (b->first != x) {
		prev[0] = x - 1;
		return 1;
	}
	if ((int)b->nin > cap)
		return -1;
	for (uint32_t k = 0; k < b->nin; k++) {
		const struct cfg_edge *e = &g->edges[g->in[b->in_at + k]];
		const struct cfg_block *f = &g->blocks[e->from];
		if (e->kind == CFG_EDGE_ENTRY || (f->flags & CFG_BLOCK_VIRTUAL) || !f->n)
			return -1;
		/* code nothing reaches from the entry (padding after a return) never runs
		 * first: with every indirect jump's targets known, nothing else enters it */
		if (f->flags & CFG_BLOCK_UNREACHED)
			continue;
		prev[n++] = f->first + f->n - 1;
	}
	return n ? n : -1;
}

static int writes_any(const struct paths *w, size_t y, unsigned *dreg)
{
	for (size_t k = 0; k < w->nregs; k++)
		if (w->regs[k] != MEMOP_NOREG && writes(w->c, y, w->regs[k])) {
			*dreg = w->regs[k];
			return 1;
		}
	return 0;
}

/* Back from insns[x] (in (trigger, pc]) with `left` instructions of the window left: the
 * search pass (regs NULL) finds the trigger; the clobber pass looks for a write to regs on
 * the way to it. */
static void back(struct paths *w, size_t x, unsigned left, unsigned depth)
{
	size_t prev[8];
	int n;

	if (w->fail || ++w->visits > PATH_VISITS || !left || (n = preds(w->c, x, prev, 8)) < 0) {
		w->fail = 1;
		return;
	}
	for (int k = 0; k < n && !w->fail; k++) {
		size_t y = prev[k];
		uint8_t kind;

		if (w->regs) {
			if ((long)y == w->cand)
				continue;
			if (writes_any(w, y, &w->dreg)) {
				w->at = y;
				w->fail = 1;
				return;
			}
			back(w, y, left - 1, depth + 1);
			continue;
		}
		if (w->c->memops[y].flags & MEMOP_F_UNDECODED) {
			w->fail = 1;
			return;
		}
		if (access_for(&w->c->memops[y], w->event, &kind)) {
			if (w->cand >= 0 && w->cand != (long)y)
				w->fail = 1;
			w->cand = (long)y;
			if (depth < w->depth)
				w->depth = depth;
			continue;
		}
		back(w, y, left - 1, depth + 1);
	}
}

/* The trigger on every path back from insns[i] (r filled as for the linear walk, flag
 * BT_F_PATHS), or 0 when the rule does not apply. */
static int all_paths(const struct bt_code *c, size_t i, unsigned event, unsigned window,
		     const struct regfile *f, struct bt_result *r)
{
	struct paths w = { .c = c, .event = event, .cand = -1, .depth = UINT32_MAX };
	const struct memop_access *a;
	uint8_t kind = 0, regs[4];
	size_t j;

	if (!c->cfg || c->cfg->incomplete || c->cfg->ninsns != c->n || i >= c->n)
		return 0;
	back(&w, i, window, 0);
	if (w.fail || w.cand < 0)
		return 0;
	j = (size_t)w.cand;
	if (!(a = access_for(&c->memops[j], event, &kind)))
		return 0;
	trigger(c, j, i, a, kind, r);
	r->skid = w.depth;
	r->flags |= BT_F_PATHS;
	regs[0] = a->base;
	regs[1] = a->index;
	regs[2] = a->post_reg;
	regs[3] = a->post_index;
	w = (struct paths){ .c = c, .cand = (long)j, .regs = regs, .nregs = 4 };
	back(&w, i, window, 0);
	if (w.fail && w.visits <= PATH_VISITS && w.at < c->n && w.dreg != MEMOP_NOREG &&
	    writes(c, w.at, w.dreg))
		unknown(r, BT_WHY_CLOBBERED, w.dreg, c->insns[w.at].addr);
	else if (w.fail)
		unknown(r, BT_WHY_CLOBBERED, MEMOP_NOREG, 0);
	else
		address(c, j, j + 1, a, f, r);   /* nothing between: only its own writes count */
	return 1;
}

/* The index of the instruction at pc, n for the procedure's end, or -1. */
static long pc_index(const struct bt_code *c, uint64_t pc)
{
	if (!c->n)
		return -1;
	const struct insn *last = &c->insns[c->n - 1];
	if (pc == last->addr + last->size)
		return (long)c->n;
	return insn_find(c->insns, c->n, pc);
}

int bt_resolve(const struct bt_code *c, const struct bt_query *q, struct bt_result *r)
{
	unsigned window = q->window ? q->window : BT_WINDOW_DEFAULT;
	const struct regfile *f = q->regs;
	long at = pc_index(c, q->pc);
	int seen_target = 0;

	memset(r, 0, sizeof(*r));
	r->base = r->index = r->clobber_reg = BT_NOREG;
	r->status = BT_NOT_CODE;
	if (at < 0)
		return r->status;
	if (window > BT_WINDOW_MAX)
		window = BT_WINDOW_MAX;
	if (f && (f->arch != c->arch || f->n > REGFILE_MAX))
		f = NULL;
	if (c->cfg && c->cfg->incomplete)
		r->flags |= BT_F_CFG_INCOMPLETE;
	size_t i = (size_t)at, j = i;
	r->status = BT_NO_MEMOP;
	for (unsigned k = 0; k < window; k++) {
		/* insns[j] lies in (candidate, pc]; the entry is a target only as the pc itself
		 * (nothing before it can be a candidate) */
		if (!seen_target && (j > 0 || i == 0) && bt_is_branch_target(c, j)) {
			seen_target = 1;
			r->target = c->insns[j].addr;
		}
		if (j == 0)
			break;
		j--;
		if (c->memops[j].flags & MEMOP_F_UNDECODED) {
			if (!seen_target)
				r->status = BT_UNDECODABLE;
			break;
		}
		uint8_t kind;
		const struct memop_access *a = access_for(&c->memops[j], q->event, &kind);
		if (!a)
			continue;
		trigger(c, j, i, a, kind, r);
		if (!seen_target)
			address(c, j, i, a, f, r);
		break;
	}
	if (seen_target) {
		uint64_t target = r->target;

		r->status = BT_BRANCH_TARGET;
		if (all_paths(c, i, q->event, window, f, r))
			r->target = target;
	}
	return r->status;
}
