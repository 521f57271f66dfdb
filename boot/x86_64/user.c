/* SPDX-License-Identifier: BSD-2-Clause */
/* main in ring 3 (config user=1), on CPU 0; the other CPUs, and the functions bm_run_on
 * starts there, stay in ring 0.
 *
 * bmrt_user_run opens the image's memory to ring 3 (paging.c), points CPU 0's TSS RSP0 at
 * the boot stack and enters ring 3 with iretq on a stack of its own (above a guard page),
 * with IOPL 3 in RFLAGS (port I/O and cli/sti from ring 3 work on hardware and TCG).
 * There it times the core clock (corehz.c: ring 0 may be emulated where ring 3 runs
 * natively), measures what a timer interrupt costs ring 3 beyond its handler's own time
 * (gapprobe.c, with the timer running but not recording: PROBE), asks ring 0 to start
 * sampling, and calls main.
 *
 * The way back to ring 0 is a ud2 at one known address (bmrt_user_call): its #UD, like any
 * exception, enters ring 0 on RSP0 with interrupts disabled, and the exception handler
 * gives it to bmrt_user_trap, which serves the request in rdi with the arguments in rsi and
 * rdx and resumes after the ud2. An `int` gate or syscall would do on hardware, but
 * kvm_pvm (ring 3 native, ring 0 emulated) raises #UD for `int 0x80` in ring 3 and breaks
 * port I/O after syscall; an exception works everywhere. Requests: PROBE (the timer
 * without recording), READY (end the probe, start sampling), FINISH (end the run: bmrt_finish, so main's return and bm_exit), IPI (the
 * APIC is ring 0's), PARK (hlt is privileged), PHASE (a PHASE frame, bm_phase) and CONSOLE (kvm_pvm faults port I/O in
 * ring 3 even with IOPL 3: console text goes out from ring 0, a call at a time).
 *
 * Interrupts and faults in ring 3 enter ring 0 on RSP0 and are handled as in ring 0: the
 * sampler records the ring-3 RIP (per-CPU state is found by the LAPIC ID, never through
 * GS); any other fault ends the run with its RIP. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#define RFLAGS_USER 0x3002ull    /* IOPL 3, IF clear until sampling starts; bit 1 is 1 */
#define RFLAGS_IF 0x200ull
#define VEC_UD 6
#define UD2_LEN 2

int main(void);
extern const char bmrt_user_ud2[];

uint8_t bmrt_user_stack[4096 + BMRT_USER_STACK] __attribute__((aligned(4096)));

/* ring 3's console text, under the UART lock, until its console call ends */
static char user_text[256];
static unsigned user_len;
/* the gap probe's results, written in ring 3 for ring 0's message (bmrt_log is ring 0's) */
static uint64_t probe_cost;
static unsigned probe_pairs;

int bmrt_in_user(void)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return (cs & 3) == 3;
}

__attribute__((noinline)) uint64_t bmrt_user_call(uint64_t op, uint64_t a, uint64_t b)
{
	uint64_t r = 0;

	__asm__ volatile(".globl bmrt_user_ud2\n"
			 "bmrt_user_ud2:\n\t"
			 "ud2"
			 : "+a"(r), "+D"(op), "+S"(a), "+d"(b) : : "memory");
	return r;
}

/* In ring 0, interrupts disabled. */
int bmrt_user_trap(struct bmrt_regs *r)
{
	if (r->vector != VEC_UD || (r->cs & 3) != 3 || r->rip != (uintptr_t)bmrt_user_ud2)
		return 0;
	r->rip += UD2_LEN;
	r->rax = 0;
	switch (r->rdi) {
	case BMRT_UCALL_PROBE:   /* the timer runs without recording; rax 0 if it does */
		r->rax = bmprof_x86_probe(1) ? ~0ull : 0;
		if (!r->rax)
			r->rflags |= RFLAGS_IF;
		break;
	case BMRT_UCALL_READY:   /* rdx: the probe's untimed ticks per interrupt (fine) */
		if (bmprof_x86_probe(0) == 0)
			bmprof_x86_set_untimed_fine(0, (int64_t)r->rdx);
		bmrt_begin_sampling(r->rsi);
		if (probe_pairs)
			bmrt_log(BMRT_INFO, "user mode: a timer interrupt costs ring 3 %llu TSC "
				 "ticks, %lld of them beyond its handler's own time (median of %u)",
				 (unsigned long long)probe_cost,
				 (long long)(int64_t)r->rdx / BMPROF_UNTIMED_ONE, probe_pairs);
		r->rflags |= RFLAGS_IF;   /* back in ring 3 with interrupts enabled */
		break;
	case BMRT_UCALL_FINISH:
		bmrt_finish((const struct bmprof_end *)(uintptr_t)r->rsi, (uint8_t)r->rdx);
	case BMRT_UCALL_IPI:
		bmrt_apic_send((uint32_t)r->rsi, (uint32_t)r->rdx);
		break;
	case BMRT_UCALL_CONSOLE:   /* ring 3 holds the UART lock for this CPU */
		bmrt_uart_user_text((const char *)(uintptr_t)r->rsi, r->rdx);
		break;
	case BMRT_UCALL_PHASE:     /* rsi: the name, rdx: the id */
		bmrt_phase_emit((uint16_t)r->rdx, (const char *)(uintptr_t)r->rsi);
		break;
	case BMRT_UCALL_PARK:
		bmrt_smp_park();
	default:
		r->rax = ~0ull;
		break;
	}
	return 1;
}

static int divert(char c)
{
	if (!bmrt_in_user())
		return 0;
	user_text[user_len++] = c;
	if (user_len == sizeof user_text)
		bmrt_uart_user_flush();
	return 1;
}

/* bm_phase from ring 3: its frame goes out from ring 0. */
int bmrt_phase_user(uint16_t id, const char *name)
{
	if (!bmrt_in_user())
		return 0;
	bmrt_user_call(BMRT_UCALL_PHASE, (uintptr_t)name, id);
	return 1;
}

void bmrt_uart_user_flush(void)
{
	if (user_len && bmrt_in_user())
		bmrt_user_call(BMRT_UCALL_CONSOLE, (uintptr_t)user_text, user_len);
	else
		bmrt_uart_user_text(user_text, user_len);
	user_len = 0;
}

/* The core clock, then what an interrupt costs ring 3 beyond its handler's own time
 * (gapprobe.c), then main. */
static _Noreturn void user_main(void)
{
	uint64_t hz = bm_cycles_hz(), chain = bmrt_chain_ticks(hz);
	int64_t untimed = 0;

	if (bmrt_user_call(BMRT_UCALL_PROBE, 0, 0) == 0)
		probe_pairs = bmrt_gap_probe(hz, &untimed, &probe_cost);
	bmrt_user_call(BMRT_UCALL_READY, chain, (uint64_t)untimed);
	bm_exit(main());
}

_Noreturn void bmrt_user_run(void)
{
	uint64_t rsp;

	bmrt_paging_user();
	bmrt_steal_init();
	bmrt_uart_divert = divert;
	__asm__ volatile("mov %%rsp, %0" : "=r"(rsp));
	bmrt_desc_set_rsp0(0, (rsp - 256) & ~15ull);
	/* as if called: RSP + 8 is 16-byte aligned at the function's first instruction */
	__asm__ volatile("pushq %[ss]\n\t"
			 "pushq %[sp]\n\t"
			 "pushq %[fl]\n\t"
			 "pushq %[cs]\n\t"
			 "pushq %[ip]\n\t"
			 "iretq"
			 : : [ss] "i"(BMRT_SEL_UDATA),
			 [sp] "r"((uintptr_t)bmrt_user_stack + sizeof bmrt_user_stack - 8),
			 [fl] "i"(RFLAGS_USER), [cs] "i"(BMRT_SEL_UCODE),
			 [ip] "r"((uintptr_t)user_main)
			 : "memory");
	__builtin_unreachable();
}
