/* SPDX-License-Identifier: BSD-2-Clause */
/* The one-screen summary printed after a capture (bmprof record, bmprof qemu): what the
 * target said about itself, frames accepted and rejected, samples per CPU as the target
 * counted them (taken, delivered, lost) against what the host received, and how the run
 * ended. */
#ifndef BMPROF_SUMMARY_H
#define BMPROF_SUMMARY_H

#include <stdio.h>
#include "profile.h"

/* source names where the stream came from ("/dev/ttyUSB0", "QEMU serial"). */
/* elf (or NULL): the image, to say where a CPU exception happened ("  crashed   in
 * f+0x1c at file.c:23"). */
void summary_print(FILE *f, const struct profile *p, const char *source, const char *elf);
/* One line: how the run ended ("exit code 0", "CPU exception 14 (#PF) at pc 0x..."). */
void summary_end(char *buf, size_t len, const struct profile *p);
/* For a run bmprof qemu stopped and read back from the image's memory (meta "recovered"):
 * one line saying so ("the run did not end (timeout): QEMU was stopped and the 1234
 * samples 2 CPUs still held were read from its memory"). 0 when the profile is not one. */
int summary_recovered(char *buf, size_t len, const struct profile *p);

/* The CPUs a run's accounting covers are every CPU that sent anything and every CPU HELLO
 * named: all below summary_cpu_end(p); summary_cpu_listed(p, cpu) says if cpu is one. */
unsigned summary_cpu_end(const struct profile *p);
int summary_cpu_listed(const struct profile *p, unsigned cpu);
/* One line, without the CPU's number: what became of its samples ("taken 1010, delivered
 * 1000, lost 10 (10 buffers full, 0 transport failed); received 1000"), or that it sent no
 * TOTALS (its stream was cut short), or nothing at all. */
void summary_cpu_fate(char *buf, size_t len, const struct profile *p, unsigned cpu);
/* The warnings about one CPU (sent nothing or no TOTALS, samples lost on the target and
 * why, lost in transit, counters that disagree), at most max lines of len bytes each into
 * out[0 .. len * max). Returns the number written. */
unsigned summary_cpu_warnings(const struct profile *p, unsigned cpu, char *out, size_t len,
			      unsigned max);

/* Raw samples (data-space profiling), one line over every CPU: taken, delivered, lost
 * and why, received, and those past the memory bound ("taken 120, delivered 118, lost 2
 * (2 raw buffer full, 0 transport failed); received 118 of 118 delivered"). 0 (buf
 * untouched) when the profile has none. */
int summary_raw(char *buf, size_t len, const struct profile *p);

/* For bmprof record -g: a warning on f when p holds no call stacks (the target decides
 * whether it sends them: its stack_depth setting). */
void summary_expect_stacks(FILE *f, const struct profile *p);

#endif
