// SPDX-License-Identifier: BSD-2-Clause
// A kernel in C++ with bmprof: bmprof's LAPIC timer comes through an IDT stub of the
// kernel's own (timer_stub, isr.S) into the docs' timer_vector, which also runs the
// kernel's scheduler tick; the kernel's own PIT tick (channel 0, through the 8259 and
// LINT0, which bmprof leaves as they are) prints, beside bmprof's drains, through the docs'
// console lock. The UART is paced like a board's, so drains take real time.
#include "bmprof_x86_64.h"
#include "doc_env.h"

extern "C" {
#include "kernel.h"
void idt_init(void);
void timer_stub(void);
void pit_stub(void);
void pit_irq(struct trap_frame *tf);
void kmain(void);
extern const uint8_t __build_id_start[], __build_id_end[];
}

namespace {

inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
inline uint64_t rdtsc()
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

// The two 8259s, moved to vectors 0x20-0x2F, everything masked but what is unmasked.
class Pic {
public:
	static constexpr uint8_t base = 0x20;
	static void init()
	{
		outb(0x20, 0x11); outb(0xA0, 0x11);          // ICW1: edge, cascade, ICW4
		outb(0x21, base); outb(0xA1, base + 8);      // ICW2: vectors
		outb(0x21, 4); outb(0xA1, 2);                // ICW3: slave on IRQ 2
		outb(0x21, 1); outb(0xA1, 1);                // ICW4: 8086 mode
		outb(0x21, 0xFF); outb(0xA1, 0xFF);
	}
	static void unmask(unsigned irq) { outb(0x21, inb(0x21) & ~(1u << irq)); }
	static void mask(unsigned irq) { outb(0x21, inb(0x21) | 1u << irq); }
	static void eoi() { outb(0x20, 0x20); }
};

// PIT channel 0 as a rate generator: the kernel's own tick.
class Pit {
public:
	static constexpr unsigned hz = 1000;
	static void start()
	{
		unsigned div = 1193182 / hz;

		outb(0x43, 0x34);
		outb(0x40, div & 0xFF);
		outb(0x40, div >> 8);
	}
};

constexpr uint16_t com1 = 0x3F8;
uint64_t tsc_per_char;   // 921600 baud once bmprof measured the TSC; 0: unpaced
unsigned long pit_ticks, sched_ticks;

int serial_write(void *, const void *buf, size_t len)
{
	return uart_send(buf, len) == len ? 0 : -1;
}

const bmprof_out out = { serial_write, nullptr };

} // namespace

extern "C" {

const char *const arch_name = "x86_64";

size_t uart_send(const void *buf, size_t len)
{
	static uint64_t next;
	const uint8_t *p = static_cast<const uint8_t *>(buf);

	for (size_t i = 0; i < len; i++) {
		while (tsc_per_char && (int64_t)(rdtsc() - next) < 0)
			;
		while (!(inb(com1 + 5) & 0x20))
			;
		outb(com1, p[i]);
		next = rdtsc() + tsc_per_char;
	}
	return len;
}

void cpu_relax(void) { __asm__ volatile("pause"); }
void irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }

void machine_exit(int code)
{
	__asm__ volatile("outl %0, %1" : : "a"((uint32_t)code), "Nd"((uint16_t)0xf4));
	for (;;)
		__asm__ volatile("cli; hlt");
}

void arch_init(void)
{
	Pic::init();
	idt_init();
	idt_set_interrupt_gate(Pic::base, pit_stub);
}

void arch_ticks_start(void)
{
	Pit::start();
	Pic::unmask(0);
}

void arch_ticks_stop(void)
{
	Pic::mask(0);
	printk("kernel-cmake: %lu PIT ticks, %lu scheduler ticks\n", pit_ticks, sched_ticks);
}

void scheduler_tick(void) { sched_ticks++; }

// The kernel's own interrupt: it prints every tick, never waiting for the console.
void pit_irq(struct trap_frame *)
{
	char line[64];

	pit_ticks++;
	console_print_from_irq(line, kformat(line, sizeof line, "pit %lu\n", pit_ticks));
	Pic::eoi();
}

void profiling_begin(void)
{
	bmprof_x86_config cfg = {};

	cfg.hz = 4000;
	cfg.vector = 0xEC;
	cfg.timer = BMPROF_X86_TIMER_AUTO;
	cfg.out = &out;
	cfg.out_begin = console_out_begin;
	cfg.out_end = console_out_end;
	cfg.flush_ms = 20;
	int err = bmprof_x86_init(&cfg);
	if (err) {
		printk("profiling off: %s\n", bmprof_x86_strerror(err));
		return;
	}
	tsc_per_char = bmprof_x86_info()->tsc_hz / 92160;
	idt_set_interrupt_gate(0xEC, timer_stub);
	bmprof_x86_announce(__build_id_start + 16,
			    (uint8_t)(__build_id_end - __build_id_start - 16));
	bmprof_x86_start();
}

void profiling_end(int status)
{
	bmprof_end end = {};

	end.exit_code = status;
	end.reason = BMPROF_END_EXIT;
	while (!console_trylock())   // the final flush does not call out_begin
		cpu_relax();
	bmprof_x86_flush();
	bmprof_emit_end(&out, &end);
	console_unlock();
}

void kmain(void)
{
	uint64_t x;

	arch_init();
	printk("kernel-cmake (%s, C++): up\n", arch_name);
	profiling_begin();
	arch_ticks_start();
	irq_enable();
	x = work_a(1);
	x = work_b(x);
	x = work_c(x);
	irq_disable();
	arch_ticks_stop();
	printk("kernel-cmake: work done, result %llx; interrupt text dropped %lu\n",
	       (unsigned long long)x, console_dropped);
	profiling_end(0);
	machine_exit(0);
}

} // extern "C"
