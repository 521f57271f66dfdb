/* SPDX-License-Identifier: BSD-2-Clause */
/* .debug_line decoding for one CU (DWARF 2-5) into a merged, sorted row array.
 *
 * libdw's dwarf_getsrclines sorts the rows of all sequences together, which loses the
 * sequence boundaries that decide what addr2line prints at sequence ends and overlaps, and
 * allocates per row; so the line program is decoded here, the way binutils reads it:
 * within a sequence the last row at an address wins; sequences are sorted by start (longest
 * first), nested ones dropped and overlapping ones trimmed. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/sym_internal.h"

struct hdr {
	unsigned version, offset_size, addr_size;
	unsigned min_insn, max_ops, line_range, opcode_base;
	int line_base;
	const uint8_t *std_len;
	const uint8_t *prog, *end;
};

struct seq {
	size_t first, n;        /* rows (without the end marker) in tmp */
	uint64_t low, high;
	size_t index;
};

struct decoder {
	struct symbolizer *s;
	struct sym_cu *cu;
	struct vec dirs;        /* const char * */
	struct vec files;       /* const char * (paths) */
	/* The rows as decoded, their addresses and values apart (so a sequence copies out
	 * in two block moves), both in the scratch buffer rows: cap of each. */
	struct vec rows;
	uint64_t *addr;
	struct sym_row *val;
	struct vec seqs;        /* struct seq */
};

#define ROW_BYTES (sizeof(uint64_t) + sizeof(struct sym_row))

/* Lay the two arrays over the buffer (of rows.cap rows). */
static void place_rows(struct decoder *d)
{
	d->addr = d->rows.data;
	d->val = d->rows.data ? (struct sym_row *)((char *)d->rows.data +
						   d->rows.cap * sizeof(uint64_t)) : NULL;
}

/* Room for cap rows, keeping the n there are. 0 or -1. */
static int reserve_rows(struct decoder *d, size_t cap)
{
	if (cap <= d->rows.cap)
		return 0;
	char *p = malloc(cap * ROW_BYTES);
	if (!p)
		return -1;
	if (d->rows.n) {
		memcpy(p, d->addr, d->rows.n * sizeof(uint64_t));
		memcpy(p + cap * sizeof(uint64_t), d->val, d->rows.n * sizeof(struct sym_row));
	}
	free(d->rows.data);
	d->rows.data = p;
	d->rows.cap = cap;
	place_rows(d);
	return 0;
}

static const char *section_str(const uint8_t *sec, size_t len, uint64_t off)
{
	/* a section that ends in a NUL holds a whole string at every offset */
	if (!sec || off >= len || (sec[len - 1] && !memchr(sec + off, 0, len - off)))
		return NULL;
	return (const char *)sec + off;
}

/* Value of one DWARF 5 entry-format field: a string (*str) or a number (*num). */
static int read_field(struct decoder *d, struct rd *r, const struct hdr *h, uint64_t form,
		      const char **str, uint64_t *num)
{
	struct symbolizer *s = d->s;
	*str = NULL;
	*num = 0;
	switch (form) {
	case DW_FORM_string:
		*str = rd_cstr(r);
		break;
	case DW_FORM_line_strp:
		*str = section_str(s->debug_line_str, s->debug_line_str_len,
				   rd_uN(r, h->offset_size));
		break;
	case DW_FORM_strp:
		*str = section_str(s->debug_str, s->debug_str_len, rd_uN(r, h->offset_size));
		break;
	case DW_FORM_udata:
		*num = rd_uleb(r);
		break;
	case DW_FORM_sdata:
		*num = (uint64_t)rd_sleb(r);
		break;
	case DW_FORM_data1:
		*num = rd_uN(r, 1);
		break;
	case DW_FORM_data2:
		*num = rd_uN(r, 2);
		break;
	case DW_FORM_data4:
		*num = rd_uN(r, 4);
		break;
	case DW_FORM_data8:
		*num = rd_uN(r, 8);
		break;
	case DW_FORM_data16:
		rd_skip(r, 16);
		break;
	case DW_FORM_block:
		rd_skip(r, rd_uleb(r));
		break;
	case DW_FORM_block1:
		rd_skip(r, rd_uN(r, 1));
		break;
	case DW_FORM_block2:
		rd_skip(r, rd_uN(r, 2));
		break;
	case DW_FORM_block4:
		rd_skip(r, rd_uN(r, 4));
		break;
	default:
		return -1;
	}
	return r->err ? -1 : 0;
}

static bool is_abs(const char *p)
{
	return p && p[0] == '/';
}

/* The path addr2line prints for a file entry (binutils concat_filename). */
static const char *file_path(struct decoder *d, const struct hdr *h, const char *name,
			     uint64_t dir)
{
	if (!name)
		return "<unknown>";
	if (is_abs(name))
		return name;
	const char **dirs = d->dirs.data;
	const char *sub = NULL, *top = NULL;
	/* Before DWARF 5, directory 0 is the compilation directory and the table starts at 1. */
	uint64_t di = h->version >= 5 ? dir : dir - 1;
	if ((h->version >= 5 || dir > 0) && di < d->dirs.n)
		sub = dirs[di];
	if (!sub || !is_abs(sub))
		top = d->cu->comp_dir;
	if (!top) {
		top = sub;
		sub = NULL;
	}
	if (!top)
		return name;
	const char *p = sub ? arena_join(&d->s->arena, sub, name) : name;
	return p ? arena_join(&d->s->arena, top, p) : NULL;
}

static int add_file(struct decoder *d, const char *path)
{
	const char **slot = vec_push(&d->files);
	if (!slot || !path)
		return -1;
	*slot = path;
	return 0;
}

static int read_v5_table(struct decoder *d, struct rd *r, const struct hdr *h, bool files)
{
	uint64_t fmt[2 * 16];
	unsigned nfmt = (unsigned)rd_uN(r, 1);
	if (nfmt > 16)
		return -1;
	for (unsigned i = 0; i < 2 * nfmt; i++)
		fmt[i] = rd_uleb(r);
	uint64_t count = rd_uleb(r);
	if (r->err || count > (uint64_t)(r->end - r->p))
		return -1;
	for (uint64_t e = 0; e < count; e++) {
		const char *name = NULL;
		uint64_t dir = 0;
		for (unsigned i = 0; i < nfmt; i++) {
			const char *str;
			uint64_t num;
			if (read_field(d, r, h, fmt[2 * i + 1], &str, &num) < 0)
				return -1;
			if (fmt[2 * i] == DW_LNCT_path)
				name = str;
			else if (fmt[2 * i] == DW_LNCT_directory_index)
				dir = num;
		}
		if (files) {
			if (add_file(d, file_path(d, h, name, dir)) < 0)
				return -1;
		} else {
			const char **slot = vec_push(&d->dirs);
			if (!slot)
				return -1;
			*slot = name;
		}
	}
	return 0;
}

static int read_v4_tables(struct decoder *d, struct rd *r, const struct hdr *h)
{
	for (;;) {
		const char *dir = rd_cstr(r);
		if (!dir)
			return -1;
		if (!*dir)
			break;
		const char **slot = vec_push(&d->dirs);
		if (!slot)
			return -1;
		*slot = dir;
	}
	if (add_file(d, "<unknown>") < 0) /* file numbers start at 1 */
		return -1;
	for (;;) {
		const char *name = rd_cstr(r);
		if (!name)
			return -1;
		if (!*name)
			break;
		uint64_t dir = rd_uleb(r);
		rd_uleb(r);
		rd_uleb(r);
		if (r->err || add_file(d, file_path(d, h, name, dir)) < 0)
			return -1;
	}
	return 0;
}

static int read_header(struct decoder *d, struct hdr *h)
{
	struct symbolizer *s = d->s;
	if (d->cu->stmt_off >= s->debug_line_len)
		return -1;
	struct rd r = { s->debug_line + d->cu->stmt_off, s->debug_line + s->debug_line_len,
			s->be, false };
	uint64_t len = rd_uN(&r, 4);
	h->offset_size = 4;
	if (len == 0xffffffff) {
		len = rd_uN(&r, 8);
		h->offset_size = 8;
	}
	if (r.err || len > (uint64_t)(r.end - r.p))
		return -1;
	r.end = r.p + len;
	h->end = r.end;
	h->version = (unsigned)rd_uN(&r, 2);
	if (h->version < 2 || h->version > 5)
		return -1;
	h->addr_size = 0;
	if (h->version >= 5) {
		h->addr_size = (unsigned)rd_uN(&r, 1);
		rd_uN(&r, 1);
	}
	uint64_t hlen = rd_uN(&r, h->offset_size);
	if (r.err || hlen > (uint64_t)(r.end - r.p))
		return -1;
	h->prog = r.p + hlen;
	h->min_insn = (unsigned)rd_uN(&r, 1);
	h->max_ops = h->version >= 4 ? (unsigned)rd_uN(&r, 1) : 1;
	rd_uN(&r, 1); /* default_is_stmt: addr2line keeps every row */
	h->line_base = (int8_t)rd_uN(&r, 1);
	h->line_range = (unsigned)rd_uN(&r, 1);
	h->opcode_base = (unsigned)rd_uN(&r, 1);
	if (r.err || !h->max_ops || !h->opcode_base)
		return -1;
	h->std_len = r.p - 1;
	rd_skip(&r, h->opcode_base - 1);
	/* the tables run from here to the program; a header_length short of the fields
	 * already read leaves no room for them */
	if (r.err || r.p > h->prog)
		return -1;
	r.end = h->prog;
	if (h->version >= 5)
		return read_v5_table(d, &r, h, false) < 0 ? -1 : read_v5_table(d, &r, h, true);
	return read_v4_tables(d, &r, h);
}

struct state {
	uint64_t addr;
	unsigned op_index;
	uint32_t file, line, column, discr;
	struct seq *seq;
};

static int new_seq(struct decoder *d, struct state *st)
{
	struct seq *q = vec_push(&d->seqs);
	if (!q)
		return -1;
	*q = (struct seq){ .first = d->rows.n, .low = st->addr, .index = d->seqs.n - 1 };
	st->seq = q;
	return 0;
}

/* A row at the state's address: appended, or replacing the sequence's last row when that
 * is at the same address (the last row at an address wins). The row count lives in *n
 * (a register in the decoding loop), d->rows.n is brought up to date only around calls
 * that read it. */
static inline __attribute__((always_inline)) int emit(struct decoder *d, struct state *st,
						      size_t *n)
{
	if (!st->seq) {
		d->rows.n = *n;
		if (new_seq(d, st) < 0)
			return -1;
	}
	struct sym_row row = { st->line, st->file, st->discr,
			       st->column > 0xffff ? 0xffff : (uint16_t)st->column, 0 };
	size_t k = *n;
	if (k > st->seq->first && d->addr[k - 1] == st->addr) {
		d->val[k - 1] = row;
		return 0;
	}
	if (k == d->rows.cap) {
		d->rows.n = k;
		if (reserve_rows(d, 2 * k) < 0)
			return -1;
	}
	d->addr[k] = st->addr;
	d->val[k] = row;
	*n = k + 1;
	return 0;
}

static int end_seq(struct decoder *d, struct state *st)
{
	if (!st->seq && new_seq(d, st) < 0)
		return -1;
	st->seq->high = st->addr;
	st->seq->n = d->rows.n - st->seq->first;
	st->seq = NULL;
	return 0;
}

static inline void advance(struct state *st, const struct hdr *h, uint64_t adv)
{
	if (h->max_ops == 1) {
		st->addr += h->min_insn * adv;
		return;
	}
	st->addr += h->min_insn * ((st->op_index + adv) / h->max_ops);
	st->op_index = (unsigned)((st->op_index + adv) % h->max_ops);
}

/* binutils starts every DWARF 5 sequence in file 0 where the standard says file 1; gcc
 * usually makes the two the same file, and where it does not, addr2line's answer is kept. */
static void reset(struct state *st, const struct hdr *h)
{
	*st = (struct state){ .file = h->version >= 5 ? 0 : 1, .line = 1 };
}

static int extended_op(struct decoder *d, struct rd *r, struct state *st, const struct hdr *h,
		       unsigned addr_size)
{
	uint64_t len = rd_uleb(r);
	if (r->err || !len || len > (uint64_t)(r->end - r->p))
		return -1;
	const uint8_t *next = r->p + len;
	unsigned op = (unsigned)rd_uN(r, 1);
	switch (op) {
	case DW_LNE_end_sequence:
		if (end_seq(d, st) < 0)
			return -1;
		reset(st, h);
		break;
	case DW_LNE_set_address:
		st->addr = rd_uN(r, len - 1 <= 8 ? (unsigned)(len - 1) : addr_size);
		st->op_index = 0;
		break;
	case DW_LNE_define_file: {
		const char *name = rd_cstr(r);
		uint64_t dir = rd_uleb(r);
		struct hdr v4 = { .version = 4 };
		if (r->err || add_file(d, file_path(d, &v4, name, dir)) < 0)
			return -1;
		break;
	}
	case DW_LNE_set_discriminator:
		st->discr = (uint32_t)rd_uleb(r);
		break;
	default:
		break;
	}
	r->p = next;
	return r->err ? -1 : 0;
}

static int run_program(struct decoder *d, const struct hdr *h, unsigned addr_size)
{
	struct rd r = { h->prog, h->end, d->s->be, false };
	struct state st;
	reset(&st, h);
	if (!h->line_range)
		return -1;
	/* special opcodes, decoded once: the divisions cost more than the rest of a row */
	uint32_t addr_adv[256];
	int line_adv[256];
	for (unsigned op = h->opcode_base; op < 256; op++) {
		addr_adv[op] = h->min_insn * ((op - h->opcode_base) / h->line_range);
		line_adv[op] = h->line_base + (int)((op - h->opcode_base) % h->line_range);
	}
	/* about one row per three program bytes */
	if (reserve_rows(d, (size_t)(h->end - h->prog) / 3 + 1024) < 0)
		return -1;
	/* The loop keeps the read position and the row count in registers: the state goes
	 * to memory only around the rare extended opcodes (on a copy, so that the compiler
	 * may keep the state's fields in registers too). A failed read sets r.err, which
	 * ends the decode as failed once the program is through (every opcode moves past a
	 * byte). */
	const uint8_t *p = r.p, *end = r.end;
	uint8_t base = (uint8_t)h->opcode_base;
	size_t n = d->rows.n;
	bool one_op = h->max_ops == 1;
	while (p < end) {
		unsigned op = *p++;
		if (op >= base) {
			if (one_op)
				st.addr += addr_adv[op];
			else
				advance(&st, h, (op - base) / h->line_range);
			st.line += (uint32_t)line_adv[op];
			if (emit(d, &st, &n) < 0)
				return -1;
			st.discr = 0;
			continue;
		}
		/* one-byte operands, the common case, read here; longer ones by the reader */
		switch (op) {
		case DW_LNS_set_column:
			if (p < end && !(*p & 0x80)) {
				st.column = *p++;
				continue;
			}
			break;
		case DW_LNS_negate_stmt:
		case DW_LNS_set_basic_block:
		case DW_LNS_set_prologue_end:
		case DW_LNS_set_epilogue_begin:
			continue;
		case DW_LNS_copy:
			if (emit(d, &st, &n) < 0)
				return -1;
			st.discr = 0;
			continue;
		case DW_LNS_advance_line:
			if (p < end && !(*p & 0x80)) {
				int v = *p++;
				st.line += (uint32_t)(v & 0x40 ? v - 0x80 : v);
				continue;
			}
			break;
		case DW_LNS_const_add_pc:
			advance(&st, h, (255 - base) / h->line_range);
			continue;
		default:
			break;
		}
		r.p = p;
		switch (op) {
		case 0: {
			struct state t = st;
			d->rows.n = n;
			if (extended_op(d, &r, &t, h, addr_size) < 0)
				return -1;
			st = t;
			break;
		}
		case DW_LNS_advance_pc:
			advance(&st, h, rd_uleb(&r));
			break;
		case DW_LNS_advance_line:
			st.line += (uint32_t)rd_sleb(&r);
			break;
		case DW_LNS_set_file:
			st.file = (uint32_t)rd_uleb(&r);
			break;
		case DW_LNS_set_column:
			st.column = (uint32_t)rd_uleb(&r);
			break;
		case DW_LNS_fixed_advance_pc:
			st.addr += rd_uN(&r, 2);
			st.op_index = 0;
			break;
		default:
			for (unsigned i = 0; i < h->std_len[op]; i++)
				rd_uleb(&r);
			break;
		}
		p = r.p > end ? end : r.p;
	}
	d->rows.n = n;
	/* A sequence left open at the end of the program is dropped, as binutils does. */
	if (st.seq)
		d->seqs.n--, d->rows.n = st.seq->first;
	return r.err ? -1 : 0;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct seq *x = a, *y = b;
	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	if (x->high != y->high)
		return x->high > y->high ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Rows of a sequence that went backwards are put in order (stable), keeping the last row
 * at each address. */
static void order_seq(struct decoder *d, struct seq *q)
{
	uint64_t *a = d->addr + q->first;
	struct sym_row *v = d->val + q->first;
	size_t i;
	for (i = 1; i < q->n && a[i - 1] <= a[i]; i++)
		;
	if (i >= q->n)
		return;
	/* insertion sort: stable, and such sequences are rare */
	for (i = 1; i < q->n; i++) {
		uint64_t ta = a[i];
		struct sym_row tv = v[i];
		size_t j = i;
		while (j > 0 && a[j - 1] > ta) {
			a[j] = a[j - 1];
			v[j] = v[j - 1];
			j--;
		}
		a[j] = ta;
		v[j] = tv;
	}
	size_t w = 0;
	for (i = 0; i < q->n; i++) {
		if (w && a[w - 1] == a[i])
			w--;
		a[w] = a[i];
		v[w++] = v[i];
	}
	q->n = w;
}

static int merge(struct decoder *d)
{
	struct seq *seqs = d->seqs.data;
	size_t ns = d->seqs.n;
	for (size_t i = 0; i < ns; i++)
		order_seq(d, &seqs[i]);
	if (ns > 1)
		qsort(seqs, ns, sizeof(*seqs), cmp_seq);
	struct sym_cu *cu = d->cu;
	size_t cap = d->rows.n + 2 * ns + 1;
	cu->row_addr = arena_alloc(&d->s->arena, cap * sizeof(*cu->row_addr));
	cu->rows = arena_alloc(&d->s->arena, cap * sizeof(*cu->rows));
	if (!cu->row_addr || !cu->rows)
		return -1;
	size_t n = 0;
	uint64_t last_high = 0;
	bool any = false;
	for (size_t i = 0; i < ns; i++) {
		struct seq *q = &seqs[i];
		uint64_t low = q->low;
		if (!q->n || q->high <= q->low)
			continue;
		if (any && low < last_high) {
			if (q->high <= last_high)
				continue; /* nested */
			low = last_high; /* overlapping: trimmed */
		}
		any = true;
		last_high = q->high;
		const uint64_t *a = d->addr + q->first;
		const struct sym_row *v = d->val + q->first;
		size_t k = 0, e;
		while (k + 1 < q->n && a[k + 1] <= low)
			k++;
		cu->row_addr[n] = low;
		cu->rows[n++] = v[k++];
		for (e = k; e < q->n && a[e] < q->high; e++)
			;
		memcpy(cu->row_addr + n, a + k, (e - k) * sizeof(*a));
		memcpy(cu->rows + n, v + k, (e - k) * sizeof(*v));
		n += e - k;
		cu->row_addr[n] = q->high;
		cu->rows[n++] = (struct sym_row){ .end = 1 };
	}
	cu->nrows = n;
	return 0;
}

int sym_line_decode(struct symbolizer *s, struct sym_cu *cu, struct sym_scratch *scr)
{
	if (!cu->has_stmt || !s->debug_line)
		return 0;
	/* the row and sequence buffers are reused from CU to CU */
	struct decoder d = {
		.s = s,
		.cu = cu,
		.dirs = { .elem = sizeof(const char *) },
		.files = { .elem = sizeof(const char *) },
		.rows = scr->rows,
		.seqs = scr->seqs,
	};
	d.rows.elem = ROW_BYTES;
	d.seqs.elem = sizeof(struct seq);
	d.rows.n = d.seqs.n = 0;
	place_rows(&d);
	struct hdr h;
	int rc = -1;
	if (read_header(&d, &h) < 0)
		goto out;
	unsigned addr_size = h.addr_size ? h.addr_size : (gelf_getclass(s->elf) == ELFCLASS32 ? 4 : 8);
	if (run_program(&d, &h, addr_size) < 0 || merge(&d) < 0)
		goto out;
	cu->nfiles = d.files.n;
	cu->files = arena_alloc(&s->arena, (d.files.n + 1) * sizeof(*cu->files));
	if (!cu->files)
		goto out;
	if (d.files.n)
		memcpy(cu->files, d.files.data, d.files.n * sizeof(*cu->files));
	rc = 0;
out:
	vec_free(&d.dirs);
	vec_free(&d.files);
	scr->rows = d.rows;
	scr->seqs = d.seqs;
	return rc;
}

uint32_t sym_line_find(const struct sym_cu *cu, uint64_t addr)
{
	size_t lo = 0, hi = cu->nrows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cu->row_addr[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || cu->rows[lo - 1].end)
		return SYM_NONE;
	return (uint32_t)(lo - 1);
}
