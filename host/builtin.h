/* The bmprof subcommands. Each takes the arguments after the tool name (argv[0] is the
 * subcommand) and returns the process exit status. */
#ifndef BMPROF_BUILTIN_H
#define BMPROF_BUILTIN_H

#include <stdio.h>

int cmd_record(int argc, char **argv);
int cmd_qemu(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

/* bmprof report's flat table by function, at most limit rows (-1: all), for the end of a
 * run (bmprof qemu). 0, or -1 if the ELF could not be used (the reason is printed). */
struct profile;
int report_top_functions(FILE *f, const struct profile *p, const char *profile_path,
			 const char *elf, long limit);

#endif
