/* Counting a run in QEMU: the image boots as bmprof qemu would boot it (image_run), under
 * TCG without -icount (which rewinds and replays blocks at MMIO accesses), with
 * "-singlestep -d exec,nochain,int -D FIFO": one instruction per block, every block
 * logged as it starts (nochain: chained blocks would skip the log), exceptions and
 * interrupts logged too. QEMU 7.2 flushes the log after every line, so a thread reads the
 * FIFO as it is written and the log never lands on disk. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "truth_qemu.h"
#include "util.h"

struct log_reader {
	int fd;                   /* the FIFO, opened non-blocking before QEMU starts */
	struct truth_parser *p;
	int failed;
};

/* Until the last writer has gone: a FIFO that no writer has opened yet does not report a
 * hang-up (Linux), so poll waits for QEMU; once it closes the log (or the caller opens and
 * closes a writer when QEMU never got that far), read() drains the rest and returns 0. */
static void *read_log(void *arg)
{
	struct log_reader *rd = arg;
	static char buf[1 << 16];

	for (;;) {
		struct pollfd pfd = { .fd = rd->fd, .events = POLLIN };
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			rd->failed = 1;
			break;
		}
		ssize_t n = read(rd->fd, buf, sizeof buf);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		if (truth_parser_feed(rd->p, buf, (size_t)n))
			rd->failed = 1;
	}
	return NULL;
}

/* "-dfilter" ranges: "0xSTART+0xLEN,...", malloc'd. */
static char *dfilter(const struct truth_range *rs, size_t n)
{
	char *s = malloc(n * 40 + 1), *o = s;

	if (!s)
		return NULL;
	*o = 0;
	for (size_t i = 0; i < n; i++)
		o += sprintf(o, "%s0x%llx+0x%llx", i ? "," : "", (unsigned long long)rs[i].start,
			     (unsigned long long)(rs[i].end - rs[i].start));
	return s;
}

int truth_qemu_run(struct truth_run *tr, struct truth *t)
{
	char dir[PATH_MAX], fifo[PATH_MAX + 16], *filter = NULL;
	const char *tmp = getenv("TMPDIR");
	char *extra[8];
	int nextra = 0, rc = -1, saved_out = -1, started = 0;
	struct log_reader rd = { .fd = -1 };
	pthread_t th;

	snprintf(dir, sizeof dir, "%s/bmprof-truth-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		bm_err("cannot create a temporary directory %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(fifo, sizeof fifo, "%s/exec.log", dir);
	if (mkfifo(fifo, 0600)) {
		bm_err("cannot create the FIFO %s: %s", fifo, strerror(errno));
		rmdir(dir);
		return -1;
	}
	rd.p = truth_parser_new(t, tr->classify, tr->ctx);
	if (tr->nranges && !(filter = dfilter(tr->ranges, tr->nranges)))
		rd.p = (truth_parser_free(rd.p), NULL);
	if (!rd.p) {
		bm_err("out of memory");
		goto out;
	}
	extra[nextra++] = "-singlestep";
	extra[nextra++] = "-d";
	extra[nextra++] = "exec,nochain,int";
	extra[nextra++] = "-D";
	extra[nextra++] = fifo;
	if (filter) {
		extra[nextra++] = "-dfilter";
		extra[nextra++] = filter;
	}
	extra[nextra] = NULL;
	rd.fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rd.fd < 0) {
		bm_err("cannot open the FIFO %s: %s", fifo, strerror(errno));
		goto out;
	}
	if (pthread_create(&th, NULL, read_log, &rd)) {
		bm_err("cannot start the log reader thread");
		goto out;
	}
	started = 1;
	struct image_run r = {
		.image = tr->image, .qemu = tr->qemu, .accel = QEMU_ACCEL_TCG, .timeout = tr->timeout,
		.config = tr->config, .extra = extra, .nextra = nextra,
		.command = "bmprof validate (exact counts)",
	};
	/* the image's console goes to stderr: stdout is the command's report */
	fflush(stdout);
	saved_out = dup(1);
	if (saved_out >= 0)
		dup2(2, 1);
	int ran = image_run(&r);
	fflush(stdout);
	if (saved_out >= 0) {
		dup2(saved_out, 1);
		close(saved_out);
	}
	/* QEMU may have died before opening the log: a writer that comes and goes makes
	 * sure the reader sees a hang-up */
	int w = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (w >= 0)
		close(w);
	pthread_join(th, NULL);
	started = 0;
	if (ran)
		goto out;
	tr->seconds = r.res.seconds;
	tr->exit_status = image_exit_status(&r);
	if (tr->exit_status == EXIT_TIMEOUT || tr->exit_status == EXIT_INTERRUPTED ||
	    tr->exit_status == EXIT_CRASHED)
		image_say_how_it_ended(&r);
	image_run_free(&r);
	if (rd.failed) {
		bm_err("reading QEMU's execution log failed (out of memory)");
		goto out;
	}
	struct truth_parser *p = rd.p;
	rd.p = NULL;
	if (truth_parser_finish(p)) {
		bm_err("out of memory counting instructions");
		goto out;
	}
	rc = 0;
out:
	if (started) {
		int w2 = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (w2 >= 0)
			close(w2);
		pthread_join(th, NULL);
	}
	truth_parser_free(rd.p);
	if (rd.fd >= 0)
		close(rd.fd);
	free(filter);
	unlink(fifo);
	rmdir(dir);
	return rc;
}
