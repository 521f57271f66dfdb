/* What the boot runtimes share: the parts in boot/common/, compiled into each runtime, and
 * what each architecture (boot/<arch>/) gives them. Each arch's rt.h includes this. */
#ifndef BMRT_RT_COMMON_H
#define BMRT_RT_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "wire.h"

/* Values for the QEMU exit status, which is (value << 1) | 1 on both architectures. */
#define BMRT_EXIT_MAX_CODE 123    /* main's 0..123 is passed as 1 + code */
#define BMRT_EXIT_OTHER 125       /* main returned something outside 0..123 */
#define BMRT_EXIT_PANIC 126       /* the runtime could not set up sampling */
#define BMRT_EXIT_EXCEPTION 127   /* an unhandled CPU exception */

/* ---- each architecture provides ---- */

/* uart.c: the console UART; uart_write() behind bmrt_out is the bmprof_out sink. */
void uart_init(void);
void uart_putc(char c);
int uart_at_line_start(void);
extern const struct bmprof_out bmrt_out;

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

/* poweroff.c */
_Noreturn void bmrt_poweroff(uint8_t exit_value);

/* ---- boot/common/ provides ---- */

/* fwcfg.c: copy up to cap bytes of fw_cfg file name into buf; returns the file's full
 * length, or -1 if there is no fw_cfg or no such file */
int fwcfg_read_file(const char *name, char *buf, size_t cap);

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
	uint8_t *pick;
	const struct bmrt_choice *choices;
	void (*set)(struct bmrt_config *cfg, const char *v, size_t vn);
	struct bmrt_config *cfg;
};
extern const struct bmrt_choice bmrt_modes[];   /* mode=: sample | count (bmprof_pmu.h) */
void bmrt_config_read(const struct bmrt_key *keys, char *text, size_t cap);

/* The keys both runtimes have, first in each table: they set cfg->freq (0..max_hz),
 * cfg->timer (one of timers) and cfg->mode. */
#define BMRT_COMMON_KEYS(cfg, max_hz, timers)                          \
	{ "freq", .hz = &(cfg)->freq, .max = (max_hz) },               \
	{ "timer", .pick = &(cfg)->timer, .choices = (timers) },       \
	{ "mode", .pick = &(cfg)->mode, .choices = bmrt_modes }

#endif
