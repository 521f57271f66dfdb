/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-space views: raw samples -> backtracking -> data types -> rows. See data_view.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decode/bt_image.h"
#include "report/data_space.h"
#include "report/data_view.h"
#include "symbol/symbolize.h"
#include "util/json.h"

/* What one raw sample was charged to. */
struct dv_attr {
	enum dtype_class cls;
	int global;
	char type[DTYPE_NAME_MAX];
	uint64_t offset;
	char key[DTYPE_PATH_MAX + DTYPE_NAME_MAX + 32];
};

/* Attributions of trigger pcs through their registers, kept: the same few instructions
 * take most samples. Open addressing; when full, answers are computed again. */
#define DV_CACHE 4096u
struct dv_cache_ent {
	uint64_t pc;               /* 0: empty */
	struct dtype_answer a;
};

struct dv_ctx {
	struct data_view *v;
	struct bt_image *bt;
	struct symbolizer *sym;
	struct dtype *dt;
	uint64_t bias;
	struct dv_cache_ent *cache;
};

/* The event kind a raw sample's event backtracks for: loads or stores for an event named
 * so, either for time, cycle and other events. */
static uint8_t event_kind(const struct profile *p, unsigned id)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		const char *n = p->events[i].name;
		if (p->events[i].id != id)
			continue;
		if (strcasestr(n, "store") || strcasestr(n, "st_retired") || strcasestr(n, "_st"))
			return BT_EV_STORE;
		if (strcasestr(n, "load") || strcasestr(n, "ld_retired") || strcasestr(n, "_ld"))
			return BT_EV_LOAD;
	}
	return BT_EV_ANY;
}

static int answer_typed(const struct dtype_answer *a)
{
	return a->cls == DTYPE_OBJECT || a->cls == DTYPE_SCALARS;
}

static int attribute_insn(struct dv_ctx *c, uint64_t pc, struct dtype_answer *a)
{
	struct dv_cache_ent *e = NULL;

	for (unsigned k = 0; k < 8; k++) {
		struct dv_cache_ent *s =
			&c->cache[((pc * 0x9e3779b97f4a7c15ull >> 52) + k) & (DV_CACHE - 1)];
		if (s->pc == pc) {
			*a = s->a;
			return 0;
		}
		if (!s->pc) {
			e = s;
			break;
		}
	}
	if (dtype_insn(c->dt, pc, a))
		return -1;
	if (e) {
		e->pc = pc;
		e->a = *a;
	}
	return 0;
}

static void unknown_key(struct dv_attr *at, enum dtype_class cls)
{
	at->cls = cls;
	snprintf(at->key, sizeof at->key, "<Unknown> %s", dtype_class_name(cls));
}

static void set_key(struct dv_attr *at, const struct dtype_answer *a, enum data_view_key key)
{
	char buf[sizeof at->key];

	at->cls = a->cls;
	at->global = a->how == DTYPE_VIA_GLOBAL;
	snprintf(at->type, sizeof at->type, "%s", a->type);
	at->offset = a->offset;
	if (!answer_typed(a)) {
		unknown_key(at, a->cls);
		return;
	}
	switch (key) {
	case DV_BY_TYPE:
		snprintf(at->key, sizeof at->key, "%s",
			 a->cls == DTYPE_SCALARS ? dtype_class_name(a->cls) : a->type);
		break;
	case DV_BY_OBJECT:
		if (at->global && a->var[0])
			snprintf(at->key, sizeof at->key, "%s", a->var);
		else
			snprintf(at->key, sizeof at->key, "(not a global: %s)",
				 a->cls == DTYPE_SCALARS ? dtype_class_name(a->cls) : a->type);
		break;
	default:
		snprintf(at->key, sizeof at->key, "%s", dtype_format(a, buf, sizeof buf));
	}
}

/* A raw sample with the hardware's data address: attributed by it; when the address lies
 * in no object (heap, stack) and the pc is exact, by the trigger instruction's operand
 * (the pointer variable's type) if that finds a type. */
static int resolve_hw(struct dv_ctx *c, const struct profile_raw *rs, struct dv_attr *at)
{
	struct dtype_answer a;
	int exact = (rs->flags & BMPROF_RAWF_PC_EXACT) != 0;

	c->v->hw_address++;
	c->v->address++;
	c->v->trigger += exact;
	a.cls = DTYPE_UNIDENTIFIED;
	if (dtype_addr(c->dt, rs->data_addr - c->bias, &a))
		return -1;
	if (!answer_typed(&a) && exact) {
		struct dtype_answer b;
		if (attribute_insn(c, rs->regs.pc - c->bias, &b))
			return -1;
		if (answer_typed(&b))
			a = b;
	}
	set_key(at, &a, c->v->key);
	return 0;
}

/* One raw sample through backtracking and the type attribution. 0, or -1 (out of memory,
 * reason in err). */
static int resolve_one(struct dv_ctx *c, const struct profile *p, const struct profile_raw *rs,
		       struct dv_attr *at, char *err, size_t errlen)
{
	struct regfile regs = rs->regs;
	struct bt_query q = { .event = event_kind(p, rs->event), .regs = &regs };
	struct bt_result r;
	struct dtype_answer a;

	memset(at, 0, sizeof *at);
	if (rs->flags & BMPROF_RAWF_DATA_ADDR) {
		if (resolve_hw(c, rs, at))
			goto oom;
		return 0;
	}
	regs.pc -= c->bias;
	q.pc = regs.pc;
	if (bt_image_resolve(c->bt, &q, &r, err, errlen))
		return -1;
	if (r.status == BT_BRANCH_TARGET) {
		unknown_key(at, DTYPE_UNVERIFIABLE);
		return 0;
	}
	if (r.status != BT_EA && r.status != BT_EA_UNKNOWN) {
		unknown_key(at, DTYPE_UNRESOLVABLE);
		return 0;
	}
	c->v->trigger++;
	a.cls = DTYPE_UNIDENTIFIED;
	if (r.status == BT_EA) {
		c->v->address++;
		if (dtype_addr(c->dt, r.ea - c->bias, &a))
			goto oom;
	}
	if (!answer_typed(&a) && attribute_insn(c, r.trigger_pc, &a))
		goto oom;
	set_key(at, &a, c->v->key);
	return 0;
oom:
	snprintf(err, errlen, "out of memory attributing data types");
	return -1;
}

/* The counts of the function holding runtime pc (its entry made on first use), or NULL out
 * of memory. */
static struct data_view_fn *fn_of(struct dv_ctx *c, uint64_t pc)
{
	struct data_view *v = c->v;
	struct sym_result r;
	const char *name = "";

	if (!symbolizer_lookup(c->sym, pc - c->bias, &r) && r.symbol)
		name = r.symbol;
	for (size_t i = v->nfns; i-- > 0;)
		if (!strcmp(v->fns[i].name, name))
			return &v->fns[i];
	if (v->nfns == v->fns_cap) {
		size_t cap = v->fns_cap ? v->fns_cap * 2 : 16;
		struct data_view_fn *n = realloc(v->fns, cap * sizeof *n);
		if (!n)
			return NULL;
		v->fns = n;
		v->fns_cap = cap;
	}
	memset(&v->fns[v->nfns], 0, sizeof *v->fns);
	v->fns[v->nfns].name = strdup(name);
	if (!v->fns[v->nfns].name)
		return NULL;
	return &v->fns[v->nfns++];
}

/* Count a sample at link-time pc in the row name. */
static int add_row(struct data_view *v, uint64_t pc, const char *name)
{
	size_t i;

	for (i = 0; i < v->nrows; i++)
		if (!strcmp(v->rows[i].name, name)) {
			v->rows[i].samples++;
			goto pc;
		}
	if (v->nrows == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 32;
		struct data_view_row *n = realloc(v->rows, cap * sizeof *n);
		if (!n)
			return -1;
		v->rows = n;
		v->cap = cap;
	}
	v->rows[v->nrows].name = strdup(name);
	if (!v->rows[v->nrows].name)
		return -1;
	v->rows[v->nrows++].samples = 1;
pc:
	v->pcs[v->npcs++] = (struct data_view_pc){ .pc = pc, .row = v->rows[i].name, .samples = 1 };
	return 0;
}

static int cmp_pcs(const void *a, const void *b)
{
	const struct data_view_pc *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static void merge_pcs(struct data_view *v)
{
	size_t n = 0;

	if (!v->npcs)
		return;
	qsort(v->pcs, v->npcs, sizeof *v->pcs, cmp_pcs);
	for (size_t i = 1; i < v->npcs; i++) {
		if (v->pcs[i].pc == v->pcs[n].pc && v->pcs[i].row == v->pcs[n].row)
			v->pcs[n].samples += v->pcs[i].samples;
		else
			v->pcs[++n] = v->pcs[i];
	}
	v->npcs = n + 1;
}

static void add_layout(struct data_view *v, const struct dv_attr *at)
{
	const struct dtype_layout *l = &v->layout;

	if (at->cls != DTYPE_OBJECT || strcmp(at->type, l->type))
		return;
	v->type_total++;
	for (size_t i = 0; i < l->n; i++)
		if (at->offset >= l->fields[i].offset &&
		    at->offset < l->fields[i].offset + (l->fields[i].size ? l->fields[i].size : 1)) {
			v->field_samples[i]++;
			return;
		}
	v->type_other++;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct data_view_row *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int open_ctx(struct dv_ctx *c, const char *elf, const char *layout, char *err,
		    size_t errlen)
{
	char e[512];

	c->bt = bt_image_open(elf, e, sizeof e);
	if (!c->bt) {
		snprintf(err, errlen, "%s", e);
		return -1;
	}
	c->sym = symbolizer_open(elf, e, sizeof e);
	if (!c->sym) {
		snprintf(err, errlen, "%s", e);
		return -1;
	}
	c->dt = dtype_open(c->sym, e, sizeof e);
	if (!c->dt) {
		snprintf(err, errlen, "%s", e);
		return -1;
	}
	c->cache = calloc(DV_CACHE, sizeof *c->cache);
	if (!c->cache) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (layout) {
		if (dtype_layout(c->dt, layout, &c->v->layout, err, errlen))
			return -1;
		c->v->have_layout = 1;
		c->v->field_samples = calloc(c->v->layout.n + 1, sizeof *c->v->field_samples);
		if (!c->v->field_samples) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

static void close_ctx(struct dv_ctx *c)
{
	free(c->cache);
	if (c->dt)
		dtype_close(c->dt);
	if (c->sym)
		symbolizer_close(c->sym);
	if (c->bt)
		bt_image_close(c->bt);
}

int data_view_build(struct data_view *v, const struct profile *p, const char *elf,
		    uint64_t load_bias, enum data_view_key key, const char *layout,
		    char *err, size_t errlen)
{
	struct dv_ctx c = { .v = v, .bias = load_bias };
	const char *meta = profile_meta(p, "data_space_source");
	char name[256];
	int rc = -1;

	memset(v, 0, sizeof *v);
	v->key = key;
	v->elf = elf;
	if (!p->nraw) {
		snprintf(err, errlen, "the profile has no raw samples: record with bmprof qemu "
			 "--data-space (or bmprof record --data-space) for data-space views");
		return -1;
	}
	data_space_source(p, name, sizeof name, v->source_line, sizeof v->source_line);
	snprintf(v->source, sizeof v->source, "%s", meta ? meta : name);
	if (open_ctx(&c, elf, key == DV_LAYOUT ? layout : NULL, err, errlen))
		goto out;
	v->pcs = key == DV_LAYOUT ? NULL : calloc(p->nraw, sizeof *v->pcs);
	if (key != DV_LAYOUT && !v->pcs) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < p->nraw; i++) {
		struct dv_attr at;
		struct data_view_fn *fn;
		uint64_t trigger = v->trigger, address = v->address;
		int typed;

		if (resolve_one(&c, p, &p->raw[i], &at, err, errlen))
			goto out;
		fn = fn_of(&c, p->raw[i].regs.pc);
		if (!fn) {
			snprintf(err, errlen, "out of memory counting functions");
			goto out;
		}
		typed = at.cls == DTYPE_OBJECT || at.cls == DTYPE_SCALARS;
		v->total++;
		v->cls[at.cls]++;
		v->typed += typed;
		fn->total++;
		fn->trigger += v->trigger - trigger;
		fn->address += v->address - address;
		fn->typed += typed;
		if (key == DV_LAYOUT) {
			add_layout(v, &at);
		} else if (add_row(v, p->raw[i].regs.pc - load_bias, at.key)) {
			snprintf(err, errlen, "out of memory counting rows");
			goto out;
		}
	}
	merge_pcs(v);
	if (v->nrows)
		qsort(v->rows, v->nrows, sizeof *v->rows, cmp_rows);
	rc = 0;
out:
	close_ctx(&c);
	return rc;
}

void data_view_free(struct data_view *v)
{
	for (size_t i = 0; i < v->nrows; i++)
		free(v->rows[i].name);
	free(v->rows);
	free(v->pcs);
	for (size_t i = 0; i < v->nfns; i++)
		free(v->fns[i].name);
	free(v->fns);
	free(v->field_samples);
	if (v->have_layout)
		dtype_layout_free(&v->layout);
	memset(v, 0, sizeof *v);
}

static double pct(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static const char *const key_names[] = { "type", "type,member", "object", "layout" };

static void print_header(FILE *f, const struct data_view *v)
{
	fprintf(f, "# profile: %s\n# image: %s\n", v->profile ? v->profile : "", v->elf);
	fprintf(f, "# data space: samples from %s: %s\n", v->source, v->source_line);
	fprintf(f, "# backtracking: %" PRIu64 " raw samples: %.1f%% to a trigger instruction, "
		"%.1f%% to an address, %.1f%% to a type\n", v->total, pct(v->trigger, v->total),
		pct(v->address, v->total), pct(v->typed, v->total));
	if (v->hw_address)
		fprintf(f, "# hardware addresses: %" PRIu64 " raw samples (%.1f%%) carry the data "
			"address the hardware recorded, used as it is\n", v->hw_address,
			pct(v->hw_address, v->total));
}

static void print_layout(FILE *f, const struct data_view *v)
{
	const struct dtype_layout *l = &v->layout;
	unsigned line = 0;

	fprintf(f, "%s {   /* size %" PRIu64 ", %u cache lines, %" PRIu64 " samples */\n",
		l->type, l->size, l->lines, v->type_total);
	fprintf(f, "    %-28s %6s %5s %9s %6s\n", "/* member", "offset", "size", "samples", "% */");
	for (size_t i = 0; i < l->n; i++) {
		const struct dtype_field *d = &l->fields[i];
		char name[2 * DTYPE_NAME_MAX + 4];

		if (d->hole)
			fprintf(f, "    /* XXX %" PRIu64 " bytes hole */\n", d->hole);
		if (d->line != line) {
			fprintf(f, "    /* --- cacheline %u boundary (%u bytes) --- */\n", d->line,
				d->line * DTYPE_CACHE_LINE);
			line = d->line;
		}
		snprintf(name, sizeof name, "%s %s;", d->type, d->name);
		fprintf(f, "    %-28s %6" PRIu64 " %5" PRIu64 " %9" PRIu64 " %5.1f%s\n", name,
			d->offset, d->size, v->field_samples[i], pct(v->field_samples[i], v->type_total),
			d->crosses ? "  /* crosses a cache line */" : "");
	}
	if (l->tail)
		fprintf(f, "    /* padding: %" PRIu64 " bytes */\n", l->tail);
	fprintf(f, "};  /* holes %" PRIu64 " bytes; samples at no member: %" PRIu64 " */\n",
		l->holes, v->type_other);
}

/* How many rows to print: at most limit, at min_percent or above (rows are sorted). */
static size_t rows_shown(const struct data_view *v, long limit, double min_percent)
{
	size_t n = 0;

	while (n < v->nrows && (limit < 0 || (long)n < limit) &&
	       pct(v->rows[n].samples, v->total) >= min_percent)
		n++;
	return n;
}

int data_view_print_text(FILE *f, const struct data_view *v, long limit, double min_percent)
{
	print_header(f, v);
	if (v->key == DV_LAYOUT) {
		print_layout(f, v);
		return ferror(f) ? -1 : 0;
	}
	fprintf(f, "\n%9s %7s  %s\n", "samples", "%", v->key == DV_BY_OBJECT ? "data object" :
		v->key == DV_BY_TYPE ? "data type" : "data type and member");
	for (size_t i = 0, n = rows_shown(v, limit, min_percent); i < n; i++)
		fprintf(f, "%9" PRIu64 " %6.2f%%  %s\n", v->rows[i].samples,
			pct(v->rows[i].samples, v->total), v->rows[i].name);
	return ferror(f) ? -1 : 0;
}

int data_view_print_json(FILE *f, const struct data_view *v, long limit, double min_percent)
{
	struct json j;

	json_init(&j, f, 1);
	json_begin_object(&j);
	json_kv_string(&j, "view", key_names[v->key]);
	json_kv_string(&j, "profile", v->profile);
	json_kv_string(&j, "elf", v->elf);
	json_kv_string(&j, "data_space_source", v->source);
	json_kv_string(&j, "source_line", v->source_line);
	json_key(&j, "backtracking");
	json_begin_object(&j);
	json_kv_u64(&j, "raw_samples", v->total);
	json_kv_u64(&j, "trigger", v->trigger);
	json_kv_u64(&j, "address", v->address);
	json_kv_u64(&j, "type", v->typed);
	json_kv_u64(&j, "hardware_address", v->hw_address);
	json_kv_double(&j, "trigger_percent", pct(v->trigger, v->total));
	json_kv_double(&j, "address_percent", pct(v->address, v->total));
	json_kv_double(&j, "type_percent", pct(v->typed, v->total));
	json_end_object(&j);
	json_key(&j, "functions");
	json_begin_array(&j);
	for (size_t i = 0; i < v->nfns; i++) {
		const struct data_view_fn *fn = &v->fns[i];
		json_begin_object(&j);
		json_kv_string(&j, "function", fn->name);
		json_kv_u64(&j, "raw_samples", fn->total);
		json_kv_u64(&j, "trigger", fn->trigger);
		json_kv_u64(&j, "address", fn->address);
		json_kv_u64(&j, "type", fn->typed);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "categories");
	json_begin_object(&j);
	for (int c = 0; c < DTYPE__NCLASS; c++)
		json_kv_u64(&j, c == DTYPE_OBJECT ? "objects" : dtype_class_name(c), v->cls[c]);
	json_end_object(&j);
	if (v->key == DV_LAYOUT) {
		const struct dtype_layout *l = &v->layout;

		json_key(&j, "layout");
		json_begin_object(&j);
		json_kv_string(&j, "type", l->type);
		json_kv_u64(&j, "size", l->size);
		json_kv_u64(&j, "holes", l->holes);
		json_kv_u64(&j, "tail", l->tail);
		json_kv_u64(&j, "lines", l->lines);
		json_kv_u64(&j, "samples", v->type_total);
		json_kv_u64(&j, "samples_at_no_member", v->type_other);
		json_key(&j, "fields");
		json_begin_array(&j);
		for (size_t i = 0; i < l->n; i++) {
			const struct dtype_field *d = &l->fields[i];
			json_begin_object(&j);
			json_kv_string(&j, "name", d->name);
			json_kv_string(&j, "type", d->type);
			json_kv_u64(&j, "offset", d->offset);
			json_kv_u64(&j, "size", d->size);
			json_kv_u64(&j, "hole", d->hole);
			json_kv_u64(&j, "line", d->line);
			json_kv_bool(&j, "crosses", d->crosses);
			json_kv_u64(&j, "samples", v->field_samples[i]);
			json_kv_double(&j, "percent", pct(v->field_samples[i], v->type_total));
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	} else {
		json_key(&j, "rows");
		json_begin_array(&j);
		for (size_t i = 0, n = rows_shown(v, limit, min_percent); i < n; i++) {
			json_begin_object(&j);
			json_kv_string(&j, "name", v->rows[i].name);
			json_kv_u64(&j, "samples", v->rows[i].samples);
			json_kv_double(&j, "percent", pct(v->rows[i].samples, v->total));
			json_end_object(&j);
		}
		json_end_array(&j);
		json_key(&j, "pcs");
		json_begin_array(&j);
		for (size_t i = 0; i < v->npcs; i++) {
			json_begin_object(&j);
			json_kv_hex(&j, "pc", v->pcs[i].pc);
			json_kv_string(&j, "name", v->pcs[i].row);
			json_kv_u64(&j, "samples", v->pcs[i].samples);
			json_end_object(&j);
		}
		json_end_array(&j);
	}
	json_end_object(&j);
	return json_finish(&j) || ferror(f) ? -1 : 0;
}
