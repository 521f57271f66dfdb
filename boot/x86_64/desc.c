/* SPDX-License-Identifier: BSD-2-Clause */
/* The 64-bit GDT, one TSS per CPU for the IST stacks, and the IDT all CPUs share. #DF runs
 * on IST1 and NMI and #MC on IST2 (each CPU its own), so they are reported even when the
 * faulting code wrecked its stack. The GDT also holds ring 3's data (0x18) and 64-bit code
 * (0x20) segments, and a CPU that runs ring-3 code enters ring 0 on its TSS's RSP0
 * (bmrt_desc_set_rsp0; user.c). The NMI is the PMU's interrupt (bmprof_x86_nmi_entry);
 * in IRQ delivery it comes at BMPROF_X86_DEFAULT_PMI_VECTOR. BMRT_IPI_VECTOR is the
 * runtime's own IPI (smp.c). */
#include "bmprof_x86_64.h"
#include "rt.h"

#define SEL_CODE 0x08
#define SEL_TSS 0x28     /* CPU i's TSS descriptor: SEL_TSS + 16 * i */
#define GDT_TSS 5        /* its index */
#define GATE_INTR 0x8E   /* present, DPL 0, 64-bit interrupt gate */
#define IST_SIZE 16384

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap;
} __attribute__((packed));

struct gate {
	uint16_t off0;
	uint16_t sel;
	uint8_t ist;
	uint8_t type;
	uint16_t off1;
	uint32_t off2;
	uint32_t reserved;
};

struct dtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern void (*const bmrt_exc_stubs[32])(void);
void bmrt_isr_ignore(void);
void bmrt_isr_ipi(void);

/* Each TSS in a cache line of its own: the CPU writes nothing there, but keep CPUs apart. */
static struct tss tss[BMPROF_X86_MAX_CPUS] __attribute__((aligned(64)));
static uint8_t ist_stack[BMPROF_X86_MAX_CPUS][2][IST_SIZE] __attribute__((aligned(16)));
static uint64_t gdt[GDT_TSS + 2 * BMPROF_X86_MAX_CPUS];
static struct gate idt[256];

static void set_gate(unsigned vec, void (*fn)(void), uint8_t ist)
{
	uintptr_t a = (uintptr_t)fn;

	idt[vec] = (struct gate){
		.off0 = (uint16_t)a, .sel = SEL_CODE, .ist = ist, .type = GATE_INTR,
		.off1 = (uint16_t)(a >> 16), .off2 = (uint32_t)(a >> 32),
	};
}

/* A 16-byte available 64-bit TSS descriptor for CPU i. */
static void set_tss(unsigned i)
{
	uintptr_t t = (uintptr_t)&tss[i];

	tss[i].ist[0] = (uintptr_t)ist_stack[i][0] + IST_SIZE;
	tss[i].ist[1] = (uintptr_t)ist_stack[i][1] + IST_SIZE;
	tss[i].iomap = sizeof tss[i];
	gdt[GDT_TSS + 2 * i] = (sizeof tss[i] - 1) | (t & 0xFFFFFF) << 16 | 0x89ull << 40 |
			 (t >> 24 & 0xFF) << 56;
	gdt[GDT_TSS + 1 + 2 * i] = t >> 32;
}

void bmrt_desc_set_rsp0(unsigned cpu, uint64_t rsp)
{
	if (cpu < BMPROF_X86_MAX_CPUS)
		tss[cpu].rsp[0] = rsp;
}

void bmrt_desc_load(unsigned cpu)
{
	struct dtr g = { sizeof gdt - 1, (uintptr_t)gdt }, d = { sizeof idt - 1, (uintptr_t)idt };

	__asm__ volatile("lgdt %0" : : "m"(g));
	__asm__ volatile("ltr %w0" : : "r"(SEL_TSS + 16 * cpu));
	__asm__ volatile("lidt %0" : : "m"(d));
}

void bmrt_desc_init(void)
{
	gdt[1] = 0x00AF9A000000FFFFull;
	gdt[2] = 0x00CF92000000FFFFull;
	gdt[3] = 0x00CFF2000000FFFFull;   /* data, DPL 3 */
	gdt[4] = 0x00AFFA000000FFFFull;   /* 64-bit code, DPL 3 */
	for (unsigned i = 0; i < BMPROF_X86_MAX_CPUS; i++)
		set_tss(i);
	for (unsigned v = 0; v < 32; v++)
		set_gate(v, bmrt_exc_stubs[v], v == 8 ? 1 : v == 2 || v == 18 ? 2 : 0);
	for (unsigned v = 32; v < 256; v++)
		set_gate(v, bmrt_isr_ignore, 0);
	set_gate(2, bmprof_x86_nmi_entry, 2);
	set_gate(BMPROF_X86_DEFAULT_VECTOR, bmprof_x86_timer_entry, 0);
	set_gate(BMPROF_X86_DEFAULT_PMI_VECTOR, bmprof_x86_pmi_entry, 0);
	set_gate(BMRT_IPI_VECTOR, bmrt_isr_ipi, 0);
	bmrt_desc_load(0);
}
