/* SPDX-License-Identifier: BSD-2-Clause */
/* Counting a run in QEMU (truth_qemu.h): the image boots as bmprof qemu would boot it
 * (image_run), under TCG in one thread (the plugin's inline counters are plain adds),
 * with
 *
 *   -plugin insn_count.so,out=DIR/counts[,ranges=DIR/ranges] -d int -D DIR/int.log
 *
 * in a private temporary folder. The -d int log is a FIFO that a thread reads as QEMU
 * writes it (QEMU 7.2 flushes after every line), so however many interrupts a run takes,
 * nothing lands on disk and only the distinct fault sites are kept. The plugin writes
 * its counts when QEMU exits; analysis/truth.c turns them and the faults into
 * retirements. */
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

#include "run/image_run.h"
#include "run/truth_qemu.h"
#include "util/util.h"

#define COUNTS_MAX (1ull << 30)     /* a counts file larger than this is refused */

struct log_reader {
	int fd;                   /* the FIFO, opened non-blocking before QEMU starts */
	struct truth_log *log;
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
		if (!rd->failed && truth_log_feed(rd->log, buf, (size_t)n))
			rd->failed = 1;
	}
	return NULL;
}

/* s with every ',' doubled (QEMU's option syntax), malloc'd. */
static char *qemu_escape(const char *s)
{
	char *o = malloc(2 * strlen(s) + 1), *p = o;

	if (!o)
		return NULL;
	for (; *s; s++) {
		if (*s == ',')
			*p++ = ',';
		*p++ = *s;
	}
	*p = 0;
	return o;
}

static int write_ranges(const char *path, const struct truth_range *rs, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		bm_err("cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%llx %llx\n", (unsigned long long)rs[i].start,
			(unsigned long long)rs[i].end);
	if (ferror(f) | fclose(f)) {
		bm_err("cannot write %s", path);
		return -1;
	}
	return 0;
}

/* The exception entries file (stacks=1): 0, or -1 (reported). */
static int write_entries(const char *path, const char *elf)
{
	uint64_t *v;
	size_t n;
	FILE *f;

	if (truth_exception_entries(elf, &v, &n)) {
		bm_err("out of memory");
		return -1;
	}
	f = fopen(path, "w");
	if (!f) {
		bm_err("cannot create %s: %s", path, strerror(errno));
		free(v);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%llx\n", (unsigned long long)v[i]);
	free(v);
	if (ferror(f) | fclose(f)) {
		bm_err("cannot write %s", path);
		return -1;
	}
	return 0;
}

/* The plugin's -plugin argument, malloc'd. */
static char *plugin_arg(const char *plugin, const char *counts, const char *ranges,
			const char *entries)
{
	char *p = qemu_escape(plugin), *c = qemu_escape(counts);
	char *r = ranges ? qemu_escape(ranges) : NULL, *arg = NULL;
	char *e = entries ? qemu_escape(entries) : NULL;

	if (p && c && (r || !ranges) && (e || !entries) &&
	    asprintf(&arg, "%s,out=%s%s%s%s%s", p, c, r ? ",ranges=" : "", r ? r : "",
		     e ? ",stacks=1,entries=" : "", e ? e : "") < 0)
		arg = NULL;
	free(p);
	free(c);
	free(r);
	free(e);
	return arg;
}

/* The whole counts file, or NULL (reported). */
static char *read_counts(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0;

	if (!f) {
		bm_err("QEMU wrote no instruction counts (%s): the run ended before QEMU's exit, "
		       "or this QEMU cannot load TCG plugins (see its messages above)", path);
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			char *b = cap < COUNTS_MAX ? realloc(buf, cap = cap ? cap * 2 : 1 << 20) : NULL;
			if (!b) {
				bm_err("the instruction counts %s are too large to read", path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		bm_err("cannot read %s", path);
		free(buf);
		return NULL;
	}
	*n = len;
	return buf;
}

/* Run QEMU with the log reader going. 0 when QEMU ran, else -1 (reported). */
static int run_with_reader(struct truth_run *tr, struct log_reader *rd, const char *fifo,
			   char **extra, int nextra)
{
	pthread_t th;
	int saved_out, ran;

	rd->fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rd->fd < 0) {
		bm_err("cannot open the FIFO %s: %s", fifo, strerror(errno));
		return -1;
	}
	if (pthread_create(&th, NULL, read_log, rd)) {
		bm_err("cannot start the log reader thread");
		return -1;
	}
	struct image_run r = {
		.image = tr->image, .qemu = tr->qemu, .accel = QEMU_ACCEL_TCG, .tcg_single = 1,
		.icount = tr->icount, .timeout = tr->timeout, .freq = tr->freq,
		.config = tr->config, .extra = extra, .nextra = nextra, .user = tr->user,
		.out = tr->out, .command = "bmprof count",
	};
	/* the image's console goes to stderr: stdout is the command's report */
	fflush(stdout);
	saved_out = dup(1);
	if (saved_out >= 0)
		dup2(2, 1);
	ran = image_run(&r);
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
	if (ran)
		return -1;
	tr->seconds = r.res.seconds;
	tr->exit_status = image_exit_status(&r);
	if (tr->out) {
		char err[PATH_MAX + 256];

		if (!capture_profile(r.cap)->have_hello)
			bm_err("no bmprof stream from %s: no profile written to %s", tr->image,
			       tr->out);
		else if (capture_save(r.cap, err, sizeof err))
			bm_err("%s", err);
	}
	if (tr->exit_status == EXIT_TIMEOUT || tr->exit_status == EXIT_INTERRUPTED ||
	    tr->exit_status == EXIT_CRASHED)
		image_say_how_it_ended(&r);
	image_run_free(&r);
	return 0;
}

/* Counts file and faults into t. 0, or -1 (reported). */
static int conclude(const char *counts, struct truth_log *log, struct truth *t,
		    struct truth_raw *keep)
{
	struct truth_raw raw;
	struct truth_fault *f = NULL;
	size_t n, nf = 0;
	char err[256];
	char *text = read_counts(counts, &n);
	int rc = -1;

	if (truth_log_finish(log, &f, &nf)) {
		bm_err("out of memory reading QEMU's -d int log");
		free(text);
		return -1;
	}
	if (!text)
		goto out;
	if (truth_raw_parse(text, n, &raw, err, sizeof err)) {
		bm_err("%s: %s", counts, err);
		goto out;
	}
	rc = truth_build(&raw, f, nf, t);
	if (rc)
		bm_err("out of memory counting instructions");
	if (!rc && keep && !raw.have_stacks) {
		bm_err("%s: the plugin wrote no calling contexts (an older insn_count.so? run "
		       "make)", counts);
		rc = -1;
	}
	if (!rc && keep)
		*keep = raw;
	else
		truth_raw_free(&raw);
out:
	free(text);
	free(f);
	return rc;
}

int truth_qemu_run(struct truth_run *tr, struct truth *t)
{
	char plugin[PATH_MAX], err[PATH_MAX + 256], dir[PATH_MAX];
	char fifo[PATH_MAX + 16], counts[PATH_MAX + 16], ranges[PATH_MAX + 16];
	char entries[PATH_MAX + 16];
	char counts_tmp[PATH_MAX + 32];
	const char *tmp = getenv("TMPDIR");
	char *extra[8] = { 0 }, *parg = NULL;
	int rc = -1, nextra = 0;
	struct log_reader rd = { .fd = -1 };

	if (truth_plugin_path(plugin, sizeof plugin, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	snprintf(dir, sizeof dir, "%s/bmprof-count-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		bm_err("cannot create a temporary directory %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(fifo, sizeof fifo, "%s/int.log", dir);
	snprintf(counts, sizeof counts, "%s/counts", dir);
	snprintf(ranges, sizeof ranges, "%s/ranges", dir);
	snprintf(entries, sizeof entries, "%s/entries", dir);
	snprintf(counts_tmp, sizeof counts_tmp, "%s.tmp", counts);
	if (mkfifo(fifo, 0600)) {
		bm_err("cannot create the FIFO %s: %s", fifo, strerror(errno));
		goto out;
	}
	if (tr->nranges && write_ranges(ranges, tr->ranges, tr->nranges))
		goto out;
	if (tr->stacks && write_entries(entries, tr->image))
		goto out;
	rd.log = truth_log_new();
	parg = plugin_arg(plugin, counts, tr->nranges ? ranges : NULL,
			  tr->stacks ? entries : NULL);
	if (!rd.log || !parg) {
		bm_err("out of memory");
		goto out;
	}
	extra[nextra++] = "-plugin";
	extra[nextra++] = parg;
	extra[nextra++] = "-d";
	extra[nextra++] = "int";
	extra[nextra++] = "-D";
	extra[nextra++] = fifo;
	if (run_with_reader(tr, &rd, fifo, extra, nextra))
		goto out;
	if (rd.failed) {
		bm_err("reading QEMU's -d int log failed (out of memory)");
		goto out;
	}
	struct truth_log *log = rd.log;
	rd.log = NULL;
	if (tr->exit_status == EXIT_TIMEOUT || tr->exit_status == EXIT_INTERRUPTED) {
		truth_log_free(log);
		bm_err("the counting run did not finish: no counts");
		goto out;
	}
	rc = conclude(counts, log, t, tr->stacks ? &tr->raw : NULL);
out:
	truth_log_free(rd.log);
	if (rd.fd >= 0)
		close(rd.fd);
	free(parg);
	unlink(fifo);
	unlink(counts);
	unlink(counts_tmp);
	unlink(ranges);
	unlink(entries);
	rmdir(dir);
	return rc;
}
