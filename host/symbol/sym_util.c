/* SPDX-License-Identifier: BSD-2-Clause */
/* Small containers and a bounded byte reader for the symbolizer. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "symbol/sym_internal.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap, maplen;
	_Alignas(16) unsigned char mem[];
};

/* Chunks are mapped 2 MiB-aligned and marked for transparent huge pages: the decoded
 * tables of a large image run to tens of MiB, and faulting them in 4 KiB at a time was a
 * visible share of a batch. */
#define ARENA_CHUNK ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

static struct arena_chunk *map_chunk(size_t need)
{
	size_t len = (sizeof(struct arena_chunk) + need + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uint8_t *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	if ((uintptr_t)p + HUGE_PAGE > a)
		munmap((void *)(a + len), (uintptr_t)p + HUGE_PAGE - a);
#ifdef MADV_HUGEPAGE
	madvise((void *)a, len, MADV_HUGEPAGE);
#endif
	struct arena_chunk *c = (struct arena_chunk *)a;
	c->used = 0;
	c->maplen = len;
	c->cap = len - sizeof(*c);
	return c;
}

static void *arena_take(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->head;
	if (!c || c->cap - c->used < n) {
		c = map_chunk(n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK - sizeof(*c));
		if (!c)
			return NULL;
		/* A big one-off block goes behind the current chunk so its free space stays usable. */
		if (a->head && n > ARENA_CHUNK / 4) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	void *p = c->mem + c->used;
	c->used += n;
	return p;
}

void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (!a->lock)
		return arena_take(a, n);
	pthread_mutex_lock(a->lock);
	void *p = arena_take(a, n);
	pthread_mutex_unlock(a->lock);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = arena_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

char *arena_join(struct arena *a, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = arena_alloc(a, dl + nl + 2);
	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	return p;
}

void arena_adopt(struct arena *dst, struct arena *src)
{
	struct arena_chunk *c = src->head;

	if (!c)
		return;
	while (c->next)
		c = c->next;
	c->next = dst->head ? dst->head->next : NULL;
	if (dst->head)
		dst->head->next = src->head;
	else
		dst->head = src->head;
	src->head = NULL;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head;
	while (c) {
		struct arena_chunk *n = c->next;
		munmap(c, c->maplen);
		c = n;
	}
	a->head = NULL;
}

static size_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

uint32_t *u64map_find(struct u64map *m, uint64_t key)
{
	if (key == UINT64_MAX)
		return m->has_max ? &m->max_val : NULL;
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	for (size_t i = hash64(key) & mask;; i = (i + 1) & mask) {
		if (m->e[i].key == key)
			return &m->e[i].val;
		if (m->e[i].key == UINT64_MAX)
			return NULL;
	}
}

static int u64map_grow(struct u64map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	struct u64map_entry *e = malloc(cap * sizeof(*e));
	if (!e)
		return -1;
	for (size_t i = 0; i < cap; i++)
		e[i].key = UINT64_MAX;
	for (size_t j = 0; j < m->cap; j++) {
		if (m->e[j].key == UINT64_MAX)
			continue;
		size_t i = hash64(m->e[j].key) & (cap - 1);
		while (e[i].key != UINT64_MAX)
			i = (i + 1) & (cap - 1);
		e[i] = m->e[j];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

uint32_t *u64map_slot(struct u64map *m, uint64_t key)
{
	if (key == UINT64_MAX) {
		if (!m->has_max) {
			m->has_max = true;
			m->max_val = SYM_NONE;
		}
		return &m->max_val;
	}
	if ((m->n + 1) * 2 > m->cap && u64map_grow(m) < 0)
		return NULL;
	size_t mask = m->cap - 1;
	size_t i = hash64(key) & mask;
	while (m->e[i].key != key && m->e[i].key != UINT64_MAX)
		i = (i + 1) & mask;
	if (m->e[i].key == UINT64_MAX) {
		m->e[i].key = key;
		m->e[i].val = SYM_NONE;
		m->n++;
	}
	return &m->e[i].val;
}

void u64map_remove(struct u64map *m, uint64_t key)
{
	if (key == UINT64_MAX) {
		m->has_max = false;
		return;
	}
	if (!m->cap)
		return;
	size_t mask = m->cap - 1, i = hash64(key) & mask;
	while (m->e[i].key != key) {
		if (m->e[i].key == UINT64_MAX)
			return;
		i = (i + 1) & mask;
	}
	/* backward-shift deletion keeps every probe chain unbroken */
	for (size_t j = i;;) {
		j = (j + 1) & mask;
		if (m->e[j].key == UINT64_MAX)
			break;
		size_t h = hash64(m->e[j].key) & mask;
		bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
		if (stays)
			continue;
		m->e[i] = m->e[j];
		i = j;
	}
	m->e[i].key = UINT64_MAX;
	m->n--;
}

void u64map_free(struct u64map *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

void *vec_grow_push(struct vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		void *d = realloc(v->data, cap * v->elem);
		if (!d)
			return NULL;
		v->data = d;
		v->cap = cap;
	}
	return (char *)v->data + v->elem * v->n++;
}

void vec_free(struct vec *v)
{
	free(v->data);
	v->data = NULL;
	v->n = v->cap = 0;
}

const char *rd_cstr(struct rd *r)
{
	const uint8_t *z = r->err ? NULL : memchr(r->p, 0, rd_left(r));
	if (!z) {
		r->err = true;
		return NULL;
	}
	const char *s = (const char *)r->p;
	r->p = z + 1;
	return s;
}
