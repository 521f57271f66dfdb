/* SPDX-License-Identifier: BSD-2-Clause */
/* A deep call tree with a fixed amount of work, for checking call-stack profiles against
 * exact inclusive counts (test_children_exact.sh): six levels below main; two leaves
 * (mix, hash) shared by callers on different levels; a recursive walk (linear recursion
 * that calls mix on every level), a doubly recursive fib that calls hash at its leaves,
 * and two mutually recursive functions (ping, pong); one tail call (tail_hop jumps to
 * hash, so hash's caller on the stack is tail_hop's). The work is the same whatever the
 * sampler does: no loop waits on samples, so a counting run and a sampling run execute
 * the same instructions. WORK scales it. */
#include <bmrt.h>

#ifndef WORK
#define WORK 4000
#endif

volatile unsigned long sink;

/* Each function does something after its calls, so only tail_hop's call is a tail call. */
__attribute__((noinline)) void mix(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += (i * 2654435761u) ^ (sink >> 7);
}

__attribute__((noinline)) void hash(unsigned long n)
{
	unsigned long h = sink;

	for (unsigned long i = 0; i < n; i++)
		h = (h ^ i) * 0x100000001b3ull;
	sink = h;
}

__attribute__((noinline)) void tail_hop(unsigned long n)
{
	sink += 1;
	hash(n);
}

__attribute__((noinline)) void walk(unsigned depth, unsigned long n)
{
	if (!depth) {
		hash(n);
		return;
	}
	mix(n / 4);
	walk(depth - 1, n);
	sink += depth;
}

__attribute__((noinline)) unsigned long fib(unsigned n)
{
	unsigned long r;

	if (n < 2) {
		hash(6);
		return n;
	}
	r = fib(n - 1);
	r += fib(n - 2);
	sink += r & 1;
	return r;
}

void pong(unsigned n, unsigned long w);

__attribute__((noinline)) void ping(unsigned n, unsigned long w)
{
	mix(w);
	if (n)
		pong(n - 1, w);
	sink += 3;
}

__attribute__((noinline)) void pong(unsigned n, unsigned long w)
{
	hash(w);
	if (n)
		ping(n - 1, w);
	sink += 5;
}

__attribute__((noinline)) void level5(unsigned long n)
{
	mix(n);
	tail_hop(n / 2);
	sink += 7;
}

__attribute__((noinline)) void level4(unsigned long n)
{
	level5(n);
	hash(n / 3);
	sink += 11;
}

__attribute__((noinline)) void level3(unsigned long n)
{
	level4(n);
	walk(5, n / 2);
	sink += 13;
}

__attribute__((noinline)) void level2(unsigned long n)
{
	level3(n);
	fib(9);
	sink += 17;
}

__attribute__((noinline)) void level1(unsigned long n)
{
	level2(n);
	ping(6, n / 8);
	mix(n / 2);
	sink += 19;
}

/* The rounds differ in length (a fixed pseudo-random sequence): a program that repeats one
 * pattern at a fixed period would alias with the nearly periodic sampler. */
static unsigned long next(unsigned long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(void)
{
	unsigned long x = 88172645463325252ull;

	for (unsigned r = 0; r < WORK; r++) {
		level1(1500 + next(&x) % 1024);
		walk(8, 400 + next(&x) % 512);
		fib(11);
		hash(200 + next(&x) % 256);
	}
	bm_printf("calltree: %d rounds, sink %lu\n", WORK, sink & 0xffff);
	return 0;
}
