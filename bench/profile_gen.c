/* SPDX-License-Identifier: BSD-2-Clause */
/* Write a valid, deterministic profile file with many distinct sampled pcs, for the report
 * scaling benchmark (make bench-report).
 *
 *   profile_gen --pcs N [--cpus C] [--elf ELF] [--build-id HEX] [--text LO:HI] OUT
 *
 * The profile is what a target that samples outside its image sends: a few thousand hot pcs
 * in the image's text [LO, HI) (every fourth byte, counts falling off with rank), and the
 * rest of the N distinct pcs outside it, above 4 GiB, a small random step apart (one byte
 * per delta on the wire), spread over C CPUs. A tenth of the outside pcs are sent a second
 * time, so the host has to add counts up, not just store entries. TOTALS match what was
 * sent: taken = delivered = received on every CPU. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define MAX_CPUS 16
#define ENTRIES_PER_FRAME 16384
#define OUTSIDE_BASE 0x100000000ull

struct out {
	FILE *f;
	uint64_t frames;
};

struct batch {
	uint8_t buf[BMPROF_WIRE_MAX_PAYLOAD];
	size_t len;
	unsigned n;
	uint64_t prev;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void die(const char *what)
{
	fprintf(stderr, "profile_gen: %s\n", what);
	exit(1);
}

static void frame(struct out *o, uint8_t type, const uint8_t *payload, size_t len)
{
	uint8_t hdr[BMPROF_FRAME_HDR] = { BMPROF_MAGIC0, BMPROF_MAGIC1, BMPROF_MAGIC2,
					  BMPROF_MAGIC3, type, 0 };
	uint8_t crc[BMPROF_FRAME_CRC];

	bmprof_put16(hdr + 6, (uint16_t)len);
	bmprof_put32(crc, bmprof_crc32(bmprof_crc32(0, hdr + 4, 4), payload, len));
	if (fwrite(hdr, 1, sizeof hdr, o->f) != sizeof hdr || fwrite(payload, 1, len, o->f) != len ||
	    fwrite(crc, 1, sizeof crc, o->f) != sizeof crc)
		die("write failed");
	o->frames++;
}

static void meta(struct out *o, const char *key, const char *value)
{
	uint8_t b[1024];
	size_t kl = strlen(key), vl = strlen(value);

	if (kl > 255 || 3 + kl + vl > sizeof b)
		die("meta value too long");
	b[0] = (uint8_t)kl;
	memcpy(b + 1, key, kl);
	bmprof_put16(b + 1 + kl, (uint16_t)vl);
	memcpy(b + 3 + kl, value, vl);
	frame(o, BMPROF_FRAME_HOST_META, b, 3 + kl + vl);
}

static void hello(struct out *o, unsigned ncpus, const uint8_t *id, unsigned idlen)
{
	uint8_t b[BMPROF_HELLO_FIXED + BMPROF_BUILD_ID_MAX + BMPROF_HELLO_CORE_HZ] = { 0 };

	bmprof_put16(b, 1);
	b[2] = BMPROF_ARCH_X86_64;
	b[3] = BMPROF_SOURCE_TIMER;
	bmprof_put16(b + 4, (uint16_t)ncpus);
	bmprof_put64(b + 8, 1000000000ull);
	memcpy(b + 24, "GenuineIntel", 12);
	bmprof_put32(b + 40, 6);
	bmprof_put32(b + 44, 0xcf);
	b[56] = (uint8_t)idlen;
	memcpy(b + BMPROF_HELLO_FIXED, id, idlen);
	frame(o, BMPROF_FRAME_HELLO, b, BMPROF_HELLO_FIXED + idlen);
}

static void timer_event(struct out *o)
{
	uint8_t b[BMPROF_EVENT_FIXED + 1 + 5 + 6] = { 0 };

	b[2] = BMPROF_SOURCE_TIMER;
	bmprof_put64(b + 12, 1000000);
	b[BMPROF_EVENT_FIXED] = 5;
	memcpy(b + BMPROF_EVENT_FIXED + 1, "timer", 5);
	b[BMPROF_EVENT_FIXED + 6 + 2] = BMPROF_CTR_TIMER;
	b[BMPROF_EVENT_FIXED + 6 + 3] = 0xff;
	b[BMPROF_EVENT_FIXED + 6 + 4] = 0xff;
	b[BMPROF_EVENT_FIXED + 6 + 5] = 1;
	frame(o, BMPROF_FRAME_EVENT, b, sizeof b);
}

struct gen {
	struct out o;
	unsigned ncpus;
	struct batch b[MAX_CPUS];
	uint32_t seq[MAX_CPUS];
	uint64_t sent[MAX_CPUS];
};

static void flush(struct gen *g, unsigned cpu)
{
	struct batch *b = &g->b[cpu];

	if (!b->n)
		return;
	bmprof_put16(b->buf, (uint16_t)cpu);
	bmprof_put16(b->buf + 2, (uint16_t)b->n);
	bmprof_put32(b->buf + 4, g->seq[cpu]++);
	frame(&g->o, BMPROF_FRAME_SAMPLES, b->buf, b->len);
	b->n = 0;
	b->len = BMPROF_SAMPLES_FIXED;
	b->prev = 0;
}

static void sample(struct gen *g, unsigned cpu, uint64_t pc, uint64_t count)
{
	struct batch *b = &g->b[cpu];

	if (b->n == ENTRIES_PER_FRAME || b->len + 3 * BMPROF_VARINT_MAX > sizeof b->buf)
		flush(g, cpu);
	b->len += bmprof_put_varint(b->buf + b->len, 0);
	b->len += bmprof_put_varint(b->buf + b->len, bmprof_zigzag((int64_t)(pc - b->prev)));
	b->len += bmprof_put_varint(b->buf + b->len, count);
	b->prev = pc;
	b->n++;
	g->sent[cpu] += count;
}

static unsigned parse_hex(const char *s, uint8_t *out, unsigned max)
{
	unsigned n = 0;

	for (; s[0] && s[1] && n < max; s += 2) {
		unsigned v;
		if (sscanf(s, "%2x", &v) != 1)
			die("--build-id takes hex digits");
		out[n++] = (uint8_t)v;
	}
	return n;
}

int main(int argc, char **argv)
{
	uint64_t npcs = 0, lo = 0x100000, hi = 0x110000;
	const char *elf = NULL, *path = NULL;
	uint8_t id[BMPROF_BUILD_ID_MAX];
	unsigned idlen = 0;
	struct gen *g = calloc(1, sizeof *g);

	if (!g)
		die("out of memory");
	g->ncpus = 2;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pcs") && i + 1 < argc)
			npcs = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			g->ncpus = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			elf = argv[++i];
		else if (!strcmp(argv[i], "--build-id") && i + 1 < argc)
			idlen = parse_hex(argv[++i], id, sizeof id);
		else if (!strcmp(argv[i], "--text") && i + 1 < argc) {
			if (sscanf(argv[++i], "%" SCNx64 ":%" SCNx64, &lo, &hi) != 2 || hi <= lo)
				die("--text takes LO:HI in hex");
		} else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			die("usage: profile_gen --pcs N [--cpus C] [--elf ELF] [--build-id HEX] "
			    "[--text LO:HI] OUT");
	}
	if (!path || !npcs || !g->ncpus || g->ncpus > MAX_CPUS)
		die("usage: profile_gen --pcs N [--cpus C] [--elf ELF] [--build-id HEX] "
		    "[--text LO:HI] OUT (N > 0, 1 <= C <= 16)");
	if (!(g->o.f = fopen(path, "wb")))
		die("cannot create the output file");
	for (unsigned c = 0; c < g->ncpus; c++)
		g->b[c].len = BMPROF_SAMPLES_FIXED;

	meta(&g->o, "format", "bmprof-profile-1");
	if (elf)
		meta(&g->o, "elf", elf);
	meta(&g->o, "command", "profile_gen");
	hello(&g->o, g->ncpus, id, idlen);
	timer_event(&g->o);

	/* hot pcs in the image: every fourth byte of its text, at most 4096 or a tenth */
	uint64_t nin = (hi - lo) / 4, cap = npcs / 10 ? npcs / 10 : 1;
	nin = nin > 4096 ? 4096 : nin;
	nin = nin > cap ? cap : nin;
	for (uint64_t k = 0; k < nin; k++)
		sample(g, (unsigned)(k % g->ncpus), lo + 4 * k, 1 + 100000 / (1 + (next_rand() % (k + 1))));
	/* the rest outside the image, a few bytes apart; a tenth of them sent again */
	uint64_t pc = OUTSIDE_BASE, nout = npcs - nin, again = rng;
	for (uint64_t k = 0; k < nout; k++) {
		pc += 1 + next_rand() % 60;
		sample(g, (unsigned)(k % g->ncpus), pc, 1 + next_rand() % 3);
	}
	rng = again;
	pc = OUTSIDE_BASE;
	for (uint64_t k = 0; k < nout; k++) {
		pc += 1 + next_rand() % 60;
		uint64_t count = 1 + next_rand() % 3;
		if (k % 10 == 0)
			sample(g, (unsigned)(k % g->ncpus), pc, count);
	}
	for (unsigned c = 0; c < g->ncpus; c++)
		flush(g, c);

	for (unsigned c = 0; c < g->ncpus; c++) {
		uint8_t t[BMPROF_TOTALS_FIXED + 8 * 8] = { 0 };
		bmprof_put16(t, (uint16_t)c);
		bmprof_put16(t + 2, 8);
		bmprof_put64(t + 4 + 8 * BMPROF_TOTAL_TAKEN, g->sent[c]);
		bmprof_put64(t + 4 + 8 * BMPROF_TOTAL_DELIVERED, g->sent[c]);
		bmprof_put64(t + 4 + 8 * BMPROF_TOTAL_FRAMES, g->seq[c]);
		frame(&g->o, BMPROF_FRAME_TOTALS, t, sizeof t);
	}
	uint8_t end[BMPROF_END_FIXED] = { 0 };
	frame(&g->o, BMPROF_FRAME_END, end, sizeof end);
	uint8_t st[40] = { 0 };
	bmprof_put64(st, g->o.frames);
	frame(&g->o, BMPROF_FRAME_HOST_STREAM, st, sizeof st);
	if (fclose(g->o.f))
		die("write failed");
	free(g);
	return 0;
}
