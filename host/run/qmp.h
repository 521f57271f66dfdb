/* SPDX-License-Identifier: BSD-2-Clause */
/* A small QMP client (QEMU's JSON monitor) over a connected socket QEMU was handed at start
 * (-chardev socket,fd=N -mon mode=control): one command at a time, its reply is the next
 * line that is a "return" or an "error" (asynchronous events are skipped). The greeting
 * and the capabilities negotiation happen on the first command.
 *
 * While it waits for QEMU it keeps serving one other descriptor (the serial pipe: QEMU
 * must never block writing to it while bmprof waits on the monitor) and gives up when
 * cancelled() says so (a second Ctrl-C) or a deadline passes. */
#ifndef BMPROF_QMP_H
#define BMPROF_QMP_H

#include <signal.h>
#include <stddef.h>

#define QMP_LINE_MAX (1u << 20)     /* longest reply line accepted */

struct qmp {
	int fd;
	char *buf;
	size_t len, cap;
	int greeted;
	/* served while waiting: aux(aux_ctx) when aux_fd is readable; -1: none */
	int aux_fd;
	void (*aux)(void *ctx);
	void *aux_ctx;
	const sigset_t *mask;       /* the signal mask while waiting; NULL: the current one */
	int (*cancelled)(void *ctx);
	void *cancel_ctx;
};

void qmp_init(struct qmp *q, int fd);
void qmp_free(struct qmp *q);
/* Send cmd (one JSON object, no newline) and wait up to timeout_s for its reply. 0 with
 * the reply line in *reply (malloc'd; reply may be NULL), or -1 with err: QEMU answered
 * with an error (its description), closed the monitor, did not answer in time, or the
 * wait was cancelled. */
int qmp_exec(struct qmp *q, const char *cmd, double timeout_s, char **reply, char *err,
	     size_t errlen);
/* Serve aux for seconds (QEMU runs meanwhile). 0, or -1 if cancelled. */
int qmp_idle(struct qmp *q, double seconds);
/* The string value of "key" in a JSON line, unescaped (\uXXXX above 0x7f as '?'), into out
 * (cut to n - 1 bytes). 0, or -1 if there is none. */
int qmp_string(const char *line, const char *key, char *out, size_t n);
/* s as a JSON string literal, quotes included, into out. 0, or -1 if it does not fit. */
int qmp_quote(const char *s, char *out, size_t n);

#endif
