/* SPDX-License-Identifier: BSD-2-Clause */
/* DCPI's analysis of one procedure (Anderson et al., SOSP 1997, §6): from the samples of a
 * cycles (or timer) event at each instruction, estimate how often each instruction
 * executed and how many cycles it spent per execution, and explain its stalls.
 *
 *   S_i ~ F * M_i: samples at an issue point = frequency F (executions per sampling
 *   period) x its cycles at the head of the queue; estimated executions = F * P.
 *
 * Steps: issue points and M_i from the static schedule (sched.h, computed by the caller
 * and passed in); per frequency equivalence class (cfg.h), F from the cluster of the
 * smallest S_i/M_i ratios (max <= 1.5 x min), with DCPI's refinements (few samples: F =
 * sum S / sum M over the class; an issue point that depends on an earlier one j in its
 * block: the ratio of the sums over j+1..i); local propagation over the CFG (a block's
 * count = sum of its in-edges = sum of its out-edges; negative results rejected);
 * a confidence level per estimate; then per instruction the cycles per execution, the
 * static stalls (from the schedule) and the dynamic stall with its possible culprits, and
 * the procedure's summary. No I/O.
 *
 * Frequency of a class (F, executions per sampling period):
 *   - issue points: instructions of the class's blocks with sched M > 0. Ratio S_i / M_i,
 *     or, when i waits on an earlier instruction j of its block (SCHED_DEPENDENCY, culprit
 *     j < i - 1), sum S / sum M over j+1..i.
 *   - fewer than DCPI_FEW_SAMPLES samples in the class: F = sum S / sum M (DCPI_HOW_SUM).
 *   - else DCPI_HOW_CLUSTER: windows of ratios with max <= 1.5 x min, each starting at one
 *     ratio; the first (smallest) window holding at least a quarter of the issue points,
 *     or a denser one starting within 1.5 x its start. Seeded with the window's median
 *     ratio, the cluster is then every issue point whose samples lie within Poisson noise
 *     of F x M_i (|S - F M| <= 2 sqrt(F M) + 1), F = sum S / sum M over it, repeated
 *     until the set settles, so that noise alone does not bias F low (when no point
 *     agrees: F = sum S / sum M over the window).
 *   - out-of-order models (uarch out_of_order): a sample lands on the oldest unretired
 *     instruction, which a static schedule predicts only over a whole block, not per
 *     instruction (samples spread over instructions that retire together). The points
 *     are then the class's blocks, each sum S / sum M over the block, clustered as above
 *     (high confidence: >= 100 samples in the cluster and at least half the blocks;
 *     medium: >= 30 samples).
 *   - from instruction-retired samples, when given, instead of the above if the class has
 *     no issue points, or has fewer than DCPI_FEW_SAMPLES cycles samples and more
 *     retired samples than cycles samples: F = (sum R x Pr / instructions in the class)
 *     / P (DCPI_HOW_RETIRED). Each instruction's retired_execs is that pooled count for
 *     its class (R x Pr alone for an instruction in no class).
 *   - then local propagation over the classes (DCPI_HOW_PROPAGATED): for each block, its
 *     class = sum of its in-edges' classes (skipped when the CFG is incomplete: unknown
 *     jumps may enter anywhere) and = sum of its out-edges'; an equation with exactly one
 *     unknown class solves it; a negative result is rejected; repeat until nothing changes.
 *     Edges from unreached blocks count 0.
 * Confidence:
 *   CLUSTER: high if the cluster has >= 3 issue points, >= 100 samples and at least half
 *     the class's issue points; medium if >= 2 issue points and >= 30 samples; else low.
 *   SUM: low. RETIRED: high with >= 100 retired samples in the class, medium >= 25, else
 *     low. PROPAGATED: one level below the least confident estimate it was computed from
 *     (never below low); low when the result is under a tenth of the largest term of its
 *     equation (a small difference of large estimates).
 * sched[i].culprit is relative to the first instruction of i's block (as sched_block
 * returns it when given the block). */
#ifndef BMPROF_DCPI_H
#define BMPROF_DCPI_H

#include <stddef.h>
#include <stdint.h>
#include "cfg.h"
#include "sched.h"
#include "uarch.h"

#define DCPI_FEW_SAMPLES 30     /* a class with fewer cycles samples: F = sum S / sum M */
#define DCPI_PAGE_SIZE 4096     /* I-TLB culprit: instructions starting a page */

enum dcpi_conf { DCPI_CONF_NONE = 0, DCPI_CONF_LOW, DCPI_CONF_MEDIUM, DCPI_CONF_HIGH };

/* how an estimate was reached */
enum dcpi_how {
	DCPI_HOW_NONE = 0,     /* no estimate (no samples, nothing to propagate from) */
	DCPI_HOW_CLUSTER,      /* cluster of the smallest S/M ratios of the class */
	DCPI_HOW_SUM,          /* few samples: sum S / sum M over the class */
	DCPI_HOW_PROPAGATED,   /* from its neighbours' estimates through the CFG */
	DCPI_HOW_RETIRED,      /* from instruction-retired samples */
};

/* Possible causes of a dynamic stall ("guilty until proven innocent"), listed for an
 * instruction whose dyn_stall > 0 (execs known):
 *   I-cache / I-TLB: it starts or straddles a cache line (page), or starts a block with
 *     a predecessor (or the caller) whose last instruction lies in another line (page).
 *   D-cache / D-TLB: it is a load, or a register it reads was last written by a load,
 *     earlier in its block or, for registers its block has not written before it, at
 *     the end of a predecessor block.
 *   mispredict: it starts a block entered from a conditional or indirect branch (taken,
 *     table or fall-through edge).
 *   write buffer: it is a store.  unit busy: its class's unit is not pipelined (uarch
 *     busy > 1) and used earlier in its block (anywhere in it when the block is in a
 *     loop); bound = busy cycles.  dependency: dep_on, the nearest earlier instruction
 *     of its block writing a register it reads (dep_on is set for every instruction).
 * Bounds from event samples (cycles per execution X): I-cache: imiss samples here x period
 * x max(icache_miss, memory) / X (each miss pessimistically filled from memory); I-TLB:
 * itlb x itlb_miss; D-cache: dmiss samples at the loads it uses (itself included) x
 * max(dcache_miss, memory); D-TLB: dtlb at those loads x dtlb_miss; mispredict:
 * mispredict samples at the branches ending its predecessors x mispredict. A bound of 0
 * (event sampled, no samples) rules the culprit out. No event samples: no bound (-1). */
enum dcpi_culprit {
	DCPI_C_ICACHE = 0,     /* I-cache miss: the instruction starts a block or a line */
	DCPI_C_ITLB,           /* I-TLB miss: it starts a block or a page */
	DCPI_C_DCACHE,         /* D-cache miss: it uses (or is) a load's result */
	DCPI_C_DTLB,           /* D-TLB miss: as D-cache */
	DCPI_C_MISPREDICT,     /* branch mispredict: it starts a block reached by a branch */
	DCPI_C_WRITE_BUFFER,   /* it is a store (write buffer full) */
	DCPI_C_UNIT_BUSY,      /* a non-pipelined unit it needs may still be busy */
	DCPI_C_DEPENDENCY,     /* register dependency on an earlier instruction (dep_on) */
	DCPI_C__COUNT
};

/* Samples of other events at each instruction, when they were sampled (NULL otherwise),
 * each with its mean period (events per sample). */
struct dcpi_event_samples {
	const uint64_t *samples;  /* [cfg->ninsns] */
	double period;
};

struct dcpi_input {
	const struct cfg *cfg;               /* with classes */
	const struct uarch *uarch;
	const struct sched_insn *sched;      /* [cfg->ninsns]: each block scheduled by itself */
	const uint64_t *samples;             /* cycles samples per instruction [cfg->ninsns] */
	double period;                       /* cycles per sample (P) */
	struct dcpi_event_samples retired, imiss, dmiss, itlb, dtlb, mispredict;
};

struct dcpi_insn {
	uint64_t samples;
	double execs;            /* estimated executions (F * P); < 0: unknown */
	double cpe;              /* cycles per execution at the head: S * P / execs; < 0: unknown */
	double retired_execs;    /* from instruction-retired samples; < 0: none */
	double dyn_stall;        /* cpe - M (a negative value is a gain) */
	uint32_t culprits;       /* 1 << enum dcpi_culprit, for a dynamic stall */
	double bound[DCPI_C__COUNT];  /* upper bound on stall cycles per execution from each
				       * culprit; < 0: no bound can be computed */
	int32_t dep_on;          /* DCPI_C_DEPENDENCY: the instruction it depends on, or -1 */
};

struct dcpi_block {
	double execs;            /* < 0: unknown */
	uint8_t conf, how;       /* enum dcpi_conf, enum dcpi_how */
	uint64_t samples;
	double best_cpi, actual_cpi;   /* sum M / n and sum cpe / n; < 0: unknown */
};

struct dcpi_edge { double execs; uint8_t conf, how; };

struct dcpi_class {
	double F;                /* executions per sampling period; < 0: unknown */
	uint8_t conf, how;
	uint32_t nissue;         /* issue points in the class (out of order: blocks) */
	uint32_t ncluster;       /* issue points in the cluster F came from */
	uint64_t samples;
	/* the samples F is built from, as a Poisson count: the cluster's samples (CLUSTER),
	 * the class's (SUM), its retired samples (RETIRED); PROPAGATED: F^2 / var(F), the
	 * variance carried from the classes it was computed from (each F_c^2 / basis_c); 0
	 * when unknown. Sampling noise alone makes F off by a relative (N - basis) / basis,
	 * N ~ Poisson(basis): dcpi_poisson_within. */
	double basis;
};

/* The procedure's cycles (samples x P), split as DCPI's summary does. Low and high bound
 * the cycles a cause may account for: low counts stalls it alone can explain, high every
 * stall it may have caused (capped by its bound). */
/* Per instruction with known executions X > 0: cpe = S P / X; dyn_stall = cpe - M.
 * Dynamic stall cycles D = X max(0, dyn_stall). For each possible culprit c of the stall,
 * cap_c = min(D, bound_c X) when a bound exists, else D. Then
 *   dyn_hi[c] += cap_c;   dyn_lo[c] += max(0, D - sum of cap_c' over the other culprits)
 *   unexplained_stall += D when there is no culprit, else max(0, D - sum of all cap_c)
 *   unexplained_gain += X max(0, -dyn_stall)   (issue points only)
 *   execution = sum X (M - stall) over issue points (X when stall = M - 1, as sched
 *     gives it); static_stall[r] = sum X x sched stall, by reason r (a stall without a
 *     reason goes to index 0)
 *   dyn_total = sum D
 *   sampling_error = cycles - (execution + static + dyn_total - unexplained_gain): the
 *     cycles of samples at instructions whose frequency is unknown (or estimated as 0), so
 *     that execution + static + dynamic - gain + sampling_error = cycles exactly.
 *   best_cpi = sum X M / sum X; actual_cpi = sum X cpe / sum X; insn_execs = sum X. */
struct dcpi_summary {
	uint64_t samples;
	double cycles;
	double execution;                  /* sum over issue points of execs x 1 cycle
					    * (x (M - stall), see above) */
	double static_stall[SCHED__COUNT]; /* by enum sched_reason (index 0: a stall
					    * the schedule gave no reason, normally 0) */
	double dyn_lo[DCPI_C__COUNT], dyn_hi[DCPI_C__COUNT];
	double dyn_total;                  /* all dynamic stall cycles */
	double unexplained_stall;          /* dynamic stall with no possible culprit */
	double unexplained_gain;           /* cycles where cpe < M (negative stall), as >= 0 */
	double sampling_error;             /* net sampling error, cycles: the samples that the
					    * estimates do not account for, +/- */
	double best_cpi, actual_cpi;       /* weighted by executions */
	double insn_execs;                 /* instructions executed (sum of estimates) */
};

struct dcpi_result {
	struct dcpi_insn *insns;     /* [cfg->ninsns] */
	struct dcpi_block *blocks;   /* [cfg->nblocks] */
	struct dcpi_edge *edges;     /* [cfg->nedges] */
	struct dcpi_class *classes;  /* [cfg->nclasses] */
	struct dcpi_summary sum;
};

/* 0, or -1 on out of memory or bad input (no cfg, samples or sched array, period <= 0). */
int dcpi_analyze(const struct dcpi_input *in, struct dcpi_result *out);
void dcpi_result_free(struct dcpi_result *r);

const char *dcpi_conf_name(unsigned conf);       /* "low", "medium", "high", "-" */
const char *dcpi_culprit_name(unsigned c);       /* "I-cache", "D-cache", ... */
const char *dcpi_how_name(unsigned how);

/* DCPI's accuracy measure: the share of estimates, weighted, within 5, 10 and 15% of the
 * truth. Add each (estimate, truth, weight); an unknown estimate (< 0) counts as a miss.
 *
 * Its sampling-noise floor: the share that perfect estimates would reach with the same
 * samples, when the only error is the Poisson noise of the samples each estimate is built
 * from (its class's basis): for each estimate added, dcpi_accuracy_add_noise with the
 * same weight adds weight x P(|N / basis - 1| <= 5, 10, 15%), N ~ Poisson(basis). */
struct dcpi_accuracy {
	double weight;           /* total weight added */
	double within[3];        /* weight within 5%, 10%, 15% */
	double floor[3];         /* expected weight within them from noise alone */
	size_t n;
};
void dcpi_accuracy_add(struct dcpi_accuracy *a, double est, double truth, double weight);
void dcpi_accuracy_add_noise(struct dcpi_accuracy *a, double basis, double weight);
double dcpi_accuracy_share(const struct dcpi_accuracy *a, unsigned k);   /* k: 0,1,2 */
double dcpi_accuracy_floor(const struct dcpi_accuracy *a, unsigned k);   /* k: 0,1,2 */
/* P(|N / lambda - 1| <= p) for N ~ Poisson(lambda): exact sum of the probabilities up to
 * lambda = 10^6, the normal approximation (with continuity correction) above; 0 for
 * lambda <= 0. */
double dcpi_poisson_within(double lambda, double p);

#endif
