/* The capture summary: see summary.h. */
#include "summary.h"

#include <inttypes.h>
#include <string.h>

#include "util.h"

#define MAX_CPU_ROWS 16

static const char *x86_vector(uint32_t v)
{
	static const char *const name[] = {
		"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", NULL,
		"#TS", "#NP", "#SS", "#GP", "#PF", NULL, "#MF", "#AC", "#MC", "#XM",
	};

	return v < sizeof(name) / sizeof(name[0]) && name[v] ? name[v] : NULL;
}

void summary_end(char *buf, size_t len, const struct profile *p)
{
	const struct bmprof_end_info *e = &p->end;
	const char *vn;

	if (!p->have_end) {
		snprintf(buf, len, "no END frame: the run did not finish, or its end was lost");
		return;
	}
	switch (e->reason) {
	case BMPROF_END_EXIT:
		snprintf(buf, len, "exit code %" PRId32, e->exit_code);
		break;
	case BMPROF_END_EXCEPTION:
		vn = p->hello.arch == BMPROF_ARCH_X86_64 ? x86_vector(e->vector) : NULL;
		snprintf(buf, len, "CPU exception %" PRIu32 "%s%s%s at pc 0x%" PRIx64
			 ", fault address 0x%" PRIx64, e->vector, vn ? " (" : "", vn ? vn : "",
			 vn ? ")" : "", e->fault_pc, e->fault_addr);
		break;
	case BMPROF_END_PANIC:
		snprintf(buf, len, "the runtime panicked (code %" PRId32 ")", e->exit_code);
		break;
	default:
		snprintf(buf, len, "unknown end reason %u (code %" PRId32 ")", e->reason,
			 e->exit_code);
	}
}

static void print_target(FILE *f, const struct profile *p)
{
	const struct profile_hello *h = &p->hello;
	char id[2 * BMPROF_BUILD_ID_MAX + 1];
	unsigned i;

	if (!p->have_hello)
		fprintf(f, "  target    no HELLO frame: the start of the stream was lost\n");
	else
		fprintf(f, "  target    %s %s family %" PRIu32 " model 0x%" PRIx32 ", %u CPUs, "
			"build-id %s\n", h->arch == BMPROF_ARCH_X86_64 ? "x86_64" :
			h->arch == BMPROF_ARCH_AARCH64 ? "aarch64" : "unknown-arch",
			h->vendor[0] ? h->vendor : "?", h->family, h->model, h->ncpus,
			h->build_id_len ? bm_hex(id, sizeof(id), h->build_id, h->build_id_len) :
			"none");
	for (i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];

		fprintf(f, "  event %-3u %s, period %" PRIu64, e->id, e->name[0] ? e->name : "?",
			e->period);
		if (e->flags & BMPROF_EVENT_RANDOMIZED)
			fprintf(f, " (randomized in [%" PRIu64 ", %" PRIu64 "])",
				e->jitter < e->period ? e->period - e->jitter : 0, e->period);
		fputc('\n', f);
	}
	if (p->hello_mismatch)
		fprintf(f, "  warning   %" PRIu64 " later HELLO frames named another image or "
			"architecture: the first one is used\n", p->hello_mismatch);
}

static void print_frames(FILE *f, const struct profile *p)
{
	fprintf(f, "  frames    %" PRIu64 " ok; rejected: %" PRIu64 " bad CRC, %" PRIu64
		" unknown type, %" PRIu64 " malformed; %" PRIu64 " bytes skipped%s\n",
		p->frames_ok, p->frames_bad_crc, p->frames_unknown, p->frames_malformed,
		p->bytes_skipped, p->truncated ? "; the stream ended inside a frame" : "");
}

struct cpu_row {
	uint64_t taken, delivered, lost_full, lost_transport, received, missing, gaps;
};

static void print_row(FILE *f, const char *label, const struct cpu_row *r, int totals)
{
	if (totals)
		fprintf(f, "  %-5s %12" PRIu64 " %12" PRIu64 " %10" PRIu64 " %10" PRIu64,
			label, r->taken, r->delivered, r->lost_full, r->lost_transport);
	else
		fprintf(f, "  %-5s %12s %12s %10s %10s", label, "-", "-", "-", "-");
	fprintf(f, " %12" PRIu64 " %10" PRIu64 " %8" PRIu64 "\n", r->received, r->missing,
		r->gaps);
}

static void print_cpus(FILE *f, const struct profile *p)
{
	struct cpu_row all = { 0 };
	unsigned i, rows = 0, more = 0, bad = 0;
	int all_totals = 1;
	char label[16];

	fprintf(f, "  %-5s %12s %12s %10s %10s %12s %10s %8s\n", "cpu", "taken", "delivered",
		"lost:full", "lost:xmit", "received", "missing", "gaps");
	for (i = 0; i < p->ncpus_seen; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		struct cpu_row r = { 0 };

		if (!c->seen)
			continue;
		r.taken = c->totals[BMPROF_TOTAL_TAKEN];
		r.delivered = c->totals[BMPROF_TOTAL_DELIVERED];
		r.lost_full = c->totals[BMPROF_TOTAL_LOST_FULL];
		r.lost_transport = c->totals[BMPROF_TOTAL_LOST_TRANSPORT];
		r.received = c->received;
		r.missing = profile_cpu_lost_in_transit(c);
		r.gaps = c->seq_gaps;
		all.taken += r.taken;
		all.delivered += r.delivered;
		all.lost_full += r.lost_full;
		all.lost_transport += r.lost_transport;
		all.received += r.received;
		all.missing += r.missing;
		all.gaps += r.gaps;
		all_totals &= c->have_totals;
		if (c->have_totals && r.taken != r.delivered + r.lost_full + r.lost_transport)
			bad++;
		if (rows++ >= MAX_CPU_ROWS) {
			more++;
			continue;
		}
		snprintf(label, sizeof(label), "%u", i);
		print_row(f, label, &r, c->have_totals);
	}
	if (!rows) {
		fprintf(f, "  (no CPU sent samples or totals)\n");
		return;
	}
	if (more)
		fprintf(f, "  ... %u more CPUs\n", more);
	if (rows > 1)
		print_row(f, "all", &all, all_totals);
	if (!all_totals)
		fprintf(f, "  note      '-': no TOTALS frame from that CPU (the run did not "
			"flush it), so losses on the target are unknown\n");
	if (bad)
		fprintf(f, "  warning   on %u CPUs taken != delivered + lost: the target's "
			"counters disagree\n", bad);
	if (all.gaps)
		fprintf(f, "  warning   %" PRIu64 " SAMPLES frames missing by sequence number "
			"(dropped or corrupted in transit)\n", all.gaps);
}

void summary_print(FILE *f, const struct profile *p, const char *source)
{
	char end[160];

	fprintf(f, "bmprof: stream from %s\n", source);
	print_target(f, p);
	print_frames(f, p);
	print_cpus(f, p);
	fprintf(f, "  samples   %" PRIu64 " at %zu distinct (pc, event, cpu)\n", p->total,
		p->nsamples);
	summary_end(end, sizeof(end), p);
	fprintf(f, "  ended     %s\n", end);
}
