/* SPDX-License-Identifier: BSD-2-Clause */
/* Running the harness image over the blocks (bhive_run.h): blocks the host can judge by
 * themselves (too long, undecodable, leaving the block) are not sent; the others go in
 * batches of at most BHIVE_IN_MAX bytes, one QEMU run each, and each result line is
 * taken as it arrives. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bhive/bhive_access.h"
#include "bhive/bhive_rip.h"
#include "bhive/bhive_run.h"
#include "bhive/bhive_unroll.h"
#include "run/image_run.h"
#include "util/util.h"

#define LINE_MAX_LEN 1024

struct ctx {
	struct bhive_run *r;
	const struct bhive_blocks *b;
	const uint8_t *in_batch;         /* per block: sent in this batch */
	char line[LINE_MAX_LEN];
	size_t n;
	size_t done, total, got;
	unsigned pass;                   /* 0, then each retry of the unstable blocks */
	int ended;
	char error[LINE_MAX_LEN];
};

static void progress(struct ctx *c)
{
	if (c->r->progress)
		fprintf(stderr, "\rbmprof: bhive: %zu/%zu blocks", c->done, c->total);
}

static void take_result(struct ctx *c, const char *line)
{
	struct bhive_result x;
	uint32_t i;

	if (bhive_parse_line(line, &i, &x) || i >= c->b->n || !c->in_batch[i] ||
	    c->r->res[i].have)
		return;
	x.u_lo = c->r->res[i].u_lo;
	x.u_hi = c->r->res[i].u_hi;
	x.insns = c->r->res[i].insns;
	x.pass = c->pass;
	if (c->pass && x.status == BHIVE_OK)
		c->r->retried_ok++;
	if (x.status == BHIVE_GENERAL_PROTECTION && c->r->arch == BHIVE_ARCH_AARCH64)
		x.status = BHIVE_PRIVILEGED;   /* the harness tells EL1's instructions apart */
	else if (x.status == BHIVE_GENERAL_PROTECTION)
		x.status = bhive_refine_gp(c->b->v[i].code, c->b->v[i].len, x.offset,
					   x.have_regs ? x.regs : NULL);
	if (x.status == BHIVE_MISALIGNED)
		bhive_misaligned_reason(c->r->arch == BHIVE_ARCH_AARCH64, c->b->v[i].code,
					c->b->v[i].len, &x);
	x.ran = 1;
	c->r->res[i] = x;
	c->done++;
	c->got++;
	progress(c);
}

static void take_line(struct ctx *c, const char *line)
{
	if (!strncmp(line, "@bhive ", 7))
		take_result(c, line);
	else if (!strncmp(line, "@bhive-clock ", 13)) {
		bhive_parse_clock(line, c->r->clock, sizeof c->r->clock);
	} else if (!strncmp(line, "@bhive-error ", 13)) {
		snprintf(c->error, sizeof c->error, "%s", line + 13);
	} else if (!strncmp(line, "@bhive-timings ", 15)) {
		if (c->r->show_timings)
			fprintf(stderr, "bmprof: bhive: timings %s\n", line + 15);
	} else if (!strncmp(line, "@bhive-end", 10)) {
		c->ended = 1;
	}
}

static void on_text(void *vc, const char *text, size_t len)
{
	struct ctx *c = vc;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			c->line[c->n < sizeof c->line ? c->n : sizeof c->line - 1] = 0;
			take_line(c, c->line);
			c->n = 0;
		} else if (c->n < sizeof c->line - 1) {
			c->line[c->n++] = text[i];
		}
	}
}

/* Appends block i to buf (at *n, capacity cap); 0 when it does not fit. */
static int pack(uint8_t *buf, size_t *n, size_t cap, uint32_t i, const struct bhive_block *k,
		const struct bhive_result *x, int x86)
{
	struct bhive_in_block h = { .index = i, .len = (uint16_t)k->len, .u_lo = (uint16_t)x->u_lo,
				    .u_hi = (uint16_t)x->u_hi };
	struct bhive_in_rip rip[BHIVE_MAX_RIP];
	static struct bhive_in_access acc[BHIVE_MAX_ACCESS];
	unsigned align = 0;
	size_t code = (sizeof h + k->len + 3) & ~(size_t)3, need, rips;

	/* rip-relative operands are x86-64's; AArch64's pc-relative ones stay as they are */
	h.nrip = x86 ? (uint8_t)bhive_rip_operands(k->code, k->len, rip, &align) : 0;
	h.rip_align = (uint8_t)align;
	h.nacc = (uint16_t)bhive_accesses(!x86, k->code, k->len, acc, BHIVE_MAX_ACCESS);
	if (x86 && bhive_accesses_fixed(k->code, k->len, acc, h.nacc)) {
		int rip = 0;
		for (unsigned i = 0; i < h.nacc; i++)
			rip |= acc[i].flags & BHIVE_ACC_RIP;
		h.flags = !rip || h.nrip ? BHIVE_BLK_FIXED_ADDR : 0;
	}
	rips = h.nrip * sizeof *rip;
	need = code + rips + h.nacc * sizeof *acc;
	if (*n + need > cap)
		return 0;
	memcpy(buf + *n, &h, sizeof h);
	memcpy(buf + *n + sizeof h, k->code, k->len);
	memset(buf + *n + sizeof h + k->len, 0, code - sizeof h - k->len);
	memcpy(buf + *n + code, rip, rips);
	memcpy(buf + *n + code + rips, acc, h.nacc * sizeof *acc);
	*n += need;
	return 1;
}

static int write_file(const uint8_t *buf, size_t n, char *path, size_t pn)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, pn, "%s/bmprof-bhive-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		bm_err("bhive: cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	if (write(fd, buf, n) != (ssize_t)n) {
		bm_err("bhive: cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* One QEMU run over the blocks marked in c->in_batch, packed in buf. */
static int run_batch(struct ctx *c, uint8_t *buf, size_t n, uint32_t count)
{
	struct bhive_run *r = c->r;
	struct bhive_in_header h = { .magic = BHIVE_MAGIC, .count = count,
				     .flags = (r->show_timings ? BHIVE_IN_TIMINGS : 0) |
					      (r->unstable_first && !c->pass ?
					       BHIVE_IN_UNSTABLE : 0),
				     .max_faults = r->max_faults };
	char path[PATH_MAX], fwcfg[PATH_MAX + 64];
	char *extra[2] = { "-fw_cfg", fwcfg };
	int rc = 0;

	memcpy(buf, &h, sizeof h);
	if (write_file(buf, n, path, sizeof path))
		return EXIT_FAILED;
	snprintf(fwcfg, sizeof fwcfg, "name=%s,file=%s", BHIVE_FWCFG_NAME, path);
	struct image_run ir = {
		.image = r->image, .qemu = r->qemu, .accel = r->accel, .icount = r->icount,
		.timeout = r->timeout, .freq = 1000, .extra = extra, .nextra = 2,
		.command = "bhive", .on_text = on_text, .text_ctx = c,
	};
	c->got = 0;
	c->ended = 0;
	c->error[0] = 0;
	c->n = 0;
	if (image_run(&ir)) {
		unlink(path);
		return EXIT_FAILED;
	}
	unlink(path);
	r->accel_used = ir.accel_used;
	r->batches++;
	if (c->error[0]) {
		bm_err("bhive: the harness refused its input: %s", c->error);
		rc = EXIT_FAILED;
	} else if (!c->ended || c->got != count) {
		if (r->progress)
			fputc('\n', stderr);
		image_say_how_it_ended(&ir);
		bm_err("bhive: the harness stopped after %zu of the %u blocks it was given; the "
		       "others are reported as not-run", c->got, count);
		rc = ir.res.how == QEMU_EXITED ? EXIT_CRASHED : image_exit_status(&ir);
		if (!rc)
			rc = EXIT_CRASHED;
	}
	image_run_free(&ir);
	return rc;
}

static void precheck(struct bhive_run *r, const struct bhive_blocks *b, size_t *to_run)
{
	*to_run = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct bhive_result *x = &r->res[i];
		size_t bad = 0;
		x->status = BHIVE_NOT_RUN;
		if (!bhive_unroll_factors(b->v[i].len, &x->u_lo, &x->u_hi)) {
			x->status = BHIVE_TOO_LONG;
			x->have = 1;
			continue;
		}
		int st = r->arch == BHIVE_ARCH_AARCH64 ?
			bhive_precheck_a64(b->v[i].code, b->v[i].len, &x->insns, &bad) :
			bhive_precheck(b->v[i].code, b->v[i].len, &x->insns, &bad);
		if (st != BHIVE_OK) {
			x->status = st;
			x->offset = (long)bad;
			x->have = 1;
			continue;
		}
		++*to_run;
	}
}

/* Every block not judged yet, in batches of at most BHIVE_IN_MAX bytes, one QEMU run
 * each. */
static int run_pending(struct ctx *c, uint8_t *buf, uint8_t *mark)
{
	struct bhive_run *r = c->r;
	const struct bhive_blocks *b = c->b;
	size_t i = 0;
	int rc = 0;

	while (i < b->n && !rc) {
		size_t n = sizeof(struct bhive_in_header);
		uint32_t count = 0;
		memset(mark, 0, b->n);
		for (; i < b->n; i++) {
			if (r->res[i].have)
				continue;
			if (!pack(buf, &n, BHIVE_IN_MAX, (uint32_t)i, &b->v[i], &r->res[i],
				  r->arch != BHIVE_ARCH_AARCH64))
				break;
			mark[i] = 1;
			count++;
		}
		if (count)
			rc = run_batch(c, buf, n, count);
	}
	return rc;
}

int bhive_run(struct bhive_run *r, const struct bhive_blocks *b)
{
	struct ctx c = { .r = r, .b = b };
	uint8_t *buf = malloc(BHIVE_IN_MAX), *mark = calloc(b->n ? b->n : 1, 1);
	int rc;

	r->res = calloc(b->n ? b->n : 1, sizeof *r->res);
	if (!buf || !mark || !r->res) {
		bm_err("bhive: out of memory");
		free(buf);
		free(mark);
		return EXIT_FAILED;
	}
	c.in_batch = mark;
	precheck(r, b, &c.total);
	progress(&c);
	rc = run_pending(&c, buf, mark);
	/* A block left unstable met a busy host in every round: run those again in a later
	 * QEMU run, which may meet a quiet moment */
	while (!rc && c.pass < r->retries) {
		size_t k = bhive_again_unstable(r->res, b->n);

		if (!k)
			break;
		if (!c.pass)
			r->retried = k;   /* every later retry is of some of these */
		c.done -= k;
		c.pass++;
		rc = run_pending(&c, buf, mark);
	}
	for (size_t i = 0; i < b->n; i++)
		if (!r->res[i].have)
			r->res[i].status = BHIVE_NOT_RUN;
	if (r->progress)
		fprintf(stderr, "\r\033[K");
	free(buf);
	free(mark);
	return rc;
}

void bhive_run_free(struct bhive_run *r)
{
	free(r->res);
	r->res = NULL;
}

double bhive_core_per_tick_of(const struct bhive_run *r, const struct bhive_result *x)
{
	if (!strcmp(r->clock, "pmc"))
		return 1;
	return bhive_core_per_tick(x->cal_lo, x->cal_hi);
}

double bhive_cycles(const struct bhive_run *r, const struct bhive_result *x)
{
	double t, k;

	if (x->status != BHIVE_OK)
		return -1;
	t = bhive_throughput(x->t_lo, x->t_hi, x->u_lo, x->u_hi);
	if (t < 0)
		return -1;
	k = bhive_core_per_tick_of(r, x);
	return k > 0 ? t * k : t;
}

static const char *clock_name(const struct bhive_run *r, double k)
{
	if (!strcmp(r->clock, "pmc"))
		return "pmc-core-cycles";
	if (!strcmp(r->clock, "cntvct"))
		return k > 0 ? "cntvct-scaled" : "cntvct-ticks";
	return k > 0 ? "tsc-scaled" : "tsc-ticks";
}

void bhive_detail(const struct bhive_run *r, const struct bhive_result *x, char *out,
		  size_t n)
{
	size_t at = 0;

#define ADD(...) do { int w_ = snprintf(out + at, at < n ? n - at : 0, __VA_ARGS__); \
		if (w_ > 0) at += (size_t)w_; } while (0)
	out[0] = 0;
	ADD("insns=%u", x->insns);
	if (x->u_hi)
		ADD(";u=%u+%u", x->u_lo, x->u_hi);
	if (!x->ran) {   /* judged by the host, or never measured */
		if (x->status == BHIVE_UNDECODABLE)
			ADD(";offset=%ld", x->offset);
		return;
	}
	ADD(";faults=%u;pages=%u;written=%u", x->faults, x->pages, x->written);
	if (x->vector >= 0)
		ADD(";vector=%ld;error=0x%llx;offset=%ld", x->vector,
		    (unsigned long long)x->error, x->offset);
	if (r->arch == BHIVE_ARCH_AARCH64 ? x->vector == 0x20 || x->vector == 0x24 :
	    x->vector == 14 || x->acc_size)
		/* an instruction or data abort (FAR), a page fault (CR2), a misaligned access
		 * the harness computed the address of */
		ADD(";addr=0x%llx", (unsigned long long)x->addr);
	if (x->status == BHIVE_MISALIGNED && x->acc_size)
		ADD(";size=%u", x->acc_size);
	if (x->status == BHIVE_MISALIGNED)
		ADD(";reason=%s", bhive_misaligned_name(x->misaligned));
	if (x->rounds)
		ADD(";kept=%u+%u/%u;rounds=%u;ticks=%llu+%llu", x->kept_lo, x->kept_hi,
		    BHIVE_TIMINGS, x->rounds, (unsigned long long)x->t_lo,
		    (unsigned long long)x->t_hi);
	double k = bhive_core_per_tick_of(r, x);
	if (x->rounds)
		ADD(";clock=%s", clock_name(r, k));
	if (x->rounds && k > 0 && strcmp(r->clock, "pmc"))
		ADD(";core/%s=%.4f", r->clock, k);
	if (x->pass)
		ADD(";retry=%u", x->pass);
	ADD(";accel=%s", r->accel_used == QEMU_ACCEL_KVM ? "kvm" :
	    r->icount ? "tcg-icount" : "tcg");
#undef ADD
}
