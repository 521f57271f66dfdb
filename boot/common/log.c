/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's own messages: each one a LOG frame on the profile stream (bmrt_out), sent
 * under the console lock like console text, so the host can show them on its stderr
 * apart from the program's console (its stdout) and keep them in the profile. Formatted
 * by the printf engine without floating point (this file is -mgeneral-regs-only like the
 * rest of the runtime). A message longer than BMRT_LOG_TEXT_MAX ends in "...". */
#include "format.h"
#include "rt_common.h"

static void msg_put(struct bmrt_sink *s, const char *p, size_t n)
{
	struct bmrt_msg *m = (struct bmrt_msg *)s;

	for (size_t i = 0; i < n; i++) {
		if (m->n == BMRT_LOG_TEXT_MAX) {
			m->cut = 1;
			return;
		}
		m->buf[BMPROF_LOG_FIXED + m->n++] = (uint8_t)p[i];
	}
}

void bmrt_msg_start(struct bmrt_msg *m, uint8_t level)
{
	m->sink.put = msg_put;
	m->level = level;
	m->n = 0;
	m->cut = 0;
}

void bmrt_msg_add(struct bmrt_msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bmrt_vformat(&m->sink, fmt, &ap, 0);
	va_end(ap);
}

void bmrt_msg_send(struct bmrt_msg *m)
{
	int t;

	if (m->cut)
		for (unsigned i = 1; i <= 3; i++)
			m->buf[BMPROF_LOG_FIXED + m->n - i] = '.';
	m->buf[0] = m->level;
	m->buf[1] = 0;
	bmprof_put16(m->buf + 2, m->n);
	t = bmrt_console_begin();
	bmprof_emit_frame(&bmrt_out, BMPROF_FRAME_LOG, m->buf, (uint16_t)(BMPROF_LOG_FIXED + m->n));
	bmrt_console_end(t);
}

void bmrt_log(uint8_t level, const char *fmt, ...)
{
	struct bmrt_msg m;
	va_list ap;

	bmrt_msg_start(&m, level);
	va_start(ap, fmt);
	bmrt_vformat(&m.sink, fmt, &ap, 0);
	va_end(ap);
	bmrt_msg_send(&m);
}
