/* SPDX-License-Identifier: BSD-2-Clause */
/* Pipeline models and the static schedule: known answers worked out by hand (in the
 * comments) on small test models and on the real ones, the model lookups, and the
 * generated table against its TSV sources. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sched.h"
#include "uarch.h"

#define X86 1
#define A64 2
#define RFLAGS INSN_REG_FLAGS_X86
#define NONE 0xffu

/* In order, 4 wide; every class 1 cycle and 4 units unless said. */
static struct uarch inorder4 = {
	.name = "test-inorder4", .arch = X86, .out_of_order = 0, .width = 4, .load_latency = 2,
	.line_size = 64,
};
/* Out of order, 4 allocated and 4 retired per cycle, same classes. */
static struct uarch ooo4 = {
	.name = "test-ooo4", .arch = X86, .out_of_order = 1, .width = 4, .alloc_width = 4,
	.load_latency = 2, .line_size = 64,
};

static void test_models_init(struct uarch *u)
{
	for (int c = 0; c < IC__COUNT; c++)
		u->cls[c] = (struct uarch_class){ 1, 4, 1 };
	u->cls[IC_MUL] = (struct uarch_class){ 3, 1, 1 };     /* pipelined, 3 cycles */
	u->cls[IC_DIV] = (struct uarch_class){ 10, 1, 8 };    /* one divider, busy 8 */
	u->cls[IC_LOAD] = (struct uarch_class){ 0, 2, 1 };    /* latency = load_latency */
}

static int setup(void **state)
{
	(void)state;
	test_models_init(&inorder4);
	test_models_init(&ooo4);
	return 0;
}

/* One instruction: class, up to two registers read and one written (NONE: none). */
static struct insn mk(unsigned cls, unsigned r1, unsigned r2, unsigned w, unsigned mem)
{
	struct insn in;

	memset(&in, 0, sizeof in);
	in.cls = (uint8_t)cls;
	in.mem = (uint8_t)mem;
	if (r1 != NONE)
		insn_regs_add(&in.rd, r1);
	if (r2 != NONE)
		insn_regs_add(&in.rd, r2);
	if (w != NONE)
		insn_regs_add(&in.wr, w);
	if (cls == IC_BRANCH)
		in.flow = INSN_FLOW_COND;
	snprintf(in.text, sizeof in.text, "test %u", cls);
	return in;
}

static void sched_ok(const struct uarch *u, const struct insn *in, size_t n, int loop,
		     struct sched_insn *out)
{
	memset(out, 0xa5, n * sizeof *out);
	assert_int_equal(sched_block(u, in, n, loop, out), 0);
}

static void expect(const struct sched_insn *o, uint32_t M, uint32_t stall, int reason,
		   int32_t culprit)
{
	assert_int_equal(o->M, M);
	assert_int_equal(o->stall, stall);
	assert_int_equal(o->reason, reason);
	assert_int_equal(o->culprit, culprit);
}

/* 8 independent ALU ops, 4 wide: groups {0-3} {4-7}: issue points 0 and 4, M = 1 each;
 * 4 waited for the group before it to fill. The same on the out-of-order model: allocated
 * 4 per cycle (cycles 0, 1), completed at 1 and 2, retired 4 per cycle at 1 and 2. */
static void test_independent_width4(void **state)
{
	(void)state;
	struct insn in[8];
	struct sched_insn o[8];

	for (unsigned i = 0; i < 8; i++)
		in[i] = mk(IC_ALU, NONE, NONE, i, 0);
	const struct uarch *models[] = { &inorder4, &ooo4 };
	for (int m = 0; m < 2; m++) {
		sched_ok(models[m], in, 8, 0, o);
		for (unsigned i = 0; i < 8; i++) {
			if (i == 0)
				expect(&o[i], 1, 0, SCHED_NONE, -1);
			else if (i == 4)
				expect(&o[i], 1, 0, SCHED_WIDTH, -1);
			else
				expect(&o[i], 0, 0, SCHED_NONE, -1);
		}
	}
}

/* mul r0=r0 three times, latency 3: issues at 0, 3, 6 -> M 1, 3, 3; each waits 2 cycles
 * for the one before. Then add r1=r0 issues at 9 (M 3) waiting for the last mul, and an
 * independent add r2 issues with it (M 0). */
static void test_dependency_chain(void **state)
{
	(void)state;
	struct insn in[5] = {
		mk(IC_MUL, 0, NONE, 0, 0), mk(IC_MUL, 0, NONE, 0, 0), mk(IC_MUL, 0, NONE, 0, 0),
		mk(IC_ALU, 0, NONE, 1, 0), mk(IC_ALU, NONE, NONE, 2, 0),
	};
	struct sched_insn o[5];

	sched_ok(&inorder4, in, 5, 0, o);
	expect(&o[0], 1, 0, SCHED_NONE, -1);
	expect(&o[1], 3, 2, SCHED_DEPENDENCY, 0);
	expect(&o[2], 3, 2, SCHED_DEPENDENCY, 1);
	expect(&o[3], 3, 2, SCHED_DEPENDENCY, 2);
	expect(&o[4], 0, 0, SCHED_NONE, -1);

	/* Out of order: mul 0 completes and retires at 3 (M 3: its own latency, nothing
	 * before it), mul 1 at 6, mul 2 at 9, the add at 10 (1 after the mul it needs), the
	 * independent add completed at 1 and retires with it (M 0). */
	sched_ok(&ooo4, in, 5, 0, o);
	expect(&o[0], 3, 2, SCHED_LATENCY, 0);
	expect(&o[1], 3, 2, SCHED_DEPENDENCY, 0);
	expect(&o[2], 3, 2, SCHED_DEPENDENCY, 1);
	expect(&o[3], 1, 0, SCHED_DEPENDENCY, 2);
	expect(&o[4], 0, 0, SCHED_NONE, -1);
}

/* load r1=[r2] issues at 0; its result is ready at 0 + 0 + load_latency 2 = 2: the add
 * using r1 issues at 2 (M 2, stall 1). add r4=r4+[r5] (a memory operand) issues with it at
 * 2 (same group, no dependency) and is ready at 2 + 1 + 2 = 5: add r6=r4 issues at 5 (M 3,
 * stall 2). */
static void test_load_use(void **state)
{
	(void)state;
	struct insn in[4] = {
		mk(IC_LOAD, 2, NONE, 1, INSN_MEM_LOAD), mk(IC_ALU, 1, NONE, 3, 0),
		mk(IC_ALU, 4, 5, 4, INSN_MEM_LOAD), mk(IC_ALU, 4, NONE, 6, 0),
	};
	struct sched_insn o[4];

	sched_ok(&inorder4, in, 4, 0, o);
	expect(&o[0], 1, 0, SCHED_NONE, -1);
	expect(&o[1], 2, 1, SCHED_DEPENDENCY, 0);
	expect(&o[2], 0, 0, SCHED_NONE, -1);
	expect(&o[3], 3, 2, SCHED_DEPENDENCY, 2);
}

/* Two independent divides, one divider busy 8 cycles: in order, the second issues at 8
 * (M 8, stall 7, unit busy with divide 0). Out of order: executed at 0 and 8, complete
 * (and retire) at 10 and 18: M 10 (own latency) and 8 (unit busy). */
static void test_divider_busy(void **state)
{
	(void)state;
	struct insn in[2] = { mk(IC_DIV, 1, NONE, 0, 0), mk(IC_DIV, 3, NONE, 2, 0) };
	struct sched_insn o[2];

	sched_ok(&inorder4, in, 2, 0, o);
	expect(&o[0], 1, 0, SCHED_NONE, -1);
	expect(&o[1], 8, 7, SCHED_UNIT_BUSY, 0);
	sched_ok(&ooo4, in, 2, 0, o);
	expect(&o[0], 10, 9, SCHED_LATENCY, 0);
	expect(&o[1], 8, 7, SCHED_UNIT_BUSY, 0);
}

/* Retirement narrower than allocation: 4 wide in, 2 out. 4 independent ALU ops all
 * complete at 1; they retire 2 per cycle, at 1, 1, 2, 2: M 1 0 1 0, insn 2 waiting for
 * the full retire group before it. */
static void test_retire_width(void **state)
{
	(void)state;
	struct uarch u = ooo4;
	struct insn in[4];
	struct sched_insn o[4];

	u.width = 2;
	for (unsigned i = 0; i < 4; i++)
		in[i] = mk(IC_ALU, NONE, NONE, i, 0);
	sched_ok(&u, in, 4, 0, o);
	expect(&o[0], 1, 0, SCHED_NONE, -1);
	expect(&o[1], 0, 0, SCHED_NONE, -1);
	expect(&o[2], 1, 0, SCHED_WIDTH, -1);
	expect(&o[3], 0, 0, SCHED_NONE, -1);
}

/* The loop "imul %rax,%rax; dec %rcx; jnz" on golden-cove. Iteration k: imul k waits for
 * imul k-1 (loop-carried), executes at 3k, completes at 3k+3; dec k runs ahead at about k
 * (one per cycle) and jnz right after it; both are done long before imul k and retire in
 * its cycle. Steady state: 3 cycles per iteration, all at the imul (M 3, waiting for
 * itself one iteration earlier), dec and jnz M 0. Without the loop the imul waits for
 * its own latency only. */
static void test_loop_steady_state(void **state)
{
	(void)state;
	const struct uarch *gc = uarch_find("golden-cove");
	struct insn in[3] = {
		mk(IC_MUL, 0, NONE, 0, 0), mk(IC_ALU, 1, NONE, 1, 0),
		mk(IC_BRANCH, RFLAGS, NONE, NONE, 0),
	};
	struct sched_insn o[3];

	insn_regs_add(&in[0].wr, RFLAGS);
	insn_regs_add(&in[1].wr, RFLAGS);
	assert_non_null(gc);
	assert_int_equal(gc->cls[IC_MUL].latency, 3);
	sched_ok(gc, in, 3, 1, o);
	expect(&o[0], 3, 2, SCHED_DEPENDENCY, 0);
	expect(&o[1], 0, 0, SCHED_NONE, -1);
	expect(&o[2], 0, 0, SCHED_NONE, -1);
	sched_ok(gc, in, 3, 0, o);
	expect(&o[0], 3, 2, SCHED_LATENCY, 0);
	expect(&o[1], 0, 0, SCHED_NONE, -1);
	expect(&o[2], 0, 0, SCHED_NONE, -1);

	/* in order, the same loop: imul k issues 3 after imul k-1, dec in its group, jnz
	 * (needs dec's flags) 1 later; the next imul is 3 after this one: M 2, 0, 1 */
	sched_ok(&inorder4, in, 3, 1, o);
	expect(&o[0], 2, 1, SCHED_DEPENDENCY, 0);
	expect(&o[1], 0, 0, SCHED_NONE, -1);
	expect(&o[2], 1, 0, SCHED_DEPENDENCY, 1);
}

/* Golden Cove allocates 6 per cycle (it retires 8): 12 independent nops (no port needed)
 * retire in groups of 6, issue points 0 and 6. 10 independent adds are limited by its 5
 * ALUs instead: adds 0-4 execute at 0, 5 at 1 (alloc cycle 0, ALUs full), 6-9 (alloc
 * cycle 1) at 1 too; they retire at 1 and 2, issue points 0 and 5. */
static void test_golden_cove_widths(void **state)
{
	(void)state;
	const struct uarch *gc = uarch_find("golden-cove");
	struct insn in[12];
	struct sched_insn o[12];

	for (unsigned i = 0; i < 12; i++)
		in[i] = mk(IC_NOP, NONE, NONE, NONE, 0);
	sched_ok(gc, in, 12, 0, o);
	for (unsigned i = 0; i < 12; i++)
		assert_int_equal(o[i].M, i % 6 == 0 ? 1u : 0u);
	for (unsigned i = 0; i < 10; i++)
		in[i] = mk(IC_ALU, NONE, NONE, i, 0);
	sched_ok(gc, in, 10, 0, o);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(o[i].M, i % 5 == 0 ? 1u : 0u);
}

/* A loop on the 4-wide model: a taken branch ends the issue group, so the next iteration
 * starts a new cycle (M 1, width). */
static void test_loop_new_group(void **state)
{
	(void)state;
	struct insn in[2] = { mk(IC_ALU, NONE, NONE, 0, 0), mk(IC_BRANCH, NONE, NONE, NONE, 0) };
	struct sched_insn o[2];

	sched_ok(&inorder4, in, 2, 1, o);
	expect(&o[0], 1, 0, SCHED_WIDTH, -1);
	expect(&o[1], 0, 0, SCHED_NONE, -1);
}

/* A system instruction waits for everything before it (the divide, done at 10) and holds
 * back everything after it (the add issues at 11). */
static void test_system_serializes(void **state)
{
	(void)state;
	struct insn in[3] = {
		mk(IC_DIV, 1, NONE, 0, 0), mk(IC_SYSTEM, NONE, NONE, NONE, 0),
		mk(IC_ALU, NONE, NONE, 5, 0),
	};
	struct sched_insn o[3];

	sched_ok(&inorder4, in, 3, 0, o);
	expect(&o[0], 1, 0, SCHED_NONE, -1);
	expect(&o[1], 10, 9, SCHED_DEPENDENCY, 0);
	expect(&o[2], 1, 0, SCHED_DEPENDENCY, 1);
}

/* Pops on x86: rsp is ready one ALU latency after each pop, not after the load. */
static void test_stack_pointer_writeback(void **state)
{
	(void)state;
	struct insn in[3] = {
		mk(IC_LOAD, 4, NONE, 3, INSN_MEM_LOAD), mk(IC_LOAD, 4, NONE, 5, INSN_MEM_LOAD),
		mk(IC_LOAD, 4, NONE, 6, INSN_MEM_LOAD),
	};
	struct sched_insn o[3];

	for (int i = 0; i < 3; i++)
		insn_regs_add(&in[i].wr, 4);
	/* issues at 0, 1 (rsp ready after 1), 2: never waiting the load latency (2) */
	sched_ok(&inorder4, in, 3, 0, o);
	expect(&o[0], 1, 0, SCHED_NONE, -1);
	expect(&o[1], 1, 0, SCHED_DEPENDENCY, 0);
	expect(&o[2], 1, 0, SCHED_DEPENDENCY, 1);
}

/* tcg: every instruction one unit, whatever it is and whatever it depends on. */
static void test_tcg_all_one(void **state)
{
	(void)state;
	const struct uarch *t = uarch_find("tcg");
	struct insn in[7] = {
		mk(IC_LOAD, 2, NONE, 1, INSN_MEM_LOAD), mk(IC_ALU, 1, NONE, 1, 0),
		mk(IC_DIV, 1, NONE, 0, 0), mk(IC_DIV, 0, NONE, 0, 0),
		mk(IC_FP_DIV, 64, NONE, 65, 0), mk(IC_SYSTEM, NONE, NONE, NONE, 0),
		mk(IC_BRANCH, 0, NONE, NONE, 0),
	};
	struct sched_insn o[7];

	assert_non_null(t);
	assert_int_equal(t->out_of_order, 0);
	assert_int_equal(t->width, 1);
	for (int loop = 0; loop < 2; loop++) {
		sched_ok(t, in, 7, loop, o);
		for (int i = 0; i < 7; i++) {
			assert_int_equal(o[i].M, 1);
			assert_int_equal(o[i].stall, 0);
		}
	}
}

static void test_empty_block(void **state)
{
	(void)state;
	struct insn in[1] = { mk(IC_ALU, NONE, NONE, 0, 0) };
	struct sched_insn o[1];

	assert_int_equal(sched_block(&inorder4, in, 0, 0, o), -1);
}

static void test_uarch_lookup(void **state)
{
	(void)state;
	/* HELLO's vendor field: 16 bytes, NUL padded */
	const char intel[16] = "GenuineIntel";
	const struct uarch *u = uarch_for_cpu(X86, intel, 6, 0xCF);

	assert_non_null(u);
	assert_string_equal(u->name, "golden-cove");
	assert_int_equal(u->out_of_order, 1);
	assert_string_equal(uarch_for_cpu(X86, intel, 6, 0x8F)->name, "golden-cove");
	assert_string_equal(uarch_for_cpu(X86, intel, 6, 0x55)->name, "skylake");
	assert_string_equal(uarch_for_cpu(X86, intel, 6, 0x12345)->name, "x86-64-generic");
	assert_string_equal(uarch_for_cpu(X86, "AuthenticAMD", 0x19, 0x11)->name,
			    "x86-64-generic");
	/* another vendor with Intel's family/model is not an Intel part */
	assert_string_equal(uarch_for_cpu(X86, "AuthenticAMD", 6, 0xCF)->name, "x86-64-generic");
	/* QEMU's default x86 CPU (qemu64) and AArch64 -cpu max (implementer 0) run on TCG */
	assert_string_equal(uarch_for_cpu(X86, "AuthenticAMD", 15, 0x6b)->name, "tcg");
	assert_string_equal(uarch_for_cpu(A64, "software", 0, 0x51)->name, "tcg");
	assert_string_equal(uarch_for_cpu(A64, "ARM", 0x41, 0xd0c)->name, "neoverse-n1");
	assert_string_equal(uarch_for_cpu(A64, "ARM", 0x41, 0xd08)->name, "cortex-a72");
	assert_string_equal(uarch_for_cpu(A64, "Apple", 0x61, 0x22)->name, "aarch64-generic");
	assert_null(uarch_for_cpu(9, intel, 6, 0xCF));

	assert_ptr_equal(uarch_find("golden-cove"), uarch_for_cpu(X86, intel, 6, 0xCF));
	assert_null(uarch_find("no-such-core"));
	assert_null(uarch_find(NULL));
	/* names unique; each model complete */
	for (const struct uarch *const *m = uarch_models; *m; m++) {
		assert_ptr_equal(uarch_find((*m)->name), *m);
		assert_true((*m)->width >= 1);
		assert_non_null((*m)->title);
		assert_non_null((*m)->source);
		for (int c = 0; c < IC__COUNT; c++) {
			assert_true((*m)->cls[c].units >= 1);
			assert_true((*m)->cls[c].busy >= 1);
		}
	}
}

/* The generated table against analysis/uarch/NAME.tsv (run from the repository root). */
static unsigned long num(const char *s)
{
	return strtoul(s, NULL, 0);
}

static void test_table_matches_tsv(void **state)
{
	(void)state;
	static const char *const classes[IC__COUNT] = {
		"nop", "move", "alu", "shift", "mul", "div", "load", "store", "branch", "fp_add",
		"fp_mul", "fp_div", "vec", "string", "system", "other",
	};
	unsigned nmodels = 0, ncpus = 0, cpus_seen = 0;

	for (const struct uarch_cpu *c = uarch_cpus; c->u; c++)
		ncpus++;
	for (const struct uarch *const *m = uarch_models; *m; m++, nmodels++) {
		const struct uarch *u = *m;
		char path[256], buf[1024];
		unsigned ncls = 0;

		snprintf(path, sizeof path, "analysis/uarch/%s.tsv", u->name);
		FILE *f = fopen(path, "r");
		if (!f)
			fail_msg("cannot open %s: run the test from the repository root", path);
		while (fgets(buf, sizeof buf, f)) {
			char *cell[8] = { 0 }, *p = buf;
			unsigned n = 0;

			if (buf[0] == '#' || buf[0] == '\n')
				continue;
			buf[strcspn(buf, "\n")] = 0;
			while (n < 8 && p) {
				cell[n++] = p;
				p = strchr(p, '\t');
				if (p)
					*p++ = 0;
			}
			const char *k = cell[0], *v = cell[1];
			assert_non_null(v);
			if (!strcmp(k, "name")) assert_string_equal(u->name, v);
			else if (!strcmp(k, "title")) assert_string_equal(u->title, v);
			else if (!strcmp(k, "source")) assert_string_equal(u->source, v);
			else if (!strcmp(k, "arch"))
				assert_int_equal(u->arch, !strcmp(v, "x86_64") ? 1 : !strcmp(v, "aarch64") ? 2 :
						 !strcmp(v, "cortex-m") ? 3 : !strcmp(v, "riscv64") ? 4 : 0);
			else if (!strcmp(k, "out_of_order")) assert_int_equal(u->out_of_order, num(v));
			else if (!strcmp(k, "generic")) assert_int_equal(u->generic, num(v));
			else if (!strcmp(k, "blocking")) assert_int_equal(u->blocking, num(v));
			else if (!strcmp(k, "width")) assert_int_equal(u->width, num(v));
			else if (!strcmp(k, "alloc_width")) assert_int_equal(u->alloc_width, num(v));
			else if (!strcmp(k, "load_latency")) assert_int_equal(u->load_latency, num(v));
			else if (!strcmp(k, "line_size")) assert_int_equal(u->line_size, num(v));
			else if (!strcmp(k, "icache_miss")) assert_int_equal(u->icache_miss, num(v));
			else if (!strcmp(k, "dcache_miss")) assert_int_equal(u->dcache_miss, num(v));
			else if (!strcmp(k, "memory")) assert_int_equal(u->memory, num(v));
			else if (!strcmp(k, "itlb_miss")) assert_int_equal(u->itlb_miss, num(v));
			else if (!strcmp(k, "dtlb_miss")) assert_int_equal(u->dtlb_miss, num(v));
			else if (!strcmp(k, "mispredict")) assert_int_equal(u->mispredict, num(v));
			else if (!strcmp(k, "class")) {
				int c = 0;
				while (c < IC__COUNT && strcmp(classes[c], v))
					c++;
				assert_true(c < IC__COUNT);
				assert_non_null(cell[4]);
				assert_int_equal(u->cls[c].latency, num(cell[2]));
				assert_int_equal(u->cls[c].units, num(cell[3]));
				assert_int_equal(u->cls[c].busy, num(cell[4]));
				ncls++;
			} else if (!strcmp(k, "cpu")) {
				assert_non_null(cell[4]);
				uint32_t model = !strcmp(cell[4], "*") ? UARCH_ANY_MODEL :
					(uint32_t)num(cell[4]);
				unsigned arch = !strcmp(v, "x86_64") ? 1 : !strcmp(v, "aarch64") ? 2 :
						!strcmp(v, "riscv64") ? 4 : 3;
				int found = 0;
				for (const struct uarch_cpu *c = uarch_cpus; c->u; c++)
					found |= c->u == u && c->arch == arch && c->family == num(cell[3]) &&
						 c->model == model && !strcmp(c->vendor, cell[2]);
				assert_true(found);
				cpus_seen++;
			} else
				fail_msg("%s: unknown key %s", path, k);
		}
		fclose(f);
		assert_int_equal(ncls, IC__COUNT);
	}
	assert_int_equal(cpus_seen, ncpus);
	assert_true(nmodels >= 7);
}

/* Random blocks on every model, in and out of loops: the invariants of sched.h hold (M 0
 * means no stall, reason or culprit; an issue point's stall is M - 1; culprits are indices
 * of the block; no more than width instructions per cycle; tcg gives M 1 throughout). */
static void test_invariants_random(void **state)
{
	(void)state;
	static const unsigned regs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 16, 31, 32, 64, 65, 66 };
	const struct uarch *extra[] = { &inorder4, &ooo4 };
	uint64_t seed = 0x2545f4914f6cdd1dull;
	struct insn in[64];
	struct sched_insn o[64];

	for (int round = 0; round < 300; round++) {
		size_t n = 1 + round % 60;
		for (size_t i = 0; i < n; i++) {
			unsigned r[4];
			for (int k = 0; k < 4; k++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				r[k] = (unsigned)(seed >> 33);
			}
			unsigned cls = r[0] % IC__COUNT, nr = sizeof regs / sizeof regs[0];
			in[i] = mk(cls, regs[r[1] % nr], r[2] & 1 ? regs[(r[2] >> 1) % nr] : NONE,
				   r[3] & 1 ? regs[(r[3] >> 1) % nr] : NONE,
				   cls == IC_LOAD || r[3] % 7 == 0 ? INSN_MEM_LOAD : 0);
		}
		const struct uarch *all[16];
		size_t nall = 0;
		for (size_t m = 0; uarch_models[m] && nall < 14; m++)
			all[nall++] = uarch_models[m];
		all[nall++] = extra[0];
		all[nall++] = extra[1];
		for (size_t m = 0; m < nall; m++) {
			const struct uarch *u = all[m];
			for (int loop = 0; loop < 2; loop++) {
				uint64_t sum = 0;
				sched_ok(u, in, n, loop, o);
				for (size_t i = 0; i < n; i++) {
					const struct sched_insn *x = &o[i];
					sum += x->M;
					assert_true(x->culprit >= -1 && x->culprit < (int32_t)n);
					if (x->M == 0) {
						expect(x, 0, 0, SCHED_NONE, -1);
						continue;
					}
					assert_int_equal(x->stall, x->M - 1);
					assert_true(x->reason <= SCHED_LATENCY);
					if (x->reason == SCHED_DEPENDENCY || x->reason == SCHED_UNIT_BUSY)
						assert_true(x->culprit >= 0);
					if (x->reason == SCHED_WIDTH || x->reason == SCHED_NONE)
						assert_int_equal(x->culprit, -1);
					if (x->reason == SCHED_LATENCY)
						assert_int_equal(x->culprit, (int32_t)i);
					if (!loop && i == 0)
						assert_true(x->M >= 1);
					if (!strcmp(u->name, "tcg"))
						assert_int_equal(x->M, 1);
				}
				assert_true(sum * u->width + (loop ? u->width : 0) >= n);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_independent_width4),
		cmocka_unit_test(test_dependency_chain),
		cmocka_unit_test(test_load_use),
		cmocka_unit_test(test_divider_busy),
		cmocka_unit_test(test_retire_width),
		cmocka_unit_test(test_loop_steady_state),
		cmocka_unit_test(test_golden_cove_widths),
		cmocka_unit_test(test_loop_new_group),
		cmocka_unit_test(test_system_serializes),
		cmocka_unit_test(test_stack_pointer_writeback),
		cmocka_unit_test(test_tcg_all_one),
		cmocka_unit_test(test_empty_block),
		cmocka_unit_test(test_uarch_lookup),
		cmocka_unit_test(test_table_matches_tsv),
		cmocka_unit_test(test_invariants_random),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
