/* The one-screen summary printed after a capture (bmprof record, bmprof qemu): what the
 * target said about itself, frames accepted and rejected, samples per CPU as the target
 * counted them (taken, delivered, lost) against what the host received, and how the run
 * ended. */
#ifndef BMPROF_SUMMARY_H
#define BMPROF_SUMMARY_H

#include <stdio.h>
#include "profile.h"

/* source names where the stream came from ("/dev/ttyUSB0", "QEMU serial"). */
void summary_print(FILE *f, const struct profile *p, const char *source);
/* One line: how the run ended ("exit code 0", "CPU exception 14 (#PF) at pc 0x..."). */
void summary_end(char *buf, size_t len, const struct profile *p);

#endif
