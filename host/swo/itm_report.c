/* SPDX-License-Identifier: BSD-2-Clause */
/* What `bmprof record --itm-port` says about an SWO capture (itm_report.h). */
#include <inttypes.h>
#include <stdio.h>
#include "itm_report.h"
#include "util/util.h"

void itm_summary(FILE *f, const struct itm_stats *st, unsigned port)
{
	fprintf(f, "  itm       port %u: %" PRIu64 " bytes; other ports %" PRIu64 " bytes, %"
		PRIu64 " hardware packets, %" PRIu64 " timestamps, %" PRIu64 " sync\n", port,
		st->delivered, st->other_bytes, st->hw_packets, st->local_ts + st->global_ts,
		st->syncs);
	if (st->overflows)
		fprintf(f, "  itm       %" PRIu64 " overflow packets: the target's ITM dropped "
			"packets (a slower SWO clock than the stream needs?)\n", st->overflows);
	if (st->errors || st->truncated)
		fprintf(f, "  itm       %" PRIu64 " malformed packets, %" PRIu64 " bytes skipped%s\n",
			st->errors, st->skipped, st->truncated ? "; the capture ends inside a packet" : "");
}

void itm_counts(char *buf, size_t len, const struct itm_stats *st)
{
	snprintf(buf, len, "delivered=%" PRIu64 " other=%" PRIu64 " hw=%" PRIu64 " ts=%" PRIu64
		 " sync=%" PRIu64 " overflow=%" PRIu64 " errors=%" PRIu64 " skipped=%" PRIu64
		 " truncated=%d", st->delivered, st->other_bytes, st->hw_packets,
		 st->local_ts + st->global_ts, st->syncs, st->overflows, st->errors, st->skipped,
		 st->truncated);
}

void itm_no_port(const struct itm_stats *st, unsigned port, const char *path)
{
	char ports[256];
	size_t n = 0;
	unsigned shown = 0;

	ports[0] = 0;
	for (unsigned p = 0; p < ITM_PORTS && shown < 8; p++) {
		if (!st->port_bytes[p])
			continue;
		n += (size_t)snprintf(ports + n, sizeof ports - n, "%s%u", shown ? ", " : "", p);
		shown++;
	}
	if (shown)
		bm_err("no bytes on ITM stimulus port %u in %s; data arrived on port%s %s: give "
		       "that port with --itm-port", port, path, shown > 1 ? "s" : "", ports);
	else if (st->bytes)
		bm_err("no ITM instrumentation packets in %s (%" PRIu64 " bytes, %" PRIu64
		       " malformed packets): is it an SWO capture with the TPIU formatter "
		       "bypassed, at the right baud rate?", path, st->bytes, st->errors);
	else
		bm_err("%s is empty: no SWO capture to decode", path);
}
