/* SPDX-License-Identifier: BSD-2-Clause */
/* What the boot runtimes share: the parts in boot/common/, compiled into each runtime, and
 * what each architecture (boot/<arch>/) gives them. Each arch's rt.h includes this. */
#ifndef BMRT_RT_COMMON_H
#define BMRT_RT_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "format.h"
#include "wire.h"

/* Values for the QEMU exit status, which is (value << 1) | 1 on both architectures. */
#define BMRT_EXIT_MAX_CODE 123    /* main's 0..123 is passed as 1 + code */
#define BMRT_EXIT_OTHER 125       /* main returned something outside 0..123 */
#define BMRT_EXIT_PANIC 126       /* the runtime could not set up sampling */
#define BMRT_EXIT_EXCEPTION 127   /* an unhandled CPU exception */

/* ---- each architecture provides ---- */

/* uart.c: the console UART; bmrt_serial_out is its bmprof_out sink (stream.c routes to it). */
void uart_init(void);
void uart_putc(char c);
extern const struct bmprof_out bmrt_serial_out;

/* optin/uartlock.c (AArch64, RISC-V): one CPU writes to the UART at a time. uart_lock()
 * takes the lock (1), or finds this CPU holding it already (0), and uart_unlock() is given
 * that result; uart_unlock_mine() lets go if this CPU holds it. */
int uart_lock(void);
void uart_unlock(int taken);
void uart_unlock_mine(void);

/* One CPU at a time writes console text. bmrt_console_begin() takes the UART lock for
 * one console call (or finds this CPU holding it already) and returns what
 * bmrt_console_end() is given back. */
int bmrt_console_begin(void);
void bmrt_console_end(int token);

/* fwcfg.c: QEMU fw_cfg's registers: select an item, read its next byte. */
void fwcfg_select(uint16_t key);
uint8_t fwcfg_byte(void);

/* string.c: memmove's overlapping case, dst above src and n > 0: copy backwards. */
void bmrt_copy_down(unsigned char *dst, const unsigned char *src, size_t n);

/* finish.c: stop sampling everywhere, send what was sampled, the END frame, power off */
_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value);
/* The steps boot/common/optin/finish.c (AArch64, RISC-V) takes from the architecture:
 * mask this CPU's interrupts; stop sampling on every CPU and wait until the others parked;
 * stop this CPU's sampling; send a stopped CPU's state. smp.c: whether a CPU parked, and
 * this one parks (stopped: waits for the power-off with interrupts masked). */
void bmrt_end_irq_off(void);
void bmrt_end_stop_all(void);
void bmrt_end_stop_mine(void);
void bmrt_end_flush_cpu(unsigned cpu);
int bmrt_cpu_parked(unsigned cpu);
_Noreturn void bmrt_park(void);

/* poweroff.c */
_Noreturn void bmrt_poweroff(uint8_t exit_value);

/* probeclock.c, for gapprobe.c: the sampler's clock; CPU 0's timer interrupts so far and
 * the ticks its last handler timed; a jump in ticks longer than a turn of the probe's loop
 * and shorter than any interrupt. */
uint64_t bmrt_ticks(void);
void bmrt_irq_stats(uint64_t *irqs, uint64_t *last_ticks);
extern const uint64_t bmrt_gap_min_ticks;

/* ---- boot/common/ provides ---- */

/* exit.c: bm_exit runs bmrt_libc_exit(code) first: weak, empty; a C library's syscall
 * layer (boot/common/newlib/) defines it to run the library's exit processing. */
void bmrt_libc_exit(int code);
/* exit.c: a run that cannot sample ends here: why in one message, END (panic), power
 * off with BMRT_EXIT_PANIC. */
_Noreturn void bmrt_panic(const char *why);

/* console.c: the sink bm_printf formats into (the UART; callers hold the console) */
extern struct bmrt_sink bmrt_console_sink;

/* log.c: the runtime's own messages, never console text: each is one LOG frame on the
 * profile stream (wire.h), sent under the console lock, which the host shows on its
 * stderr. bmrt_log formats one message (printf conversions without floating point); a
 * message built in pieces takes bmrt_msg_start, bmrt_msg_add..., bmrt_msg_send. Text past
 * BMRT_LOG_TEXT_MAX bytes is cut (it then ends in "..."). No newline at the end. Ring 0
 * (x86-64) / EL1 only: it writes the stream directly. */
#define BMRT_LOG_TEXT_MAX 512
struct bmrt_msg {
	struct bmrt_sink sink;
	uint16_t n;
	uint8_t level, cut;
	uint8_t buf[BMPROF_LOG_FIXED + BMRT_LOG_TEXT_MAX];
};
#define BMRT_ERR BMPROF_LOG_ERROR
#define BMRT_WARN BMPROF_LOG_WARNING
#define BMRT_INFO BMPROF_LOG_INFO
/* Phases (phase.c): a PHASE frame for id, under the console lock, from ring 0. A runtime
 * whose program may run in ring 3 defines bmrt_phase_user to send it from there (1: done). */
void bmrt_phase_emit(uint16_t id, const char *name);
int bmrt_phase_user(uint16_t id, const char *name);
void bmrt_log(uint8_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bmrt_msg_start(struct bmrt_msg *m, uint8_t level);
void bmrt_msg_add(struct bmrt_msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bmrt_msg_send(struct bmrt_msg *m);

/* gapprobe.c: with the timer probing (the sampler's probe mode), over a few interrupts,
 * the mean clock jump the program sees less the handler's own time (*untimed, in
 * 1/BMPROF_UNTIMED_ONE ticks, for bmprof_*_set_untimed_fine) and the median jump (*cost,
 * ticks), hz the clock's rate; returns how many interrupts were paired (0: none, nothing
 * set). */
unsigned bmrt_gap_probe(uint64_t hz, int64_t *untimed, uint64_t *cost);

/* events.c: a warning per event (bmprof_pmu.h) that does not count or sample as asked;
 * with counters (what the groups share, e.g. "the PMU"), a note when groups take turns. */
struct bmprof_pmu;
void bmrt_report_events(const struct bmprof_pmu *p, const char *counters);

/* fwcfg.c: copy up to cap bytes of fw_cfg file name into buf; returns the file's full
 * length, or -1 if there is no fw_cfg or no such file */
int fwcfg_read_file(const char *name, char *buf, size_t cap);

/* stream.c: bmrt_out, the profile stream: the serial port (bmrt_serial_out) until
 * bmrt_stream_use_ring() switches every CPU to its own shared-memory ring
 * (bmprof_ring.h) in size bytes at base, one ring per CPU (0 or -1: too small).
 * bmrt_stream_final() before the end-of-run flush lets ring writes wait for the host. */
enum { BMRT_TRANSPORT_SERIAL, BMRT_TRANSPORT_SHM };
extern const struct bmprof_out bmrt_out;
int bmrt_stream_use_ring(void *base, uint64_t size, unsigned ncpus);
/* transport=shm: base/size as the architecture found them (base NULL: not found, why says
 * what is missing). Switches to the rings, or sends one message saying why not and
 * stays on serial. */
void bmrt_stream_shm(void *base, uint64_t size, unsigned ncpus, const char *why);
int bmrt_stream_ring(void);
void bmrt_stream_final(void);
/* From now on this CPU's writes go to cpu's ring: the end-of-run flush of a parked CPU. */
void bmrt_stream_as(unsigned cpu);

/* pci.c: configuration space through the architecture's accessors. bmrt_pci_find: the
 * first function with these IDs, 0 or -1. bmrt_pci_bar: BAR bar's address and, in *size,
 * its size (found by sizing, with decoding off meanwhile). */
struct bmrt_pci_ops {
	unsigned buses;          /* bus numbers 0 .. buses-1 are reachable */
	uint32_t (*read32)(unsigned bus, unsigned dev, unsigned fn, unsigned off);
	void (*write32)(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint32_t v);
};
struct bmrt_pci_dev {
	const struct bmrt_pci_ops *ops;
	uint8_t bus, dev, fn;
};
int bmrt_pci_find(const struct bmrt_pci_ops *ops, uint16_t vendor, uint16_t device,
		  struct bmrt_pci_dev *d);
uint64_t bmrt_pci_bar(const struct bmrt_pci_dev *d, unsigned bar, uint64_t *size);
void bmrt_pci_set_bar(const struct bmrt_pci_dev *d, unsigned bar, uint64_t addr);
void bmrt_pci_enable_memory(const struct bmrt_pci_dev *d);
/* QEMU's ivshmem-plain: its BAR 2 is the shared memory */
#define BMRT_IVSHMEM_VENDOR 0x1AF4
#define BMRT_IVSHMEM_DEVICE 0x1110
#define BMRT_IVSHMEM_BAR 2

/* buildid.c: the image's GNU build-id and its length (0: none) */
uint8_t bmrt_build_id(const uint8_t **id);

/* config.c: the fw_cfg file opt/bmprof/config, read into text (its first cap bytes) and
 * applied with the architecture's keys: a table ending with a NULL name, where each key
 * sets one of hz (a number of Hz, 0..max), pick (the value of one of choices, a table
 * ending with a NULL name) or, through set(cfg, value, length), anything else. A bad
 * setting prints one line and keeps the default. */
struct bmrt_config;
struct bmrt_choice {
	const char *name;
	uint8_t value;
};
struct bmrt_key {
	const char *name;
	uint32_t *hz;
	uint32_t max;
	const char *unit;        /* of hz's number, for messages; NULL: Hz */
	uint8_t *pick;
	const struct bmrt_choice *choices;
	void (*set)(struct bmrt_config *cfg, const char *v, size_t vn);
	struct bmrt_config *cfg;
};
extern const struct bmrt_choice bmrt_modes[];   /* mode=: sample | count (bmprof_pmu.h) */
extern const struct bmrt_choice bmrt_transports[];   /* transport=: serial | shm (stream.c) */
void bmrt_config_read(const struct bmrt_key *keys, char *text, size_t cap);
/* event=: whether setting v (vn bytes) fits in the architecture's table of max specs of
 * spec_max bytes (the NUL included), n of them taken; if not, a warning names it. */
int bmrt_event_fits(const char *v, size_t vn, size_t spec_max, unsigned n, unsigned max);
/* v copied into spec, as a string, for the sampler's init to parse; returns spec. */
const char *bmrt_event_keep(char *spec, const char *v, size_t vn);
/* optin/eventcheck.c (AArch64, RISC-V): bmrt_event_fits, then v parsed for vendor
 * (bmprof_pmu.h), a bad one named in a warning; 1: keep it. */
int bmrt_event_check(const char *v, size_t vn, size_t spec_max, unsigned n, unsigned max,
		     uint8_t vendor);

/* param.c: param=NAME=VALUE, for bm_param() (bmrt.h) */
#define BMRT_MAX_PARAMS 32
#define BMRT_PARAM_NAME_MAX 31
void bmrt_param_setting(struct bmrt_config *cfg, const char *v, size_t vn);

/* The periodic flush's longest interval (flush_ms=), an hour */
#define BMRT_FLUSH_MS_MAX 3600000u

/* How long the runtime waits for another CPU to come up at boot and to stop at the end of
 * the run (cpu_wait_ms=), by default and at most */
#define BMRT_CPU_WAIT_MS_DEFAULT 2000u
#define BMRT_CPU_WAIT_MS_MAX 3600000u

/* The keys both runtimes have, first in each table: they set cfg->freq (0..max_hz),
 * cfg->timer (one of timers), cfg->mode and cfg->transport, cfg->flush_ms (the periodic
 * flush, 0: off), cfg->cpu_wait_ms (the longest wait for another CPU), cfg->stack_depth
 * (call stacks of at most that many frames, 0: off), cfg->raw (1: raw samples with the
 * interrupted registers, for data-space profiling), and the program's parameters. */
#define BMRT_COMMON_KEYS(cfg, max_hz, timers)                          \
	{ "freq", .hz = &(cfg)->freq, .max = (max_hz) },               \
	{ "flush_ms", .hz = &(cfg)->flush_ms, .max = BMRT_FLUSH_MS_MAX, .unit = "ms" }, \
	{ "cpu_wait_ms", .hz = &(cfg)->cpu_wait_ms, .max = BMRT_CPU_WAIT_MS_MAX, .unit = "ms" }, \
	{ "stack_depth", .hz = &(cfg)->stack_depth, .max = BMPROF_STACK_DEPTH_MAX, .unit = "frames" }, \
	{ "raw", .hz = &(cfg)->raw, .max = 1, .unit = "flag" }, \
	{ "timer", .pick = &(cfg)->timer, .choices = (timers) },       \
	{ "mode", .pick = &(cfg)->mode, .choices = bmrt_modes },      \
	{ "transport", .pick = &(cfg)->transport, .choices = bmrt_transports }, \
	{ "param", .set = bmrt_param_setting }

#endif
