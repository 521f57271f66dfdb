/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model's sample store (profile.h): samples[0..nsorted) sorted by (pc, event,
 * cpu) and unique, then a pending tail in arrival order. A full tail is radix-sorted, its
 * repeats added up, and merged into the sorted part in place, so the store costs one
 * 20-byte entry per distinct (pc, event, cpu) plus a tail of at most a quarter of that:
 * no hash index, and the order every reader of a large profile wants. */
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

/* Byte k of the key, least significant first: cpu (2 bytes), event (2), pc (8). */
static unsigned key_byte(const struct profile_sample *s, unsigned k)
{
	if (k < 2)
		return (unsigned)(s->cpu >> (8 * k)) & 255;
	if (k < 4)
		return (unsigned)(s->event >> (8 * (k - 2))) & 255;
	return (unsigned)(s->pc >> (8 * (k - 4))) & 255;
}

/* Stable LSD radix sort of a[0..n) by key over the bytes in which the keys differ; tmp
 * has room for n. Returns the array the result is in (a or tmp). */
static struct profile_sample *radix_sort(struct profile_sample *a, struct profile_sample *tmp,
					 size_t n)
{
	struct profile_sample *src = a, *dst = tmp;
	uint64_t dpc = 0;
	unsigned dev = 0, dcpu = 0;

	for (size_t i = 1; i < n; i++) {
		dpc |= a[i].pc ^ a[0].pc;
		dev |= (unsigned)(a[i].event ^ a[0].event);
		dcpu |= (unsigned)(a[i].cpu ^ a[0].cpu);
	}
	for (unsigned k = 0; k < 12; k++) {
		unsigned differ = k < 2 ? dcpu >> (8 * k) : k < 4 ? dev >> (8 * (k - 2)) :
				  (unsigned)(dpc >> (8 * (k - 4)));
		size_t cnt[256] = { 0 }, sum = 0;

		if (!(differ & 255))
			continue;
		for (size_t i = 0; i < n; i++)
			cnt[key_byte(&src[i], k)]++;
		for (unsigned b = 0; b < 256; b++) {
			size_t c = cnt[b];
			cnt[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[key_byte(&src[i], k)]++] = src[i];
		struct profile_sample *t = src;
		src = dst;
		dst = t;
	}
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

static int cmp_sample(const void *a, const void *b)
{
	return key_cmp(a, b);
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
