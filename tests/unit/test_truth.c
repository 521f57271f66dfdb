/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact counts (analysis/truth.h): the insn_count plugin's counts file (good and broken
 * ones), the faults of a synthetic -d int log (x86-64: faults, interrupts, software
 * interrupts, a debug trap, fetch and data page faults, real-mode lines; AArch64: the
 * exception kinds), the same log fed in small pieces, the corrections into retirements
 * (a rep instruction's executions, a faulting ud2, a fault at a rep instruction, fetch
 * faults, faults outside the counted code, more faults than starts), and the
 * extrapolation in a work parameter. Expected counts by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "truth.h"

/* The program: 1000 mov; 1004 rep stos (2 bytes); 1006 ud2 (2 bytes, faults every time
 * it runs: a gate); 1008 ret; 1010 a load that page-faults once (its data); 1020 a
 * 3-byte instruction whose fetch faults once (CR2 at its second byte); 1030 the first
 * instruction of a page whose fetch faults (error code I/D); 2000 the handler's iretq. */
static const char counts[] =
	"bmprof-insn-count 1\n"
	"target x86\n"
	"i 1000 4 10\n"
	"i 1004 2 5000 10\n"           /* 5000 starts, 10 executions */
	"i 1006 2 3\n"
	"i 1008 1 0\n"                 /* never reached: the gate does not return here */
	"i 1010 4 8\n"
	"i 1020 3 2\n"
	"i 1030 4 1\n"
	"i 2000 2 6\n"
	"e 1008 1000 4\n"
	"e 2000 1010 1\n"
	"end 8 2\n";

#define VEC(n, v, e, pc, tail)                                                      \
	"  " #n ": v=" v " e=" e " i=0 cpl=0 IP=0008:00000000000" pc " pc=00000000000" pc \
	" SP=0010:0000000000158ec0 " tail "\n"                                        \
	"RAX=0000000000000000 RBX=0000000000000000 RCX=0000000000000000 RDX=0000000\n"   \
	"CR0=80000011 CR2=0000000000000000 CR3=0000000000113000 CR4=00000020\n"

static const char x86_log[] =
	"Servicing hardware INT=0x08\n"               /* real mode: no vector line */
	"SMM: enter\n"
	"EAX=00000001 EBX=00000000 ECX=00000010 EDX=000f8000\n"
	"check_exception old: 0xffffffff new 0x6\n"
	VEC(0, "06", "0000", "01006", "env->regs[R_EAX]=0000000000000000")
	"check_exception old: 0xffffffff new 0x6\n"
	VEC(1, "06", "0000", "01006", "env->regs[R_EAX]=0000000000000000")
	"Servicing hardware INT=0x40\n"                /* an interrupt at 1000: it ran */
	VEC(2, "40", "0000", "01000", "env->regs[R_EAX]=000000000000007d")
	"check_exception old: 0xffffffff new 0xe\n"    /* a data page fault at 1010 */
	VEC(3, "0e", "0002", "01010", "CR2=0000004000000000")
	"check_exception old: 0xffffffff new 0xe\n"    /* fetching 1020's second byte */
	VEC(4, "0e", "0000", "01020", "CR2=0000000000001021")
	"check_exception old: 0xffffffff new 0xe\n"    /* fetching 1030: I/D set */
	VEC(5, "0e", "0010", "01030", "CR2=0000000000001030")
	"check_exception old: 0xffffffff new 0x1\n"    /* a debug trap after 1000 ran */
	VEC(6, "01", "0000", "01000", "env->regs[R_EAX]=0000000000000000")
	"   7: v=80 e=0000 i=1 cpl=3 IP=0023:0000000000001000 pc=0000000000001000 "
	"SP=001b:0 env->regs[R_EAX]=0\n"               /* int $0x80 at 1000: retired */
	"check_exception old: 0xffffffff new 0xd\n"    /* a #GP at the rep instruction */
	VEC(8, "0d", "0000", "01004", "env->regs[R_EAX]=0000000000000000")
	"check_exception old: 0xffffffff new 0x6\n"
	VEC(9, "06", "0000", "01006", "env->regs[R_EAX]=0000000000000000")
	"check_exception old: 0xffffffff new 0x6\n"    /* in the runtime: not counted */
	VEC(10, "06", "0000", "05000", "env->regs[R_EAX]=0000000000000000")
	"check_exception old: 0xffffffff new 0xd\n"    /* a 2nd fault at 1000 than starts? */
	VEC(11, "0d", "0000", "01008", "env->regs[R_EAX]=0000000000000000");

static struct truth_fault *faults_of(const char *log, size_t step, size_t *nf)
{
	struct truth_log *l = truth_log_new();
	struct truth_fault *f;
	size_t n = strlen(log);

	assert_non_null(l);
	for (size_t i = 0; i < n; i += step)
		assert_int_equal(truth_log_feed(l, log + i, n - i < step ? n - i : step), 0);
	assert_int_equal(truth_log_finish(l, &f, nf), 0);
	return f;
}

static void check_x86_faults(const struct truth_fault *f, size_t nf)
{
	static const struct truth_fault want[] = {
		{ 0x1004, 1, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x1006, 3, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x1008, 1, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x1010, 1, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x1020, 1, TRUTH_FAULT, 1 },
		{ 0x1030, 1, TRUTH_FAULT_FETCH, 0 },
		{ 0x5000, 1, TRUTH_FAULT, TRUTH_CR2_FAR },
	};

	assert_int_equal(nf, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < nf; i++) {
		assert_int_equal(f[i].pc, want[i].pc);
		assert_int_equal(f[i].n, want[i].n);
		assert_int_equal(f[i].kind, want[i].kind);
		assert_int_equal(f[i].cr2_off, want[i].cr2_off);
	}
}

static void test_x86_log(void **state)
{
	struct truth_fault *f;
	size_t nf;

	(void)state;
	f = faults_of(x86_log, 1 << 20, &nf);
	check_x86_faults(f, nf);
	free(f);
	f = faults_of(x86_log, 7, &nf);            /* lines split across feeds */
	check_x86_faults(f, nf);
	free(f);
}

static void test_aarch64_log(void **state)
{
	static const char log[] =
		"Taking exception 11 [Hypervisor Call] on CPU 0\n"
		"...from EL1 to EL2\n"
		"...with ESR 0x16/0x5a000000\n"
		"...handled as PSCI call\n"
		"Taking exception 1 [Undefined Instruction] on CPU 0\n"
		"...from EL1 to EL1\n"
		"...with ESR 0x0/0x2000000\n"
		"...with ELR 0x40000004\n"
		"...to EL1 PC 0x40000200 PSTATE 0x3c5\n"
		"Taking exception 5 [IRQ] on CPU 0\n"        /* an interrupt: ELR ran */
		"...from EL1 to EL1\n"
		"...with ESR 0x16/0x5a000000\n"
		"...with ELR 0x40000008\n"
		"Taking exception 2 [SVC] on CPU 0\n"        /* ELR is the next instruction */
		"...with ELR 0x40000010\n"
		"Taking exception 4 [Data Abort] on CPU 0\n"
		"...with ESR 0x25/0x96000045\n"
		"...with FAR 0x0\n"
		"...with ELR 0x40000014\n"
		"Taking exception 3 [Prefetch Abort] on CPU 0\n"
		"...with ELR 0x40001000\n"
		"Taking exception 16 [Semihosting call] on CPU 0\n"
		"...from EL1 to EL1\n"
		"Taking exception 7 [Breakpoint] on CPU 0\n"
		"...with ELR 0x40000018\n"
		"Taking exception 1 [Undefined Instruction] on CPU 0\n"
		"...with ELR 0x40000004";                /* no newline at the end */
	static const struct truth_fault want[] = {
		{ 0x40000004, 2, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x40000014, 1, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x40000018, 1, TRUTH_FAULT, TRUTH_CR2_FAR },
		{ 0x40001000, 1, TRUTH_FAULT_FETCH, TRUTH_CR2_FAR },
	};
	struct truth_fault *f;
	size_t nf;

	(void)state;
	f = faults_of(log, 5, &nf);
	assert_int_equal(nf, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < nf; i++) {
		assert_int_equal(f[i].pc, want[i].pc);
		assert_int_equal(f[i].n, want[i].n);
		assert_int_equal(f[i].kind, want[i].kind);
	}
	free(f);
	f = faults_of("", 1, &nf);
	assert_null(f);
	assert_int_equal(nf, 0);
}

static void test_build(void **state)
{
	struct truth_raw r;
	struct truth_fault *f;
	struct truth t;
	size_t nf;
	char err[200];

	(void)state;
	truth_init(&t);
	assert_int_equal(truth_raw_parse(counts, strlen(counts), &r, err, sizeof err), 0);
	assert_int_equal(r.ninsns, 8);
	assert_int_equal(r.nedges, 2);
	assert_int_equal(r.insns[1].rep, 1);
	assert_int_equal(r.insns[1].execs, 10);
	f = faults_of(x86_log, 64, &nf);
	assert_int_equal(truth_build(&r, f, nf, &t), 0);
	assert_int_equal(truth_count(&t, 0x1000), 10);
	assert_int_equal(truth_count(&t, 0x1004), 10);    /* executions, the #GP kept */
	assert_int_equal(truth_count(&t, 0x1006), 0);     /* three starts, three faults */
	assert_int_equal(truth_count(&t, 0x1008), 0);
	assert_int_equal(truth_count(&t, 0x1010), 7);     /* the page fault retried */
	assert_int_equal(truth_count(&t, 0x1020), 2);     /* fetch faults: never started */
	assert_int_equal(truth_count(&t, 0x1030), 1);
	assert_int_equal(truth_count(&t, 0x2000), 6);
	assert_int_equal(t.total, 10 + 10 + 7 + 2 + 1 + 6);
	assert_int_equal(t.npcs, 6);
	assert_int_equal(t.fix.rep_iterations, 4990);
	assert_int_equal(t.fix.faulted, 3 + 1);
	assert_int_equal(t.fix.rep_faults, 1);
	assert_int_equal(t.fix.fetch_faults, 2);
	assert_int_equal(t.fix.outside, 1);
	assert_int_equal(t.fix.unmatched, 1);             /* a fault at 1008, never started */
	assert_int_equal(truth_edge_count(&t, 0x1008, 0x1000), 4);
	assert_int_equal(truth_edge_count(&t, 0x2000, 0x1010), 1);
	assert_int_equal(truth_edge_count(&t, 0x1000, 0x1004), 0);
	free(f);
	/* no faults: starts, a rep instruction's executions */
	assert_int_equal(truth_build(&r, NULL, 0, &t), 0);
	assert_int_equal(truth_count(&t, 0x1006), 3);
	assert_int_equal(truth_count(&t, 0x1004), 10);
	assert_int_equal(t.fix.faulted, 0);
	truth_raw_free(&r);
	truth_free(&t);
}

static void test_raw_errors(void **state)
{
	static const char *const bad[] = {
		"",
		"bmprof-insn-count 2\nend 0 0\n",
		"bmprof-insn-count 1\ni 1000 4 10\n",                        /* no end */
		"bmprof-insn-count 1\ni 1000 4 10\nend 2 0\n",               /* wrong total */
		"bmprof-insn-count 1\ni 1000 4 10\ni 1000 4 1\nend 2 0\n",   /* not increasing */
		"bmprof-insn-count 1\ni 1000 4 10 11\nend 1 0\n",            /* execs > starts */
		"bmprof-insn-count 1\ni 1000 0 10\nend 1 0\n",               /* size 0 */
		"bmprof-insn-count 1\ni 1000 4 x\nend 1 0\n",
		"bmprof-insn-count 1\ne 1000 2000\nend 0 1\n",
		"bmprof-insn-count 1\nend 0 0\ni 1000 4 1\n",                /* after the end */
		"bmprof-insn-count 1\nz 1\nend 0 0\n",
		"bmprof-insn-count 1\ni 1000 4 99999999999999999999\nend 1 0\n",
		"bmprof-insn-count 1\nend 0 0",                               /* cut short */
	};
	struct truth_raw r;
	char err[200];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		if (truth_raw_parse(bad[i], strlen(bad[i]), &r, err, sizeof err) != -1)
			fail_msg("case %zu accepted", i);
		assert_true(err[0] != 0);
		assert_null(r.insns);
	}
	assert_int_equal(truth_raw_parse("bmprof-insn-count 1\nend 0 0\n", 28, &r, err,
					 sizeof err), 0);
	assert_int_equal(r.ninsns, 0);
	truth_raw_free(&r);
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
	/* pc 10: 5 (constant); 20: 2k + 1; 30: 2k - 1 (a negative intercept); 40: 3k.
	 * Edge (20, 30): k. */
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
		cmocka_unit_test(test_x86_log),
		cmocka_unit_test(test_aarch64_log),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_raw_errors),
		cmocka_unit_test(test_extrapolate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
