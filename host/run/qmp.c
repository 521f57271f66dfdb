/* SPDX-License-Identifier: BSD-2-Clause */
/* QMP client: see qmp.h. */
#include "run/qmp.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define GREETING_TIMEOUT 10.0

void qmp_init(struct qmp *q, int fd)
{
	memset(q, 0, sizeof *q);
	q->fd = fd;
	q->aux_fd = -1;
}

void qmp_free(struct qmp *q)
{
	free(q->buf);
	q->buf = NULL;
	q->len = q->cap = 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait until the monitor is readable or the deadline passes, serving aux meanwhile.
 * 1 readable, 0 deadline, -1 cancelled or a poll error. */
static int wait_readable(struct qmp *q, double deadline, int want_monitor)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = want_monitor ? q->fd : -1, .events = POLLIN },
				       { .fd = q->aux_fd, .events = POLLIN } };
		double left = deadline - now();
		struct timespec to;
		int n;

		if (q->cancelled && q->cancelled(q->cancel_ctx))
			return -1;
		if (left <= 0)
			return 0;
		to.tv_sec = (time_t)left;
		to.tv_nsec = (long)((left - (double)to.tv_sec) * 1e9);
		n = ppoll(p, 2, &to, q->mask);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents && q->aux)
			q->aux(q->aux_ctx);
		if (p[0].revents)
			return 1;
	}
}

/* The next complete line (without its \r\n), malloc'd, or NULL with err. */
static char *read_line(struct qmp *q, double deadline, char *err, size_t errlen)
{
	for (;;) {
		char *nl = q->len ? memchr(q->buf, '\n', q->len) : NULL;

		if (nl) {
			size_t n = (size_t)(nl - q->buf);
			char *line = malloc(n + 1);

			if (!line) {
				snprintf(err, errlen, "out of memory");
				return NULL;
			}
			memcpy(line, q->buf, n);
			line[n] = 0;
			if (n && line[n - 1] == '\r')
				line[n - 1] = 0;
			memmove(q->buf, nl + 1, q->len - n - 1);
			q->len -= n + 1;
			return line;
		}
		if (q->len >= QMP_LINE_MAX) {
			snprintf(err, errlen, "QEMU's monitor sent a line longer than %u bytes",
				 QMP_LINE_MAX);
			return NULL;
		}
		if (q->cap - q->len < 4096) {
			size_t cap = q->cap ? 2 * q->cap : 16384;
			char *b = realloc(q->buf, cap);

			if (!b) {
				snprintf(err, errlen, "out of memory");
				return NULL;
			}
			q->buf = b;
			q->cap = cap;
		}
		int r = wait_readable(q, deadline, 1);
		if (r <= 0) {
			snprintf(err, errlen, r ? "interrupted while waiting for QEMU's monitor" :
				 "QEMU's monitor did not answer in time");
			return NULL;
		}
		ssize_t got = recv(q->fd, q->buf + q->len, q->cap - q->len, MSG_DONTWAIT);
		if (got == 0) {
			snprintf(err, errlen, "QEMU closed its monitor");
			return NULL;
		}
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			snprintf(err, errlen, "reading QEMU's monitor: %s", strerror(errno));
			return NULL;
		}
		q->len += (size_t)got;
	}
}

static int send_line(struct qmp *q, const char *cmd, char *err, size_t errlen)
{
	size_t n = strlen(cmd), off = 0;
	char *line = malloc(n + 1);

	if (!line) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(line, cmd, n);
	line[n++] = '\n';
	while (off < n) {
		ssize_t w = send(q->fd, line + off, n - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			snprintf(err, errlen, "writing to QEMU's monitor: %s", strerror(errno));
			free(line);
			return -1;
		}
		off += (size_t)w;
	}
	free(line);
	return 0;
}

static int starts(const char *line, const char *prefix)
{
	return !strncmp(line, prefix, strlen(prefix));
}

/* Send cmd and take its reply, skipping events. */
static int exchange(struct qmp *q, const char *cmd, double timeout_s, char **reply, char *err,
		    size_t errlen)
{
	double deadline = now() + timeout_s;

	if (send_line(q, cmd, err, errlen))
		return -1;
	for (;;) {
		char *line = read_line(q, deadline, err, errlen);

		if (!line)
			return -1;
		if (starts(line, "{\"return\"")) {
			if (reply)
				*reply = line;
			else
				free(line);
			return 0;
		}
		if (starts(line, "{\"error\"")) {
			char desc[400];

			if (qmp_string(line, "desc", desc, sizeof desc))
				snprintf(desc, sizeof desc, "%.300s", line);
			snprintf(err, errlen, "QEMU refused it: %s", desc);
			free(line);
			return -1;
		}
		free(line);   /* an event, or something else not ours */
	}
}

static int greet(struct qmp *q, char *err, size_t errlen)
{
	char *line = read_line(q, now() + GREETING_TIMEOUT, err, errlen);

	if (!line)
		return -1;
	if (!starts(line, "{\"QMP\"")) {
		snprintf(err, errlen, "QEMU's monitor did not greet as QMP does: %.100s", line);
		free(line);
		return -1;
	}
	free(line);
	if (exchange(q, "{\"execute\":\"qmp_capabilities\"}", GREETING_TIMEOUT, NULL, err,
		     errlen))
		return -1;
	q->greeted = 1;
	return 0;
}

int qmp_exec(struct qmp *q, const char *cmd, double timeout_s, char **reply, char *err,
	     size_t errlen)
{
	if (reply)
		*reply = NULL;
	if (!q->greeted && greet(q, err, errlen))
		return -1;
	return exchange(q, cmd, timeout_s, reply, err, errlen);
}

int qmp_idle(struct qmp *q, double seconds)
{
	return wait_readable(q, now() + seconds, 0) < 0 ? -1 : 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int qmp_string(const char *line, const char *key, char *out, size_t n)
{
	char pat[64];
	const char *p;
	size_t o = 0;

	if (!n || snprintf(pat, sizeof pat, "\"%s\"", key) >= (int)sizeof pat)
		return -1;
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	while (*p == ' ' || *p == ':')
		p++;
	if (*p++ != '"')
		return -1;
	for (; *p && *p != '"'; p++) {
		char c = *p;

		if (c == '\\' && p[1]) {
			p++;
			switch (*p) {
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				int v = 0, ok = 1;
				for (int i = 1; i <= 4; i++) {
					int h = hexval(p[i]);
					ok &= h >= 0;
					v = v * 16 + (h < 0 ? 0 : h);
				}
				if (!ok)
					return -1;
				p += 4;
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			default: c = *p;
			}
		}
		if (o + 1 < n)
			out[o++] = c;
	}
	out[o] = 0;
	return *p == '"' ? 0 : -1;
}

int qmp_quote(const char *s, char *out, size_t n)
{
	size_t o = 0;

	if (n < 3)
		return -1;
	out[o++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		int k;

		if (c == '"' || c == '\\')
			k = snprintf(esc, sizeof esc, "\\%c", c);
		else if (c < 0x20)
			k = snprintf(esc, sizeof esc, "\\u%04x", c);
		else
			k = snprintf(esc, sizeof esc, "%c", c);
		if (o + (size_t)k + 2 > n)
			return -1;
		memcpy(out + o, esc, (size_t)k);
		o += (size_t)k;
	}
	out[o++] = '"';
	out[o] = 0;
	return 0;
}
