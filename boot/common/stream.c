/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile stream's sink, bmrt_out: the serial port (bmrt_serial_out, uart.c) until the
 * runtime switches it to the shared-memory rings (config transport=shm and a device
 * found), then each CPU's writes go to its own ring, without the UART lock: a ring has
 * one writer at a time, the CPU it belongs to, or, once that CPU has parked, the CPU that
 * ends the run and flushes it (bmrt_stream_as), so each CPU's frames stay in order. */
#include "bmprof_ring.h"
#include "bmrt.h"
#include "rt_common.h"

/* The final flush waits this many polls of a consumer that makes no progress. */
#define FINAL_SPINS 200000000ull

const struct bmrt_choice bmrt_transports[] = {
	{ "serial", BMRT_TRANSPORT_SERIAL }, { "shm", BMRT_TRANSPORT_SHM }, { 0, 0 },
};

static struct bmprof_rings rings;
static volatile int ring_on;
static volatile unsigned as_writer = ~0u, as_ring;

static int stream_write(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	if (ring_on) {
		unsigned cpu = bm_cpu_id();
		if (cpu == as_writer)
			cpu = as_ring;
		return cpu < rings.n ? bmprof_ring_write(&rings.ring[cpu], buf, len) : -1;
	}
	return bmrt_serial_out.write(bmrt_serial_out.ctx, buf, len);
}

const struct bmprof_out bmrt_out = { stream_write, 0 };

int bmrt_stream_use_ring(void *base, uint64_t size, unsigned ncpus)
{
	if (bmprof_ring_init(&rings, base, (size_t)size, ncpus))
		return -1;
	__atomic_store_n(&ring_on, 1, __ATOMIC_RELEASE);
	return 0;
}

int bmrt_stream_ring(void) { return ring_on; }

void bmrt_stream_as(unsigned cpu)
{
	as_ring = cpu;
	as_writer = bm_cpu_id();
}

void bmrt_stream_final(void)
{
	if (ring_on)
		bmprof_ring_set_final(&rings, FINAL_SPINS);
}

void bmrt_stream_shm(void *base, uint64_t size, unsigned ncpus, const char *why)
{
	if (!base) {
		bmrt_log(BMRT_WARN, "transport=shm: %s; the profile goes over the serial port",
			 why);
		return;
	}
	if (bmrt_stream_use_ring(base, size, ncpus))
		bmrt_log(BMRT_WARN, "transport=shm: %llu bytes of shared memory cannot hold %u "
			 "rings of %u bytes; the profile goes over the serial port",
			 (unsigned long long)size, ncpus, BMPROF_RING_MIN_DATA);
}
