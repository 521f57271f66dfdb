/* SPDX-License-Identifier: BSD-2-Clause */
/* Colours and the pager of the text verbs (term.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/term.h"

const char *const term_color_choices[] = { "auto", "always", "never", NULL };

int term_color(const struct term_opts *t, int to_file)
{
	if (t->color == TERM_COLOR_ALWAYS)
		return 1;
	if (t->color == TERM_COLOR_NEVER || to_file)
		return 0;
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

const char *term_pct_color(double pct)
{
	return pct >= 5.0 ? "\033[31m" : pct >= 0.5 ? "\033[32m" : NULL;
}

void term_pct(FILE *f, int color, const char *fmt, double pct)
{
	const char *c = color ? term_pct_color(pct) : NULL;

	if (c)
		fputs(c, f);
	fprintf(f, fmt, pct);
	if (c)
		fputs(TERM_RESET, f);
}

static pid_t pager_pid = -1;

/* The pager's command, or NULL for none ("" and "cat" mean none, as for git). */
static const char *pager_cmd(void)
{
	const char *p = getenv("BMPROF_PAGER");

	if (!p)
		p = getenv("PAGER");
	if (!p) {
		/* the default only where less is installed */
		if (system("command -v less >/dev/null 2>&1") != 0)
			return NULL;
		return "less -FRX";
	}
	return *p && strcmp(p, "cat") ? p : NULL;
}

int term_pager_start(const struct term_opts *t, int to_file)
{
	const char *cmd;
	int fd[2];

	if (t->no_pager || to_file || !isatty(STDOUT_FILENO) || !(cmd = pager_cmd()))
		return 0;
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pager_pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		if (!getenv("LESS"))
			setenv("LESS", "FRX", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	/* the pager quit early: the rest of the output is not wanted */
	signal(SIGPIPE, SIG_DFL);
	return 0;
}

void term_pager_end(void)
{
	int st;

	if (pager_pid < 0)
		return;
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, &st, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}
