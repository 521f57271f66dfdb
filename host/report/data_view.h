/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-space views of a profile with raw samples (bmprof report --sort type, type,member,
 * object; --layout STRUCT): each raw sample backtracked to its trigger instruction and
 * effective address (host/decode/bt_image.h), attributed to a data type, member and object
 * from the image's DWARF (host/symbol/dtype.h), then counted per row. A raw sample that
 * carries the data address the hardware gave (PEBS) is attributed by that address, with
 * no backtracking; with its pc exact, that pc is its trigger instruction. docs/data-space.md,
 * "Reports". */
#ifndef BMPROF_DATA_VIEW_H
#define BMPROF_DATA_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "symbol/dtype.h"

enum data_view_key {
	DV_BY_TYPE,          /* "struct node", "<Scalars>", "<Unknown> (Unverifiable)" */
	DV_BY_TYPE_MEMBER,   /* "{struct node}.+56 basic_arc" */
	DV_BY_OBJECT,        /* the global or static variable ("nodes") */
	DV_LAYOUT,           /* the members of one struct, with the samples each took */
};

struct data_view_row {
	char *name;
	uint64_t samples;
};

/* Backtracking effectiveness of the raw samples delivered in one function. */
struct data_view_fn {
	char *name;              /* the ELF symbol, "" for none */
	uint64_t total, trigger, address, typed;
};

/* Samples delivered at one pc (link-time) charged to one row. */
struct data_view_pc {
	uint64_t pc;
	const char *row;         /* the row's name (data_view_row.name) */
	uint64_t samples;
};

struct data_view {
	enum data_view_key key;
	const char *profile, *elf;
	char source[256], source_line[512];   /* the data_space_source meta, and the line */
	/* Backtracking effectiveness: raw samples, those with a trigger instruction found
	 * (ea or ea-unknown), with its address computed, with a type (an object or
	 * <Scalars>); hw_address: those whose address came from the hardware. */
	uint64_t total, trigger, address, typed, hw_address;
	uint64_t cls[DTYPE__NCLASS];
	struct data_view_fn *fns;             /* by delivered pc's function, in first-seen order */
	size_t nfns, fns_cap;
	struct data_view_row *rows;           /* most samples first */
	size_t nrows, cap;
	struct data_view_pc *pcs;             /* by pc, then row (one per raw sample until
						 merged) */
	size_t npcs;
	/* DV_LAYOUT: the struct, its samples per field (fields[i] -> field_samples[i]), the
	 * samples at no member's offset (holes, padding) and in all. */
	struct dtype_layout layout;
	int have_layout;
	uint64_t *field_samples;
	uint64_t type_other, type_total;
};

/* Resolve every raw sample of p against the image elf (link-time = runtime - load_bias) and
 * count them by key (layout: the struct's name for DV_LAYOUT). 0, or -1 with a one-line
 * reason in err (no raw samples, the ELF cannot be decoded or has no DWARF, no such struct,
 * out of memory). */
int data_view_build(struct data_view *v, const struct profile *p, const char *elf,
		    uint64_t load_bias, enum data_view_key key, const char *layout,
		    char *err, size_t errlen);
void data_view_free(struct data_view *v);
/* The view as text, or as JSON (docs/data-space.md): at most limit rows (-1: all), those at
 * min_percent of the raw samples or above. 0, or -1 if writing failed. */
int data_view_print_text(FILE *f, const struct data_view *v, long limit, double min_percent);
int data_view_print_json(FILE *f, const struct data_view *v, long limit, double min_percent);

#endif
