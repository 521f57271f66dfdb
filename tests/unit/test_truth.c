/* Exact counts from QEMU's execution log (analysis/truth.h): a synthetic x86-64 log with
 * each pitfall (a logged block that did not run, rep iterations, a fault, interrupts,
 * one of them at a jump to itself), the same log fed in small pieces, an AArch64 fault
 * and interrupt, and the extrapolation in a work parameter. Expected counts by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "truth.h"

#define T(pc) "Trace 0: 0x7efc3c3f9c80 [0000000000000000/" pc "/000000b0/ff000201] sym\n"

/* The program: 1000 mov; 1004 rep stos; 1006 jnz 1000; 1008 mov; 100c store (faults once);
 * 1010 mov; 1014 jmp 1014 (left by an interrupt); 1018 ...; 2000 the handler's iret. */
static const char x86_log[] =
	T("0000000000001000")
	T("0000000000001004")
	T("0000000000001004")                 /* rep iteration */
	T("0000000000001004")                 /* rep iteration */
	T("0000000000001006")
	T("0000000000001000")                 /* taken: 1006 -> 1000 */
	T("0000000000001004")
	T("0000000000001004")
	"Stopped execution of TB chain before 0x7efc3c3f9c80 [0000000000001004] sym\n"
	T("0000000000001004")                 /* the stopped one, run now: an iteration */
	T("0000000000001006")
	T("0000000000001008")                 /* not taken: 1006 -> 1008 */
	T("000000000000100c")
	"check_exception old: 0xffffffff new 0xe\n"
	"     0: v=0e e=0002 i=0 cpl=0 IP=0008:000000000000100c pc=000000000000100c "
	"SP=0010:0000000000158ec0 CR2=0000004000000000\n"
	"RAX=0000000000000000 RBX=0000000000000000 RCX=0000000000000000 RDX=0000000000000000\n"
	T("0000000000002000")                 /* the handler */
	T("000000000000100c")                 /* 2000 -> 100c, the store again: retires */
	T("0000000000001010")
	"Servicing hardware INT=0x40\n"
	"     1: v=40 e=0000 i=0 cpl=0 IP=0008:0000000000001014 pc=0000000000001014 "
	"SP=0010:0000000000157eb0 env->regs[R_EAX]=000000000000007d\n"
	T("0000000000002000")
	T("0000000000001014")                 /* 2000 -> 1014 */
	T("0000000000001014")                 /* 1014 -> 1014, then an interrupt: it ran */
	"Servicing hardware INT=0x40\n"
	"     2: v=40 e=0000 i=0 cpl=0 IP=0008:0000000000001014 pc=0000000000001014 "
	"SP=0010:0000000000157eb0 env->regs[R_EAX]=000000000000007d\n"
	T("0000000000002000")                 /* 1014 -> 2000 */
	T("0000000000001018");                /* 2000 -> 1018 */

static unsigned classify(void *ctx, uint64_t pc)
{
	(void)ctx;
	switch (pc) {
	case 0x1004:
		return TRUTH_INSN_REP;
	case 0x1006: case 0x1014: case 0x2000:
		return TRUTH_INSN_BRANCH;
	default:
		return 0;
	}
}

static void check_x86(const struct truth *t)
{
	static const struct truth_pc pcs[] = {
		{ 0x1000, 2 }, { 0x1004, 2 }, { 0x1006, 2 }, { 0x1008, 1 }, { 0x100c, 1 },
		{ 0x1010, 1 }, { 0x1014, 2 }, { 0x1018, 1 }, { 0x2000, 3 },
	};
	static const struct truth_edge edges[] = {
		{ 0x1006, 0x1000, 1 }, { 0x1006, 0x1008, 1 }, { 0x1014, 0x1014, 1 },
		{ 0x1014, 0x2000, 1 }, { 0x2000, 0x100c, 1 }, { 0x2000, 0x1014, 1 },
		{ 0x2000, 0x1018, 1 },
	};

	assert_int_equal(t->npcs, sizeof pcs / sizeof pcs[0]);
	for (size_t i = 0; i < t->npcs; i++) {
		assert_int_equal(t->pcs[i].pc, pcs[i].pc);
		assert_int_equal(t->pcs[i].count, pcs[i].count);
	}
	assert_int_equal(t->nedges, sizeof edges / sizeof edges[0]);
	for (size_t i = 0; i < t->nedges; i++) {
		assert_int_equal(t->edges[i].from, edges[i].from);
		assert_int_equal(t->edges[i].to, edges[i].to);
		assert_int_equal(t->edges[i].count, edges[i].count);
	}
	assert_int_equal(t->total, 15);
	assert_int_equal(t->stopped, 1);
	assert_int_equal(t->rep_folded, 3);
	assert_int_equal(t->faulted, 1);
	assert_int_equal(t->lines, 28);
	assert_int_equal(t->bad_lines, 0);
	assert_int_equal(truth_count(t, 0x2000), 3);
	assert_int_equal(truth_count(t, 0x1002), 0);
	assert_int_equal(truth_edge_count(t, 0x1006, 0x1008), 1);
	assert_int_equal(truth_edge_count(t, 0x1000, 0x1004), 0);
}

static void test_x86_pitfalls(void **state)
{
	struct truth t;

	(void)state;
	truth_init(&t);
	assert_int_equal(truth_parse_text(x86_log, strlen(x86_log), classify, NULL, &t), 0);
	check_x86(&t);
	truth_free(&t);
}

/* Lines split at every 7th byte count the same; a last line without its newline too. */
static void test_pieces(void **state)
{
	struct truth t;
	struct truth_parser *p;
	size_t n = strlen(x86_log) - 1;    /* without the final newline */

	(void)state;
	truth_init(&t);
	p = truth_parser_new(&t, classify, NULL);
	assert_non_null(p);
	for (size_t i = 0; i < n; i += 7)
		assert_int_equal(truth_parser_feed(p, x86_log + i, n - i < 7 ? n - i : 7), 0);
	assert_int_equal(truth_parser_finish(p), 0);
	check_x86(&t);
	truth_free(&t);
}

/* Without a classifier: every line that ran counts, no edges. */
static void test_no_classifier(void **state)
{
	struct truth t;

	(void)state;
	truth_init(&t);
	assert_int_equal(truth_parse_text(x86_log, strlen(x86_log), NULL, NULL, &t), 0);
	assert_int_equal(truth_count(&t, 0x1004), 5);
	assert_int_equal(t.total, 18);
	assert_int_equal(t.nedges, 0);
	assert_int_equal(t.rep_folded, 0);
	truth_free(&t);
}

static void test_aarch64(void **state)
{
	static const char log[] =
		T("0000000040000000")
		T("0000000040000004")              /* udf: faults */
		"Taking exception 1 [Undefined Instruction] on CPU 0\n"
		"...from EL1 to EL1\n"
		"...with ESR 0x0/0x2000000\n"
		"...with ELR 0x40000004\n"
		"...to EL1 PC 0x40000200 PSTATE 0x3c5\n"
		T("0000000040000200")
		T("0000000040000008")
		"Taking exception 5 [IRQ] on CPU 0\n"
		"...from EL1 to EL1\n"
		"...with ESR 0x0/0x0\n"
		"...with ELR 0x40000008\n"          /* b . at 40000008 ran; an IRQ is not a fault */
		T("0000000040000200")
		"Trace 0: garbage\n";
	struct truth t;

	(void)state;
	truth_init(&t);
	assert_int_equal(truth_parse_text(log, strlen(log), NULL, NULL, &t), 0);
	assert_int_equal(truth_count(&t, 0x40000000), 1);
	assert_int_equal(truth_count(&t, 0x40000004), 0);
	assert_int_equal(truth_count(&t, 0x40000008), 1);
	assert_int_equal(truth_count(&t, 0x40000200), 2);
	assert_int_equal(t.faulted, 1);
	assert_int_equal(t.bad_lines, 1);
	truth_free(&t);
}

static void set(struct truth *t, const struct truth_pc *pcs, size_t n,
		const struct truth_edge *edges, size_t ne)
{
	truth_init(t);
	t->pcs = malloc((n + 1) * sizeof *pcs);
	t->edges = malloc((ne + 1) * sizeof *edges);
	assert_non_null(t->pcs);
	assert_non_null(t->edges);
	memcpy(t->pcs, pcs, n * sizeof *pcs);
	memcpy(t->edges, edges, ne * sizeof *edges);
	t->npcs = n;
	t->nedges = ne;
}

static void test_extrapolate(void **state)
{
	/* pc 10: 5 (constant); 20: 2k + 1; 30: 2k - 1 (a negative intercept); 40: 3k, absent
	 * at k = 1? no: 3 and 6. Edge (20, 30): k. */
	static const struct truth_pc p1[] = { { 0x10, 5 }, { 0x20, 3 }, { 0x30, 1 }, { 0x40, 3 } };
	static const struct truth_pc p2[] = { { 0x10, 5 }, { 0x20, 5 }, { 0x30, 3 }, { 0x40, 6 } };
	static const struct truth_pc p3[] = { { 0x10, 5 }, { 0x20, 7 }, { 0x30, 5 }, { 0x40, 9 } };
	static const struct truth_pc p3bad[] = { { 0x10, 5 }, { 0x20, 7 }, { 0x30, 6 },
						 { 0x40, 9 } };
	static const struct truth_edge e1[] = { { 0x20, 0x30, 1 } };
	static const struct truth_edge e2[] = { { 0x20, 0x30, 2 } };
	static const struct truth_edge e3[] = { { 0x20, 0x30, 3 } };
	static const struct truth_pc fell[] = { { 0x10, 4 } };
	struct truth t1, t2, t3, bad, out, pred;

	(void)state;
	set(&t1, p1, 4, e1, 1);
	set(&t2, p2, 4, e2, 1);
	set(&t3, p3, 4, e3, 1);
	set(&bad, p3bad, 4, e3, 1);
	assert_int_equal(truth_extrapolate(&t1, 1, &t2, 2, 3, &pred), 0);
	assert_int_equal(truth_mismatch(&pred, &t3), 0);
	assert_int_equal(truth_mismatch(&pred, &bad), 1);
	assert_int_equal(truth_extrapolate(&t1, 1, &t2, 2, 1000, &out), 0);
	assert_int_equal(truth_count(&out, 0x10), 5);
	assert_int_equal(truth_count(&out, 0x20), 2001);
	assert_int_equal(truth_count(&out, 0x30), 1999);
	assert_int_equal(truth_count(&out, 0x40), 3000);
	assert_int_equal(truth_edge_count(&out, 0x20, 0x30), 1000);
	assert_int_equal(out.total, 5 + 2001 + 1999 + 3000);
	truth_free(&out);
	/* a count that fell is not affine; neither is a slope that is not a whole number */
	truth_free(&t3);
	set(&t3, fell, 1, e3, 0);
	assert_int_equal(truth_extrapolate(&t1, 1, &t3, 2, 10, &out), -1);
	assert_int_equal(truth_extrapolate(&t1, 1, &t2, 3, 10, &out), -1);
	/* k below k1: the line may not go negative */
	assert_int_equal(truth_extrapolate(&t1, 1, &t2, 2, 0, &out), -1);
	truth_free(&t1);
	truth_free(&t2);
	truth_free(&t3);
	truth_free(&bad);
	truth_free(&pred);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_pitfalls),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_no_classifier),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_extrapolate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
