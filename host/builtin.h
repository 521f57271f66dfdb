/* SPDX-License-Identifier: BSD-2-Clause */
/* The bmprof subcommands (host/builtin-*.c, over the host library in the folders of
 * host/). Each takes the arguments after the tool name (argv[0] is the subcommand) and
 * returns the process exit status. A verb calls no other verb. */
#ifndef BMPROF_BUILTIN_H
#define BMPROF_BUILTIN_H

int cmd_record(int argc, char **argv);
int cmd_qemu(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_cpi(int argc, char **argv);
int cmd_stalls(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_topdown(int argc, char **argv);
int cmd_blocks(int argc, char **argv);
int cmd_bhive(int argc, char **argv);

#endif
