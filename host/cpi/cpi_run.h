/* SPDX-License-Identifier: BSD-2-Clause */
/* The CPI analysis of one function of a recorded profile: the function decoded from the
 * ELF (insn_decode.h), its CFG and classes (cfg.h), each block's static schedule
 * (sched.h), the samples of the profile's events mapped onto its instructions, and DCPI's
 * estimates (dcpi.h). Shared by bmprof cpi, bmprof stalls and bmprof validate. */
#ifndef BMPROF_CPI_RUN_H
#define BMPROF_CPI_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "blocks.h"
#include "cfg.h"
#include "dcpi.h"
#include "decode/insn_decode.h"
#include "sched.h"
#include "uarch.h"

struct profile;

struct cpi_opts {
	int event;                 /* the cycles (or timer) event id; -1: the profile's default */
	const struct uarch *uarch; /* NULL: uarch_for_cpu from the profile's HELLO */
	double period;             /* cycles per sample; <= 0: profile_cycles_per_sample() */
	/* measured cycles per iteration of blocks (bmprof bhive) that replace the model's
	 * best case where a block's bytes match; NULL: none. measured_path names them. */
	const struct block_times *measured;
	const char *measured_path;
};

struct cpi_func {
	struct insn_func fn;       /* owned; filled by the caller (insn_func_load*) */
	struct cfg cfg;
	struct sched_insn *sched;  /* [fn.n] */
	uint64_t *samples;         /* [fn.n] cycles samples per instruction */
	uint64_t *ev[6];           /* retired, imiss, dmiss, itlb, dtlb, mispredict: [fn.n] or NULL */
	struct dcpi_input in;
	struct dcpi_result res;
	const struct uarch *uarch;
	double period;
	int event;
	/* where the model and the period came from, for the reader: "--uarch", "HELLO:
	 * GenuineIntel family 6 model 0x8f", ... */
	char uarch_why[160], period_why[160];
	size_t measured, pieces;   /* blocks (pieces) whose best case was measured, of all */
	uint64_t fn_samples;       /* cycles samples in the function */
	uint64_t ev_total[6];      /* samples of each other event in the function */
	double ev_period[6];       /* its events per sample; 0: not sampled */
	int ev_id[6];              /* its event id, or -1 */
};

/* Names of the other events' roles (ev[] order): "retired", "imiss", ... */
extern const char *const cpi_ev_role[6];
/* The event cpi_func_analyze uses when o->event is -1: a cycles event with samples, else
 * the timer, else the first event with samples that is none of the other roles; -1 when
 * the profile has no samples. */
int cpi_default_event(const struct profile *p);
/* The uarch and period of cpi_func_analyze for p and o, without a function: 0, or -1 with
 * the reason (the same one-line errors). */
int cpi_choose(const struct profile *p, const struct cpi_opts *o, int event,
	       const struct uarch **u, char *uwhy, size_t uwn, double *period, char *pwhy,
	       size_t pwn, char *err, size_t errlen);

/* Analyse cf->fn (already decoded) against profile p (samples at link addresses after
 * the profile's load bias). 0, or -1 with a one-line reason in err. */
int cpi_func_analyze(const struct profile *p, const struct cpi_opts *o, struct cpi_func *cf,
		     char *err, size_t errlen);
/* Frees everything, including cf->fn. */
void cpi_func_free(struct cpi_func *cf);

#endif
