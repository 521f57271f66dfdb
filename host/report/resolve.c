/* SPDX-License-Identifier: BSD-2-Clause */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "run/qemu.h"
#include "report/resolve.h"
#include "symbol/elf_find.h"
#include "symbol/sym_share.h"
#include "util/util.h"

__attribute__((format(printf, 2, 3)))
static void note(struct resolved *r, const char *fmt, ...)
{
	char raw[sizeof r->notes[0]];
	va_list ap;

	if (r->nnotes == sizeof r->notes / sizeof r->notes[0])
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	/* notes name paths and modules from the profile and the firmware's log */
	bm_safe(r->notes[r->nnotes++], sizeof r->notes[0], raw);
}

static int readable(const char *path)
{
	return path && *path && access(path, R_OK) == 0;
}

/* dirname(profile_path) + "/" + basename(elf), malloc'd. */
static char *beside(const char *profile_path, const char *elf)
{
	const char *base = strrchr(elf, '/'), *slash = strrchr(profile_path, '/');
	char *out;
	int dirlen = slash ? (int)(slash - profile_path) : 1;

	base = base ? base + 1 : elf;
	if (asprintf(&out, "%.*s/%s", dirlen, slash ? profile_path : ".", base) < 0)
		return NULL;
	return out;
}

/* Which ELF to open: 0 with a malloc'd path, or -1 with the reason. */
static int find_elf(const struct profile *p, const char *profile_path, const char *override,
		    char **out, char *err, size_t errlen)
{
	const char *meta = profile_meta(p, "elf");

	*out = NULL;
	if (override) {
		if (!readable(override)) {
			snprintf(err, errlen, "cannot read the ELF %s: %s", override, strerror(errno));
			return -1;
		}
		*out = strdup(override);
		return *out ? 0 : -1;
	}
	if (!meta || !*meta) {
		snprintf(err, errlen, "the profile does not say which ELF it is for: pass it with "
			 "--elf");
		return -1;
	}
	if (readable(meta)) {
		*out = strdup(meta);
		return *out ? 0 : -1;
	}
	char *alt = beside(profile_path, meta), found[4096];
	if (alt && readable(alt)) {
		*out = alt;
		return 0;
	}
	/* by the build-id HELLO gave: the places debuggers, perf and bmprof db keep ELFs */
	if (p->have_hello && !elf_find_by_build_id(p->hello.build_id, p->hello.build_id_len, meta,
						   found, sizeof found)) {
		free(alt);
		*out = strdup(found);
		return *out ? 0 : -1;
	}
	snprintf(err, errlen, "cannot find the ELF: %s (named in the profile) is gone, %s is "
		 "not there either, and no ELF with its build-id is under $%s, $BMPROF_DB/images, "
		 "~/.debug or /usr/lib/debug: pass it with --elf", meta,
		 alt ? alt : "a copy beside the profile", ELF_FIND_ENV);
	free(alt);
	return -1;
}

/* The architecture an ELF machine is, by the name HELLO's arch has; NULL if neither. */
static const char *machine_arch(int machine)
{
	switch (machine) {
	case EM_X86_64:
	case EM_386:        /* the 32-bit multiboot wrapper of an x86-64 image */
		return "x86_64";
	case EM_AARCH64:
		return "aarch64";
	case EM_ARM:
		return "cortex-m";
	case EM_RISCV:
		return "riscv64";
	default:
		return NULL;
	}
}

/* An ELF of another architecture than the profile's is the wrong image before any
 * build-id says so. 0, or -1 with the reason. */
static int check_arch(const struct resolved *r, const struct profile *p, char *err,
		      size_t errlen)
{
	const char *want = !p->have_hello ? NULL : p->hello.arch == BMPROF_ARCH_X86_64 ? "x86_64"
		: p->hello.arch == BMPROF_ARCH_AARCH64 ? "aarch64"
		: p->hello.arch == BMPROF_ARCH_CORTEX_M ? "cortex-m"
		: p->hello.arch == BMPROF_ARCH_RISCV64 ? "riscv64" : NULL;
	const char *have = machine_arch(r->machine);

	if (!want || (have && !strcmp(have, want)))
		return 0;
	if (have)
		snprintf(err, errlen, "ELF %s is %s but the profile was recorded on %s: pass the "
			 "image's own ELF with --elf", r->elf, have, want);
	else
		snprintf(err, errlen, "ELF %s is for ELF machine %d, not %s, where the profile was "
			 "recorded: pass the image's own ELF with --elf", r->elf, r->machine, want);
	return -1;
}

/* The build-id check. 0, or -1 on a mismatch. */
static int check_build_id(struct resolved *r, const struct profile *p, char *err, size_t errlen)
{
	const uint8_t *id = NULL;
	size_t len = 0;
	char want[2 * BMPROF_BUILD_ID_MAX + 1], have[2 * BMPROF_BUILD_ID_MAX + 1];

	symbolizer_build_id(r->sym, &id, &len);
	if (!p->have_hello || !p->hello.build_id_len) {
		note(r, "the profile carries no build-id: %s is not checked against the run",
		     r->elf);
		return 0;
	}
	bm_hex(want, sizeof want, p->hello.build_id, p->hello.build_id_len);
	if (!len) {
		note(r, "%s has no build-id: it cannot be checked against the profile's %s",
		     r->elf, want);
		return 0;
	}
	bm_hex(have, sizeof have, id, len);
	if (len != p->hello.build_id_len || memcmp(id, p->hello.build_id, len)) {
		snprintf(err, errlen, "ELF build-id %s does not match the profile's %s: pass the ELF "
			 "the image was built from (--elf)", have, want);
		return -1;
	}
	r->build_id_checked = 1;
	return 0;
}

int resolve_open(struct resolved *r, const struct profile *p, const char *profile_path,
		 const char *elf_override, char *err, size_t errlen)
{
	char why[256];

	memset(r, 0, sizeof *r);
	r->load_bias = p->have_hello ? p->hello.load_bias : 0;
	if (find_elf(p, profile_path, elf_override, &r->elf, err, errlen))
		return -1;
	if (qemu_elf_machine(r->elf, &r->machine, err, errlen) || check_arch(r, p, err, errlen)) {
		resolve_close(r);
		return -1;
	}
	uint64_t entry;
	if (firmware_elf_span(r->elf, &r->span_lo, &r->span_hi, &entry, why, sizeof why))
		note(r, "the image's loaded range is unknown (%s): no sample is classed as outside "
		     "it", why);
	else
		r->have_span = 1;
	r->sym = sym_share_open(r->elf, why, sizeof why);
	if (!r->sym) {
		/* An ELF with nothing to symbolize with still gives addresses. */
		note(r, "cannot symbolize %s (%s): samples are shown by address", r->elf, why);
		return 0;
	}
	if (check_build_id(r, p, err, errlen)) {
		resolve_close(r);
		return -1;
	}
	r->has_dwarf = symbolizer_has_dwarf(r->sym);
	if (!r->has_dwarf)
		note(r, "%s: no source lines: %s", r->elf, symbolizer_no_dwarf_why(r->sym));
	return 0;
}

static const char *known(const char *s)
{
	return s && strcmp(s, "??") ? s : NULL;
}

int resolve_outside(const struct resolved *r, uint64_t pc)
{
	return r->have_span && pc - r->load_bias - r->span_lo >= r->span_hi - r->span_lo;
}

static void fill(struct flat_pcinfo *in, const struct sym_result *res)
{
	in->symbol = res->symbol;
	in->sym_lo = res->sym_start;
	in->sym_hi = res->sym_start + res->sym_size;
	if (res->nframes) {
		in->function = known(res->frames[0].function);
		in->file = known(res->frames[0].file);
		in->line = in->file ? res->frames[0].line : 0;
	}
}

/* The last answer of a symbolizer and the span of addresses it holds for. */
struct span {
	const struct symbolizer *sym;
	uint64_t lo, until;
	struct sym_result res;
};

/* Symbolize addr with sym, reusing the span's answer when addr is in it. 0 or -1. */
static int lookup(struct span *sp, struct symbolizer *sym, uint64_t addr, struct flat_pcinfo *in)
{
	if (sp->sym != sym || addr < sp->lo || addr >= sp->until) {
		if (symbolizer_lookup_span(sym, addr, &sp->res, &sp->until))
			return -1;
		sp->sym = sym;
		sp->lo = addr;
	}
	fill(in, &sp->res);
	return 0;
}

/* A pc outside the image: by the firmware module holding it, if any. 0 or -1. */
static int resolve_outside_pc(struct resolved *r, struct span *sp, struct flat_pcinfo *in)
{
	const struct fw_module *m = r->fw ? firmware_find(r->fw, in->pc) : NULL;

	in->outside = 1;
	in->addr = in->pc;
	if (!m)
		return 0;
	in->module = m->name;
	in->addr = in->pc - m->bias;
	return lookup(sp, m->sym, in->addr, in);
}

/* b names what a names, at the same distance from its pc: b's pc joins a's entry. */
static int same_info(const struct flat_pcinfo *a, const struct flat_pcinfo *b)
{
	return a->pc - a->addr == b->pc - b->addr && a->outside == b->outside &&
	       a->module == b->module && a->symbol == b->symbol && a->sym_lo == b->sym_lo &&
	       a->sym_hi == b->sym_hi && a->function == b->function && a->file == b->file &&
	       a->line == b->line;
}

/* Append in to the entries, or extend the last one to its pc. 0 or -1. */
static int push_info(struct resolved *r, size_t *cap, const struct flat_pcinfo *in)
{
	if (r->ninfo && same_info(&r->info[r->ninfo - 1], in)) {
		r->info[r->ninfo - 1].pc_last = in->pc;
		return 0;
	}
	if (r->ninfo == *cap) {
		size_t n = *cap ? 2 * *cap : 256;
		struct flat_pcinfo *p = realloc(r->info, n * sizeof *p);
		if (!p)
			return -1;
		r->info = p;
		*cap = n;
	}
	r->info[r->ninfo] = *in;
	r->info[r->ninfo++].pc_last = in->pc;
	return 0;
}

int resolve_pcs(struct resolved *r, const struct profile *p)
{
	struct profile_sample *copy;
	size_t n, cap = 0;
	const struct profile_sample *s = profile_ordered(p, &n, &copy);
	struct span sp = { 0 };
	int rc = -1, inside = 0, named = 0;

	free(r->info);
	r->info = NULL;
	r->ninfo = 0;
	r->no_symbols = 0;
	if (!s)
		return -1;
	/* the distinct pcs in order, a span of the symbolizer's answers at a time */
	for (size_t i = 0; i < n; i++) {
		struct flat_pcinfo in = { .pc = s[i].pc, .addr = s[i].pc - r->load_bias };

		if (i && s[i - 1].pc == in.pc)
			continue;
		if (resolve_outside(r, in.pc)) {
			if (resolve_outside_pc(r, &sp, &in))
				goto out;
		} else {
			inside = 1;
			if (r->sym && lookup(&sp, r->sym, in.addr, &in))
				goto out;
			named |= in.symbol != NULL;
		}
		if (push_info(r, &cap, &in))
			goto out;
	}
	r->no_symbols = inside && !named;
	if (r->no_symbols && r->sym)
		note(r, "no sampled address is in a symbol of %s (stripped?): showing addresses",
		     r->elf);
	rc = 0;
out:
	if (rc) {
		free(r->info);
		r->info = NULL;
		r->ninfo = 0;
	}
	free(copy);
	return rc;
}

void resolve_close(struct resolved *r)
{
	sym_share_close(r->sym);
	free(r->elf);
	free(r->info);
	memset(r, 0, sizeof *r);
}

int resolve_event(const struct profile *p, const char *name, int *event, char *err,
		  size_t errlen)
{
	if (!name) {
		*event = p->nevents > 1 ? p->events[0].id : FLAT_ALL_EVENTS;
		return 0;
	}
	for (unsigned i = 0; i < p->nevents; i++) {
		char id[8];
		snprintf(id, sizeof id, "%u", p->events[i].id);
		if (!strcasecmp(name, p->events[i].name) || !strcmp(name, id)) {
			*event = p->events[i].id;
			return 0;
		}
	}
	int len = snprintf(err, errlen, "no event '%s' in the profile; it has:", name);
	for (unsigned i = 0; i < p->nevents && len > 0 && (size_t)len < errlen; i++)
		len += snprintf(err + len, errlen - (size_t)len, "%s %s", i ? "," : "",
				p->events[i].name[0] ? p->events[i].name : "?");
	if (!p->nevents && len > 0 && (size_t)len < errlen)
		snprintf(err + len, errlen - (size_t)len, " no events");
	return -1;
}

const char *resolve_short_path(const char *file)
{
	static char cwd[PATH_MAX];
	static size_t len;

	if (!file)
		return NULL;
	if (!len && getcwd(cwd, sizeof cwd))
		len = strlen(cwd);
	if (len > 1 && !strncmp(file, cwd, len) && file[len] == '/')
		return file + len + 1;
	return file;
}
