/* SPDX-License-Identifier: BSD-2-Clause */
/* One function's disassembly with the samples of each instruction, interleaved with the
 * source lines they came from (annotate.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/annotate.h"
#include "report/inlined.h"
#include "report/run_notes.h"
#include "symbol/disasm.h"
#include "symbol/symname.h"
#include "util/srcpath.h"
#include "util/term.h"
#include "util/util.h"

#define MAX_FUNCTION_BYTES (4u << 20)
#define MAX_SOURCE_BYTES (64u << 20)
#define MAX_SUGGESTIONS 8

struct line_row {
	uint64_t addr;
	const char *file;
	unsigned line;
};

struct line_rows {
	struct line_row *v;
	size_t n, cap;
	int oom;
};

/* A source file read once, split into lines. */
struct source {
	char *path;
	char *tried;             /* not found: the path tried (mapped) */
	char *data;
	size_t *off;             /* start of each line */
	unsigned nlines;
	struct source *next;
};

struct annotate {
	FILE *out;
	const struct profile *p;
	const struct resolved *r;
	const struct firmware *fw;
	/* what the function is read from: the image, or a firmware module */
	struct symbolizer *sym;
	const char *elf;
	uint64_t bias;
	int machine, has_dwarf;
	int event;
	const char *name;
	uint64_t lo, hi;         /* the function's link-time range */
	struct disasm_insn *insn;
	long ninsn;
	uint64_t *count;         /* samples per instruction */
	uint64_t fn_samples, all_samples;
	struct line_rows lines;
	const struct line_row **line_of;   /* per instruction: its source line, or NULL */
	uint64_t *line_sum;                /* per instruction: samples on its source line */
	struct source *sources;
	int color;
};

static void add_line(void *ctx, uint64_t addr, const char *file, unsigned line)
{
	struct line_rows *l = ctx;

	if (l->oom)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct line_row *v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			l->oom = 1;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct line_row){ addr, file, line };
}

static int same_line(const struct line_row *a, const struct line_row *b)
{
	if (!a || !b)
		return a == b;
	return a->line == b->line && !strcmp(a->file, b->file);
}

static int cmp_line_ref(const void *x, const void *y)
{
	const struct line_row *a = *(const struct line_row *const *)x;
	const struct line_row *b = *(const struct line_row *const *)y;
	int c = strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* The first of the refs equal to key (refs sorted with cmp_line_ref). */
static size_t first_ref(const struct line_row **refs, size_t m, const struct line_row *key)
{
	const struct line_row **hit = bsearch(&key, refs, m, sizeof *refs, cmp_line_ref);
	while (hit > refs && !cmp_line_ref(hit - 1, hit))
		hit--;
	return (size_t)(hit - refs);
}

/* For each instruction, the line-table row in effect at its address (the last row that
 * starts at or before it; rows come in address order), and the samples of every
 * instruction of the function on that same source line. */
static int map_lines(struct annotate *a)
{
	const struct line_rows *l = &a->lines;
	const struct line_row **refs;
	uint64_t *sums;
	size_t k = 0, m = 0, n = (size_t)a->ninsn + 1;

	a->line_of = calloc(n, sizeof *a->line_of);
	a->line_sum = calloc(n, sizeof *a->line_sum);
	refs = calloc(n, sizeof *refs);
	sums = calloc(n, sizeof *sums);
	if (!a->line_of || !a->line_sum || !refs || !sums) {
		free(refs);
		free(sums);
		return -1;
	}
	for (long i = 0; i < a->ninsn; i++) {
		while (k < l->n && l->v[k].addr <= a->insn[i].addr)
			k++;
		const struct line_row *r = k ? &l->v[k - 1] : NULL;
		a->line_of[i] = r && r->file && r->line ? r : NULL;
		if (a->line_of[i])
			refs[m++] = a->line_of[i];
	}
	qsort(refs, m, sizeof *refs, cmp_line_ref);
	for (long i = 0; i < a->ninsn; i++)
		if (a->line_of[i])
			sums[first_ref(refs, m, a->line_of[i])] += a->count[i];
	for (long i = 0; i < a->ninsn; i++)
		if (a->line_of[i])
			a->line_sum[i] = sums[first_ref(refs, m, a->line_of[i])];
	free(refs);
	free(sums);
	return 0;
}

static struct source *load_source(struct annotate *a, const char *path)
{
	struct source *s;
	FILE *f;
	long len;

	for (s = a->sources; s; s = s->next)
		if (!strcmp(s->path, path))
			return s->data ? s : NULL;
	s = calloc(1, sizeof *s);
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return NULL;
	}
	s->next = a->sources;
	a->sources = s;
	char err[256], found[4096], tried[4096];

	if (!srcpath_find(path, found, sizeof found, tried, sizeof tried)) {
		s->tried = strdup(tried);
		return NULL;
	}
	f = bm_fopen_regular(found, "a source file", err, sizeof err);
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || len > (long)MAX_SOURCE_BYTES ||
	    fseek(f, 0, SEEK_SET) || !(s->data = malloc((size_t)len + 1)) ||
	    fread(s->data, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(s->data);
		s->data = NULL;
		return NULL;
	}
	fclose(f);
	s->data[len] = 0;
	size_t n = 1;
	for (long i = 0; i < len; i++)
		n += s->data[i] == '\n';
	if (!(s->off = malloc(n * sizeof *s->off))) {
		free(s->data);
		s->data = NULL;
		return NULL;
	}
	s->off[s->nlines++] = 0;
	for (long i = 0; i < len; i++) {
		if (s->data[i] != '\n')
			continue;
		s->data[i] = 0;
		if (i + 1 < len)
			s->off[s->nlines++] = (size_t)i + 1;
	}
	return s;
}

/* The text of a source line without surrounding whitespace noise, NULL if unreadable. */
static const char *source_text(struct annotate *a, const char *file, unsigned line)
{
	struct source *s = load_source(a, file);
	if (!s || line == 0 || line > s->nlines)
		return NULL;
	char *t = s->data + s->off[line - 1];
	size_t n = strlen(t);
	if (n && t[n - 1] == '\r')
		t[n - 1] = 0;
	return t;
}

static void free_sources(struct annotate *a)
{
	while (a->sources) {
		struct source *s = a->sources;
		a->sources = s->next;
		free(s->path);
		free(s->tried);
		free(s->data);
		free(s->off);
		free(s);
	}
}

/* Up to max sampled function names (hottest first) into list; only those containing
 * part (case ignored) unless part is NULL. Returns how many. */
static size_t name_list(const struct flat_result *res, const char *part, size_t max,
			char *list, size_t size)
{
	size_t n = 0, len = 0;

	list[0] = 0;
	for (size_t i = 0; i < res->nrows && n < max; i++) {
		const char *s = res->rows[i].symbol;
		if (!s || (part && !strcasestr(s, part)))
			continue;
		if (len < size)
			len += (size_t)snprintf(list + len, size - len, "%s%s", n ? ", " : "", s);
		n++;
	}
	return n;
}

/* Unknown name: say which sampled functions come close. */
static void suggest(struct annotate *a)
{
	struct flat_result res;
	char list[1024];

	if (flat_compute(a->p, a->event, a->r->info, a->r->ninfo, FLAT_BY_FUNCTION, &res)) {
		bm_err("no function '%s' in %s", a->name, a->r->elf);
		return;
	}
	if (name_list(&res, a->name, MAX_SUGGESTIONS, list, sizeof list))
		bm_err("no function '%s' in %s; close matches: %s", a->name, a->r->elf, list);
	else if (name_list(&res, NULL, 5, list, sizeof list))
		bm_err("no function '%s' in %s; the hottest functions are: %s", a->name, a->r->elf,
		       list);
	else
		bm_err("no function '%s' in %s", a->name, a->r->elf);
	flat_free(&res);
}

/* NAME not in the symbol table, but a reader's name of a symbol: the compiler's copy of the
 * function (NAME.constprop.0, NAME.isra.0, ...) or its demangled name. 1 if found. */
static int find_like(struct annotate *a, uint64_t *size)
{
	const char *found;

	if (symbolizer_find_function_like(a->sym, a->name, &found, &a->lo, size))
		return 0;
	if (symname_base_len(found) < strlen(found))
		fprintf(a->out, "note: %s is not in the symbol table; annotating %s, the "
			"compiler's copy of it\n", a->name, found);
	a->name = found;
	return 1;
}

/* A firmware name as bmprof report prints it: a region ("[firmware 0x...-0x...]") has no
 * code to show; "MODULE!FUNCTION" is annotated from the module's ELF when one was given.
 * 1 when name is not a firmware name, else 0 (switched to the module) or -1 (reported). */
static int locate_firmware(struct annotate *a)
{
	const char *bang = strchr(a->name, '!');
	const struct fw_module *m;
	char mod[256];

	if (a->name[0] == '[') {
		bm_err("%s is firmware code outside the image %s, named by address only: there is "
		       "nothing to annotate (bmprof report --firmware-sym/--firmware-log name it)",
		       a->name, a->r->elf);
		return -1;
	}
	if (!bang || bang == a->name || !bang[1])
		return 1;
	snprintf(mod, sizeof mod, "%.*s", (int)(bang - a->name), a->name);
	m = firmware_by_name(a->fw, mod);
	if (!m) {
		bm_err("%s is in firmware module %s, outside the image %s: pass the module's debug "
		       "ELF (--firmware-sym FILE@ADDR, or --firmware-log LOG --firmware-debug DIR)",
		       a->name, mod, a->r->elf);
		return -1;
	}
	a->sym = m->sym;
	a->elf = m->path;
	a->bias = m->bias;
	a->machine = symbolizer_machine(m->sym);
	a->has_dwarf = symbolizer_has_dwarf(m->sym);
	a->name = bang + 1;
	return 0;
}

/* Find the function: by name, or the one containing 0xADDR. 0 or -1 (reported). */
static int locate(struct annotate *a)
{
	uint64_t size = 0;
	char *end;
	int rc = locate_firmware(a);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (symbolizer_find_function(a->sym, a->name, &a->lo, &size)) {
			bm_err("no function '%s' in %s", a->name, a->elf);
			return -1;
		}
	} else if (!strncmp(a->name, "0x", 2)) {
		struct sym_result res;
		uint64_t addr = strtoull(a->name, &end, 16);
		if (!*end && end != a->name + 2 && !symbolizer_lookup(a->sym, addr, &res) && res.symbol) {
			a->name = res.symbol;
			a->lo = res.sym_start;
			size = res.sym_size;
		} else if (!*end && end != a->name + 2 && a->r->have_span &&
			   addr - a->r->span_lo >= a->r->span_hi - a->r->span_lo) {
			bm_err("address %s is outside the image %s (link addresses 0x%" PRIx64 "-0x%"
			       PRIx64 "): firmware code, nothing to annotate", a->name, a->r->elf,
			       a->r->span_lo, a->r->span_hi - 1);
			return -1;
		} else {
			bm_err("no function contains address %s in %s", a->name, a->r->elf);
			return -1;
		}
	} else if (symbolizer_find_function(a->sym, a->name, &a->lo, &size) &&
		   !find_like(a, &size)) {
		char callers[512];
		const char *first;
		if (inlined_into(a->r, a->name, callers, sizeof callers, &first))
			bm_err("%s has no code of its own in %s: its code was inlined into %s "
			       "(bmprof annotate %s)", a->name, a->r->elf, callers, first);
		else
			suggest(a);
		return -1;
	}
	if (!size) {
		bm_err("%s has size 0 in the symbol table: its end is unknown, nothing to annotate",
		       a->name);
		return -1;
	}
	if (size > MAX_FUNCTION_BYTES) {
		bm_err("%s is %" PRIu64 " bytes long: too large to annotate", a->name, size);
		return -1;
	}
	a->hi = a->lo + size;
	return 0;
}

static int disassemble(struct annotate *a)
{
	size_t size = (size_t)(a->hi - a->lo);
	uint8_t *code = malloc(size);
	char err[256];
	struct disasm *d;

	if (!code) {
		bm_err("out of memory");
		return -1;
	}
	if (symbolizer_read(a->sym, a->lo, code, size)) {
		bm_err("cannot read the bytes of %s (0x%" PRIx64 "..0x%" PRIx64 ") from %s", a->name,
		       a->lo, a->hi, a->elf);
		free(code);
		return -1;
	}
	d = disasm_open(a->machine, err, sizeof err);
	if (!d) {
		bm_err("%s", err);
		free(code);
		return -1;
	}
	/* a Cortex-M function's literal pools print as data, as objdump's do */
	struct sym_range *data;
	long ndata = symbolizer_data_ranges(a->sym, a->lo, a->hi, &data);
	a->ninsn = ndata < 0 ? -1 : disasm_range_data(d, code, size, a->lo, data, (size_t)ndata,
						      &a->insn);
	free(data);
	disasm_close(d);
	free(code);
	if (a->ninsn < 0) {
		bm_err("cannot disassemble %s", a->name);
		return -1;
	}
	return 0;
}

static long insn_at(const struct annotate *a, uint64_t addr)
{
	long lo = 0, hi = a->ninsn;
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (a->insn[mid].addr + a->insn[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->ninsn && a->insn[lo].addr <= addr ? lo : -1;
}

static int count_samples(struct annotate *a)
{
	a->count = calloc((size_t)a->ninsn + 1, sizeof *a->count);
	if (!a->count) {
		bm_err("out of memory");
		return -1;
	}
	for (size_t i = 0; i < a->p->nsamples; i++) {
		const struct profile_sample *s = &a->p->samples[i];
		uint64_t addr = s->pc - a->bias;
		if (a->event != FLAT_ALL_EVENTS && s->event != a->event)
			continue;
		a->all_samples += s->count;
		if (addr < a->lo || addr >= a->hi)
			continue;
		long k = insn_at(a, addr);
		if (k >= 0) {
			a->count[k] += s->count;
			a->fn_samples += s->count;
		}
	}
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void print_source_line(struct annotate *a, long i, uint64_t max_line)
{
	const struct line_row *l = a->line_of[i];
	uint64_t n = a->line_sum[i];
	int hot = n && 2 * n >= max_line;
	const char *text = source_text(a, l->file, l->line);

	char mapped[4096];

	if (a->color)
		fputs(hot ? "\033[1;36m" : "\033[36m", a->out);
	fprintf(a->out, "%c%27s%s:%u", hot ? '>' : ' ', "",
		resolve_short_path(srcpath_map(l->file, mapped, sizeof mapped)), l->line);
	if (n)
		fprintf(a->out, "   (%" PRIu64 " sample%s, %.2f%%)", n, n == 1 ? "" : "s",
		       pct(n, a->fn_samples));
	fputc('\n', a->out);
	if (text) {
		fprintf(a->out, " %27s  ", "");
		for (; *text; text++)
			if (*text == '\t')
				fputs("    ", a->out);
			else
				fputc(*text, a->out);
		fputc('\n', a->out);
	}
	if (a->color)
		fputs("\033[0m", a->out);
}

/* One line per source file of the function that could not be read: the path tried and
 * what finds it. */
static void print_missing_sources(struct annotate *a)
{
	char safe[8192], safe_tried[8192];

	for (long i = 0; i < a->ninsn; i++) {
		const struct line_row *l = a->line_of[i];
		if (!l || (i && a->line_of[i - 1] && !strcmp(a->line_of[i - 1]->file, l->file)))
			continue;
		load_source(a, l->file);
	}
	for (struct source *s = a->sources; s; s = s->next)
		if (s->tried)
			fprintf(a->out, "note: source file %s not found (tried %s%s): --prefix-map "
				"OLD=NEW and --source-path DIR find a moved source tree\n",
				bm_safe(safe, sizeof safe, s->path),
				bm_safe(safe_tried, sizeof safe_tried, s->tried),
				srcpath_given() ? " and under --source-path" : "");
}

static void print_listing(struct annotate *a)
{
	const struct line_row *prev = NULL;
	uint64_t max_insn = 0, max_line = 0;
	char safe_name[1024], safe_elf[8192], shown[512];
	const struct profile_event *e = a->event == FLAT_ALL_EVENTS ? NULL :
		profile_event(a->p, (uint16_t)a->event);

	for (long i = 0; i < a->ninsn; i++) {
		max_insn = a->count[i] > max_insn ? a->count[i] : max_insn;
		max_line = a->line_sum[i] > max_line ? a->line_sum[i] : max_line;
	}
	fprintf(a->out, "bmprof annotate: %s [0x%" PRIx64 ", 0x%" PRIx64 "), %" PRIu64 " bytes, in %s\n",
	       bm_safe(safe_name, sizeof safe_name, symname_display(shown, sizeof shown, a->name)), a->lo, a->hi, a->hi - a->lo,
	       bm_safe(safe_elf, sizeof safe_elf, a->elf));
	fprintf(a->out, "%" PRIu64 " samples%s%s in this function: %.2f%% of %" PRIu64 "\n", a->fn_samples,
	       e ? " of event " : "", e ? e->name : "", pct(a->fn_samples, a->all_samples),
	       a->all_samples);
	for (unsigned i = 0; i < a->r->nnotes; i++)
		fprintf(a->out, "note: %s\n", a->r->notes[i]);
	for (unsigned i = 0; i < a->fw->nnotes; i++)
		fprintf(a->out, "note: %s\n", a->fw->notes[i]);
	if (run_notes_block_starts(a->p))
		fprintf(a->out, "note: %s\n", run_notes_block_starts(a->p));
	print_missing_sources(a);
	fprintf(a->out, "\n %8s %8s  %16s   %s\n", "samples", "percent", "address", "instruction");
	for (long i = 0; i < a->ninsn; i++) {
		const struct disasm_insn *in = &a->insn[i];
		const struct line_row *l = a->line_of[i];
		int hot = a->count[i] && 2 * a->count[i] >= max_insn;

		if (l && !same_line(l, prev))
			print_source_line(a, i, max_line);
		prev = l;
		if (a->count[i]) {
			fprintf(a->out, "%c%8" PRIu64, hot ? '>' : ' ', a->count[i]);
			term_pct(a->out, a->color, " %7.2f%%", pct(a->count[i], a->fn_samples));
		} else
			fprintf(a->out, " %8s %8s", "", "");
		if (in->operands[0])
			fprintf(a->out, "  %16" PRIx64 ":  %-7s %s", in->addr, in->mnemonic, in->operands);
		else
			fprintf(a->out, "  %16" PRIx64 ":  %s", in->addr, in->mnemonic);
		fputc('\n', a->out);
	}
}


static void annotate_free(struct annotate *a)
{
	free(a->insn);
	free(a->count);
	free(a->lines.v);
	free(a->line_of);
	free(a->line_sum);
	free_sources(a);
}

int annotate_print(FILE *f, const struct profile *p, const struct resolved *r,
		   const struct firmware *fw, int event, const char *name, int color)
{
	struct annotate a;
	int rc = -1;

	memset(&a, 0, sizeof a);
	a.out = f;
	a.p = p;
	a.r = r;
	a.fw = fw;
	a.event = event;
	a.name = name;
	a.color = color;
	a.sym = r->sym;
	a.elf = r->elf;
	a.bias = r->load_bias;
	a.machine = r->machine;
	a.has_dwarf = r->has_dwarf;
	if (!r->sym) {
		bm_err("%s", r->notes[0]);
		return -1;
	}
	if (locate(&a) || disassemble(&a) || count_samples(&a))
		goto out;
	if (a.has_dwarf && symbolizer_lines(a.sym, a.lo, a.hi, add_line, &a.lines) < 0)
		a.lines.n = 0;
	if (a.lines.oom || map_lines(&a)) {
		bm_err("out of memory");
		goto out;
	}
	print_listing(&a);
	rc = fflush(f) || ferror(f) ? -1 : 0;
out:
	annotate_free(&a);
	return rc;
}
