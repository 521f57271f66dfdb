/* SPDX-License-Identifier: BSD-2-Clause */
/* The data-space section of the HTML report (report_data_html.h): the raw samples by data
 * type and by type and member (data_view.h, as `bmprof report --sort type` and
 * `--sort type,member` count them), and the layout of the struct that took the most
 * samples, with each member's samples, holes and cache-line boundaries (as `--layout`). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/data_view.h"
#include "report/markup.h"
#include "report/report_data_html.h"

#define DATA_MAX_ROWS 500       /* rows of a data-space table; the rest are counted */
#define DATA_MAX_LAYOUTS 4      /* structs whose layout is shown, the hottest first */

static double pct(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static void cell_u64(FILE *f, uint64_t v)
{
	fprintf(f, "<td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", v, v);
}

static void cell_pct(FILE *f, double v)
{
	fprintf(f, "<td class=\"n\" data-v=\"%.6f\">%.2f%%</td>", v, v);
}

static void cell_text(FILE *f, const char *text)
{
	fputs("<td>", f);
	markup_escape(f, text);
	fputs("</td>", f);
}

static void rows_table(FILE *f, const struct data_view *v, const char *id, const char *title,
		       const char *what)
{
	size_t n = v->nrows < DATA_MAX_ROWS ? v->nrows : DATA_MAX_ROWS;

	fprintf(f, "<h3>%s</h3>\n<table id=\"%s\" class=\"sortable\"><thead><tr>"
		"<th class=\"n\">samples</th><th class=\"n\">percent</th><th>%s</th></tr></thead>"
		"<tbody>\n", title, id, what);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", f);
		cell_u64(f, v->rows[i].samples);
		cell_pct(f, pct(v->rows[i].samples, v->total));
		cell_text(f, v->rows[i].name);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (n < v->nrows)
		fprintf(f, "<p class=\"note\">%zu more rows (bmprof report --sort type,member -a "
			"lists them)</p>\n", v->nrows - n);
}

static void layout_line(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<tr class=\"%s\"><td colspan=\"6\">%s</td></tr>\n", cls, text);
}

/* The struct's members in offset order, with the lines a cache-line boundary or a hole
 * falls on between them. */
static void layout_table(FILE *f, const struct data_view *v, unsigned k)
{
	const struct dtype_layout *l = &v->layout;
	unsigned line = 0;
	char t[96];

	fprintf(f, "<h3 id=\"ds-layout-title-%u\">", k);
	markup_printf(f, "%s: size %" PRIu64 ", %u cache lines, %" PRIu64 " samples", l->type,
		      l->size, l->lines, v->type_total);
	fprintf(f, "</h3>\n<table id=\"ds-layout-%u\" class=\"ds-layout\" data-type=\"", k);
	markup_escape(f, l->type);
	fputs("\"><thead><tr><th>member</th><th>type</th>"
	      "<th class=\"n\">offset</th><th class=\"n\">size</th><th class=\"n\">samples</th>"
	      "<th class=\"n\">percent</th></tr></thead><tbody>\n", f);
	for (size_t i = 0; i < l->n; i++) {
		const struct dtype_field *d = &l->fields[i];

		if (d->hole) {
			snprintf(t, sizeof t, "hole: %" PRIu64 " bytes", d->hole);
			layout_line(f, "ds-hole", t);
		}
		if (d->line != line) {
			snprintf(t, sizeof t, "cache line %u (byte %u)", d->line,
				 d->line * DTYPE_CACHE_LINE);
			layout_line(f, "ds-line", t);
			line = d->line;
		}
		fprintf(f, "<tr class=\"ds-member%s\">", d->crosses ? " warn" : "");
		cell_text(f, d->name);
		cell_text(f, d->type);
		cell_u64(f, d->offset);
		cell_u64(f, d->size);
		cell_u64(f, v->field_samples[i]);
		cell_pct(f, pct(v->field_samples[i], v->type_total));
		fputs("</tr>\n", f);
	}
	if (l->tail) {
		snprintf(t, sizeof t, "padding: %" PRIu64 " bytes", l->tail);
		layout_line(f, "ds-hole", t);
	}
	fprintf(f, "</tbody></table>\n<p class=\"note\">Holes: %" PRIu64 " bytes; samples at no "
		"member: %" PRIu64 "; a member in red crosses a cache line.</p>\n", l->holes,
		v->type_other);
}

static void failed(FILE *f, const char *err)
{
	fputs("<p class=\"note\" id=\"ds-none\">", f);
	markup_printf(f, "No data-space view: %s", err);
	fputs("</p>\n", f);
}

static int is_struct(const char *name)
{
	return !strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6);
}

/* The layouts of the hottest structs and unions of the type view. */
static void layouts(FILE *f, const struct profile *p, const char *elf, uint64_t load_bias,
		    const struct data_view *type)
{
	unsigned k = 0;
	char err[512];

	fputs("<h3>Layouts of the hottest structs</h3>\n<p class=\"note\">Each member with the "
	      "samples charged to it (bmprof report --layout), where cache lines begin and "
	      "holes lie.</p>\n", f);
	for (size_t i = 0; i < type->nrows && k < DATA_MAX_LAYOUTS; i++) {
		struct data_view v;

		if (!is_struct(type->rows[i].name))
			continue;
		if (data_view_build(&v, p, elf, load_bias, DV_LAYOUT, type->rows[i].name, err,
				    sizeof err)) {
			failed(f, err);
			continue;
		}
		layout_table(f, &v, k++);
		data_view_free(&v);
	}
	if (!k)
		fputs("<p class=\"note\">No struct or union took a sample.</p>\n", f);
}

static void effectiveness(FILE *f, const struct data_view *v)
{
	fputs("<p id=\"ds-source\">", f);
	markup_printf(f, "Samples from %s: %s", v->source, v->source_line);
	fputs("</p>\n<p id=\"ds-backtracking\">", f);
	markup_printf(f, "Backtracking: %" PRIu64 " raw samples: %.1f%% to a trigger instruction, "
		      "%.1f%% to an address, %.1f%% to a type", v->total, pct(v->trigger, v->total),
		      pct(v->address, v->total), pct(v->typed, v->total));
	fputs("</p>\n", f);
}

void report_data_html(FILE *f, const struct profile *p, const char *elf, uint64_t load_bias)
{
	struct data_view type, member;
	char err[512];

	fputs("<h2 id=\"data\">Data space</h2>\n", f);
	if (!elf) {
		failed(f, "the image's ELF was not found (--elf FILE)");
		return;
	}
	if (data_view_build(&type, p, elf, load_bias, DV_BY_TYPE, NULL, err, sizeof err)) {
		failed(f, err);
		return;
	}
	effectiveness(f, &type);
	rows_table(f, &type, "ds-type-table", "By data type", "data type");
	if (!data_view_build(&member, p, elf, load_bias, DV_BY_TYPE_MEMBER, NULL, err, sizeof err)) {
		rows_table(f, &member, "ds-member-table", "By data type and member",
			   "data type and member");
		data_view_free(&member);
	} else {
		failed(f, err);
	}
	layouts(f, p, elf, load_bias, &type);
	data_view_free(&type);
}
