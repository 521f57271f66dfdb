/* SPDX-License-Identifier: BSD-2-Clause */
/* A known call tree for call-stack tests: main calls a(); a calls b() and c(); c calls d().
 * b and d run the same loop body, d three times as long, so under -icount a quarter of the
 * samples have the chain main;a;b and three quarters main;a;c;d, and every sample has a and
 * main as callers. d is a leaf (on AArch64 it keeps its return address in the link
 * register). */
#include <bmrt.h>

#ifndef N
#define N 2000000
#endif

static volatile unsigned long sink;

/* Each function's body is its own (no identical code folding) and does something after
 * its call (no tail call), so every frame stays on the chain. */
__attribute__((noinline)) void d(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

__attribute__((noinline)) void b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (sink >> 5);
	sink += 1;
}

__attribute__((noinline)) void c(unsigned long n)
{
	d(n);
	sink += 2;
}

__attribute__((noinline)) void a(unsigned long n)
{
	b(n);
	c(3 * n);
	sink += 3;
}

int main(void)
{
	a(N);
	sink += 4;
	return 0;
}
