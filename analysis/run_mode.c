/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's mode from its metadata: see run_mode.h. */
#include "run_mode.h"

#include <stdlib.h>
#include <string.h>

/* The option -name or --name as a word of the command line (words are space-separated;
 * bmprof quotes none of QEMU's option names). */
static int has_option(const char *line, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = line; (s = strstr(s, name)); s += n) {
		const char *d = s;
		int dashes = 0;

		while (d > line && d[-1] == '-' && dashes < 2)
			d--, dashes++;
		if (dashes && (d == line || d[-1] == ' ') && (s[n] == 0 || s[n] == ' '))
			return 1;
	}
	return 0;
}

/* "shift=0,sleep=off" (bmprof's --icount), "1" (older profiles: shift=0), "auto", "2" */
static void parse_icount(struct run_mode *m, const char *v)
{
	m->icount_shift = -1;
	m->icount_sleep = 1;
	if (!strcmp(v, "1")) {
		m->icount_shift = 0;
		return;
	}
	for (const char *s = v; *s; s += strcspn(s, ","), s += *s == ',') {
		size_t len = strcspn(s, ",");
		const char *val = s;

		if (!strncmp(s, "shift=", 6))
			val = s + 6;
		else if (!strncmp(s, "sleep=off", 9) && len == 9) {
			m->icount_sleep = 0;
			continue;
		} else if (memchr(s, '=', len))
			continue;
		if (val[0] >= '0' && val[0] <= '9') {
			char *end;
			long sh = strtol(val, &end, 10);

			if (end == s + len && sh >= 0 && sh <= 10)
				m->icount_shift = (int)sh;
		}
	}
}

void run_mode_of(const struct profile *p, struct run_mode *m)
{
	const char *accel = profile_meta(p, "accel"), *ic = profile_meta(p, "icount");
	const char *qemu = profile_meta(p, "qemu");

	memset(m, 0, sizeof *m);
	m->icount_shift = -1;
	if (accel && !strcmp(accel, "tcg"))
		m->accel = RUN_ACCEL_TCG;
	else if (accel && !strcmp(accel, "kvm"))
		m->accel = RUN_ACCEL_KVM;
	if (ic && strcmp(ic, "0")) {
		m->icount = 1;
		parse_icount(m, ic);
	}
	if (qemu && (has_option(qemu, "singlestep") || strstr(qemu, "one-insn-per-tb=on")))
		m->singlestep = 1;
}

int run_mode_block_starts(const struct run_mode *m)
{
	return m->accel == RUN_ACCEL_TCG && !m->icount && !m->singlestep;
}

int run_mode_emulated_time(const struct run_mode *m)
{
	return m->accel == RUN_ACCEL_TCG && !m->icount;
}

double run_mode_insns_per_tick(const struct run_mode *m, const struct profile *p)
{
	if (!m->icount || m->icount_shift < 0 || !p->have_hello || !p->hello.timebase_hz)
		return 0;
	return 1e9 / (double)p->hello.timebase_hz / (double)(1u << m->icount_shift);
}
