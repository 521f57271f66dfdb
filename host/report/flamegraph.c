/* SPDX-License-Identifier: BSD-2-Clause */
/* A flame graph as an interactive SVG (flamegraph.h).
 *
 * The stacks, sorted root first, are walked once: a frame is open from the first stack that
 * has it at its depth (with the same callers) to the first that does not, so its x is the
 * samples before it and its width its samples. Each frame is a <g> holding its <title>
 * (what hovering shows), its <rect> and its <text>; data-s, data-n and data-d give the
 * script its first sample, samples and depth, data-name its name. Names are escaped
 * (markup.h) and the script only ever sets text, never markup. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flamegraph.h"
#include "report/markup.h"
#include "util/util.h"

#define PAD 10           /* left and right margins */
#define TOP 72           /* title, subtitle and controls above the frames */
#define FRAME_H 16
#define BOTTOM 34        /* the details line below */
#define CHAR_W 7.0       /* of the 12 px monospace font */
#define NAME_SHOW 256    /* bytes of a name written in its rectangle */

static const char style[] =
	"<style>\n"
	"text { font-family: monospace; font-size: 12px; fill: #000; }\n"
	".fg-title { font-size: 17px; text-anchor: middle; }\n"
	".fg-sub { text-anchor: middle; fill: #555; }\n"
	".fg-ctl { cursor: pointer; fill: #0645ad; }\n"
	"g.f { cursor: pointer; }\n"
	"g.f text { pointer-events: none; }\n"
	"g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
	"g.fg-match rect { fill: rgb(220,0,220); }\n"
	"g.fg-parent rect { opacity: 0.5; }\n"
	"</style>\n";

/* Interaction: the frames' geometry is recomputed from data-s/-n/-d on zoom; a search
 * (the Search control, '/', Ctrl-F when the SVG is the page, or #search=REGEX in the URL)
 * and the frame zoomed into (a click, or #zoom=NAME in the URL: the first frame so named) marks the frames whose
 * name matches and adds up the samples under the marked frames, each sample once. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"(function () {\n"
	"  var cs = document.currentScript, svg = cs && cs.closest ? cs.closest('svg') : null;\n"
	"  if (!svg) { var all = document.querySelectorAll('svg.fg'); svg = all[all.length - 1]; }\n"
	"  var W = +svg.getAttribute('data-width'), total = +svg.getAttribute('data-total');\n"
	"  var pad = +svg.getAttribute('data-pad');\n"
	"  var frames = Array.prototype.slice.call(svg.querySelectorAll('g.f'));\n"
	"  var q = function (c) { return svg.querySelector('.' + c); };\n"
	"  var details = q('fg-details'), matched = q('fg-matched'), reset = q('fg-reset');\n"
	"  var search = q('fg-search'), term = '';\n"
	"  frames.forEach(function (g) {\n"
	"    g.fg = { s: +g.getAttribute('data-s'), n: +g.getAttribute('data-n'),\n"
	"             d: +g.getAttribute('data-d'), name: g.getAttribute('data-name'),\n"
	"             title: g.querySelector('title').textContent };\n"
	"  });\n"
	"  function fit(g) {\n"
	"    var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"    var w = +r.getAttribute('width'), chars = Math.floor((w - 6) / 7), nm = g.fg.name;\n"
	"    t.textContent = chars < 3 ? '' : nm.length <= chars ? nm : nm.slice(0, chars - 2) + '..';\n"
	"    t.setAttribute('x', (+r.getAttribute('x') + 3).toFixed(2));\n"
	"  }\n"
	"  function zoom(z) {\n"
	"    var s0 = z ? z.fg.s : 0, n0 = z ? z.fg.n : total, d0 = z ? z.fg.d : 0;\n"
	"    frames.forEach(function (g) {\n"
	"      var f = g.fg, r = g.querySelector('rect'), show = true;\n"
	"      if (f.d >= d0 && f.s >= s0 && f.s + f.n <= s0 + n0) {\n"
	"        r.setAttribute('x', (pad + (f.s - s0) / n0 * W).toFixed(2));\n"
	"        r.setAttribute('width', (f.n / n0 * W).toFixed(2));\n"
	"        g.classList.remove('fg-parent');\n"
	"      } else if (f.d < d0 && f.s <= s0 && f.s + f.n >= s0 + n0) {\n"
	"        r.setAttribute('x', pad); r.setAttribute('width', W);\n"
	"        g.classList.add('fg-parent');\n"
	"      } else {\n"
	"        show = false;\n"
	"      }\n"
	"      g.style.display = show ? '' : 'none';\n"
	"      if (show) fit(g);\n"
	"    });\n"
	"    reset.style.display = z && d0 > 0 ? '' : 'none';\n"
	"    svg.setAttribute('data-zoom', z ? z.fg.name : '');\n"
	"  }\n"
	"  function find(t) {\n"
	"    var re = null, hits = [], sum = 0, end = -1;\n"
	"    term = t || '';\n"
	"    try { re = new RegExp(term); } catch (e) { re = null; }\n"
	"    frames.forEach(function (g) {\n"
	"      var m = term !== '' && (re ? re.test(g.fg.name) : g.fg.name.indexOf(term) >= 0);\n"
	"      if (m) { g.classList.add('fg-match'); hits.push([g.fg.s, g.fg.s + g.fg.n]); }\n"
	"      else g.classList.remove('fg-match');\n"
	"    });\n"
	"    hits.sort(function (a, b) { return a[0] - b[0]; });\n"
	"    hits.forEach(function (h) {\n"
	"      if (h[1] > end) { sum += h[1] - Math.max(h[0], end); end = h[1]; }\n"
	"    });\n"
	"    matched.textContent = term === '' ? '' : 'Matched: ' +\n"
	"      (total ? 100 * sum / total : 0).toFixed(2) + '% (' + sum + ' of ' + total + ' samples)';\n"
	"    search.textContent = term === '' ? 'Search' : 'Reset Search';\n"
	"    svg.setAttribute('data-matched', sum);\n"
	"  }\n"
	"  function ask() {\n"
	"    if (term !== '') { find(''); return; }\n"
	"    var t = window.prompt('Search for (a regular expression):', '');\n"
	"    if (t) find(t);\n"
	"  }\n"
	"  frames.forEach(function (g) {\n"
	"    g.addEventListener('mouseover', function () { details.textContent = g.fg.title; });\n"
	"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"    g.addEventListener('click', function () { zoom(g); });\n"
	"  });\n"
	"  reset.addEventListener('click', function () { zoom(null); });\n"
	"  search.addEventListener('click', ask);\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    var ctrlf = e.ctrlKey && e.key === 'f' && document.documentElement === svg;\n"
	"    if (ctrlf || (e.key === '/' && !e.ctrlKey)) { e.preventDefault(); ask(); }\n"
	"    else if (e.key === 'Escape') zoom(null);\n"
	"  });\n"
	"  zoom(null);\n"
	"  var hash = window.location.hash || '', h = /[#&]search=([^&]*)/.exec(hash);\n"
	"  var zm = /[#&]zoom=([^&]*)/.exec(hash);\n"
	"  if (zm) zoom(frames.filter(function (g) { return g.fg.name === decodeURIComponent(zm[1]); })[0] || null);\n"
	"  if (h) find(decodeURIComponent(h[1]));\n"
	"})();\n"
	"]]></script>\n";

/* A warm colour from the name (the same name, the same colour); grey for [unknown] and the
 * root, blue for code outside the image. */
static void colour(char *buf, size_t n, const char *name, unsigned depth)
{
	uint32_t h = 2166136261u;

	for (const char *c = name; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	if (!depth || !strcmp(name, "[unknown]"))
		snprintf(buf, n, "rgb(190,190,190)");
	else if (name[0] == '[' || strchr(name, '!'))
		snprintf(buf, n, "rgb(%u,%u,235)", 80 + h % 60, 140 + (h >> 8) % 60);
	else
		snprintf(buf, n, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 200, (h >> 16) % 55);
}

struct draw {
	FILE *f;
	const struct stack_list *sl;
	double w;                /* pixels per sample */
	unsigned levels;         /* depths: the root and max_depth more */
	size_t shown, hidden;
};

static void frame(struct draw *d, const char *name, unsigned depth, uint64_t start, uint64_t n)
{
	double x = PAD + (double)start * d->w, wd = (double)n * d->w;
	double y = TOP + (double)(d->levels - 1 - depth) * FRAME_H;
	size_t chars = wd > 6 ? (size_t)((wd - 6) / CHAR_W) : 0, len = strlen(name);
	char fill[32], shown[NAME_SHOW];

	if (wd < FLAME_MIN_PX) {
		d->hidden++;
		return;
	}
	d->shown++;
	colour(fill, sizeof fill, name, depth);
	if (chars < 3)
		shown[0] = 0;
	else if (len <= chars)
		snprintf(shown, sizeof shown, "%s", name);
	else
		snprintf(shown, sizeof shown, "%.*s..", (int)(chars - 2 < NAME_SHOW - 3 ?
							  chars - 2 : NAME_SHOW - 3), name);
	fprintf(d->f, "<g class=\"f\" data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\" data-d=\"%u\" "
		"data-name=\"", start, n, depth);
	markup_escape(d->f, name);
	fputs("\"><title>", d->f);
	markup_escape(d->f, name);
	fprintf(d->f, " (%" PRIu64 " sample%s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.1f\" "
		"width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" "
		"y=\"%.1f\">", n, n == 1 ? "" : "s", d->sl->total ? 100.0 * (double)n /
		(double)d->sl->total : 0.0, x, y, wd, FRAME_H - 1, fill, x + 3, y + FRAME_H - 4.5);
	markup_escape(d->f, shown);
	fputs("</text></g>\n", d->f);
}

/* The frames, one walk over the sorted stacks: open[k] is the frame at depth k (the root
 * at 0) of the stacks since from[k]. */
static void frames(struct draw *d)
{
	const struct stack_list *sl = d->sl;
	const char **open = bm_calloc(d->levels, sizeof *open);
	uint64_t *from = bm_calloc(d->levels, sizeof *from), x = 0;
	unsigned nopen = 1;

	open[0] = "all";
	for (size_t i = 0; i < sl->n; i++) {
		const struct stack *s = &sl->v[i];
		unsigned same = 0;

		while (same < s->nframes && same + 1 < nopen && open[same + 1] == s->frames[same])
			same++;
		while (nopen > same + 1) {
			nopen--;
			frame(d, open[nopen], nopen, from[nopen], x - from[nopen]);
		}
		for (unsigned k = same; k < s->nframes; k++) {
			open[nopen] = s->frames[k];
			from[nopen++] = x;
		}
		x += s->count;
	}
	while (nopen > 0) {
		nopen--;
		frame(d, open[nopen], nopen, from[nopen], x - from[nopen]);
	}
	free(open);
	free(from);
}

int flamegraph_svg(FILE *f, const struct stack_list *sl, const struct flame_opts *o)
{
	int w = o->width > 0 ? o->width : FLAME_WIDTH;
	struct draw d = { f, sl, sl->total ? (double)w / (double)sl->total : 0, sl->max_depth + 1,
			  0, 0 };
	int height = TOP + (int)d.levels * FRAME_H + BOTTOM;

	if (!o->in_html)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-width=\"%d\" "
		"data-pad=\"%d\" data-total=\"%" PRIu64 "\" data-depth=\"%u\">\n", w + 2 * PAD,
		height, w + 2 * PAD, height, w, PAD, sl->total, sl->max_depth);
	fputs(style, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f4\"/>\n",
		w + 2 * PAD, height);
	fprintf(f, "<text class=\"fg-title\" x=\"%d\" y=\"24\">", w / 2 + PAD);
	markup_escape(f, o->title ? o->title : "Flame Graph");
	fputs("</text>\n", f);
	if (o->subtitle) {
		fprintf(f, "<text class=\"fg-sub\" x=\"%d\" y=\"44\">", w / 2 + PAD);
		markup_escape(f, o->subtitle);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text class=\"fg-ctl fg-reset\" x=\"%d\" y=\"62\">Reset Zoom</text>\n", PAD);
	fprintf(f, "<text class=\"fg-ctl fg-search\" x=\"%d\" y=\"62\" "
		"style=\"text-anchor: end\">Search</text>\n", w + PAD);
	fprintf(f, "<text class=\"fg-matched\" x=\"%d\" y=\"%d\" style=\"text-anchor: end\"> "
		"</text>\n", w + PAD, height - 12);
	fprintf(f, "<text class=\"fg-details\" x=\"%d\" y=\"%d\"> </text>\n", PAD, height - 12);
	if (!sl->total)
		fprintf(f, "<text x=\"%d\" y=\"%d\">no samples</text>\n", PAD, TOP + FRAME_H - 4);
	else
		frames(&d);
	if (d.hidden)
		fprintf(f, "<!-- %zu frames narrower than %.2g px left out -->\n", d.hidden,
			FLAME_MIN_PX);
	fputs(script, f);
	fputs("</svg>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}
