/* SPDX-License-Identifier: BSD-2-Clause */
/* The Top-Down formula language: parse into terms, evaluate with signed values and
 * missing operands propagated (topdown.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topdown.h"

struct parser {
	struct td_expr *e;
	const char *s, *p;
	char *err;
	size_t errlen;
	int failed;
};

static int fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errlen, "formula '%s': %s at offset %d", ps->s, what,
			 (int)(ps->p - ps->s));
	ps->failed = 1;
	return -1;
}

static int term(struct parser *ps, uint8_t op, int a, int b)
{
	struct td_term *t;

	if (ps->e->n >= TD_AST_MAX)
		return fail(ps, "too long");
	t = &ps->e->t[ps->e->n];
	memset(t, 0, sizeof *t);
	t->op = op;
	t->a = (int8_t)a;
	t->b = (int8_t)b;
	return (int)ps->e->n++;
}

static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int is_name_char(char c, int first)
{
	return isalpha((unsigned char)c) || c == '_' || c == '#' ||
	       (!first && (isdigit((unsigned char)c) || c == '.' || c == ':'));
}

static int alt(struct parser *ps);

static int primary(struct parser *ps)
{
	int k;

	skip(ps);
	if (*ps->p == '(') {
		ps->p++;
		k = alt(ps);
		skip(ps);
		if (k < 0 || *ps->p != ')')
			return fail(ps, "')' expected");
		ps->p++;
		return k;
	}
	if (*ps->p == '-') {
		ps->p++;
		k = primary(ps);
		return k < 0 ? k : term(ps, TD_NEG, k, -1);
	}
	if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
		char *end;
		double v = strtod(ps->p, &end);

		if (end == ps->p)
			return fail(ps, "bad number");
		ps->p = end;
		k = term(ps, TD_NUM, -1, -1);
		if (k >= 0)
			ps->e->t[k].num = v;
		return k;
	}
	if (is_name_char(*ps->p, 1)) {
		const char *start = ps->p;
		unsigned len;

		while (is_name_char(*ps->p, ps->p == start))
			ps->p++;
		len = (unsigned)(ps->p - start);
		skip(ps);
		if (*ps->p == '(' && ((len == 3 && !strncmp(start, "min", 3)) ||
				      (len == 3 && !strncmp(start, "max", 3)))) {
			int a, b;

			ps->p++;
			a = alt(ps);
			skip(ps);
			if (a < 0 || *ps->p != ',')
				return fail(ps, "',' expected");
			ps->p++;
			b = alt(ps);
			skip(ps);
			if (b < 0 || *ps->p != ')')
				return fail(ps, "')' expected");
			ps->p++;
			return term(ps, start[1] == 'i' ? TD_MIN : TD_MAX, a, b);
		}
		k = term(ps, TD_NAME, -1, -1);
		if (k >= 0) {
			ps->e->t[k].name = start;
			ps->e->t[k].name_len = len;
		}
		return k;
	}
	return fail(ps, *ps->p ? "unexpected character" : "unexpected end");
}

static int product(struct parser *ps)
{
	int a = primary(ps);

	for (;;) {
		char c;

		skip(ps);
		c = *ps->p;
		if (a < 0 || (c != '*' && c != '/'))
			return a;
		ps->p++;
		int b = primary(ps);
		if (b < 0)
			return b;
		a = term(ps, c == '*' ? TD_MUL : TD_DIV, a, b);
	}
}

static int sum(struct parser *ps)
{
	int a = product(ps);

	for (;;) {
		char c;

		skip(ps);
		c = *ps->p;
		if (a < 0 || (c != '+' && c != '-'))
			return a;
		ps->p++;
		int b = product(ps);
		if (b < 0)
			return b;
		a = term(ps, c == '+' ? TD_ADD : TD_SUB, a, b);
	}
}

static int alt(struct parser *ps)
{
	int a = sum(ps);

	for (;;) {
		skip(ps);
		if (a < 0 || strncmp(ps->p, "??", 2))
			return a;
		ps->p += 2;
		int b = sum(ps);
		if (b < 0)
			return b;
		a = term(ps, TD_ALT, a, b);
	}
}

int td_expr_parse(struct td_expr *e, const char *text, char *err, size_t n)
{
	struct parser ps = { e, text, text, err, n, 0 };

	e->n = 0;
	e->root = alt(&ps);
	skip(&ps);
	if (e->root >= 0 && *ps.p)
		fail(&ps, "unexpected text");
	return ps.failed ? -1 : 0;
}

/* ---- evaluation ---- */

struct evalctx {
	const struct td_expr *e;
	td_resolve_fn *resolve;
	void *ctx;
};

static void set_missing(struct td_value *r, const struct td_value *from)
{
	r->missing = 1;
	r->v = 0;
	if (from != r)
		memcpy(r->why, from->why, sizeof r->why);
}

static struct td_value eval(const struct evalctx *c, int k, int in_sub)
{
	const struct td_term *t = &c->e->t[k];
	struct td_value r = { 0, 0, "" }, a, b;
	int sub = in_sub || t->op == TD_SUB;

	switch (t->op) {
	case TD_NUM:
		r.v = t->num;
		return r;
	case TD_NAME:
		c->resolve(c->ctx, t->name, t->name_len, in_sub, &r);
		return r;
	case TD_NEG:
		a = eval(c, t->a, in_sub);
		if (a.missing)
			return a;
		a.v = -a.v;
		return a;
	case TD_ALT:
		a = eval(c, t->a, in_sub);
		return a.missing ? eval(c, t->b, in_sub) : a;
	default:
		break;
	}
	a = eval(c, t->a, sub);
	if (a.missing)
		return a;
	b = eval(c, t->b, sub);
	if (b.missing)
		return b;
	switch (t->op) {
	case TD_ADD: r.v = a.v + b.v; break;
	case TD_SUB: r.v = a.v - b.v; break;
	case TD_MUL: r.v = a.v * b.v; break;
	case TD_MIN: r.v = a.v < b.v ? a.v : b.v; break;
	case TD_MAX: r.v = a.v > b.v ? a.v : b.v; break;
	case TD_DIV:
		if (b.v == 0) {
			struct td_value z = { 0, 1, "" };
			snprintf(z.why, sizeof z.why, "a divisor is 0 (nothing counted?)");
			set_missing(&r, &z);
			return r;
		}
		r.v = a.v / b.v;
		break;
	}
	if (!isfinite(r.v)) {
		struct td_value z = { 0, 1, "not a finite number" };
		set_missing(&r, &z);
	}
	return r;
}

struct td_value td_expr_eval(const struct td_expr *e, td_resolve_fn *resolve, void *ctx)
{
	struct evalctx c = { e, resolve, ctx };
	struct td_value bad = { 0, 1, "empty formula" };

	return e->root < 0 || !e->n ? bad : eval(&c, e->root, 0);
}

static void names(const struct td_expr *e, int k, int in_sub,
		  void (*fn)(void *, const char *, unsigned, int), void *ctx)
{
	const struct td_term *t = &e->t[k];

	if (t->op == TD_NAME) {
		fn(ctx, t->name, t->name_len, in_sub);
		return;
	}
	in_sub |= t->op == TD_SUB;
	if (t->a >= 0)
		names(e, t->a, in_sub, fn, ctx);
	if (t->b >= 0)
		names(e, t->b, in_sub, fn, ctx);
}

void td_expr_names(const struct td_expr *e, void (*fn)(void *ctx, const char *name,
							 unsigned len, int in_sub),
		   void *ctx)
{
	if (e->root >= 0 && e->n)
		names(e, e->root, 0, fn, ctx);
}
