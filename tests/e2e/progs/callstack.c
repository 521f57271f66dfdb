/* SPDX-License-Identifier: BSD-2-Clause */
/* A known call tree for call-stack tests: main calls a() and edge_caller(); a calls b() and
 * c(); c calls d(). b and d run the same loop body, d three times as long. d is a leaf
 * without a frame record (GCC makes none where a leaf needs no stack: on AArch64 it keeps
 * its return address in the link register, on x86-64 at rsp; on RISC-V it saves s0 alone
 * and keeps ra in the register; on Cortex-M it pushes r7 without lr). edges() (assembly) is short
 * and called in a loop, so under QEMU -icount (which ends a translation block where the
 * instruction budget runs out) samples land on each of its instructions; labels name the
 * ones where the frame pointer is not its own: edges (the first instruction, before the
 * frame record is made), edges_mov (the record made, the frame pointer not yet set) and
 * edges_ret (the record taken down). Every edges sample must still name edge_caller as
 * its caller. */
#include <bmrt.h>

#ifndef N
#define N 2000000
#endif

volatile unsigned long sink;

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

void edges(void);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl edges\n"
	".type edges, @function\n"
	"edges:\n"
	"	push %rbp\n"
	"edges_mov:\n"
	"	mov %rsp, %rbp\n"
	"edges_body:\n"
	"	addq $1, sink(%rip)\n"
	"	addq $2, sink(%rip)\n"
	"	addq $3, sink(%rip)\n"
	"	pop %rbp\n"
	"edges_ret:\n"
	"	ret\n"
	".size edges, . - edges\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl edges\n"
	".type edges, %function\n"
	/* each label is reached by a branch, so it starts a translation block: QEMU takes an
	 * interrupt there whatever the code's layout (the generic timer under -icount ticks
	 * every 16 instructions, and this loop's interrupts otherwise come at a few places) */
	"edges:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	b edges_mov\n"
	"edges_mov:\n"
	"	mov x29, sp\n"
	"	b edges_body\n"
	"edges_body:\n"
	"	adrp x0, sink\n"
	"	ldr x1, [x0, :lo12:sink]\n"
	"	add x1, x1, #1\n"
	"	str x1, [x0, :lo12:sink]\n"
	"	ldp x29, x30, [sp], #16\n"
	"	b edges_ret\n"
	"edges_ret:\n"
	"	ret\n"
	".size edges, . - edges\n");
#elif defined(__riscv)
__asm__(".text\n"
	".globl edges\n"
	".type edges, @function\n"
	".balign 4\n"
	/* as on AArch64, a jump before each label starts a translation block there; the
	 * assembler compresses most of these (c.addi16sp, c.sdsp, c.addi4spn, c.ldsp, c.jr).
	 * edges_ld: ra restored, s0 not yet; edges_ret: both restored (two instructions:
	 * QEMU took no interrupt at a lone ret here) */
	"edges:\n"
	"	addi sp, sp, -16\n"
	"	j edges_sd\n"
	"edges_sd:\n"
	"	sd ra, 8(sp)\n"
	"	sd s0, 0(sp)\n"
	"	j edges_mov\n"
	"edges_mov:\n"
	"	addi s0, sp, 16\n"
	"	j edges_body\n"
	"edges_body:\n"
	"	lla t0, sink\n"
	"	ld t1, 0(t0)\n"
	"	addi t1, t1, 1\n"
	"	sd t1, 0(t0)\n"
	"	ld ra, 8(sp)\n"
	"	j edges_ld\n"
	"edges_ld:\n"
	"	ld s0, 0(sp)\n"
	"	j edges_ret\n"
	"edges_ret:\n"
	"	addi sp, sp, 16\n"
	"	ret\n"
	".size edges, . - edges\n");
#elif defined(__thumb__)
__asm__(".text\n"
	".globl edges\n"
	".type edges, %function\n"
	".thumb_func\n"
	".balign 2\n"
	/* GCC's frame (push {r7, lr}; r7 = sp); .fnstart/.fnend give edges its own .ARM.exidx
	 * entry, whose start the unwind reads from. As on AArch64, a branch before each label
	 * starts a translation block there. edges_pop: r7 and lr restored, sp not yet */
	".fnstart\n"
	".save {r7, lr}\n"
	"edges:\n"
	"	push {r7, lr}\n"
	"	b edges_mov\n"
	"edges_mov:\n"
	".setfp r7, sp\n"
	"	mov r7, sp\n"
	"	b edges_body\n"
	"edges_body:\n"
	"	ldr r0, =sink\n"
	"	ldr r1, [r0]\n"
	"	adds r1, #1\n"
	"	str r1, [r0]\n"
	"	pop {r7, lr}\n"
	"	b edges_ret\n"
	"edges_ret:\n"
	"	bx lr\n"
	".ltorg\n"
	".fnend\n"
	".size edges, . - edges\n");
#endif

__attribute__((noinline)) void edge_caller(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		edges();
	sink += 5;
}

int main(void)
{
	a(N);
	edge_caller(N / 4);
	sink += 4;
	return 0;
}
