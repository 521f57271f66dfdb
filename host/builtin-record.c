/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof record: capture a stream from a serial device, a file, a FIFO or stdin into a
 * profile file. docs/bmprof-record.md is its manual. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "builtin.h"
#include "run/progress.h"
#include "run/qemu.h"
#include "profile/capture.h"
#include "report/data_space.h"
#include "report/summary.h"
#include "swo/itm.h"
#include "swo/itm_report.h"
#include "profile/target_log.h"
#include "util/options.h"
#include "util/util.h"

static const char description[] =
	"Capture a bmprof stream into a profile file. PATH is a serial device, a file, a FIFO, "
	"or - for stdin. Console text in the stream goes to stdout; a summary goes to stderr. "
	"Recording stops at the stream's END frame, at end of input, or on Ctrl-C; the profile "
	"is written in every case.";

#define DEFAULT_BAUD 115200L

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct input {
	const char *path;
	int fd;
	int restore;               /* saved holds the terminal settings to put back */
	struct termios saved;
};

static speed_t baud_speed(long baud)
{
	static const struct { long baud; speed_t speed; } map[] = {
		{ 1200, B1200 }, { 2400, B2400 }, { 4800, B4800 }, { 9600, B9600 },
		{ 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
		{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 },
		{ 500000, B500000 }, { 576000, B576000 }, { 921600, B921600 },
		{ 1000000, B1000000 }, { 1152000, B1152000 }, { 1500000, B1500000 },
		{ 2000000, B2000000 }, { 3000000, B3000000 }, { 4000000, B4000000 },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].baud == baud)
			return map[i].speed;
	return 0;
}

/* Raw 8N1 at the given speed: every byte as it arrives, nothing translated. */
static int setup_tty(struct input *in, speed_t speed)
{
	struct termios t;

	if (tcgetattr(in->fd, &in->saved)) {
		bm_err("cannot read the settings of %s: %s", in->path, strerror(errno));
		return -1;
	}
	t = in->saved;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (cfsetispeed(&t, speed) || cfsetospeed(&t, speed) || tcsetattr(in->fd, TCSANOW, &t)) {
		bm_err("cannot set up %s as a raw serial line: %s", in->path, strerror(errno));
		return -1;
	}
	in->restore = 1;
	return 0;
}

static int open_input(struct input *in, long baud, int baud_given)
{
	struct stat st;
	speed_t speed = baud_speed(baud);

	if (!speed) {
		bm_err("unsupported baud rate %ld: use a standard rate such as 115200", baud);
		return -1;
	}
	if (!strcmp(in->path, "-")) {
		in->fd = 0;
		in->path = "stdin";
	} else {
		in->fd = open(in->path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		if (in->fd < 0) {
			int e = errno;

			if (e == EINTR)
				bm_err("interrupted while opening %s", in->path);
			else if (e == ENOENT)
				bm_err("%s: no such file or device", in->path);
			else if (e == EACCES && !strncmp(in->path, "/dev/", 5))
				bm_err("cannot open %s: %s (is your user in the group that owns "
				       "it, often dialout?)", in->path, strerror(e));
			else
				bm_err("cannot open %s: %s", in->path, strerror(e));
			return -1;
		}
	}
	if (!fstat(in->fd, &st) && S_ISDIR(st.st_mode)) {
		bm_err("%s is a directory: name a serial device, a file, a FIFO or -", in->path);
		return -1;
	}
	if (isatty(in->fd))
		return setup_tty(in, speed);
	if (baud_given) {
		bm_err("--baud applies to a serial device, and %s is not a terminal", in->path);
		return -1;
	}
	return 0;
}

static void close_input(struct input *in)
{
	if (in->restore)
		tcsetattr(in->fd, TCSANOW, &in->saved);
	if (in->fd > 0)
		close(in->fd);
}

/* The status line on a terminal: erased before console text, messages and the summary. */
static struct progress status;
#define STATUS_EVERY_S 0.25

static void print_text(void *ctx, const char *text, size_t len)
{
	progress_clear(&status);
	fwrite(text, 1, len, stdout);
}

static void print_log(void *ctx, uint8_t level, const char *text, size_t len)
{
	progress_clear(&status);
	fflush(stdout);
	target_log_print(stderr, level, text, len);
}

enum stop { STOP_END, STOP_EOF, STOP_SIGNAL, STOP_ERROR };

/* --itm-port: the input is an SWO capture, and the stream is that port's bytes. */
static struct swo {
	int on;
	struct itm_decoder d;
	int failed;            /* a capture_push of the decoded bytes failed */
} swo;

static void swo_out(void *ctx, const uint8_t *data, size_t len)
{
	if (capture_push(ctx, data, len))
		swo.failed = 1;
}

static int feed(struct capture *c, const void *buf, size_t len)
{
	if (!swo.on)
		return capture_push(c, buf, len);
	swo.failed = 0;
	itm_push(&swo.d, buf, len);
	return swo.failed;
}

/* Read until END, end of input, a signal or an error. SIGINT and SIGTERM are blocked
 * except inside ppoll(), so one arriving between two reads is never missed. */
static enum stop pump(struct capture *c, struct input *in)
{
	static uint8_t buf[65536];
	sigset_t block, wait_mask;
	enum stop how = STOP_EOF;
	int write_reported = 0;
	double shown = 0;
	/* on a terminal, wake up to redraw the status line even when no byte arrives */
	const struct timespec tick = { 0, (long)(STATUS_EVERY_S * 1e9) };

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	for (;;) {
		struct pollfd pfd = { .fd = in->fd, .events = POLLIN };
		ssize_t n;
		int ready;

		if (status.on && qemu_now() - shown >= STATUS_EVERY_S) {
			shown = qemu_now();
			progress_show_profile(&status, shown, capture_profile(c));
		}
		if (capture_ended(c)) {
			how = STOP_END;
			break;
		}
		if (stop_signal) {
			how = STOP_SIGNAL;
			break;
		}
		ready = ppoll(&pfd, 1, status.on ? &tick : NULL, &wait_mask);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			progress_clear(&status);
			bm_err("cannot wait for input on %s: %s", in->path, strerror(errno));
			how = STOP_ERROR;
			break;
		}
		if (!ready)
			continue;
		n = read(in->fd, buf, sizeof(buf));
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			progress_clear(&status);
			bm_err("cannot read %s: %s", in->path, strerror(errno));
			how = STOP_ERROR;
			break;
		}
		if (feed(c, buf, (size_t)n) && !write_reported) {
			progress_clear(&status);
			bm_err("writing the profile file failed; still receiving the stream");
			write_reported = 1;
		}
		fflush(stdout);
	}
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	progress_clear(&status);
	if (swo.on)
		itm_finish(&swo.d);
	return how;
}

static const char *stop_text(enum stop how)
{
	switch (how) {
	case STOP_END: return "at the END frame";
	case STOP_EOF: return "at end of input";
	case STOP_SIGNAL: return "interrupted";
	default: return "on a read error";
	}
}

/* After the stream: summary, file, and the checks that make the run an error. */
static int want_stacks;       /* -g: say so when the stream has no call stacks */
static int want_raw;          /* --data-space: say so when the stream has no raw samples */

static int conclude(struct capture *c, const struct input *in, const char *out, enum stop how)
{
	const struct profile *p = capture_profile(c);
	char err[512];
	int rc = how == STOP_ERROR;

	capture_finish(c);
	if (swo.on && !swo.d.st.delivered) {
		itm_no_port(&swo.d.st, swo.d.port, in->path);
		return 1;
	}
	if (!p->frames_ok) {
		bm_err("no bmprof stream found in %s: is the image built with bmprof and is this "
		       "the right port?%s", in->path,
		       how == STOP_SIGNAL ? " (interrupted)" : "");
		return 1;
	}
	summary_print(stderr, p, in->path, NULL);
	if (swo.on) {
		char port[16], counts[256];
		struct bm_kv kv[] = { { "itm_port", port }, { "itm", counts } };

		itm_summary(stderr, &swo.d.st, swo.d.port);
		snprintf(port, sizeof port, "%u", swo.d.port);
		itm_counts(counts, sizeof counts, &swo.d.st);
		capture_meta(c, kv, 2);
	}
	if (want_stacks)
		summary_expect_stacks(stderr, p);
	fprintf(stderr, "  stopped   %s\n", stop_text(how));
	if (want_raw && p->have_hello) {
		char name[256], line[512];
		struct bm_kv kv = { "data_space_source", name };

		data_space_expect_raw(p);
		data_space_source(p, name, sizeof name, line, sizeof line);
		if (profile_has_raw(p))
			fprintf(stderr, "bmprof: data space: %s\n", line);
		capture_meta(c, &kv, 1);
	}
	if (capture_save(c, err, sizeof(err))) {
		bm_err("%s", err);
		return 1;
	}
	fprintf(stderr, "bmprof: wrote %s\n", out);
	if (!p->have_hello) {
		bm_err("the stream from %s has no HELLO frame: its start was lost (start bmprof "
		       "record before the target boots)", in->path);
		rc = 1;
	}
	return rc;
}

static int record(const char *from, const char *out, const char *elf, long baud,
		  int baud_given, const char *command)
{
	struct input in = { .path = from, .fd = -1 };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct bm_kv meta[] = { { "source", from } };
	struct capture_opts o = {
		.path = out, .elf = elf, .command = command, .meta = meta, .nmeta = 1,
		.on_text = print_text, .on_log = print_log,
	};
	struct capture *c;
	char err[512];
	int rc = 1;

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (open_input(&in, baud, baud_given))
		goto out;
	c = capture_open(&o, err, sizeof(err));
	if (!c) {
		bm_err("%s", err);
		goto out;
	}
	progress_init(&status, qemu_now(), 0, 0);
	if (swo.on)
		itm_init(&swo.d, swo.d.port, swo_out, c);
	rc = conclude(c, &in, out, pump(c, &in));
	capture_free(c);
out:
	close_input(&in);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	const char *out = PROFILE_DEFAULT_PATH, *from = NULL, *elf = NULL;
	unsigned long baud = DEFAULT_BAUD, itm_port = 0;
	const struct opt opts[] = {
		OPT_STRING('o', "output", &out, "FILE", "profile file to write (default "
			   PROFILE_DEFAULT_PATH "; an existing one is renamed to FILE.old)"),
		OPT_STRING(0, "from", &from, "PATH", "where the stream comes from (required)"),
		OPT_ULONG(0, "baud", &baud, "N", "serial line speed (default 115200); only for a "
			  "terminal device", 1, LONG_MAX),
		OPT_STRING(0, "elf", &elf, "ELF", "the image's ELF, recorded in the profile for "
			   "bmprof report"),
		OPT_ULONG(0, "itm-port", &itm_port, "N", "the input is an SWO capture of ITM "
			  "packets (TPIU formatter bypassed): the stream is stimulus port N's "
			  "bytes (0..255; docs/cortex-m-trace.md)", 0, ITM_PORTS - 1),
		OPT_BOOL('g', "call-graph", &want_stacks, "expect call stacks: warn when the stream "
			 "has none (the image sends them when its stack_depth is set)"),
		OPT_BOOL(0, "data-space", &want_raw, "expect raw samples (data-space profiling): "
			 "warn when the stream has none (the image sends them when its raw setting "
			 "is 1); the profile names their source"),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "record", .args = "--from PATH|-", .opts = opts,
				     .description = description };
	struct opt_args a;
	int baud_given, rc;
	char *args, *command;

	want_stacks = 0;
	want_raw = 0;
	if ((rc = opt_parse(&cmd, argc, argv, &a)) >= 0)
		return rc;
	baud_given = opt_given(&a, "baud") != NULL;
	swo.on = opt_given(&a, "itm-port") != NULL;
	swo.d.port = (unsigned)itm_port;
	rc = a.n || a.dash_given;
	if (rc)
		bm_err("record: unexpected argument '%s' (the stream is named with --from)",
		       a.n ? a.v[0] : "--");
	opt_args_free(&a);
	if (rc)
		return 2;
	if (!from) {
		bm_err("record: --from PATH is required (a serial device, a file, a FIFO, or - "
		       "for stdin)");
		return 2;
	}
	if (!*out) {
		bm_err("record: -o needs a file name");
		return 2;
	}
	if (elf) {
		char err[PATH_MAX + 200];
		int machine;

		/* a regular, readable ELF: reports will open it */
		if (qemu_elf_machine(elf, &machine, err, sizeof err)) {
			bm_err("record: --elf %s", err);
			return 1;
		}
	}
	args = bm_join_args(argc - 1, argv + 1);
	if (!args || asprintf(&command, "bmprof record %s", args) < 0) {
		bm_err("out of memory");
		free(args);
		return 1;
	}
	rc = record(from, out, elf, (long)baud, baud_given, command);
	free(command);
	free(args);
	return rc;
}
