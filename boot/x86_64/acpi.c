/* SPDX-License-Identifier: BSD-2-Clause */
/* The processors the firmware's ACPI tables list: RSDP -> XSDT or RSDT -> MADT ("APIC"),
 * whose Processor Local APIC (type 0) and Local x2APIC (type 9) entries with the Enabled
 * flag are the CPUs there are to start.
 *
 * The RSDP comes from the PVH start info (rsdp_paddr, at offset 0x20 of the structure
 * EBX pointed at on entry) when the loader filled it in, else from a scan of the first
 * KiB of the EBDA and of 0xE0000-0xFFFFF on 16-byte boundaries, as the ACPI spec places
 * it. Every checksum is checked; a table above 4 GiB (outside the identity map) or with
 * an absurd length is passed over. */
#include "bmrt.h"
#include "rt.h"

#define PVH_MAGIC 0x336EC578u
#define PVH_RSDP 0x20
#define BDA_EBDA 0x40E
#define SDT_HEADER 36
#define MADT_ENTRIES 44
#define MADT_LAPIC 0
#define MADT_X2APIC 9
#define MADT_ENABLED 1u
#define TABLE_MAX (1u << 20)

extern uint32_t bmrt_start_info;

/* Physical memory is identity-mapped below 4 GiB. The empty asm keeps gcc from treating
 * a small constant address as a null pointer. */
static const uint8_t *phys(uint64_t a)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)a;

	if (a >= (1ull << 32))
		return 0;
	__asm__("" : "+r"(p));
	return p;
}

static uint8_t sum(const uint8_t *p, uint32_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

/* An RSDP at p: the signature and the ACPI 1.0 checksum, and for revision 2 up the
 * extended checksum over its length. */
static const uint8_t *rsdp_at(const uint8_t *p)
{
	static const char sig[8] = { 'R', 'S', 'D', ' ', 'P', 'T', 'R', ' ' };

	if (!p || memcmp(p, sig, 8) || sum(p, 20))
		return 0;
	if (p[15] >= 2 && (bmprof_get32(p + 20) < 36 || bmprof_get32(p + 20) > 4096 ||
			   sum(p, bmprof_get32(p + 20))))
		return 0;
	return p;
}

static const uint8_t *scan(uint64_t from, uint64_t to)
{
	const uint8_t *r;

	for (uint64_t a = from; a + 20 <= to; a += 16)
		if ((r = rsdp_at(phys(a))))
			return r;
	return 0;
}

static const uint8_t *find_rsdp(void)
{
	const uint8_t *info = bmrt_start_info ? phys(bmrt_start_info) : 0;
	const uint8_t *r;
	uint64_t ebda;

	if (info && bmprof_get32(info) == PVH_MAGIC && bmprof_get64(info + PVH_RSDP) &&
	    (r = rsdp_at(phys(bmprof_get64(info + PVH_RSDP)))))
		return r;
	ebda = (uint64_t)bmprof_get16(phys(BDA_EBDA)) << 4;
	if (ebda >= 0x80000 && ebda < 0xA0000 && (r = scan(ebda, ebda + 1024)))
		return r;
	return scan(0xE0000, 0x100000);
}

/* The table at physical address a if it has signature sig and a valid checksum. */
static const uint8_t *table(uint64_t a, const char *sig)
{
	const uint8_t *t = a ? phys(a) : 0;
	uint32_t len;

	if (!t || memcmp(t, sig, 4))
		return 0;
	len = bmprof_get32(t + 4);
	if (len < SDT_HEADER || len > TABLE_MAX || sum(t, len))
		return 0;
	return t;
}

/* The MADT through the XSDT (8-byte entries, revision 2 up) or the RSDT (4-byte ones). */
static const uint8_t *find_madt(const uint8_t *rsdp)
{
	const uint8_t *x = rsdp[15] >= 2 ? table(bmprof_get64(rsdp + 24), "XSDT") : 0;
	const uint8_t *r = table(bmprof_get32(rsdp + 16), "RSDT"), *m;
	uint32_t n;

	if (x) {
		n = (bmprof_get32(x + 4) - SDT_HEADER) / 8;
		for (uint32_t i = 0; i < n; i++)
			if ((m = table(bmprof_get64(x + SDT_HEADER + 8 * i), "APIC")))
				return m;
	}
	if (r) {
		n = (bmprof_get32(r + 4) - SDT_HEADER) / 4;
		for (uint32_t i = 0; i < n; i++)
			if ((m = table(bmprof_get32(r + SDT_HEADER + 4 * i), "APIC")))
				return m;
	}
	return 0;
}

int bmrt_acpi_cpus(uint32_t *ids, unsigned cap)
{
	const uint8_t *rsdp = find_rsdp(), *m = rsdp ? find_madt(rsdp) : 0;
	uint32_t len, off, id, flags;
	unsigned n = 0;

	if (!m)
		return -1;
	len = bmprof_get32(m + 4);
	for (off = MADT_ENTRIES; off + 2 <= len && m[off + 1] >= 2; off += m[off + 1]) {
		const uint8_t *e = m + off;
		if (off + e[1] > len)
			break;
		if (e[0] == MADT_LAPIC && e[1] >= 8) {
			id = e[3];
			flags = bmprof_get32(e + 4);
		} else if (e[0] == MADT_X2APIC && e[1] >= 16) {
			id = bmprof_get32(e + 4);
			flags = bmprof_get32(e + 8);
		} else {
			continue;
		}
		if (!(flags & MADT_ENABLED))
			continue;
		if (n < cap)
			ids[n] = id;
		n++;
	}
	return (int)n;
}
