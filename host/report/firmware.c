/* SPDX-License-Identifier: BSD-2-Clause */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "report/firmware.h"
#include "symbol/sym_share.h"
#include "util/util.h"

#define MAX_LOG_LINE 4096

__attribute__((format(printf, 2, 3)))
static void fw_note(struct firmware *fw, const char *fmt, ...)
{
	char raw[sizeof fw->notes[0]];
	va_list ap;

	if (fw->nnotes == sizeof fw->notes / sizeof fw->notes[0])
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	/* notes name paths and modules from the profile and the firmware's log */
	bm_safe(fw->notes[fw->nnotes++], sizeof fw->notes[0], raw);
}

/* "0x" and hex digits at *s: 0 and the value, s moved past it; -1 otherwise. */
static int hex_at(const char **s, uint64_t *v)
{
	const char *p = *s;
	char *end;

	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') || !isxdigit((unsigned char)p[2]))
		return -1;
	errno = 0;
	*v = strtoull(p + 2, &end, 16);
	if (errno)
		return -1;
	*s = end;
	return 0;
}

int firmware_parse_load_line(const char *line, uint64_t *base, uint64_t *entry, char *name,
			     size_t namelen)
{
	const char *p = strstr(line, "Loading "), *q;
	size_t n;

	if (!p)
		return 0;
	/* "Loading driver at", "Loading PEIM at", "Loading SMM driver at": words, then "at" */
	for (q = p + 8; isalpha((unsigned char)*q) || *q == ' '; q++)
		if (q[0] == ' ' && q[1] == 'a' && q[2] == 't' && (!q[3] || isspace((unsigned char)q[3])))
			break;
	if (*q != ' ')
		return 0;        /* "Loading PEIM 9B3ADA4F-..." and the like */
	q += 3;
	while (*q == ' ')
		q++;
	if (hex_at(&q, base))
		return -1;
	while (*q == ' ')
		q++;
	if (strncmp(q, "EntryPoint=", 11))
		return -1;
	q += 11;
	if (hex_at(&q, entry))
		return -1;
	while (*q == ' ' || *q == '\t')
		q++;
	for (n = 0; q[n] && !isspace((unsigned char)q[n]); n++)
		;
	if (!n || n >= namelen)
		return -1;
	memcpy(name, q, n);
	name[n] = 0;
	return 1;
}

int firmware_elf_span(const char *path, uint64_t *lo, uint64_t *hi, uint64_t *entry,
		      char *err, size_t errlen)
{
	int fd = bm_open_regular(path, "an ELF file", err, errlen), rc = -1;
	Elf *e = NULL;
	GElf_Ehdr eh;
	size_t n = 0;

	*lo = UINT64_MAX;
	*hi = 0;
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		snprintf(err, errlen, "%s is not an ELF file", path);
		goto out;
	}
	*entry = eh.e_entry;
	if (elf_getphdrnum(e, &n))
		n = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		if (ph.p_vaddr < *lo)
			*lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > *hi)
			*hi = ph.p_vaddr + ph.p_memsz;
	}
	if (*lo >= *hi) {
		snprintf(err, errlen, "%s has no loadable segment (PT_LOAD): link it as an "
			 "executable or shared object", path);
		goto out;
	}
	rc = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* The name a module is known by, without directory and without .debug/.dll/.efi, into out. */
static void stem(const char *path, char *out, size_t n)
{
	const char *b = strrchr(path, '/');
	static const char *const exts[] = { ".debug", ".dll", ".efi" };
	size_t len;

	b = b ? b + 1 : path;
	snprintf(out, n, "%s", b);
	len = strlen(out);
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		size_t el = strlen(exts[i]);
		if (len > el && !strcasecmp(out + len - el, exts[i])) {
			out[len - el] = 0;
			return;
		}
	}
}

static struct fw_module *add_module(struct firmware *fw)
{
	struct fw_module *m = realloc(fw->mods, (fw->nmods + 1) * sizeof *m);

	if (!m)
		return NULL;
	fw->mods = m;
	m = &fw->mods[fw->nmods++];
	memset(m, 0, sizeof *m);
	return m;
}

/* Open path's symbolizer, or share the one a module of the same path has. */
static struct symbolizer *open_shared(struct firmware *fw, const char *path, int *own,
				      char *err, size_t errlen)
{
	for (size_t i = 0; i < fw->nmods; i++)
		if (fw->mods[i].sym && fw->mods[i].path && !strcmp(fw->mods[i].path, path)) {
			*own = 0;
			return fw->mods[i].sym;
		}
	*own = 1;
	return sym_share_open(path, err, errlen);
}

/* Fill in m (name, base, entry already set) from its ELF at path: its symbolizer, bias
 * and runtime range. 0, or -1 with the reason. */
static int attach_elf(struct firmware *fw, struct fw_module *m, const char *path, char *err,
		      size_t errlen)
{
	uint64_t lo, hi, e_entry;

	if (firmware_elf_span(path, &lo, &hi, &e_entry, err, errlen))
		return -1;
	if (!(m->path = strdup(path)))
		goto oom;
	m->sym = open_shared(fw, path, &m->own_sym, err, errlen);
	if (!m->sym)
		return -1;
	if (!symbolizer_has_symbols(m->sym)) {
		snprintf(err, errlen, "%s has no function symbols: pass the module's unstripped "
			 "debug ELF (NAME.debug)", path);
		return -1;
	}
	m->bias = m->base;
	if (m->entry && e_entry && m->entry - e_entry != m->base) {
		m->bias = m->entry - e_entry;
		fw_note(fw, "%s: the log's entry point 0x%" PRIx64 " is not load address 0x%"
			PRIx64 " + ELF entry 0x%" PRIx64 ": symbolized with bias 0x%" PRIx64
			" (from the entry point)", m->name, m->entry, m->base, e_entry, m->bias);
	}
	m->lo = lo + m->bias;
	m->hi = hi + m->bias;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

static void drop_last(struct firmware *fw)
{
	struct fw_module *m = &fw->mods[--fw->nmods];

	if (m->own_sym && m->sym)
		sym_share_close(m->sym);
	free(m->name);
	free(m->path);
}

struct log_entry {
	uint64_t base, entry;
	char name[256];
	int used;                /* a --firmware-sym file took it */
};

static int read_log(struct firmware *fw, const char *path, struct log_entry **out, size_t *nout,
		    char *err, size_t errlen)
{
	FILE *f = bm_fopen_regular(path, "a firmware log", err, errlen);
	char line[MAX_LOG_LINE];
	struct log_entry *v = NULL;
	size_t n = 0;

	*out = NULL;
	*nout = 0;
	if (!f) {
		snprintf(err, errlen, "cannot read the firmware log %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		struct log_entry e = { 0 };
		size_t len = strlen(line);
		int rc;

		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			/* a line longer than any load line: skip the rest of it */
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		rc = firmware_parse_load_line(line, &e.base, &e.entry, e.name, sizeof e.name);
		if (rc < 0)
			fw->log_malformed++;
		if (rc <= 0)
			continue;
		struct log_entry *nv = realloc(v, (n + 1) * sizeof *nv);
		if (!nv) {
			free(v);
			fclose(f);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		v = nv;
		v[n++] = e;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read the firmware log %s: %s", path, strerror(errno));
		free(v);
		fclose(f);
		return -1;
	}
	fclose(f);
	fw->log_modules = (unsigned)n;
	*out = v;
	*nout = n;
	return 0;
}

/* The last log entry named like the file at path (NAME.efi for NAME.debug), or NULL. */
static struct log_entry *log_match(struct log_entry *v, size_t n, const char *path)
{
	char want[256], have[256];

	stem(path, want, sizeof want);
	for (size_t i = n; i-- > 0;) {
		stem(v[i].name, have, sizeof have);
		if (!strcasecmp(want, have))
			return &v[i];
	}
	return NULL;
}

/* FILE[@LOADADDR] of --firmware-sym. */
static int add_sym(struct firmware *fw, const char *spec, struct log_entry *log, size_t nlog,
		   char *err, size_t errlen)
{
	const char *at = strrchr(spec, '@');
	char path[4096], name[256];
	uint64_t base = 0;
	int have_base = 0;
	struct fw_module *m;

	if (at && at[1]) {
		const char *p = at + 1;
		if (hex_at(&p, &base) || *p) {
			snprintf(err, errlen, "--firmware-sym %s: the load address after @ must be "
				 "hex (FILE@0x7E8E5000)", spec);
			return -1;
		}
		have_base = 1;
	}
	snprintf(path, sizeof path, "%.*s", at && at[1] ? (int)(at - spec) : (int)strlen(spec),
		 spec);
	if (access(path, R_OK)) {
		snprintf(err, errlen, "--firmware-sym: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (!(m = add_module(fw)))
		goto oom;
	if (!have_base) {
		struct log_entry *e = log_match(log, nlog, path);
		if (e) {
			base = e->base;
			m->entry = e->entry;
			e->used = 1;
		}
	}
	m->base = base;
	stem(path, name, sizeof name);
	if (!(m->name = strdup(name)))
		goto oom;
	if (attach_elf(fw, m, path, err, errlen)) {
		drop_last(fw);
		return -1;
	}
	if (!have_base && !m->entry)
		fw_note(fw, "%s: no load address given (FILE@ADDR) or found in a log: taken at "
			"its link addresses", m->name);
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* The debug ELF of a log module in dir: NAME.debug, then NAME.dll. */
static int debug_file(const char *dir, const char *logname, char *out, size_t n)
{
	static const char *const exts[] = { ".debug", ".dll" };
	char s[256];

	stem(logname, s, sizeof s);
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		snprintf(out, n, "%s/%s%s", dir, s, exts[i]);
		if (!access(out, R_OK))
			return 0;
	}
	return -1;
}

static int add_log_modules(struct firmware *fw, const char *dir, struct log_entry *v, size_t n,
			   char *err, size_t errlen)
{
	char path[4096], why[512], first_missing[256] = "";

	for (size_t i = 0; i < n; i++) {
		struct fw_module *m;
		if (v[i].used)
			continue;
		if (debug_file(dir, v[i].name, path, sizeof path)) {
			if (!fw->log_no_debug++)
				snprintf(first_missing, sizeof first_missing, "%s", v[i].name);
			continue;
		}
		if (!(m = add_module(fw)) || !(m->name = strdup(v[i].name))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		m->base = v[i].base;
		m->entry = v[i].entry;
		if (attach_elf(fw, m, path, why, sizeof why)) {
			if (!fw->log_bad_debug++)
				fw_note(fw, "firmware debug file skipped: %s", why);
			drop_last(fw);
		}
	}
	if (fw->log_no_debug)
		fw_note(fw, "%u module%s of the firmware log %s no debug ELF in %s (the first: %s): "
			"their samples are shown by address", fw->log_no_debug,
			fw->log_no_debug == 1 ? "" : "s", fw->log_no_debug == 1 ? "has" : "have", dir,
			first_missing);
	return 0;
}

int firmware_load(struct firmware *fw, const char *log, const char *debug_dir,
		  char *const *syms, size_t nsyms, char *err, size_t errlen)
{
	struct log_entry *v = NULL;
	size_t n = 0;
	int rc = -1;

	memset(fw, 0, sizeof *fw);
	if (log) {
		if (!(fw->log = strdup(log))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (read_log(fw, log, &v, &n, err, errlen))
			goto out;
		if (fw->log_malformed)
			fw_note(fw, "firmware log %s: %u malformed module load line%s skipped", log,
				fw->log_malformed, fw->log_malformed == 1 ? "" : "s");
		if (!n)
			fw_note(fw, "firmware log %s names no module (no \"Loading driver at 0x... "
				"EntryPoint=0x... NAME.efi\" line: is it an EDK2 DEBUG build's log?)",
				log);
	}
	for (size_t i = 0; i < nsyms; i++)
		if (add_sym(fw, syms[i], v, n, err, errlen))
			goto out;
	if (debug_dir && add_log_modules(fw, debug_dir, v, n, err, errlen))
		goto out;
	if (log && !debug_dir && n)
		fw_note(fw, "firmware log %s: %zu modules, but no --firmware-debug DIR with their "
			"debug ELFs: they are not symbolized", log, n);
	rc = 0;
out:
	free(v);
	if (rc)
		firmware_free(fw);
	return rc;
}

int firmware_load_for(struct firmware *fw, const struct profile *p, const char *log,
		      const char *debug_dir, char *const *syms, size_t nsyms, char *err,
		      size_t errlen)
{
	const char *mlog = profile_meta(p, "firmware_log");
	const char *mdir = profile_meta(p, "firmware_debug");

	memset(fw, 0, sizeof *fw);
	if (!log && mlog && *mlog && !access(mlog, R_OK)) {
		log = mlog;
		if (!debug_dir && mdir && *mdir)
			debug_dir = mdir;
	}
	if (debug_dir && !log) {
		snprintf(err, errlen, "--firmware-debug needs --firmware-log: the console log says "
			 "where each module was loaded");
		return -1;
	}
	if (!log && !nsyms)
		return 0;
	return firmware_load(fw, log, debug_dir, syms, nsyms, err, errlen);
}

const struct fw_module *firmware_by_name(const struct firmware *fw, const char *name)
{
	char want[256], have[256];

	stem(name, want, sizeof want);
	for (size_t i = fw ? fw->nmods : 0; i-- > 0;) {
		stem(fw->mods[i].name, have, sizeof have);
		if (!strcasecmp(want, have))
			return &fw->mods[i];
	}
	return NULL;
}

const struct fw_module *firmware_find(const struct firmware *fw, uint64_t pc)
{
	for (size_t i = fw ? fw->nmods : 0; i-- > 0;)
		if (pc >= fw->mods[i].lo && pc < fw->mods[i].hi)
			return &fw->mods[i];
	return NULL;
}

void firmware_free(struct firmware *fw)
{
	while (fw->nmods)
		drop_last(fw);
	free(fw->mods);
	free(fw->log);
	memset(fw, 0, sizeof *fw);
}
