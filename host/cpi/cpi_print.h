/* SPDX-License-Identifier: BSD-2-Clause */
/* Printing DCPI's analyses for bmprof cpi and bmprof stalls: a function's blocks and
 * instructions with their estimates and stalls, and the summary of where the cycles went
 * (DCPI's Figure 4 layout), as text of at most 100 columns or as JSON
 * (docs/bmprof-cpi.md gives the schema). */
#ifndef BMPROF_CPI_PRINT_H
#define BMPROF_CPI_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include "cpi/cpi_run.h"
#include "util/json.h"

struct profile;

/* Add summary s into total (the whole image's): sums, with best_cpi and actual_cpi
 * weighted by each one's insn_execs. */
void cpi_summary_add(struct dcpi_summary *total, const struct dcpi_summary *s);

/* "dep on 0x401004", "unit busy (0x40100c)", "issue width", ...: the static stall of
 * instruction i of cf (empty when it has none). */
const char *cpi_static_text(const struct cpi_func *cf, uint32_t i, char *buf, size_t n);
/* "D-cache<=3.2 D-TLB dep on 0x401000": the culprits of i's dynamic stall. */
const char *cpi_culprits_text(const struct cpi_func *cf, uint32_t i, char *buf, size_t n);

/* The profile's recording circumstances: "timer; accel=tcg icount=1" and the like. */
const char *cpi_sample_source(const struct profile *p, char *buf, size_t n);

/* Text: the header, each block with its instructions, the summary. color: each
 * instruction's samples coloured by their share of the function's (term.h). */
void cpi_print_func(FILE *f, const struct profile *p, const struct cpi_func *cf,
		    const char *elf, int color);
/* Text: "note: ..." lines on how the profile was recorded (TCG without -singlestep or
 * -icount). */
void cpi_print_notes(FILE *f, const struct profile *p);
/* Text: "model:    NAME (why): title", cut at 100 columns. */
void cpi_print_model(FILE *f, const struct uarch *u, const char *why);
/* Text: the summary; all_samples: the cycles samples it is a share of (0: not said). */
void cpi_print_summary(FILE *f, const struct dcpi_summary *s, uint64_t all_samples);

/* JSON: one function's whole analysis as an object (see docs/bmprof-cpi.md). */
void cpi_json_func(struct json *j, const struct profile *p, const struct cpi_func *cf,
		   const char *elf);
void cpi_json_summary(struct json *j, const struct dcpi_summary *s);

#endif
