/* SPDX-License-Identifier: BSD-2-Clause */
/* The faults in QEMU's -d int log (truth.h). The lines, as QEMU 7.2 writes them:
 *
 * x86 (register dumps follow each vector line and are skipped):
 *   check_exception old: 0xffffffff new 0x6
 *        0: v=06 e=0000 i=0 cpl=3 IP=0023:0000000000103872 pc=0000000000103872 SP=...
 *       a CPU exception: check_exception comes first, then the vector line, whose pc= is
 *       the faulting instruction for a fault. Interrupts ("Servicing hardware INT=0x40"
 *       first, or an NMI) and software interrupts (int n: i=1) have no check_exception
 *       line. Vector 1 (#DB) may be a trap, after its instruction retired: not a fault.
 *       #PF lines end with CR2=: a fault at the instruction's own bytes is a fetch fault.
 *   (in real mode QEMU logs no vector line)
 * AArch64:
 *   Taking exception 1 [Undefined Instruction] on CPU 0
 *   ...from EL1 to EL1 / ...with ESR ... / ...with FAR ...
 *   ...with ELR 0x40204590
 *       ELR is the preferred return address: the faulting instruction for Undefined
 *       Instruction, Data Abort, Breakpoint, Hypervisor Trap and Prefetch Abort (a fetch
 *       fault); the next instruction for SVC, HVC and SMC; the interrupted one for IRQ
 *       and FIQ. Semihosting calls and PSCI calls log no ELR. */
#include <stdlib.h>
#include <string.h>

#include "truth.h"

struct truth_log {
	struct truth_fault *v;      /* open addressing by (pc, kind, cr2_off); n == 0: empty */
	size_t cap, used;
	char *line;                 /* a line split across feeds */
	size_t len, lcap;
	int x86_exc;                /* check_exception seen: the next vector line is a CPU's */
	int a64;                    /* AArch64: -1 no exception pending, else its kind */
	int oom;
};

static size_t hash(const struct truth_fault *f)
{
	uint64_t x = f->pc ^ ((uint64_t)f->kind << 56) ^ ((uint64_t)f->cr2_off << 48);

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

static int same(const struct truth_fault *a, const struct truth_fault *b)
{
	return a->pc == b->pc && a->kind == b->kind && a->cr2_off == b->cr2_off;
}

static int grow(struct truth_log *l)
{
	size_t cap = l->cap ? l->cap * 2 : 64;
	struct truth_fault *v = calloc(cap, sizeof *v);

	if (!v)
		return -1;
	for (size_t i = 0; i < l->cap; i++) {
		if (!l->v[i].n)
			continue;
		size_t j = hash(&l->v[i]) & (cap - 1);
		while (v[j].n)
			j = (j + 1) & (cap - 1);
		v[j] = l->v[i];
	}
	free(l->v);
	l->v = v;
	l->cap = cap;
	return 0;
}

static void add(struct truth_log *l, uint64_t pc, int kind, unsigned cr2_off)
{
	struct truth_fault f = { pc, 1, (uint8_t)kind, (uint8_t)cr2_off };

	if ((l->used + 1) * 2 > l->cap && grow(l)) {
		l->oom = 1;
		return;
	}
	size_t j = hash(&f) & (l->cap - 1);
	while (l->v[j].n && !same(&l->v[j], &f))
		j = (j + 1) & (l->cap - 1);
	if (!l->v[j].n) {
		l->v[j] = f;
		l->used++;
	} else {
		l->v[j].n++;
	}
}

/* Hex digits at s (an optional 0x first) into *v; the end, or NULL if there are none. */
static const char *hex(const char *s, const char *end, uint64_t *v)
{
	const char *start;
	uint64_t x = 0;

	if (end - s > 2 && s[0] == '0' && s[1] == 'x')
		s += 2;
	for (start = s; s < end; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		x = x << 4 | d;
	}
	*v = x;
	return s > start ? s : NULL;
}

static const char *find(const char *s, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; s + n <= end; s++)
		if (*s == *what && !memcmp(s, what, n))
			return s;
	return NULL;
}

static int starts(const char *s, const char *end, const char *what)
{
	size_t n = strlen(what);
	return (size_t)(end - s) >= n && !memcmp(s, what, n);
}

/* The kind of an AArch64 exception by its name in brackets, or -1 if it is no fault. */
static int a64_kind(const char *s, const char *end)
{
	static const char *const faults[] = {
		"[Undefined Instruction]", "[Data Abort]", "[Breakpoint]", "[Hypervisor Trap]",
	};

	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
		if (find(s, end, faults[i]))
			return TRUTH_FAULT;
	return find(s, end, "[Prefetch Abort]") ? TRUTH_FAULT_FETCH : -1;
}

/* x86: "%6d: v=%02x e=%04x i=%d cpl=%d IP=%04x:%016x pc=%016x SP=... [CR2=%016x]" */
static void x86_vector(struct truth_log *l, const char *q, const char *end)
{
	const char *pv = find(q, end, " pc="), *cr = find(q, end, " CR2=");
	uint64_t vec, err = 0, pc, cr2;
	unsigned off = TRUTH_CR2_FAR;
	int kind = TRUTH_FAULT;

	if (!l->x86_exc || find(q, end, " i=1 ") || !hex(q + 4, end, &vec) || vec == 1 ||
	    !pv || !hex(pv + 4, end, &pc))
		return;
	if (vec == 0xe) {
		const char *e = find(q, end, " e=");
		if (e)
			hex(e + 3, end, &err);
		if (err & 0x10)
			kind = TRUTH_FAULT_FETCH;     /* I/D: an instruction fetch */
		if (cr && hex(cr + 5, end, &cr2) && cr2 - pc < 15)
			off = (unsigned)(cr2 - pc);
	}
	add(l, pc, kind, off);
}

static void line(struct truth_log *l, const char *s, const char *end)
{
	const char *q;
	uint64_t v;

	if (starts(s, end, "check_exception ")) {
		l->x86_exc = 1;
		return;
	}
	if (starts(s, end, "Servicing hardware INT")) {
		l->x86_exc = 0;
		return;
	}
	if (starts(s, end, "Taking exception ")) {
		l->a64 = a64_kind(s, end);
		return;
	}
	if (l->a64 >= 0 && starts(s, end, "...with ELR ")) {
		if (hex(s + 12, end, &v))
			add(l, v, l->a64, TRUTH_CR2_FAR);
		l->a64 = -1;
		return;
	}
	for (q = s; q < end && *q == ' '; q++)
		;
	if (q == end || *q < '0' || *q > '9')
		return;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (starts(q, end, ": v=")) {
		x86_vector(l, q, end);
		l->x86_exc = 0;
	}
}

struct truth_log *truth_log_new(void)
{
	struct truth_log *l = calloc(1, sizeof *l);

	if (l)
		l->a64 = -1;
	return l;
}

void truth_log_free(struct truth_log *l)
{
	if (!l)
		return;
	free(l->v);
	free(l->line);
	free(l);
}

static int keep(struct truth_log *l, const char *buf, size_t n)
{
	if (l->len + n > l->lcap) {
		size_t cap = (l->len + n) * 2 + 256;
		char *p = realloc(l->line, cap);
		if (!p)
			return -1;
		l->line = p;
		l->lcap = cap;
	}
	memcpy(l->line + l->len, buf, n);
	l->len += n;
	return 0;
}

int truth_log_feed(struct truth_log *l, const char *buf, size_t n)
{
	const char *end = buf + n;

	while (buf < end && !l->oom) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		if (!nl) {
			/* a line longer than any QEMU writes is cut: its head is enough */
			if (l->len < 4096 && keep(l, buf, (size_t)(end - buf)))
				return -1;
			break;
		}
		if (l->len) {
			if (l->len < 4096 && keep(l, buf, (size_t)(nl - buf)))
				return -1;
			line(l, l->line, l->line + l->len);
			l->len = 0;
		} else {
			line(l, buf, nl);
		}
		buf = nl + 1;
	}
	return l->oom ? -1 : 0;
}

static int cmp_fault(const void *a, const void *b)
{
	const struct truth_fault *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->cr2_off < y->cr2_off ? -1 : x->cr2_off > y->cr2_off;
}

int truth_log_finish(struct truth_log *l, struct truth_fault **f, size_t *nf)
{
	size_t k = 0;

	*f = NULL;
	*nf = 0;
	if (l->len)
		line(l, l->line, l->line + l->len);
	if (l->oom) {
		truth_log_free(l);
		return -1;
	}
	if (l->used) {
		*f = malloc(l->used * sizeof **f);
		if (!*f) {
			truth_log_free(l);
			return -1;
		}
		for (size_t i = 0; i < l->cap; i++)
			if (l->v[i].n)
				(*f)[k++] = l->v[i];
		qsort(*f, k, sizeof **f, cmp_fault);
	}
	*nf = k;
	truth_log_free(l);
	return 0;
}
