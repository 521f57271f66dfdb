/* SPDX-License-Identifier: BSD-2-Clause */
/* The ITM transport for Armv7-M / Armv8-M: the stream written to one ITM stimulus port,
 * which the TPIU sends over SWO (docs/cortex-m-trace.md), and a tee that sends the stream
 * to two sinks (the UART and the ITM).
 *
 * Registers (Armv7-M ARM, C1.7 "Instrumentation Trace Macrocell" and C1.6.5 DEMCR; the
 * same addresses in Armv8-M):
 *   ITM_STIM<n>  0xE0000000 + 4n   write: 1, 2 or 4 bytes into the FIFO as one packet;
 *                                  read: bit 0 FIFOREADY (bit 1 DISABLED on Armv8-M)
 *   ITM_TER<k>   0xE0000E00 + 4k   stimulus port enables, ports 32k .. 32k+31
 *   ITM_TPR      0xE0000E40        bit k: ports 8k .. 8k+7 writable unprivileged
 *   ITM_TCR      0xE0000E80        ITMENA 0, TSENA 1, SYNCENA 2, TXENA 3, SWOENA 4,
 *                                  TraceBusID 22:16, BUSY 23
 *   ITM_LAR      0xE0000FB0        0xC5ACCE55 unlocks the other registers (CoreSight)
 *   DEMCR        0xE000EDFC        TRCENA 24: the DWT and ITM are powered and usable
 *
 * The SWO pin itself (TPIU_ACPR prescaler, TPIU_SPPR protocol, TPIU_FFCR formatter off,
 * the pin mux and the trace clock) is the board's or the debugger's to set up.
 *
 * write() sends whole 32-bit words with 32-bit stores, each after polling the port until
 * FIFOREADY (at most spin_limit reads); the last 1..3 bytes of a call go as one 16-bit
 * and/or one 8-bit store, so the bytes on the wire are exactly the bytes written. A port
 * that is disabled (ITMENA or its TER bit clear: no debugger listening, or it turned the
 * port off) or a FIFO that never drains fails the call: the core counts its samples as
 * lost_transport. One writer at a time per port (the stream's own rule). Freestanding. */
#ifndef BMPROF_ITM_H
#define BMPROF_ITM_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BMPROF_ITM_BASE 0xE0000000u
#define BMPROF_ITM_STIM(n) (BMPROF_ITM_BASE + 4u * (n))
#define BMPROF_ITM_TER(k) (BMPROF_ITM_BASE + 0xE00u + 4u * (k))
#define BMPROF_ITM_TPR (BMPROF_ITM_BASE + 0xE40u)
#define BMPROF_ITM_TCR (BMPROF_ITM_BASE + 0xE80u)
#define BMPROF_ITM_LAR (BMPROF_ITM_BASE + 0xFB0u)
#define BMPROF_ITM_LSR (BMPROF_ITM_BASE + 0xFB4u)
#define BMPROF_DEMCR 0xE000EDFCu

#define BMPROF_ITM_TCR_ITMENA (1u << 0)
#define BMPROF_ITM_TCR_TSENA (1u << 1)
#define BMPROF_ITM_TCR_SYNCENA (1u << 2)
#define BMPROF_ITM_TCR_TXENA (1u << 3)
#define BMPROF_ITM_TCR_SWOENA (1u << 4)
#define BMPROF_ITM_TCR_BUSID(id) ((uint32_t)(id) << 16)
#define BMPROF_ITM_TCR_BUSY (1u << 23)
#define BMPROF_ITM_STIM_READY (1u << 0)
#define BMPROF_ITM_UNLOCK 0xC5ACCE55u
#define BMPROF_DEMCR_TRCENA (1u << 24)

#define BMPROF_ITM_PORTS 256u
#define BMPROF_ITM_DEFAULT_PORT 0u
#define BMPROF_ITM_DEFAULT_SPINS 1000000u

struct bmprof_itm {
	uint32_t port;          /* stimulus port 0..255 (default 0) */
	uint32_t spin_limit;    /* FIFOREADY polls per word before the write fails; 0: default */
	uint32_t timeouts;      /* writes that failed on a full FIFO */
	uint32_t refused;       /* writes that failed on a disabled port */
};

/* Bring the ITM up for t->port (the sequence above): DEMCR.TRCENA, unlock, ITM_TCR =
 * ITMENA | SYNCENA | TraceBusID 1 (| TSENA with timestamps), the port's TER bit, and
 * ITM_TPR with unprivileged set (every port group) or 0. If a debugger enabled the ITM
 * already (ITMENA set), only the port's TER bit is added: its TCR stays. Returns 0, or -1
 * if the port number is out of range or the ITM does not keep the settings (none is
 * implemented, as under QEMU). */
int bmprof_itm_enable(struct bmprof_itm *t, int timestamps, int unprivileged);
/* struct bmprof_out's write: ctx is a struct bmprof_itm. */
int bmprof_itm_write(void *ctx, const void *buf, size_t len);

/* Both sinks get every byte; the write fails only when both fail. A sink that failed
 * mid-frame leaves a frame with a bad CRC on its side, which the host skips. */
struct bmprof_tee {
	const struct bmprof_out *a, *b;
};
int bmprof_tee_write(void *ctx, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
