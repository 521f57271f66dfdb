/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the profile file loader (profile_load_mem, the in-memory form of
 * profile_load): any input loads or is refused with a one-line reason, and a loaded model
 * is consistent.
 *
 * Input: byte 0 holds flags, the profile file follows. Bit 0 set: the frames laid end to
 * end in the file get their correct CRCs first (see fixcrc.h), so mutated payloads reach
 * the frame decoders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixcrc.h"
#include "profile.h"
#include "profile/profile_io.h"

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                         \
	} while (0)

static void check_model(const struct profile *p)
{
	uint64_t sum = 0, received = 0;

	for (size_t i = 0; i < p->nsamples; i++) {
		CHECK(p->samples[i].count > 0 && p->samples[i].cpu < PROFILE_MAX_CPUS);
		sum += p->samples[i].count;
	}
	for (unsigned c = 0; c < PROFILE_MAX_CPUS; c++) {
		received += p->cpus[c].received;
		CHECK(!p->cpus[c].seen || c < p->ncpus_seen);
	}
	CHECK(sum == p->total && received == p->total);
	CHECK(p->nevents <= PROFILE_MAX_EVENTS && p->ncpus_seen <= PROFILE_MAX_CPUS);
	for (unsigned i = 0; i < p->nevents; i++)
		CHECK(memchr(p->events[i].name, 0, sizeof(p->events[i].name)));
	for (size_t i = 0; i < p->nmeta; i++)
		CHECK(p->meta[i].key[0] && p->meta[i].value);
	/* what report and annotate ask of a loaded profile */
	CHECK(profile_meta(p, "format"));   /* a later HOST_META may change its value */
	for (unsigned i = 0; i < p->nevents; i++) {
		struct profile_count_sum s;

		CHECK(profile_event(p, p->events[i].id) != NULL);
		profile_event_count(p, p->events[i].id, -1, &s);
		(void)profile_count_scaled(&s);
		CHECK(profile_event_scale(p, p->events[i].id) >= 1.0);
	}
	for (unsigned c = 0; c < p->ncpus_seen; c++)
		(void)profile_cpu_lost_in_transit(&p->cpus[c]);
	/* raw samples: each a register file the analyses can index, every one received kept
	 * or counted past the bound */
	uint64_t raw_received = 0;
	for (unsigned c = 0; c < PROFILE_MAX_CPUS; c++)
		raw_received += p->cpus[c].raw_received;
	CHECK(raw_received == p->nraw + p->raw_over_cap);
	CHECK(!p->max_entries || p->nraw <= p->max_entries);
	for (size_t i = 0; i < p->nraw; i++) {
		const struct profile_raw *r = &p->raw[i];
		CHECK(r->cpu < PROFILE_MAX_CPUS && p->cpus[r->cpu].seen);
		CHECK(r->regs.n >= 1 && r->regs.n <= REGFILE_MAX);
		CHECK(r->regs.n == REGFILE_MAX || !(r->regs.valid >> r->regs.n));
		CHECK(!(r->flags & ~BMPROF_RAWF_KNOWN));
		for (unsigned k = 0; k < REGFILE_MAX; k++)
			CHECK(regfile_has(&r->regs, k) || r->regs.r[k] == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	char err[512];
	int rc;

	uint8_t *file = NULL;

	if (!size)
		return 0;
	if (data[0] & 1) {
		file = malloc(size);
		CHECK(file);
		memcpy(file, data + 1, size - 1);
		fix_crcs(file, size - 1);
	}
	profile_init(&p);
	err[0] = 0;
	rc = profile_load_mem(file ? file : data + 1, size - 1, "fuzz.data", &p, err, sizeof(err));
	CHECK(rc >= -1 && rc <= 1);
	/* a refusal or a warning is one line naming the file */
	CHECK(!rc || (err[0] && !strchr(err, '\n') && strstr(err, "fuzz.data")));
	if (rc >= 0) {
		check_model(&p);
		CHECK(rc == 1 || (!p.file_truncated && p.have_stream));
	}
	profile_free(&p);
	free(file);
	return 0;
}
