/* SPDX-License-Identifier: BSD-2-Clause */
/* From a loaded profile to symbols: find the image's ELF, check it is the one that ran,
 * and symbolize every sampled pc in one batch.
 *
 * The ELF is, in order: the one given (--elf); the path the profile's "elf" meta key
 * names, if a file is still there; a file of that base name next to the profile file.
 * The ELF must be of the architecture HELLO names, and a GNU build-id in both the ELF and
 * the profile's HELLO must match. Profile pcs are
 * runtime addresses; HELLO's load_bias is subtracted to get ELF (link-time) addresses.
 *
 * A pc outside the image's loaded range (its PT_LOAD segments shifted by the load bias)
 * ran code that is not the image's: the firmware's, for a UEFI application. Such a pc is
 * marked outside; when a firmware module (host/report/firmware.h) holds it, it is symbolized
 * against that module's ELF instead.
 */
#ifndef BMPROF_RESOLVE_H
#define BMPROF_RESOLVE_H

#include <stddef.h>
#include <stdint.h>
#include "flat.h"
#include "profile.h"
#include "symbol/symbolize.h"
#include "report/firmware.h"

struct resolved {
	struct symbolizer *sym;     /* NULL when the ELF could not be symbolized */
	char *elf;                  /* the ELF's path as opened */
	int machine;                /* its e_machine */
	int build_id_checked;       /* both sides had a build-id and they match */
	int has_dwarf;
	int no_symbols;             /* sampled pcs exist and none fell in an ELF symbol */
	uint64_t load_bias;
	int have_span;              /* the image's loaded range is known */
	uint64_t span_lo, span_hi;  /* that range, link-time [lo, hi): PT_LOAD segments */
	const struct firmware *fw;  /* modules for pcs outside the image; NULL for none (the
				       caller sets it before resolve_pcs and keeps it alive) */
	struct flat_pcinfo *info;   /* sorted by pc: each for the sampled pcs [pc, pc_last] that
				       resolve alike (flat.h), one span of the symbolizer's
				       answers or one stretch outside the image at a time */
	size_t ninfo;
	char notes[4][256];         /* things the reader should know (no build-id, stripped) */
	unsigned nnotes;
};

/* Find, open and check the ELF for p (read from profile_path; elf_override may be NULL).
 * 0, or -1 with a one-line reason in err (r is then closed). */
int resolve_open(struct resolved *r, const struct profile *p, const char *profile_path,
		 const char *elf_override, char *err, size_t errlen);
/* Symbolize every distinct pc of p's samples into r->info, walking them in order one span
 * of like answers at a time (pcs outside the image are not looked up). 0, or -1 (out of
 * memory). */
int resolve_pcs(struct resolved *r, const struct profile *p);
void resolve_close(struct resolved *r);
/* Whether a runtime pc is outside the image's loaded range (0 when the range is unknown). */
int resolve_outside(const struct resolved *r, uint64_t pc);

/* The event a report is about: name NULL picks every event when the profile has at most
 * one, else the first the target described. A name matches an event's name (case
 * ignored) or its numeric id. 0 with *event set (an id or FLAT_ALL_EVENTS), or -1 with a
 * reason naming the events there are. */
int resolve_event(const struct profile *p, const char *name, int *event, char *err,
		  size_t errlen);

/* A source path as short as it can be shown: relative to the working directory when it is
 * under it, else as given. NULL stays NULL. */
const char *resolve_short_path(const char *file);

#endif
