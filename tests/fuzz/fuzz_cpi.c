/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the CPI analysis on a mutated ELF, as bmprof cpi, stalls and
 * validate run it: every function decoded (insn_func_load_all: capstone, the x86-64 and
 * AArch64 fill, jump tables read from the image), some also by name and by address
 * (insn_func_load), then each one's CFG and classes, block schedules and DCPI's estimates
 * over synthetic samples the input chooses, printed as text and as JSON.
 *
 * Input: an ELF file. Checked for any input: the loaders succeed or fail with a one-line
 * reason; a decoded function's instructions tile [start, end) in address order and its
 * jump-table targets are instruction starts inside it; the CFG partitions the instructions
 * into blocks with edges and classes in range; the estimates are numbers (no NaN), the
 * summary adds up to the samples given; the JSON output parses. Work per input is bounded:
 * at most MAX_FUNCS functions are analysed. */
#include <elf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_io.h"
#include "cpi/cpi_print.h"
#include "cpi/cpi_run.h"
#include "events.h"
#include "decode/insn_decode.h"
#include "util/json.h"
#include "profile.h"
#include "uarch.h"

#define MAX_FUNCS 24
#define MAX_BY_NAME 4

enum { EV_CYCLES, EV_RETIRED, EV_DMISS, EV_MISPREDICT, NEV };
static const char *const ev_names[NEV] = { "cycles", "instructions", "l1d-misses",
					   "branch-misses" };

static void check_func(const struct insn_func *f)
{
	uint64_t at = f->start;

	CHECK(f->start <= f->end && memchr(f->name, 0, sizeof f->name));
	CHECK(f->arch == BMPROF_ARCH_X86_64 || f->arch == BMPROF_ARCH_AARCH64);
	for (size_t i = 0; i < f->n; i++) {
		const struct insn *x = &f->insns[i];

		CHECK(x->addr == at && x->size > 0 && memchr(x->text, 0, sizeof x->text));
		CHECK(x->flow <= INSN_FLOW_STOP && x->cls < IC__COUNT);
		at += x->size;
		CHECK(!x->ntargets || (x->flow == INSN_FLOW_INDIRECT && x->targets));
		for (uint32_t k = 0; k < x->ntargets; k++)
			CHECK(x->targets[k] >= f->start && x->targets[k] < f->end &&
			      insn_find(f->insns, f->n, x->targets[k]) >= 0);
	}
	CHECK(at == f->end);
}

static void check_cfg(const struct cfg *g)
{
	uint32_t next = 0;
	size_t nin = 0, nout = 0;

	CHECK(g->nblocks >= 3 && g->blocks[CFG_ENTRY].flags & CFG_BLOCK_VIRTUAL);
	CHECK(g->blocks[CFG_EXIT].flags & CFG_BLOCK_VIRTUAL);
	for (size_t b = 2; b < g->nblocks; b++) {
		const struct cfg_block *bl = &g->blocks[b];

		CHECK(bl->first == next && bl->n > 0);
		for (uint32_t i = bl->first; i < bl->first + bl->n; i++)
			CHECK(g->block_of[i] == b);
		next += bl->n;
	}
	CHECK(next == g->ninsns);
	for (size_t b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bl = &g->blocks[b];

		CHECK(bl->cls == CFG_NO_CLASS || bl->cls < g->nclasses);
		for (uint32_t k = 0; k < bl->nout; k++)
			CHECK(g->edges[g->out[bl->out_at + k]].from == b);
		for (uint32_t k = 0; k < bl->nin; k++)
			CHECK(g->edges[g->in[bl->in_at + k]].to == b);
		nin += bl->nin;
		nout += bl->nout;
	}
	CHECK(nin == g->nedges && nout == g->nedges);
	for (size_t e = 0; e < g->nedges; e++) {
		CHECK(g->edges[e].from < g->nblocks && g->edges[e].to < g->nblocks);
		CHECK(g->edges[e].kind <= CFG_EDGE_LOOP_EXIT);
		CHECK(g->edges[e].cls == CFG_NO_CLASS || g->edges[e].cls < g->nclasses);
	}
}

static void check_result(const struct cpi_func *cf)
{
	const struct dcpi_result *r = &cf->res;
	uint64_t samples = 0;

	for (size_t i = 0; i < cf->fn.n; i++) {
		const struct dcpi_insn *x = &r->insns[i];

		CHECK(x->samples == cf->samples[i]);
		CHECK(!isnan(x->execs) && !isnan(x->cpe) && !isnan(x->dyn_stall));
		CHECK(x->dep_on < (int32_t)cf->fn.n);
		samples += x->samples;
	}
	CHECK(samples == cf->fn_samples && r->sum.samples == samples);
	for (size_t b = 0; b < cf->cfg.nblocks; b++)
		CHECK(!isnan(r->blocks[b].execs) && r->blocks[b].conf <= DCPI_CONF_HIGH);
	for (size_t c = 0; c < cf->cfg.nclasses; c++)
		CHECK(!isnan(r->classes[c].F));
	CHECK(!isnan(r->sum.cycles) && !isnan(r->sum.best_cpi) && !isnan(r->sum.actual_cpi));
}

/* A profile of the function's architecture with the input's samples on its instructions. */
static void make_profile(struct profile *p, const struct insn_func *f, const uint8_t *data,
			 size_t size, size_t salt)
{
	profile_init(p);
	p->have_hello = 1;
	p->hello.arch = (uint8_t)f->arch;
	p->hello.timebase_hz = 1000000000;
	for (unsigned e = 0; e < NEV; e++) {
		struct profile_event *ev = &p->events[p->nevents++];

		ev->id = (uint16_t)e;
		ev->source = BMPROF_SOURCE_PMU;
		ev->period = e == EV_CYCLES ? 1000 : 100;
		snprintf(ev->name, sizeof ev->name, "%s", ev_names[e]);
	}
	for (size_t i = 0; i < f->n; i++) {
		uint8_t b = data[(salt * 131 + i * 7) % size];

		if (b % 3)
			CHECK(profile_add(p, 0, EV_CYCLES, f->insns[i].addr, b) == 0);
		if (b & 0x10)
			CHECK(profile_add(p, 0, (uint16_t)(1 + b % 3), f->insns[i].addr, b >> 5) == 0);
	}
}

static const struct uarch *model_for(const struct insn_func *f, uint8_t pick)
{
	size_t n = 0, k;

	while (uarch_models[n])
		n++;
	for (k = 0; k < n; k++) {
		const struct uarch *u = uarch_models[(pick + k) % n];

		if (!u->arch || u->arch == f->arch)
			return u;
	}
	return NULL;
}

static void print_func(const struct profile *p, const struct cpi_func *cf)
{
	struct fuzz_capture c;
	struct json j;

	fuzz_capture_begin(&c);
	cpi_print_func(stdout, p, cf, "fuzz.elf", 0);
	size_t text = fuzz_capture_mark();
	json_init(&j, stdout, 0);
	cpi_json_func(&j, p, cf, "fuzz.elf");
	CHECK(json_finish(&j) == 0);
	fuzz_capture_end(&c);
	fuzz_check_text("the text output", c.obuf, text);
	CHECK(fuzz_valid_json(c.obuf + text, c.olen - text));
	CHECK(!c.elen);
	fuzz_capture_free(&c);
}

static void analyse(struct insn_func *f, const uint8_t *data, size_t size, size_t salt)
{
	struct cpi_func cf;
	struct profile p;
	struct cpi_opts o = { .event = EV_CYCLES, .period = 1000 };
	char err[512];

	check_func(f);
	memset(&cf, 0, sizeof cf);
	cf.fn = *f;
	memset(f, 0, sizeof *f);   /* cf owns it now */
	make_profile(&p, &cf.fn, data, size, salt);
	o.uarch = model_for(&cf.fn, data[salt % size]);
	err[0] = 0;
	if (cpi_func_analyze(&p, &o, &cf, err, sizeof err)) {
		CHECK(err[0] && !strchr(err, '\n'));
	} else {
		check_cfg(&cf.cfg);
		check_result(&cf);
		print_func(&p, &cf);
	}
	cpi_func_free(&cf);
	profile_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct insn_func *fs = NULL, one;
	size_t n = 0;
	char err[512];

	if (fd < 0) {
		fd = memfd_create("fuzz_cpi", MFD_CLOEXEC);
		CHECK(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (!size)
		return 0;
	CHECK(ftruncate(fd, 0) == 0);
	CHECK(pwrite(fd, data, size, 0) == (ssize_t)size);

	err[0] = 0;
	if (insn_func_load_all(path, &fs, &n, err, sizeof err)) {
		CHECK(err[0] && !strchr(err, '\n') && !fs && !n);
		return 0;
	}
	for (size_t i = 0; i < n && i < MAX_BY_NAME; i++) {
		char name[256], addr[32];

		snprintf(name, sizeof name, "%s", fs[i].name);
		snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)fs[i].start);
		for (int k = 0; k < 2; k++) {
			err[0] = 0;
			if (insn_func_load(path, k ? addr : name, &one, err, sizeof err)) {
				CHECK(err[0] && !strchr(err, '\n'));
				continue;
			}
			check_func(&one);
			insn_func_free(&one);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (i < MAX_FUNCS && fs[i].n)
			analyse(&fs[i], data, size, i);
	insn_funcs_free(fs, n);
	return 0;
}
