/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared-memory transport for a QEMU run: the QEMU arguments that map the file as an
 * ivshmem device, the config line that tells the runtime to use it, and the summary of
 * what the rings carried. See docs/transport-shm.md. */
#include "run/shm_qemu.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

char **shm_qemu_args(const struct shm_file *f, const char *arch, int uefi, char *const *user,
		     int nuser, int *n)
{
	char **v = calloc((size_t)nuser + 8, sizeof *v);
	char *obj = malloc(2 * strlen(f->path) + 128), *o;
	int k = 0;

	if (!v || !obj) {
		free(v);
		free(obj);
		return NULL;
	}
	o = obj + sprintf(obj, "memory-backend-file,id=bmshm,share=on,size=%zu,mem-path=", f->size);
	for (const char *p = f->path; *p; p++) {
		*o++ = *p;
		if (*p == ',')
			*o++ = ',';
	}
	*o = 0;
	v[k++] = "-object";
	v[k++] = obj;
	v[k++] = "-device";
	v[k++] = "ivshmem-plain,memdev=bmshm";
	/* AArch64 virt: the plain runtime maps 32-bit addresses only; highmem=off puts the
	 * PCIe ECAM at 0x3f000000 instead of above 4 GiB. Under UEFI the firmware enumerates
	 * PCI and maps the BAR wherever it puts it (above 4 GiB with highmem on). */
	if (!strcmp(arch, "aarch64") && !uefi) {
		v[k++] = "-machine";
		v[k++] = "highmem=off";
	}
	for (int i = 0; i < nuser; i++)
		v[k++] = user[i];
	*n = k;
	return v;
}

void shm_qemu_args_free(char **v)
{
	if (v)
		free(v[1]);
	free(v);
}

char *shm_qemu_config(const char *config, unsigned long freq)
{
	char *s;

	if (config ? asprintf(&s, "%s\ntransport=shm\n", config) < 0 :
		     asprintf(&s, "freq=%lu\ntransport=shm\n", freq) < 0)
		return NULL;
	return s;
}

/* A producer stopped mid-record: the one record it reserved and had not published is
 * neither dropped nor lost. */
static uint64_t uncut(struct shm_totals *t)
{
	uint64_t cut = 0;

	t->agree = 1;
	for (unsigned i = 0; i < t->nrings; i++) {
		struct shm_ring_stats *s = &t->ring[i];

		if (s->lost == s->dropped_records + 1) {
			s->lost--;
			t->lost_records--;
			cut++;
		}
		if (s->lost != s->dropped_records)
			t->agree = 0;
	}
	return cut;
}

int shm_qemu_conclude(struct capture *cap, const struct shm_consumer *c, int verbose,
		      int stopped)
{
	struct shm_totals t;
	char recs[32], drec[32], dbytes[32], lost[32], cut[32];
	uint64_t ncut;

	shm_consumer_totals(c, &t);
	ncut = stopped && t.nrings ? uncut(&t) : 0;
	if (!t.nrings) {
		bm_err("--transport shm: the image did not use the shared-memory rings (its console "
		       "says why above); the profile came over the serial port");
		return -1;
	}
	snprintf(recs, sizeof recs, "%" PRIu64, t.records);
	snprintf(drec, sizeof drec, "%" PRIu64, t.dropped_records);
	snprintf(dbytes, sizeof dbytes, "%" PRIu64, t.dropped_bytes);
	snprintf(lost, sizeof lost, "%" PRIu64, t.lost_records);
	struct bm_kv kv[] = {
		{ "shm_records", recs }, { "shm_dropped_frames", drec },
		{ "shm_dropped_bytes", dbytes }, { "shm_lost_frames", lost },
	};
	capture_meta(cap, kv, sizeof kv / sizeof kv[0]);
	if (ncut) {
		struct bm_kv k = { "shm_cut_frames", cut };

		snprintf(cut, sizeof cut, "%" PRIu64, ncut);
		capture_meta(cap, &k, 1);
	}
	if (verbose)
		fprintf(stderr, "bmprof: shm transport: %u ring%s, %" PRIu64 " frames (%" PRIu64
			" bytes); %" PRIu64 " frames (%" PRIu64 " bytes) dropped for want of ring "
			"space, their samples counted as lost (transport)\n", t.nrings,
			t.nrings == 1 ? "" : "s", t.records, t.bytes, t.dropped_records,
			t.dropped_bytes);
	if (t.corrupt)
		bm_err("shm transport: a ring held a malformed record; the rest of that ring was "
		       "not read");
	if (!t.agree)
		bm_err("shm transport: %" PRIu64 " frames missing by sequence number, but the "
		       "image counted %" PRIu64 " dropped", t.lost_records, t.dropped_records);
	if (!t.final && !stopped)
		bm_err("shm transport: the image did not reach its final flush");
	return 0;
}
