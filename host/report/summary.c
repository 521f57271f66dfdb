/* SPDX-License-Identifier: BSD-2-Clause */
/* The capture summary: see summary.h. */
#include "report/summary.h"
#include "symbol/symbolize.h"

#include <inttypes.h>
#include <string.h>

#include "events.h"
#include "wire_text.h"
#include "profile/profile_bound.h"
#include "report/run_notes.h"
#include "util/util.h"

#define MAX_CPU_ROWS 16

static const char *x86_vector(uint32_t v)
{
	static const char *const name[] = {
		"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", NULL,
		"#TS", "#NP", "#SS", "#GP", "#PF", NULL, "#MF", "#AC", "#MC", "#XM",
	};

	return v < sizeof(name) / sizeof(name[0]) && name[v] ? name[v] : NULL;
}

/* Cortex-M exception numbers (IPSR) of the faults and system exceptions. */
static const char *cm_vector(uint32_t v)
{
	static const char *const name[] = {
		NULL, NULL, "NMI", "HardFault", "MemManage", "BusFault", "UsageFault",
		"SecureFault", NULL, NULL, NULL, "SVCall", "DebugMonitor", NULL, "PendSV", "SysTick",
	};

	if (v >= 16)
		return "external interrupt";
	return name[v];
}

/* For an image the loader relocated (HELLO's load_bias): " (link-time 0x..., load bias
 * 0x...)", the fault pc as the ELF's address; else "". */
static const char *link_pc(char *buf, size_t len, const struct profile *p)
{
	uint64_t bias = p->have_hello ? p->hello.load_bias : 0;

	if (!bias)
		return "";
	snprintf(buf, len, " (link-time 0x%" PRIx64 ", load bias 0x%" PRIx64 ")",
		 p->end.fault_pc - bias, bias);
	return buf;
}

void summary_end(char *buf, size_t len, const struct profile *p)
{
	const struct bmprof_end_info *e = &p->end;
	const char *vn;
	char lpc[80];

	if (!p->have_end) {
		snprintf(buf, len, "no END frame: the run did not finish, or its end was lost");
		return;
	}
	switch (e->reason) {
	case BMPROF_END_EXIT:
		snprintf(buf, len, "exit code %" PRId32, e->exit_code);
		break;
	case BMPROF_END_EXCEPTION:
		vn = p->hello.arch == BMPROF_ARCH_X86_64 ? x86_vector(e->vector) :
		     p->hello.arch == BMPROF_ARCH_CORTEX_M ? cm_vector(e->vector) : NULL;
		snprintf(buf, len, "CPU exception %" PRIu32 "%s%s%s at pc 0x%" PRIx64 "%s, fault "
			 "address 0x%" PRIx64, e->vector, vn ? " (" : "", vn ? vn : "",
			 vn ? ")" : "", e->fault_pc, link_pc(lpc, sizeof lpc, p), e->fault_addr);
		break;
	case BMPROF_END_PANIC:
		snprintf(buf, len, "the runtime panicked (code %" PRId32 ")", e->exit_code);
		break;
	default:
		snprintf(buf, len, "unknown end reason %u (code %" PRId32 ")", e->reason,
			 e->exit_code);
	}
}

static const char *stop_reason(const char *why)
{
	if (!strcmp(why, "timeout"))
		return "the timeout expired";
	if (!strcmp(why, "interrupted"))
		return "it was interrupted";
	if (!strcmp(why, "stalled"))
		return "no frame came for the --stall time";
	return why;
}

int summary_recovered(char *buf, size_t len, const struct profile *p)
{
	const char *why = profile_meta(p, "recovered"), *n = profile_meta(p, "recovered_samples");
	const char *cpus = profile_meta(p, "recovered_cpus");

	if (!why)
		return 0;
	snprintf(buf, len, "the run did not end (%s): QEMU was stopped and the %s samples %s "
		 "CPU%s still held were read from its memory", stop_reason(why), n ? n : "?",
		 cpus ? cpus : "?", cpus && !strcmp(cpus, "1") ? "" : "s");
	return 1;
}

/* The recovery's own lines: where each vCPU was, and CPUs whose state did not add up. */
static void print_recovered(FILE *f, const struct profile *p)
{
	const char *pcs = profile_meta(p, "recovered_pcs");
	const char *bad = profile_meta(p, "recovered_inexact");
	char line[300];

	if (!summary_recovered(line, sizeof line, p))
		return;
	fprintf(f, "  recovered %s\n", line);
	if (pcs) {
		unsigned i = 0;

		fprintf(f, "  stopped   ");
		for (const char *c = pcs; *c; i++) {
			size_t k = strcspn(c, ",");
			fprintf(f, "%svCPU %u at %.*s", i ? ", " : "", i, (int)k, c);
			c += k + (c[k] == ',');
		}
		fputc('\n', f);
	}
	if (bad)
		fprintf(f, "  warning   not exact: %s\n", bad);
}

/* One event: its period, where it was counted, its counts; or why it was not counted. */
static void print_event(FILE *f, const struct profile *p, const struct profile_event *e)
{
	char buf[200];
	struct profile_count_sum s;

	fprintf(f, "  event %-3u %s", e->id, e->name[0] ? e->name : "?");
	if (e->status != BMPROF_EVST_ACTIVE) {
		fprintf(f, ": %s\n", events_status_text(buf, sizeof(buf), e));
		return;
	}
	if ((e->flags & BMPROF_EVENT_COUNTING) || !e->period)
		fprintf(f, ", counted, not sampled");
	else if (e->source == BMPROF_SOURCE_TIMER && p->hello.timebase_hz)
		fprintf(f, ", period %" PRIu64 " ticks, %.6g Hz", e->period,
			(double)p->hello.timebase_hz / (double)e->period);
	else
		fprintf(f, ", period %" PRIu64, e->period);
	if (e->flags & BMPROF_EVENT_RANDOMIZED)
		fprintf(f, " (randomized in [%" PRIu64 ", %" PRIu64 "])",
			e->jitter < e->period ? e->period - e->jitter : 0, e->period);
	if (e->have_status && e->counter_kind != BMPROF_CTR_TIMER)
		fprintf(f, ", %s", events_counter_text(buf, sizeof(buf), e, p->hello.arch));
	if (e->reason != BMPROF_EVR_NONE)
		fprintf(f, " (%s)", events_reason_text(e->reason));
	if (e->precise == BMPROF_PRECISE_PEBS)
		fprintf(f, ", by PEBS records");
	else if (e->precise != BMPROF_PRECISE_NONE)
		fprintf(f, ", by its interrupt (no PEBS: %s)", bmprof_precise_text(e->precise));
	if (e->ngroups > 1 && e->group != 0xff)
		fprintf(f, ", group %u of %u", e->group + 1u, e->ngroups);
	if (!profile_event_count(p, e->id, -1, &s)) {
		fprintf(f, ", count %" PRIu64, s.value);
		if (s.running < s.enabled)
			fprintf(f, " (on a counter %.1f%% of the time; scaled %.0f)",
				s.enabled ? 100.0 * (double)s.running / (double)s.enabled : 0.0,
				profile_count_scaled(&s));
	}
	fputc('\n', f);
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
			"build-id %s\n", bmprof_arch_name(h->arch),
			h->vendor[0] ? h->vendor : "?", h->family, h->model, h->ncpus,
			h->build_id_len ? bm_hex(id, sizeof(id), h->build_id, h->build_id_len) :
			"none");
	if (events_sampling_fell_back(p))
		fprintf(f, "  source    timer: events were requested, but none samples on the PMU "
			"(sampling fell back to the timer)\n");
	for (i = 0; i < p->nevents; i++)
		print_event(f, p, &p->events[i]);
	if (p->hello_mismatch)
		fprintf(f, "  warning   %" PRIu64 " later HELLO frames named another image or "
			"architecture: the first one is used\n", p->hello_mismatch);
}

/* With the shared-memory transport (meta written by bmprof qemu): what the rings carried. */
static void print_transport(FILE *f, const struct profile *p)
{
	const char *t = profile_meta(p, "transport"), *recs = profile_meta(p, "shm_records");
	const char *drop = profile_meta(p, "shm_dropped_frames");
	const char *lost = profile_meta(p, "shm_lost_frames");

	if (!t || strcmp(t, "shm") || !recs)
		return;
	fprintf(f, "  transport shared-memory rings: %s records; %s frames dropped by the target "
		"(ring full), %s missing by sequence number\n", recs, drop ? drop : "?",
		lost ? lost : "?");
}

static void print_frames(FILE *f, const struct profile *p)
{
	fprintf(f, "  frames    %" PRIu64 " ok; rejected: %" PRIu64 " bad CRC, %" PRIu64
		" unknown type, %" PRIu64 " malformed; %" PRIu64 " bytes skipped%s\n",
		p->frames_ok, p->frames_bad_crc, p->frames_unknown, p->frames_malformed,
		p->bytes_skipped, p->truncated ? "; the stream ended inside a frame" : "");
}

unsigned summary_cpu_end(const struct profile *p)
{
	unsigned n = p->have_hello ? p->hello.ncpus : 0;

	if (n > PROFILE_MAX_CPUS)
		n = PROFILE_MAX_CPUS;
	return n > p->ncpus_seen ? n : p->ncpus_seen;
}

int summary_cpu_listed(const struct profile *p, unsigned cpu)
{
	return cpu < PROFILE_MAX_CPUS &&
	       (p->cpus[cpu].seen || (p->have_hello && cpu < p->hello.ncpus));
}

/* Why delivered samples did not all arrive, as far as the stream tells; "" if it does not. */
static void transit_why(char *buf, size_t len, const struct profile *p, const struct profile_cpu *c)
{
	int n = 0;

	buf[0] = 0;
	if (c->seq_gaps)
		n = snprintf(buf, len, "%" PRIu64 " SAMPLES frame%s missing", c->seq_gaps,
			     c->seq_gaps == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && (p->frames_bad_crc || p->bytes_skipped || p->truncated))
		snprintf(buf + n, len - (size_t)n, "%sthe stream was corrupted", n ? "; " : "");
}

static int counters_disagree(const struct profile_cpu *c)
{
	const uint64_t *t = c->totals;

	return c->have_totals && t[BMPROF_TOTAL_TAKEN] != t[BMPROF_TOTAL_DELIVERED] +
		t[BMPROF_TOTAL_LOST_FULL] + t[BMPROF_TOTAL_LOST_TRANSPORT];
}

void summary_cpu_fate(char *buf, size_t len, const struct profile *p, unsigned cpu)
{
	const struct profile_cpu *c = &p->cpus[cpu];
	const uint64_t *t = c->totals;
	uint64_t full = t[BMPROF_TOTAL_LOST_FULL], xmit = t[BMPROF_TOTAL_LOST_TRANSPORT];
	uint64_t transit = profile_cpu_lost_in_transit(c);
	char why[128];
	size_t n;

	if (!c->seen) {
		snprintf(buf, len, "sent nothing: no samples and no TOTALS");
		return;
	}
	if (!c->have_totals) {
		snprintf(buf, len, "received %" PRIu64 "; no TOTALS (its stream was cut short): "
			 "taken and lost unknown", c->received);
		return;
	}
	n = (size_t)snprintf(buf, len, "taken %" PRIu64 ", delivered %" PRIu64 ", lost %" PRIu64,
			     t[BMPROF_TOTAL_TAKEN], t[BMPROF_TOTAL_DELIVERED], full + xmit);
	if ((full || xmit) && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (%" PRIu64 " buffers full, %" PRIu64
				      " transport failed)", full, xmit);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "; received %" PRIu64, c->received);
	if (transit && n < len) {
		transit_why(why, sizeof(why), p, c);
		n += (size_t)snprintf(buf + n, len - n, " of %" PRIu64 ": %" PRIu64 " lost in "
				      "transit%s%s%s", t[BMPROF_TOTAL_DELIVERED], transit,
				      why[0] ? " (" : "", why, why[0] ? ")" : "");
	}
	if (counters_disagree(c) && n < len)
		snprintf(buf + n, len - n, "; taken != delivered + lost: the target's counters "
			 "disagree");
}

unsigned summary_cpu_warnings(const struct profile *p, unsigned cpu, char *out, size_t len,
			      unsigned max)
{
	const struct profile_cpu *c = &p->cpus[cpu];
	uint64_t full = c->totals[BMPROF_TOTAL_LOST_FULL];
	uint64_t xmit = c->totals[BMPROF_TOTAL_LOST_TRANSPORT];
	uint64_t transit = profile_cpu_lost_in_transit(c);
	unsigned n = 0;
	char why[128];
#define WARN(...) do { if (n < max) snprintf(out + len * n++, len, __VA_ARGS__); } while (0)

	if (!summary_cpu_listed(p, cpu))
		return 0;
	if (!c->seen)
		WARN("cpu %u sent nothing (HELLO named %u CPUs): no samples and no TOTALS", cpu,
		     p->hello.ncpus);
	else if (!c->have_totals)
		WARN("cpu %u sent no TOTALS frame: its stream was cut short, so how many samples it "
		     "took and lost is unknown", cpu);
	if (c->have_totals && (full || xmit))
		WARN("cpu %u lost %" PRIu64 " samples on the target (%" PRIu64 " buffers full, %"
		     PRIu64 " transport failed)", cpu, full + xmit, full, xmit);
	if (transit) {
		transit_why(why, sizeof(why), p, c);
		WARN("cpu %u: %" PRIu64 " delivered samples did not arrive (lost in transit%s%s)",
		     cpu, transit, why[0] ? ": " : "", why);
	} else if (c->seq_gaps) {
		WARN("cpu %u: %" PRIu64 " SAMPLES frames missing by sequence number", cpu,
		     c->seq_gaps);
	}
	if (counters_disagree(c))
		WARN("cpu %u: taken != delivered + lost: the target's counters disagree", cpu);
	return n;
#undef WARN
}

/* Call stacks: the chains, and the samples that kept none (never silent). */
static void print_stacks(FILE *f, const struct profile *p)
{
	uint64_t full = 0;

	for (unsigned i = 0; i < PROFILE_MAX_CPUS; i++)
		full += p->cpus[i].totals[BMPROF_TOTAL_STACK_FULL];
	if (!profile_has_stacks(p) && !full)
		return;
	fprintf(f, "  stacks    %zu distinct chains", p->nstacks ? p->nstacks - 1 : 0);
	if (full)
		fprintf(f, "; %" PRIu64 " samples kept no chain: the target's stack table was full",
			full);
	if (p->stack_unknown)
		fprintf(f, "; %" PRIu64 " samples name a chain that never arrived", p->stack_unknown);
	fputc('\n', f);
}

int summary_raw(char *buf, size_t len, const struct profile *p)
{
	uint64_t t[5] = { 0 }, received = 0, gaps = 0;
	unsigned told = 0, seen = 0;
	size_t n;

	for (unsigned i = 0; i < PROFILE_MAX_CPUS; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		received += c->raw_received;
		gaps += c->raw_seq_gaps;
		if (c->raw_frames)
			seen++;
		if (!c->have_totals || c->ntotals <= BMPROF_TOTAL_RAW_TAKEN ||
		    !c->totals[BMPROF_TOTAL_RAW_TAKEN])
			continue;
		told++;
		for (unsigned k = 0; k < 5; k++)
			t[k] += c->totals[BMPROF_TOTAL_RAW_TAKEN + k];
	}
	if (!told && !seen)
		return 0;
	if (told)
		n = (size_t)snprintf(buf, len, "taken %" PRIu64 ", delivered %" PRIu64 ", lost %"
				     PRIu64 " (%" PRIu64 " raw buffer full, %" PRIu64 " transport "
				     "failed); received %" PRIu64 " of %" PRIu64 " delivered",
				     t[0], t[1], t[2] + t[3], t[2], t[3], received, t[1]);
	else
		n = (size_t)snprintf(buf, len, "received %" PRIu64 " (no TOTALS: taken and lost "
				     "unknown)", received);
	if (n < len && gaps)
		n += (size_t)snprintf(buf + n, len - n, ", %" PRIu64 " frames missing", gaps);
	if (n < len && p->raw_over_cap)
		snprintf(buf + n, len - n, "; %zu kept, %" PRIu64 " past the memory bound (raise "
			 "%s)", p->nraw, p->raw_over_cap, PROFILE_BOUND_ENV);
	return 1;
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

static void cpu_row(const struct profile_cpu *c, struct cpu_row *r, struct cpu_row *all)
{
	r->taken = c->totals[BMPROF_TOTAL_TAKEN];
	r->delivered = c->totals[BMPROF_TOTAL_DELIVERED];
	r->lost_full = c->totals[BMPROF_TOTAL_LOST_FULL];
	r->lost_transport = c->totals[BMPROF_TOTAL_LOST_TRANSPORT];
	r->received = c->received;
	r->missing = profile_cpu_lost_in_transit(c);
	r->gaps = c->seq_gaps;
	all->taken += r->taken;
	all->delivered += r->delivered;
	all->lost_full += r->lost_full;
	all->lost_transport += r->lost_transport;
	all->received += r->received;
	all->missing += r->missing;
	all->gaps += r->gaps;
}

/* The per-CPU table, then one warning line per problem on a CPU. */
static void print_cpus(FILE *f, const struct profile *p)
{
	struct cpu_row all = { 0 };
	unsigned i, end = summary_cpu_end(p), rows = 0, more = 0;
	int all_totals = 1;
	char label[16], warn[6][300];

	fprintf(f, "  %-5s %12s %12s %10s %10s %12s %10s %8s\n", "cpu", "taken", "delivered",
		"lost:full", "lost:xmit", "received", "missing", "gaps");
	for (i = 0; i < end; i++) {
		const struct profile_cpu *c = &p->cpus[i];
		struct cpu_row r = { 0 };

		if (!summary_cpu_listed(p, i))
			continue;
		cpu_row(c, &r, &all);
		all_totals &= c->have_totals;
		if (rows++ >= MAX_CPU_ROWS) {
			more++;
			continue;
		}
		snprintf(label, sizeof(label), "%u", i);
		if (c->seen)
			print_row(f, label, &r, c->have_totals);
		else
			fprintf(f, "  %-5s nothing arrived from this CPU\n", label);
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
		fprintf(f, "  note      '-': no TOTALS frame from that CPU (its stream was cut "
			"short before the run's flush), so its losses on the target are unknown\n");
	for (i = 0; i < end; i++) {
		unsigned n = summary_cpu_warnings(p, i, warn[0], sizeof(warn[0]),
						  sizeof(warn) / sizeof(warn[0]));

		for (unsigned k = 0; k < n; k++)
			fprintf(f, "  warning   %s\n", warn[k]);
	}
}

static void print_fault(FILE *f, const struct profile *p, const char *elf);

void summary_print(FILE *f, const struct profile *p, const char *source, const char *elf)
{
	char end[160], clock[200], warn[4][RUN_NOTE_LEN], note[4][RUN_NOTE_LEN], raw[300];
	unsigned nw, nn;

	fprintf(f, "bmprof: stream from %s\n", source);
	print_target(f, p);
	print_transport(f, p);
	print_frames(f, p);
	print_cpus(f, p);
	print_recovered(f, p);
	if (p->over_cap)
		fprintf(f, "  samples   %" PRIu64 " at more than %zu distinct (pc, event, cpu), the "
			"bound on memory: the file has them all; raise %s to report it\n", p->total,
			p->max_entries, PROFILE_BOUND_ENV);
	else
		fprintf(f, "  samples   %" PRIu64 " at %zu distinct (pc, event, cpu)\n", p->total,
			p->nsamples);
	print_stacks(f, p);
	if (summary_raw(raw, sizeof raw, p))
		fprintf(f, "  raw       %s\n", raw);
	summary_end(end, sizeof(end), p);
	fprintf(f, "  ended     %s\n", end);
	print_fault(f, p, elf);
	run_notes_clock(clock, sizeof clock, p);
	if (clock[0])
		fprintf(f, "  clock     %s\n", clock);
	nw = run_notes(p, warn, note, 4, &nn);
	for (unsigned i = 0; i < nw; i++)
		fprintf(f, "  warning   %s\n", warn[i]);
	for (unsigned i = 0; i < nn; i++)
		fprintf(f, "  note      %s\n", note[i]);
}

void summary_expect_stacks(FILE *f, const struct profile *p)
{
	if (!profile_has_stacks(p))
		fprintf(f, "bmprof: warning: -g: the stream has no call stacks: the image decides "
			"whether it sends them (stack_depth in its configuration, docs/image.md; "
			"cfg.stack_depth for a kernel that links the library)\n");
}

static void print_fault(FILE *f, const struct profile *p, const char *elf)
{
	uint64_t bias = p->have_hello ? p->hello.load_bias : 0;
	struct symbolizer *s;
	struct sym_result res;
	char err[512], safe[3][600];

	if (!p->have_end || p->end.reason != BMPROF_END_EXCEPTION || !elf ||
	    !(s = symbolizer_open(elf, err, sizeof err)))
		return;
	if (!symbolizer_lookup(s, p->end.fault_pc - bias, &res) && res.symbol) {
		const struct sym_frame *in = res.nframes ? &res.frames[0] : NULL;
		fprintf(f, "  crashed   in %s+0x%" PRIx64, bm_safe(safe[0], sizeof safe[0],
			res.symbol), res.addr - res.sym_start);
		if (in && in->line)
			fprintf(f, " at %s:%u", bm_safe(safe[1], sizeof safe[1], in->file), in->line);
		if (res.nframes > 1 && strcmp(in->function, res.frames[res.nframes - 1].function))
			fprintf(f, " (%s, inlined into %s)", bm_safe(safe[1], sizeof safe[1],
				in->function), bm_safe(safe[2], sizeof safe[2],
				res.frames[res.nframes - 1].function));
		fputc('\n', f);
	}
	symbolizer_close(s);
}
