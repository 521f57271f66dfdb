/* SPDX-License-Identifier: BSD-2-Clause */
/* Firmware modules: the code a profile's samples fell in when they are outside the image
 * (boot services, the firmware's timer handler, protocol calls), and where each module
 * was loaded, so those samples can be symbolized against the module's own ELF.
 *
 * Modules come from --firmware-sym FILE[@LOADADDR] (one ELF, at LOADADDR or, without it,
 * at the address an EDK2 console log gives for a module of its name, else at its link
 * addresses) and from an EDK2 DEBUG build's console log ("Loading driver at 0x... EntryPoint=
 * 0x... NAME.efi", "Loading PEIM at ...", "Loading SMM driver at ...") together with a
 * directory of the modules' debug ELFs (NAME.debug or NAME.dll).
 *
 * Runtime = ELF address + bias. EDK2's GenFw makes every PE RVA equal to the ELF address
 * (the linker script leaves room for the PE headers before .text), and the log's address
 * is where the PE image starts in memory, so the bias is that address. When the log gives
 * the entry point too, the bias is EntryPoint - the ELF's e_entry, which is exact for the
 * code even if a linker script placed .text elsewhere than GenFw did; a module where the
 * two disagree gets a note.
 */
#ifndef BMPROF_FIRMWARE_H
#define BMPROF_FIRMWARE_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"
#include "symbol/symbolize.h"

struct fw_module {
	char *name;              /* the log's name ("DxeCore.efi") or the file's base name */
	char *path;              /* its debug ELF */
	uint64_t base;           /* load address: the log's or @LOADADDR; 0 if neither */
	uint64_t entry;          /* the log's EntryPoint; 0 if none */
	uint64_t bias;           /* runtime - ELF address */
	uint64_t lo, hi;         /* runtime range [lo, hi) of its loadable segments */
	struct symbolizer *sym;  /* shared by modules with the same path (owner: own_sym) */
	int own_sym;
};

struct firmware {
	struct fw_module *mods;
	size_t nmods;
	char *log;               /* the console log read, NULL if none */
	unsigned log_modules;    /* load lines parsed */
	unsigned log_malformed;  /* load lines that did not parse (skipped) */
	unsigned log_no_debug;   /* modules of the log with no debug ELF in the directory */
	unsigned log_bad_debug;  /* debug ELFs in the directory that could not be used */
	char notes[6][300];
	unsigned nnotes;
};

/* One console line: 1 and the module's load address, entry point and name (the text after
 * the entry point, up to the end of the line) for an EDK2 load line; 0 for any other line;
 * -1 for a line that starts like a load line but does not parse. */
int firmware_parse_load_line(const char *line, uint64_t *base, uint64_t *entry, char *name,
			     size_t namelen);

/* Everything the options name: the log (may be NULL), the debug directory (may be NULL;
 * only with a log), and nsyms FILE[@LOADADDR] specs. 0, or -1 with a one-line reason in err
 * (a --firmware-sym file missing, not an ELF, without symbols; a log that cannot be read).
 * Malformed log lines and unusable files in the directory are counted, not errors. */
int firmware_load(struct firmware *fw, const char *log, const char *debug_dir,
		  char *const *syms, size_t nsyms, char *err, size_t errlen);
/* firmware_load for a report on profile p: the log given, else the one the profile names
 * (meta key firmware_log, when that file is there, with firmware_debug as its debug
 * directory unless debug_dir is given). Nothing named: 0 and no modules. */
int firmware_load_for(struct firmware *fw, const struct profile *p, const char *log,
		      const char *debug_dir, char *const *syms, size_t nsyms, char *err,
		      size_t errlen);
/* The module named name (the log's name, or the file's without .debug/.dll/.efi; case
 * ignored), the one loaded last if several are; NULL if none. */
const struct fw_module *firmware_by_name(const struct firmware *fw, const char *name);
/* The module whose range holds pc (the one loaded last, if several do), or NULL. */
const struct fw_module *firmware_find(const struct firmware *fw, uint64_t pc);
void firmware_free(struct firmware *fw);

/* The lowest and end address of an ELF's PT_LOAD segments and its e_entry. 0, or -1
 * with the reason (cannot open, not an ELF, no loadable segment). */
int firmware_elf_span(const char *path, uint64_t *lo, uint64_t *hi, uint64_t *entry,
		      char *err, size_t errlen);

#endif
