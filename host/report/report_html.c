/* SPDX-License-Identifier: BSD-2-Clause */
/* A report as one self-contained HTML page (report.h): inline style and script, the flame
 * graph's SVG inline, nothing fetched. Everything that comes from the profile or the ELF
 * is escaped (markup.h). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/annotate.h"
#include "report/markup.h"
#include "report/report.h"
#include "report/report_data_html.h"
#include "report/report_flame.h"
#include "report/report_int.h"
#include "report/summary.h"
#include "util/util.h"

#define HTML_MAX_ROWS 5000      /* rows of the function table; the rest are counted */
#define SPLIT_MAX_ROWS 50       /* rows of the per-CPU split */
#define SPLIT_MAX_CPUS 64

static const char style[] =
	"<style>\n"
	"body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
	"h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }\n"
	"pre { background: #f6f6f2; padding: 0.6em; overflow-x: auto; font-size: 12px; }\n"
	"table { border-collapse: collapse; font-size: 13px; }\n"
	"th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }\n"
	"td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"th.sort { cursor: pointer; background: #eee; }\n"
	"th.sort:after { content: ' \\2195'; color: #999; }\n"
	"tr.warn td { color: #a00; }\n"
	"p.note { color: #555; }\n"
	"div.flame { overflow-x: auto; }\n"
	"</style>\n";

/* Click a column head to sort its table by it (numbers by data-v), again to reverse. */
static const char script[] =
	"<script>\n"
	"(function () {\n"
	"  document.querySelectorAll('table.sortable').forEach(function (t) {\n"
	"    t.querySelectorAll('th').forEach(function (th, col) {\n"
	"      th.classList.add('sort');\n"
	"      th.addEventListener('click', function () {\n"
	"        var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"        var num = th.classList.contains('n'), dir = th.dataset.dir === 'd' ? 1 : -1;\n"
	"        if (!num && th.dataset.dir === undefined) dir = 1;\n"
	"        th.dataset.dir = dir > 0 ? 'a' : 'd';\n"
	"        rows.sort(function (a, b) {\n"
	"          var x = a.cells[col], y = b.cells[col];\n"
	"          if (num) return dir * (+x.dataset.v - +y.dataset.v);\n"
	"          return dir * x.textContent.localeCompare(y.textContent);\n"
	"        });\n"
	"        rows.forEach(function (r) { body.appendChild(r); });\n"
	"      });\n"
	"    });\n"
	"  });\n"
	"})();\n"
	"</script>\n";

static void cell_text(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	markup_escape(f, text);
	fputs("</td>", f);
}

static void cell_u64(FILE *f, uint64_t v)
{
	fprintf(f, "<td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", v, v);
}

static void cell_pct(FILE *f, double v)
{
	fprintf(f, "<td class=\"n\" data-v=\"%.6f\">%.2f%%</td>", v, v);
}

/* What the text report's header says, as it says it. */
static int header(FILE *f, const struct report *rp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return -1;
	report_print_header(m, rp);
	if (fclose(m)) {
		free(text);
		return -1;
	}
	fputs("<h2 id=\"run\">Run</h2>\n<pre id=\"header\">", f);
	markup_escape(f, text);
	fputs("</pre>\n", f);
	free(text);
	return 0;
}

/* Samples per CPU: taken, delivered, lost and why, received, lost in transit. */
static void loss(FILE *f, const struct report *rp)
{
	const struct profile *p = rp->p;
	char fate[400];
	struct totals t;

	sum_cpus(p, &t);
	fputs("<h2 id=\"loss\">Samples taken, delivered and lost</h2>\n"
	      "<table id=\"loss-table\"><thead><tr><th>cpu</th><th class=\"n\">taken</th>"
	      "<th class=\"n\">delivered</th><th class=\"n\">lost: buffers full</th>"
	      "<th class=\"n\">lost: transport failed</th><th class=\"n\">received</th>"
	      "<th class=\"n\">lost in transit</th><th>what became of them</th></tr></thead>"
	      "<tbody>\n", f);
	for (unsigned i = 0, end = summary_cpu_end(p); i < end; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		int bad;

		if (!summary_cpu_listed(p, i))
			continue;
		bad = !c->have_totals || c->totals[BMPROF_TOTAL_LOST_FULL] ||
			c->totals[BMPROF_TOTAL_LOST_TRANSPORT] || profile_cpu_lost_in_transit(c);
		summary_cpu_fate(fate, sizeof fate, p, i);
		fprintf(f, "<tr%s><td>%u</td>", bad ? " class=\"warn\"" : "", i);
		if (c->have_totals) {
			cell_u64(f, c->totals[BMPROF_TOTAL_TAKEN]);
			cell_u64(f, c->totals[BMPROF_TOTAL_DELIVERED]);
			cell_u64(f, c->totals[BMPROF_TOTAL_LOST_FULL]);
			cell_u64(f, c->totals[BMPROF_TOTAL_LOST_TRANSPORT]);
		} else {
			fputs("<td></td><td></td><td></td><td></td>", f);
		}
		cell_u64(f, c->received);
		cell_u64(f, profile_cpu_lost_in_transit(c));
		cell_text(f, NULL, fate);
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody><tfoot><tr><th>all</th><td class=\"n\">%" PRIu64 "</td><td class=\"n\">"
		"%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td>"
		"<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td><td></td></tr>"
		"</tfoot></table>\n", t.taken, t.delivered, t.lost_full, t.lost_transport,
		t.received, t.in_transit);
}

static void flat_table(FILE *f, const struct report *rp)
{
	const struct flat_result *res = &rp->flat;
	char name[PATH_MAX + 32], detail[PATH_MAX + 32];
	size_t n = res->nrows < HTML_MAX_ROWS ? res->nrows : HTML_MAX_ROWS;

	fprintf(f, "<h2 id=\"flat\">Flat profile</h2>\n<p>%" PRIu64 " samples, by function; click "
		"a column head to sort by it.</p>\n<table id=\"flat-table\" class=\"sortable\">"
		"<thead><tr><th class=\"n\">samples</th><th class=\"n\">percent</th><th>function"
		"</th><th>hottest line</th></tr></thead><tbody>\n", res->total);
	for (size_t i = 0; i < n; i++) {
		const struct flat_row *r = &res->rows[i];
		fputs("<tr class=\"row\">", f);
		cell_u64(f, r->samples);
		cell_pct(f, r->percent);
		cell_text(f, "fn", row_name(name, sizeof name, r, FLAT_BY_FUNCTION));
		cell_text(f, NULL, row_detail(detail, sizeof detail, r, FLAT_BY_FUNCTION));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (n < res->nrows)
		fprintf(f, "<p class=\"note\">%zu more rows (bmprof report --all lists them)</p>\n",
			res->nrows - n);
}

/* The hottest rows' samples on each CPU, and each CPU's share. */
static void cpu_split(FILE *f, const struct report *rp)
{
	const struct flat_result *res = &rp->flat;
	size_t nc = res->ncpus < SPLIT_MAX_CPUS ? res->ncpus : SPLIT_MAX_CPUS;
	size_t n = res->nrows < SPLIT_MAX_ROWS ? res->nrows : SPLIT_MAX_ROWS;
	char name[PATH_MAX + 32];

	fputs("<h2 id=\"cpus\">Per-CPU split</h2>\n<table id=\"cpu-table\" class=\"sortable\">"
	      "<thead><tr><th>function</th><th class=\"n\">samples</th>", f);
	for (size_t c = 0; c < nc; c++)
		fprintf(f, "<th class=\"n\">cpu %u</th>", res->cpus[c].cpu);
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct flat_row *r = &res->rows[i];
		fputs("<tr>", f);
		cell_text(f, NULL, row_name(name, sizeof name, r, FLAT_BY_FUNCTION));
		cell_u64(f, r->samples);
		for (size_t c = 0; c < nc; c++) {
			uint64_t v = 0;
			for (size_t k = 0; k < r->nper_cpu; k++)
				if (r->per_cpu[k].cpu == res->cpus[c].cpu)
					v = r->per_cpu[k].samples;
			cell_u64(f, v);
		}
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody><tfoot><tr><th>all (%% of the samples)</th><td class=\"n\">%" PRIu64
		"</td>", res->total);
	for (size_t c = 0; c < nc; c++)
		fprintf(f, "<td class=\"n\">%" PRIu64 " (%.2f%%)</td>", res->cpus[c].samples,
			res->total ? 100.0 * (double)res->cpus[c].samples / (double)res->total : 0.0);
	fputs("</tr></tfoot></table>\n", f);
	if (n < res->nrows || nc < res->ncpus)
		fprintf(f, "<p class=\"note\">The hottest %zu rows and first %zu CPUs (bmprof report "
			"--sort cpu has them all).</p>\n", n, nc);
}

/* bmprof annotate's listing of the hottest functions of the image. */
static int listings(FILE *f, const struct report *rp, unsigned top)
{
	unsigned shown = 0;

	fputs("<h2 id=\"annotate\">Annotated source of the hottest functions</h2>\n", f);
	for (size_t i = 0; i < rp->flat.nrows && shown < top; i++) {
		const struct flat_row *r = &rp->flat.rows[i];
		char *text = NULL, name[PATH_MAX + 32];
		size_t len = 0;
		FILE *m;

		if (!r->symbol || r->outside || !rp->r.sym)
			continue;
		if (!(m = open_memstream(&text, &len)))
			return -1;
		int rc = annotate_print(m, rp->p, &rp->r, &rp->fw, rp->event, r->symbol, 0);
		if (fclose(m) || rc) {
			free(text);
			continue;
		}
		fputs("<h3 class=\"fn\">", f);
		markup_escape(f, row_name(name, sizeof name, r, FLAT_BY_FUNCTION));
		fputs("</h3>\n<pre class=\"annotate\">", f);
		markup_escape(f, text);
		fputs("</pre>\n", f);
		free(text);
		shown++;
	}
	if (!shown)
		fputs("<p class=\"note\">No function of the image has samples.</p>\n", f);
	return 0;
}

int report_print_html(FILE *f, const struct report *rp, unsigned top_functions)
{
	const char *elf = rp->r.elf ? strrchr(rp->r.elf, '/') : NULL;
	char err[256];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	markup_printf(f, "bmprof report: %s", elf ? elf + 1 : rp->r.elf ? rp->r.elf : "?");
	fputs("</title>\n", f);
	fputs(style, f);
	fputs("</head>\n<body>\n<h1>", f);
	markup_printf(f, "bmprof report: %s", rp->input);
	fputs("</h1>\n<p><a href=\"#run\">Run</a> | <a href=\"#loss\">Samples lost</a> | "
	      "<a href=\"#flat\">Flat profile</a> | <a href=\"#flame\">Flame graph</a> | "
	      "<a href=\"#cpus\">Per-CPU split</a> | <a href=\"#annotate\">Annotated source</a>", f);
	if (profile_has_raw(rp->p))
		fputs(" | <a href=\"#data\">Data space</a>", f);
	fputs("</p>\n", f);
	if (header(f, rp))
		return -1;
	loss(f, rp);
	flat_table(f, rp);
	fputs("<h2 id=\"flame\">Flame graph</h2>\n<div class=\"flame\">\n", f);
	if (report_flamegraph(f, rp, -1, 0, 1, err, sizeof err))
		return -1;
	fputs("</div>\n", f);
	cpu_split(f, rp);
	if (listings(f, rp, top_functions))
		return -1;
	if (profile_has_raw(rp->p))
		report_data_html(f, rp->p, rp->r.elf, rp->r.load_bias);
	fputs(script, f);
	fputs("</body>\n</html>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
