/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoding CUs: one on demand, or all the CUs a batch needs on several threads (the line
 * programs and the DIE scans of different CUs are independent; what they share is taken
 * under the symbolizer's lock). */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "symbol/sym_internal.h"

static int decode_with(struct symbolizer *s, struct sym_cu *cu, struct sym_scratch *scr)
{
	if (!cu->decoded) {
		int rc = sym_line_decode(s, cu, scr);
		if (!rc)
			rc = sym_die_decode(s, cu);
		cu->decoded = rc ? -1 : 1;
	}
	return cu->decoded > 0 ? 0 : -1;
}

int sym_cu_decode(struct symbolizer *s, struct sym_cu *cu)
{
	return decode_with(s, cu, &s->scratch);
}

struct job {
	struct symbolizer *s;
	const uint32_t *cus;
	size_t n;
	atomic_size_t next;
};

static void drain(struct job *j, struct sym_scratch *scr)
{
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			return;
		decode_with(j->s, &j->s->cus[j->cus[i]], scr);
	}
}

static void *worker(void *arg)
{
	struct sym_scratch scr = { { .elem = 0 }, { .elem = 0 } };
	drain(arg, &scr);
	vec_free(&scr.rows);
	vec_free(&scr.seqs);
	return NULL;
}

#define MAX_THREADS 8
#define CUS_PER_THREAD 4

void sym_decode_cus(struct symbolizer *s, const uint32_t *cus, size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt = cpus > 1 ? (size_t)cpus : 1;
	if (nt > MAX_THREADS)
		nt = MAX_THREADS;
	if (nt > n / CUS_PER_THREAD)
		nt = n / CUS_PER_THREAD;
	struct job j = { .s = s, .cus = cus, .n = n };
	atomic_init(&j.next, 0);
	pthread_t tid[MAX_THREADS];
	size_t started = 0;
	if (nt > 1) {
		s->parallel = true;
		s->arena.lock = &s->lock;
		for (; started + 1 < nt; started++)
			if (pthread_create(&tid[started], NULL, worker, &j))
				break;
	}
	drain(&j, &s->scratch);
	for (size_t i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	s->parallel = false;
	s->arena.lock = NULL;
}
