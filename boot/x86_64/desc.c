/* The 64-bit GDT (with a TSS for the IST stacks) and the IDT. #DF runs on IST1 and NMI and
 * #MC on IST2, so they are reported even when the faulting code wrecked its stack. */
#include "bmprof_x86_64.h"
#include "rt.h"

#define SEL_CODE 0x08
#define SEL_TSS 0x18
#define GATE_INTR 0x8E   /* present, DPL 0, 64-bit interrupt gate */

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

extern char bmrt_ist1_top[], bmrt_ist2_top[];
extern void (*const bmrt_exc_stubs[32])(void);
void bmrt_isr_ignore(void);

static struct tss tss;
static uint64_t gdt[5];
static struct gate idt[256];

static void set_gate(unsigned vec, void (*fn)(void), uint8_t ist)
{
	uintptr_t a = (uintptr_t)fn;

	idt[vec] = (struct gate){
		.off0 = (uint16_t)a, .sel = SEL_CODE, .ist = ist, .type = GATE_INTR,
		.off1 = (uint16_t)(a >> 16), .off2 = (uint32_t)(a >> 32),
	};
}

static void gdt_init(void)
{
	uintptr_t t = (uintptr_t)&tss;
	struct dtr d = { sizeof gdt - 1, (uintptr_t)gdt };

	tss.ist[0] = (uintptr_t)bmrt_ist1_top;
	tss.ist[1] = (uintptr_t)bmrt_ist2_top;
	tss.iomap = sizeof tss;
	gdt[1] = 0x00AF9A000000FFFFull;
	gdt[2] = 0x00CF92000000FFFFull;
	/* 16-byte available 64-bit TSS descriptor */
	gdt[3] = (sizeof tss - 1) | (t & 0xFFFFFF) << 16 | 0x89ull << 40 | (t >> 24 & 0xFF) << 56;
	gdt[4] = t >> 32;
	__asm__ volatile("lgdt %0" : : "m"(d));
	__asm__ volatile("ltr %w0" : : "r"(SEL_TSS));
}

void bmrt_desc_init(void)
{
	struct dtr d = { sizeof idt - 1, (uintptr_t)idt };

	gdt_init();
	for (unsigned v = 0; v < 32; v++)
		set_gate(v, bmrt_exc_stubs[v], v == 8 ? 1 : v == 2 || v == 18 ? 2 : 0);
	for (unsigned v = 32; v < 256; v++)
		set_gate(v, bmrt_isr_ignore, 0);
	set_gate(BMPROF_X86_DEFAULT_VECTOR, bmprof_x86_timer_entry, 0);
	__asm__ volatile("lidt %0" : : "m"(d));
}
