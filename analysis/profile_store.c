/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model's sample store (profile.h): samples[0..nsorted) sorted by (pc, event,
 * cpu) and unique, then a pending tail in arrival order. A full tail is radix-sorted, its
 * repeats added up, and merged into the sorted part in place, so the store costs one
 * 20-byte entry per distinct (pc, event, cpu) plus a tail of at most a quarter of that:
 * no hash index, and the order every reader of a large profile wants. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_store.h"

/* The tail is merged when it would outgrow this, or a quarter of the sorted part. */
#define MIN_TAIL ((size_t)1 << 16)

static int key_cmp(const struct profile_sample *a, const struct profile_sample *b)
{
	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

static int cmp_sample(const void *a, const void *b)
{
	return key_cmp(a, b);
}

/* Byte k of the key, least significant first: cpu (2 bytes), event (2), pc (8). */
static inline unsigned key_byte(const struct profile_sample *s, unsigned k)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* where that byte lies in the packed entry */
	static const unsigned char at[12] = {
		offsetof(struct profile_sample, cpu), offsetof(struct profile_sample, cpu) + 1,
		offsetof(struct profile_sample, event), offsetof(struct profile_sample, event) + 1,
		0, 1, 2, 3, 4, 5, 6, 7,
	};
	return ((const unsigned char *)s)[at[k]];
#else
	if (k < 2)
		return (unsigned)(s->cpu >> (8 * k)) & 255;
	if (k < 4)
		return (unsigned)(s->event >> (8 * (k - 2))) & 255;
	return (unsigned)(s->pc >> (8 * (k - 4))) & 255;
#endif
}

/* Stable LSD radix sort of a[0..n) by key over the bytes in which the keys differ (the
 * counts of every byte taken in one pass); tmp has room for n. Returns the array the
 * result is in (a or tmp). */
static struct profile_sample *radix_bytes(struct profile_sample *a, struct profile_sample *tmp,
					  size_t n)
{
	struct profile_sample *src = a, *dst = tmp;
	size_t (*cnt)[256] = calloc(12, sizeof *cnt);

	if (!cnt) {
		qsort(a, n, sizeof *a, cmp_sample);
		return a;
	}
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < 12; k++)
			cnt[k][key_byte(&a[i], k)]++;
	for (unsigned k = 0; k < 12; k++) {
		size_t sum = 0;

		/* a byte all keys share leaves the order as it is */
		if (n && cnt[k][key_byte(&a[0], k)] == n)
			continue;
		for (unsigned b = 0; b < 256; b++) {
			size_t c = cnt[k][b];
			cnt[k][b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[k][key_byte(&src[i], k)]++] = src[i];
		struct profile_sample *t = src;
		src = dst;
		dst = t;
	}
	free(cnt);
	return src;
}

static unsigned bits_of(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

/* The bits in which keys differ, packed in one word that sorts as the key does: the low pc
 * bits above the low event bits above the low cpu bits (the bits above them are the same
 * in every key). */
struct packing {
	unsigned ev_shift, pc_shift, bits;
	uint64_t pc_mask, ev_mask, cpu_mask;
};

static inline uint64_t packed_key(const struct profile_sample *s, const struct packing *k)
{
	return (s->pc & k->pc_mask) << k->pc_shift | (uint64_t)(s->event & k->ev_mask) << k->ev_shift |
	       (s->cpu & k->cpu_mask);
}

#define DIGIT 11
#define DIGITS ((64 + DIGIT - 1) / DIGIT)

/* The sort, on the packed key in 11-bit digits when the differing bits fit a word (few
 * passes), else byte by byte. */
static struct profile_sample *radix_sort(struct profile_sample *a, struct profile_sample *tmp,
					 size_t n)
{
	uint64_t dpc = 0;
	unsigned dev = 0, dcpu = 0;
	struct packing k;

	for (size_t i = 1; i < n; i++) {
		dpc |= a[i].pc ^ a[0].pc;
		dev |= (unsigned)(a[i].event ^ a[0].event);
		dcpu |= (unsigned)(a[i].cpu ^ a[0].cpu);
	}
	unsigned bpc = bits_of(dpc), bev = bits_of(dev), bcpu = bits_of(dcpu);
	if (bpc + bev + bcpu > 64)
		return radix_bytes(a, tmp, n);
	k.pc_mask = bpc == 64 ? UINT64_MAX : ((uint64_t)1 << bpc) - 1;
	k.ev_mask = ((uint64_t)1 << bev) - 1;
	k.cpu_mask = ((uint64_t)1 << bcpu) - 1;
	k.ev_shift = bcpu;
	k.pc_shift = bpc ? bcpu + bev : 0;
	k.bits = bpc + bev + bcpu;

	unsigned passes = (k.bits + DIGIT - 1) / DIGIT;
	size_t (*cnt)[1 << DIGIT] = passes ? calloc(passes, sizeof *cnt) : NULL;
	struct profile_sample *src = a, *dst = tmp;
	if (passes && !cnt)
		return radix_bytes(a, tmp, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t key = packed_key(&a[i], &k);
		for (unsigned d = 0; d < passes; d++)
			cnt[d][key >> (DIGIT * d) & ((1u << DIGIT) - 1)]++;
	}
	for (unsigned d = 0; d < passes; d++) {
		size_t sum = 0;
		for (unsigned b = 0; b < 1u << DIGIT; b++) {
			size_t c = cnt[d][b];
			cnt[d][b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[d][packed_key(&src[i], &k) >> (DIGIT * d) & ((1u << DIGIT) - 1)]++] =
				src[i];
		struct profile_sample *t = src;
		src = dst;
		dst = t;
	}
	free(cnt);
	return src;
}

/* Adds up the entries of sorted a[0..n) that share a key; returns how many remain. */
static size_t combine(struct profile_sample *a, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m && !key_cmp(&a[m - 1], &a[i]))
			a[m - 1].count += a[i].count;
		else
			a[m++] = a[i];
	}
	return m;
}

/* Merge the tail into the sorted part. 0, or -1 when out of memory (the store is then
 * unchanged). */
static int merge_tail(struct profile *p)
{
	struct profile_sample *s = p->samples, *tmp, *b;
	size_t na = p->nsorted, nb = p->nsamples - na;

	if (!nb)
		return 0;
	tmp = malloc(nb * sizeof *tmp);
	if (!tmp)
		return -1;
	b = radix_sort(s + na, tmp, nb);
	if (b != tmp)
		memcpy(tmp, b, nb * sizeof *tmp);
	nb = combine(tmp, nb);
	/* backwards, so the sorted part moves up in place; keys in both are added up */
	size_t w = na + nb;
	long i = (long)na - 1, j = (long)nb - 1;
	while (j >= 0) {
		int c = i >= 0 ? key_cmp(&s[i], &tmp[j]) : -1;
		if (c > 0) {
			s[--w] = s[i--];
		} else if (c < 0) {
			s[--w] = tmp[j--];
		} else {
			s[--w] = s[i--];
			s[w].count += tmp[j--].count;
		}
	}
	/* repeats left a gap between the sorted part's untouched start and the merged rest */
	size_t keep = (size_t)(i + 1), n = keep + (na + nb - w);
	if (w > keep)
		memmove(s + keep, s + w, (na + nb - w) * sizeof *s);
	free(tmp);
	p->nsorted = p->nsamples = n;
	if (p->max_entries && n > p->max_entries)
		p->over_cap = 1;
	return 0;
}

int profile_store_room(struct profile *p, size_t extra)
{
	size_t tail = p->nsamples - p->nsorted;
	size_t max_tail = p->nsorted / 4 > MIN_TAIL ? p->nsorted / 4 : MIN_TAIL;

	if (tail && tail + extra > max_tail && merge_tail(p))
		return -1;
	if (p->over_cap)
		return 0;
	size_t need = p->nsamples + extra;
	if (need > p->samples_cap) {
		size_t cap = p->samples_cap + p->samples_cap / 4;
		cap = cap < need ? need : cap;
		cap = cap < 256 ? 256 : cap;
		struct profile_sample *s = realloc(p->samples, cap * sizeof *s);
		if (!s)
			return -1;
		p->samples = s;
		p->samples_cap = cap;
	}
	return 0;
}

void profile_store_append(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc,
			  uint64_t count)
{
	struct profile_sample *e = &p->samples[p->nsamples++];

	if (p->first_event < 0)
		p->first_event = event;
	e->pc = pc;
	e->count = count;
	e->event = event;
	e->cpu = cpu;
}

int profile_settle(struct profile *p)
{
	if (merge_tail(p))
		return -1;
	/* give back what the tail used */
	if (p->samples_cap > p->nsamples + p->nsamples / 8 + 256) {
		struct profile_sample *s = realloc(p->samples, (p->nsamples ? p->nsamples : 1) *
						   sizeof *s);
		if (s) {
			p->samples = s;
			p->samples_cap = p->nsamples ? p->nsamples : 1;
		}
	}
	return 0;
}

const struct profile_sample *profile_ordered(const struct profile *p, size_t *n,
					     struct profile_sample **copy)
{
	static const struct profile_sample none;
	size_t i = 1;

	*copy = NULL;
	*n = p->nsamples;
	if (!p->nsamples)
		return &none;
	if (p->nsorted == p->nsamples)
		return p->samples;   /* settled */
	while (i < p->nsamples && key_cmp(&p->samples[i - 1], &p->samples[i]) < 0)
		i++;
	if (i >= p->nsamples)
		return p->samples;
	*copy = malloc(p->nsamples * sizeof **copy);
	if (!*copy)
		return NULL;
	memcpy(*copy, p->samples, p->nsamples * sizeof **copy);
	qsort(*copy, p->nsamples, sizeof **copy, cmp_sample);
	*n = combine(*copy, p->nsamples);
	return *copy;
}
