/* SPDX-License-Identifier: BSD-2-Clause */
/* Recovery through QEMU's monitor: see recover_qemu.h. */
#include "run/recover_qemu.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/capture.h"
#include "run/qmp.h"
#include "util/util.h"

#define CMD_TIMEOUT 30.0           /* seconds for one monitor command */
#define RUN_MIN 0.002              /* seconds the machine runs between stops, doubling */
#define RUN_MAX 0.1

struct memsave {
	struct qmp *q;
	char dir[PATH_MAX];
	unsigned n;
};

/* len bytes at virtual address addr (CPU 0's view), through a file QEMU writes. */
static int ms_read(void *ctx, uint64_t addr, void *buf, size_t len, char *err, size_t errlen)
{
	struct memsave *m = ctx;
	char path[PATH_MAX + 32], quoted[2 * PATH_MAX + 80], cmd[3 * PATH_MAX + 200];
	FILE *f;
	size_t got;

	snprintf(path, sizeof path, "%s/m%u", m->dir, m->n++);
	if (qmp_quote(path, quoted, sizeof quoted)) {
		snprintf(err, errlen, "temporary path too long");
		return -1;
	}
	/* QMP takes the address as a signed 64-bit number */
	snprintf(cmd, sizeof cmd, "{\"execute\":\"memsave\",\"arguments\":{\"val\":%" PRId64
		 ",\"size\":%zu,\"filename\":%s,\"cpu-index\":0}}", (int64_t)addr, len, quoted);
	if (qmp_exec(m->q, cmd, CMD_TIMEOUT, NULL, err, errlen))
		return -1;
	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	got = fread(buf, 1, len, f);
	fclose(f);
	unlink(path);
	if (got != len) {
		snprintf(err, errlen, "QEMU saved %zu of %zu bytes at 0x%" PRIx64, got, len, addr);
		return -1;
	}
	return 0;
}

static int cmd(struct qmp *q, const char *name, char *err, size_t errlen)
{
	char c[96], e[400];

	snprintf(c, sizeof c, "{\"execute\":\"%s\"}", name);
	if (!qmp_exec(q, c, CMD_TIMEOUT, NULL, e, sizeof e))
		return 0;
	snprintf(err, errlen, "QEMU's monitor, %s: %s", name, e);
	return -1;
}

/* "0x...,0x..." from `info registers -a`: RIP (EIP) on x86, PC on AArch64, R15 on 32-bit
 * Arm (M-profile), pc (a name, then spaces) on RISC-V, per CPU. */
static void find_pcs(const char *text, char *out, size_t n)
{
	static const char *const keys[] = { "RIP=", "EIP=", " PC=", "R15=", " pc " };
	const unsigned nkeys = sizeof keys / sizeof keys[0];
	const char *p = text;
	size_t o = 0;

	out[0] = 0;
	while ((p = strstr(p, "CPU#"))) {
		const char *next = strstr(p + 4, "CPU#"), *r = NULL;
		unsigned k;

		for (k = 0; k < nkeys && !r; k++) {
			r = strstr(p, keys[k]);
			if (r && next && r > next)
				r = NULL;
		}
		if (r) {
			unsigned long long v = strtoull(r + strlen(keys[k - 1]), NULL, 16);
			int k = snprintf(out + o, n - o, "%s0x%llx", o ? "," : "", v);
			if (k < 0 || (size_t)k >= n - o)
				break;
			o += (size_t)k;
		}
		p += 4;
	}
}

static void read_pcs(struct recover_run *rr, struct qmp *q)
{
	char *reply = NULL, err[256];
	char *text;
	size_t n;

	if (qmp_exec(q, "{\"execute\":\"human-monitor-command\",\"arguments\":"
		     "{\"command-line\":\"info registers -a\"}}", CMD_TIMEOUT, &reply, err,
		     sizeof err))
		return;
	n = strlen(reply) + 1;
	text = malloc(n);
	if (text && !qmp_string(reply, "return", text, n))
		find_pcs(text, rr->pcs, sizeof rr->pcs);
	free(text);
	free(reply);
}

/* Stopped: read, and while a CPU is inside the sampler let the machine run and stop it
 * again. */
static int read_settled(struct recover_run *rr, struct qmp *q, const struct recover_mem *mem,
			uint64_t addr)
{
	double run = RUN_MIN;

	for (;;) {
		rr->stops++;
		if (recover_read(&rr->rec, mem, addr, rr->err, sizeof rr->err))
			return -1;
		if (!recover_busy(&rr->rec) || rr->stops >= RECOVER_QEMU_STOPS)
			return 0;
		recover_free(&rr->rec);
		if (cmd(q, "cont", rr->err, sizeof rr->err) || qmp_idle(q, run) ||
		    cmd(q, "stop", rr->err, sizeof rr->err)) {
			if (!rr->err[0])
				snprintf(rr->err, sizeof rr->err, "interrupted");
			return -1;
		}
		run = run * 2 < RUN_MAX ? run * 2 : RUN_MAX;
	}
}

int recover_qemu(struct recover_run *rr, struct qmp *q, uint64_t desc_addr)
{
	const char *tmp = getenv("TMPDIR");
	struct memsave m = { .q = q };
	struct recover_mem mem = { ms_read, &m };
	int rc = -1;

	memset(rr, 0, sizeof *rr);
	snprintf(m.dir, sizeof m.dir, "%s/bmprof-recover-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(m.dir)) {
		snprintf(rr->err, sizeof rr->err, "cannot create a temporary directory %.300s: %s",
			 m.dir, strerror(errno));
		return -1;
	}
	if (cmd(q, "stop", rr->err, sizeof rr->err) || read_settled(rr, q, &mem, desc_addr))
		goto out;
	if (recover_read_entries(&rr->rec, &mem, rr->err, sizeof rr->err))
		goto out;
	read_pcs(rr, q);
	rr->have = 1;
	rr->err[0] = 0;
	rc = 0;
out:
	rmdir(m.dir);
	return rc;
}

static int add_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	return capture_add_frame(ctx, type, payload, len);
}

/* "cpu N: problem; cpu M: problem" of the CPUs whose state did not add up. */
static void inexact(const struct recover *r, char *out, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	for (unsigned i = 0; i < r->ncpu && o < n; i++) {
		int k;

		if (!r->cpu[i].present || !r->cpu[i].problem[0])
			continue;
		k = snprintf(out + o, n - o, "%scpu %u: %s", o ? "; " : "", i, r->cpu[i].problem);
		if (k < 0)
			break;
		o += (size_t)k;
	}
}

int recover_qemu_conclude(struct recover_run *rr, struct capture *cap, const char *why,
			  struct recover_result *res)
{
	char samples[32], cpus[16], stops[16], flight[64], chains[160], raw[160], bad[2048];
	struct bm_kv kv[9];
	size_t n = 0;
	int rc;

	capture_end_input(cap);
	rc = recover_frames(&rr->rec, capture_profile(cap), add_frame, cap, res);
	snprintf(samples, sizeof samples, "%" PRIu64, res->samples);
	snprintf(cpus, sizeof cpus, "%u", res->cpus);
	snprintf(stops, sizeof stops, "%u", rr->stops);
	snprintf(flight, sizeof flight, "%u arrived, %u sent again", res->arrived, res->resent);
	snprintf(chains, sizeof chains, "%" PRIu64 " read from memory, %" PRIu64 " had arrived, %"
		 PRIu64 " samples without their chain", res->chains_read, res->chains_known,
		 res->unchained);
	snprintf(raw, sizeof raw, "%" PRIu64 " read from memory, %" PRIu64 " counted lost (a ring "
		 "that did not add up), %u frames being written had arrived", res->raw_samples,
		 res->raw_unread, res->raw_arrived);
	inexact(&rr->rec, bad, sizeof bad);
	kv[n++] = (struct bm_kv){ "recovered", why };
	kv[n++] = (struct bm_kv){ "recovered_samples", samples };
	kv[n++] = (struct bm_kv){ "recovered_cpus", cpus };
	kv[n++] = (struct bm_kv){ "recovered_stops", stops };
	kv[n++] = (struct bm_kv){ "recovered_in_flight", flight };
	if (res->stack_cpus)
		kv[n++] = (struct bm_kv){ "recovered_stacks", chains };
	if (res->raw_cpus)
		kv[n++] = (struct bm_kv){ "recovered_raw", raw };
	if (rr->pcs[0])
		kv[n++] = (struct bm_kv){ "recovered_pcs", rr->pcs };
	if (bad[0])
		kv[n++] = (struct bm_kv){ "recovered_inexact", bad };
	if (capture_meta(cap, kv, n))
		rc = -1;
	return rc;
}
