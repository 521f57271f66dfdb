/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-type attribution (host/symbol/dtype.h) on tests/fixtures/dtype_main.c compiled with
 * gcc -O2 -g for x86-64 (DWARF 5), AArch64 (DWARF 4) and RISC-V (RV64GC, DWARF 5): globals by address, accesses by
 * (pc, base register, displacement) found in the functions' code, register moves, the
 * <Unknown> categories, struct layouts, and the errors for ELFs without DWARF. */
#include <gelf.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "symbol/disasm.h"
#include "symbol/dtype.h"
#include "symbol/symbolize.h"

static const char *fixture(const char *name)
{
	static char path[4][512];
	static int k;
	const char *d = getenv("BMPROF_FIXTURES");
	char *p = path[k++ & 3];

	snprintf(p, sizeof(path[0]), "%s/%s", d && *d ? d : "build/fixtures", name);
	return p;
}

struct fx {
	const char *elf;
	struct symbolizer *s;
	struct dtype *d;
};

static struct fx open_fx(const char *name)
{
	struct fx f = { fixture(name), NULL, NULL };
	char err[256];

	f.s = symbolizer_open(f.elf, err, sizeof(err));
	if (!f.s)
		fail_msg("%s", err);
	f.d = dtype_open(f.s, err, sizeof(err));
	if (!f.d)
		fail_msg("%s", err);
	return f;
}

static void close_fx(struct fx *f)
{
	dtype_close(f->d);
	symbolizer_close(f->s);
}

/* A data symbol's address, from the ELF's symbol table. */
static uint64_t data_sym(const char *elf, const char *name)
{
	int fd = open(elf, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	uint64_t addr = 0;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym))
				continue;
			n = elf_strptr(e, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name) && GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
				addr = sym.st_value;
		}
	}
	elf_end(e);
	close(fd);
	if (!addr)
		fail_msg("%s: no data symbol %s", elf, name);
	return addr;
}

/* The memory instructions of a function, in address order. */
struct access {
	uint64_t pc;
	struct dtype_mem m;
};

static size_t accesses(struct fx *f, const char *fn, struct access *out, size_t max)
{
	uint64_t start, size;
	uint8_t *code;
	struct disasm_insn *ins;
	struct disasm *dis;
	char err[128];
	long n;
	size_t k = 0;

	assert_int_equal(symbolizer_find_function(f->s, fn, &start, &size), 0);
	code = malloc(size);
	assert_non_null(code);
	assert_int_equal(symbolizer_read(f->s, start, code, size), 0);
	dis = disasm_open(symbolizer_machine(f->s), err, sizeof(err));
	assert_non_null(dis);
	n = disasm_range(dis, code, size, start, &ins);
	assert_true(n > 0);
	for (long i = 0; i < n && k < max; i++)
		if (dtype_insn_mem(f->d, ins[i].addr, &out[k].m) == 0)
			out[k++].pc = ins[i].addr;
	free(ins);
	free(code);
	disasm_close(dis);
	return k;
}

/* The one access of fn with displacement disp (a fixed address: its offset in the global
 * named by the caller does not matter; absolute picks those). RISC-V's accesses through sp
 * are the frame record's (sd s0, 8(sp)), not looked for. */
static struct access find(struct fx *f, const char *fn, int64_t disp)
{
	struct access a[64];
	size_t n = accesses(f, fn, a, 64), hit = SIZE_MAX;

	for (size_t i = 0; i < n; i++)
		if (!a[i].m.absolute && a[i].m.disp == disp &&
		    !(symbolizer_machine(f->s) == EM_RISCV && a[i].m.base == 2)) {
			if (hit != SIZE_MAX)
				fail_msg("%s: two accesses with displacement %lld", fn, (long long)disp);
			hit = i;
		}
	if (hit == SIZE_MAX)
		fail_msg("%s: no access with displacement %lld", fn, (long long)disp);
	return a[hit];
}

static struct dtype_answer at(struct fx *f, uint64_t pc)
{
	struct dtype_answer a;

	assert_int_equal(dtype_insn(f->d, pc, &a), 0);
	return a;
}

static void expect(const struct dtype_answer *a, enum dtype_class cls, const char *var,
		   const char *type, uint64_t off, const char *member, const char *expr)
{
	char buf[512];

	if (a->cls != cls || strcmp(a->var, var) || strcmp(a->type, type) || a->offset != off ||
	    strcmp(a->member, member) || strcmp(a->expr, expr))
		fail_msg("got %s var '%s' type '%s' +%llu member '%s' expr '%s'; want %s var '%s' "
			 "type '%s' +%llu member '%s' expr '%s'", dtype_format(a, buf, sizeof(buf)),
			 a->var, a->type, (unsigned long long)a->offset, a->member, a->expr,
			 dtype_class_name(cls), var, type, (unsigned long long)off, member, expr);
}

static void globals(const char *name)
{
	struct fx f = open_fx(name);
	uint64_t net = data_sym(f.elf, "net"), arcs = data_sym(f.elf, "arcs");
	uint64_t shapes = data_sym(f.elf, "shapes"), counter = data_sym(f.elf, "counter");
	struct dtype_answer a;
	char buf[256];

	assert_int_equal(dtype_nglobals(f.d), 7);
	dtype_addr(f.d, net + 32 + 2 * 120 + 56, &a);
	expect(&a, DTYPE_OBJECT, "net", "struct network", 328, "nodes[2].orientation",
	       "net.nodes[2].orientation");
	assert_string_equal(a.member_type, "int");
	assert_int_equal(a.member_off, 328);
	assert_int_equal(a.member_size, 4);
	assert_int_equal(a.how, DTYPE_VIA_GLOBAL);
	assert_int_equal(a.var_addr, net);
	/* inside a member, not at its start */
	dtype_addr(f.d, net + 1000 + 3, &a);
	expect(&a, DTYPE_OBJECT, "net", "struct network", 1003, "stats.checksum",
	       "net.stats.checksum");
	assert_string_equal(a.member_type, "double");
	/* an array of structs: the element type, the offset in one element */
	dtype_addr(f.d, arcs + 3 * 64, &a);
	expect(&a, DTYPE_OBJECT, "arcs", "struct arc", 0, "cost", "arcs[3].cost");
	assert_string_equal(a.member_type, "long int");   /* cost_t, typedef stripped */
	assert_string_equal(dtype_format(&a, buf, sizeof(buf)), "{struct arc}.+0 cost");
	dtype_addr(f.d, arcs + 31 * 64 + 63, &a);
	expect(&a, DTYPE_OBJECT, "arcs", "struct arc", 63, "org_cost", "arcs[31].org_cost");
	/* the hole after arc.ident */
	dtype_addr(f.d, arcs + 5 * 64 + 29, &a);
	expect(&a, DTYPE_OBJECT, "arcs", "struct arc", 29, "", "arcs[5]");
	/* an anonymous union, an array in it, a bit-field */
	dtype_addr(f.d, shapes + 32 + 8 + 6, &a);
	expect(&a, DTYPE_OBJECT, "shapes", "struct shape", 14, "p[1].y", "shapes[1].p[1].y");
	assert_string_equal(a.member_type, "short int");
	dtype_addr(f.d, shapes + 64, &a);
	expect(&a, DTYPE_OBJECT, "shapes", "struct shape", 0, "kind", "shapes[2].kind");
	assert_string_equal(a.member_type, "unsigned int");
	/* the qualified pointer member: const volatile stripped in the member's type */
	dtype_addr(f.d, shapes + 24, &a);
	expect(&a, DTYPE_OBJECT, "shapes", "struct shape", 24, "origin", "shapes[0].origin");
	assert_string_equal(a.member_type, "struct point *");
	/* scalars */
	dtype_addr(f.d, counter + 4, &a);
	expect(&a, DTYPE_SCALARS, "counter", "long int", 4, "", "counter");
	assert_string_equal(dtype_format(&a, buf, sizeof(buf)), "<Scalars>");
	dtype_addr(f.d, data_sym(f.elf, "counter_p"), &a);
	expect(&a, DTYPE_SCALARS, "counter_p", "long int *", 0, "", "counter_p");
	/* members of no size hold nothing; a flexible array holds what follows */
	dtype_addr(f.d, data_sym(f.elf, "zp") + 8, &a);
	expect(&a, DTYPE_OBJECT, "zp", "struct zpad", 8, "b", "zp.b");
	/* an object of no size, two-dimensional: nothing to walk into */
	dtype_addr(f.d, data_sym(f.elf, "zz"), &a);
	assert_int_equal(a.cls, DTYPE_UNIDENTIFIED);
	assert_string_equal(a.var, "zz");
	/* no object there */
	dtype_addr(f.d, net + 1008, &a);
	assert_true(a.cls == DTYPE_UNIDENTIFIED || strcmp(a.var, "net"));
	dtype_addr(f.d, 0x10, &a);
	assert_int_equal(a.cls, DTYPE_UNIDENTIFIED);
	assert_string_equal(dtype_format(&a, buf, sizeof(buf)), "(Unidentified)");
	close_fx(&f);
}

static void test_globals_x86(void **state)
{
	(void)state;
	globals("dtype_x86.elf");
}

static void test_globals_a64(void **state)
{
	(void)state;
	globals("dtype_a64.elf");
}

/* The registers a stack slot is addressed through: rbp, rsp; x29, sp; sp, s0. */
static int frame_reg(int machine, int r)
{
	if (machine == EM_RISCV)
		return r == 2 || r == 8;
	return r == 6 || r == 7 || r == 31;
}

static void registers(const char *name)
{
	struct fx f = open_fx(name);
	struct access o = find(&f, "refresh_potential", 56), acc[16];
	struct dtype_answer a;
	char buf[256];
	size_t n, k;

	/* n in a register by its location list: n->orientation */
	a = at(&f, o.pc);
	expect(&a, DTYPE_OBJECT, "n", "struct node", 56, "orientation", "n->orientation");
	assert_int_equal(a.how, DTYPE_VIA_REG);
	assert_int_equal(a.reg, o.m.base);
	assert_string_equal(dtype_format(&a, buf, sizeof(buf)), "{struct node}.+56 orientation");
	/* the same register at other displacements */
	dtype_reg(f.d, o.pc, (unsigned)o.m.base, 60, 0, &a);
	expect(&a, DTYPE_OBJECT, "n", "struct node", 60, "", "n->");
	dtype_reg(f.d, o.pc, (unsigned)o.m.base, 2 * 120 + 64, 0, &a);
	expect(&a, DTYPE_OBJECT, "n", "struct node", 64, "basic_arc", "n[2].basic_arc");
	dtype_reg(f.d, o.pc, (unsigned)o.m.base, -8, 0, &a);
	assert_int_equal(a.cls, DTYPE_UNIDENTIFIED);
	assert_string_equal(a.var, "n");
	/* a register no variable is in, no move leads to */
	dtype_reg(f.d, o.pc, 14, 0, 0, &a);
	assert_int_equal(a.cls, DTYPE_UNSPECIFIED);
	/* the parameter: root->child */
	o = find(&f, "refresh_potential", 24);
	a = at(&f, o.pc);
	expect(&a, DTYPE_OBJECT, "root", "struct node", 24, "child", "root->child");

	/* a pointer loaded from a member, followed back: a->tail->potential */
	o = find(&f, "tail_potential", 88);
	a = at(&f, o.pc);
	expect(&a, DTYPE_OBJECT, "a", "struct node", 88, "potential", "a->tail->potential");
	assert_int_equal(a.how, DTYPE_VIA_MOVES);
	assert_string_equal(a.member_type, "long int");

	/* a pointer returned by a call: the function's return type */
	o = find(&f, "child_depth", 48);
	a = at(&f, o.pc);
	expect(&a, DTYPE_OBJECT, "first_child", "struct node", 48, "depth", "first_child()->depth");
	assert_int_equal(a.how, DTYPE_VIA_MOVES);

	/* a loop-carried pointer: nothing in the straight-line code before says what it is */
	o = find(&f, "price_out", 88);
	a = at(&f, o.pc);
	assert_int_equal(a.cls, DTYPE_UNSPECIFIED);
	assert_string_equal(dtype_format(&a, buf, sizeof(buf)), "(Unspecified)");

	/* a pointer to a scalar */
	n = accesses(&f, "bump", acc, 16);
	assert_true(n >= 1);
	for (size_t i = 0, k = 0; i < n; i++) {
		if (symbolizer_machine(f.s) == EM_RISCV && acc[i].m.base == 2)
			continue;   /* the frame record: sd s0, 8(sp) .. ld s0, 8(sp) */
		a = at(&f, acc[i].pc);
		expect(&a, DTYPE_SCALARS, "p", "long int", 0, "", "*p");
		assert_true(++k <= 2);
	}

	/* a struct on the stack, through the frame base (the CFA from the CFI) */
	n = accesses(&f, "stack_sum", acc, 16);
	k = 0;
	for (size_t i = 0; i < n; i++) {
		char want[32];

		if (!acc[i].m.store || acc[i].m.index >= 0 || acc[i].m.absolute ||
		    !frame_reg(symbolizer_machine(f.s), acc[i].m.base))
			continue;
		if (acc[i].m.disp < 0 && acc[i].m.base == 7)
			continue;   /* a push */
		a = at(&f, acc[i].pc);
		if (a.cls != DTYPE_OBJECT)
			continue;   /* the frame record */
		snprintf(want, sizeof(want), "local[%zu].flow", k++);
		expect(&a, DTYPE_OBJECT, "local", "struct arc", 48, "flow", want);
		assert_int_equal(a.how, DTYPE_VIA_MEM);
	}
	assert_int_equal(k, 4);

	/* a global through adrp + add (AArch64), rip-relative (x86-64), gp-relative addi
	 * (RISC-V, the linker's __global_pointer$ relaxation) */
	n = accesses(&f, "net_stats", acc, 16);
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (symbolizer_machine(f.s) == EM_RISCV && acc[i].m.base == 2)
			continue;   /* the frame record */
		k++;
		a = at(&f, acc[i].pc);
		assert_string_equal(a.var, "net");
		assert_string_equal(a.type, "struct network");
		assert_true(!strcmp(a.expr, "net.stats.iterations") || !strcmp(a.expr, "net.n_arcs"));
		assert_int_equal(a.cls, DTYPE_OBJECT);
	}
	assert_int_equal(k, 2);
	/* types that do not identify the object */
	o = find(&f, "through_void", 0);
	a = at(&f, o.pc);
	assert_int_equal(a.cls, DTYPE_UNIDENTIFIED);
	assert_string_equal(a.var, "p");
	assert_string_equal(a.type, "void");
	o = find(&f, "through_int", 0);
	a = at(&f, o.pc);
	assert_int_equal(a.cls, DTYPE_UNIDENTIFIED);
	assert_string_equal(a.var, "addr");
	o = find(&f, "through_opaque", 8);
	a = at(&f, o.pc);
	assert_int_equal(a.cls, DTYPE_UNIDENTIFIED);
	assert_string_equal(a.var, "o");
	assert_string_equal(a.type, "struct opaque");
	close_fx(&f);
}

static void test_globals_rv(void **state)
{
	(void)state;
	globals("dtype_rv.elf");
}

static void test_registers_x86(void **state)
{
	(void)state;
	registers("dtype_x86.elf");
}

static void test_registers_a64(void **state)
{
	(void)state;
	registers("dtype_a64.elf");
}

/* x86-64 only: an index register (sh->p[i].y) and the displacement that is a global's
 * address (arcs[i].tail in main's loop). */
static void test_registers_rv(void **state)
{
	(void)state;
	registers("dtype_rv.elf");
}

static void test_indexed_x86(void **state)
{
	struct fx f = open_fx("dtype_x86.elf");
	struct access o = find(&f, "shape_y", 10), acc[64];
	uint64_t arcs = data_sym(f.elf, "arcs");
	struct dtype_answer a;
	size_t n, hits = 0;

	(void)state;
	assert_true(o.m.index >= 0);
	a = at(&f, o.pc);
	expect(&a, DTYPE_OBJECT, "sh", "struct shape", 10, "p[].y", "sh->p[].y");
	n = accesses(&f, "main", acc, 64);
	for (size_t i = 0; i < n; i++) {
		if (acc[i].m.absolute || (uint64_t)acc[i].m.disp != arcs + 8)
			continue;
		a = at(&f, acc[i].pc);
		expect(&a, DTYPE_OBJECT, "arcs", "struct arc", 8, "tail", "arcs[].tail");
		hits++;
	}
	assert_int_equal(hits, 1);
	close_fx(&f);
}

static void test_unknown_parts(void **state)
{
	struct fx f = open_fx("dtype_x86.elf");
	uint64_t start, size;
	struct dtype_answer a;

	(void)state;
	/* no code with DWARF there */
	dtype_reg(f.d, 0x10, 0, 0, 0, &a);
	assert_int_equal(a.cls, DTYPE_UNASCERTAINABLE);
	assert_string_equal(dtype_class_name(a.cls), "(Unascertainable)");
	/* not a memory access: the ret of bump */
	assert_int_equal(symbolizer_find_function(f.s, "bump", &start, &size), 0);
	a = at(&f, start + 3);
	assert_int_equal(a.cls, DTYPE_UNRESOLVABLE);
	/* nothing readable there */
	a = at(&f, 0x10);
	assert_int_equal(a.cls, DTYPE_UNRESOLVABLE);
	assert_string_equal(dtype_class_name(DTYPE_UNVERIFIABLE), "(Unverifiable)");
	for (int c = 0; c < DTYPE__NCLASS; c++)
		assert_int_equal(dtype_class_unknown((enum dtype_class)c), c >= DTYPE_UNSPECIFIED);
	close_fx(&f);
}

static void layout(const char *name)
{
	struct fx f = open_fx(name);
	struct dtype_layout l;
	char err[256];

	assert_int_equal(dtype_layout(f.d, "node", &l, err, sizeof(err)), 0);
	assert_string_equal(l.type, "struct node");
	assert_int_equal(l.size, 120);
	assert_int_equal(l.n, 15);
	assert_int_equal(l.holes, 8);
	assert_int_equal(l.tail, 0);
	assert_int_equal(l.lines, 2);
	assert_string_equal(l.fields[7].name, "orientation");
	assert_int_equal(l.fields[7].offset, 56);
	assert_int_equal(l.fields[7].size, 4);
	assert_int_equal(l.fields[7].line, 0);
	assert_string_equal(l.fields[8].name, "basic_arc");
	assert_string_equal(l.fields[8].type, "struct arc *");
	assert_int_equal(l.fields[8].hole, 4);
	assert_int_equal(l.fields[8].line, 1);
	assert_string_equal(l.fields[11].type, "cost_t");
	assert_int_equal(l.fields[1].hole, 4);
	dtype_layout_free(&l);

	assert_int_equal(dtype_layout(f.d, "struct shape", &l, err, sizeof(err)), 0);
	assert_int_equal(l.size, 32);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.fields[0].name, "kind");
	assert_int_equal(l.fields[0].bit_size, 3);
	assert_int_equal(l.fields[0].bit_offset, 0);
	assert_int_equal(l.fields[1].bit_size, 5);
	assert_int_equal(l.fields[1].bit_offset, 3);
	assert_string_equal(l.fields[2].name, "");
	assert_int_equal(l.fields[2].offset, 8);
	assert_int_equal(l.fields[2].hole, 7);
	assert_string_equal(l.fields[3].type, "cpoint_t *");
	dtype_layout_free(&l);

	assert_int_equal(dtype_layout(f.d, "network", &l, err, sizeof(err)), 0);
	assert_int_equal(l.size, 1008);
	assert_int_equal(l.lines, 16);
	assert_string_equal(l.fields[3].type, "struct node[8]");
	assert_true(l.fields[3].crosses);
	assert_false(l.fields[0].crosses);
	assert_int_equal(l.fields[4].line, 15);
	dtype_layout_free(&l);

	assert_int_equal(dtype_layout(f.d, "union nothing", &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'union nothing'"));
	assert_int_equal(dtype_layout(f.d, "union node", &l, err, sizeof(err)), -1);
	close_fx(&f);
}

static void test_layout_x86(void **state)
{
	(void)state;
	layout("dtype_x86.elf");
}

static void test_layout_a64(void **state)
{
	(void)state;
	layout("dtype_a64.elf");
}

static void test_layout_rv(void **state)
{
	(void)state;
	layout("dtype_rv.elf");
}

static void no_dwarf(const char *name, const char *says)
{
	char err[256];
	struct symbolizer *s = symbolizer_open(fixture(name), err, sizeof(err));

	assert_non_null(s);
	err[0] = 0;
	assert_null(dtype_open(s, err, sizeof(err)));
	if (!strstr(err, says))
		fail_msg("%s: '%s' does not say '%s'", name, err, says);
	assert_null(strchr(err, '\n'));
	symbolizer_close(s);
}

static void test_no_dwarf(void **state)
{
	(void)state;
	no_dwarf("dtype_nodwarf.elf", "-g");
	no_dwarf("sym_stripped.elf", "stripped");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_globals_x86),
		cmocka_unit_test(test_globals_a64),
		cmocka_unit_test(test_registers_x86),
		cmocka_unit_test(test_registers_a64),
		cmocka_unit_test(test_globals_rv),
		cmocka_unit_test(test_registers_rv),
		cmocka_unit_test(test_indexed_x86),
		cmocka_unit_test(test_unknown_parts),
		cmocka_unit_test(test_layout_x86),
		cmocka_unit_test(test_layout_a64),
		cmocka_unit_test(test_layout_rv),
		cmocka_unit_test(test_no_dwarf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
