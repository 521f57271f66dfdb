/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile stream, bmrt_out: the UART alone (boot/common/stream.c's shared-memory rings
 * are left out of Cortex-M images, which have no PCI and little RAM). transport=shm is
 * accepted by the settings and refused with a message at start. */
#include "bmrt.h"
#include "rt.h"

const struct bmrt_choice bmrt_transports[] = {
	{ "serial", BMRT_TRANSPORT_SERIAL }, { "shm", BMRT_TRANSPORT_SHM }, { 0, 0 },
};

static int stream_write(void *ctx, const void *buf, size_t len)
{
	return bmrt_serial_out.write(ctx, buf, len);
}

const struct bmprof_out bmrt_out = { stream_write, 0 };
