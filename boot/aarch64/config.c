/* Run-time configuration: the fw_cfg file opt/bmprof/config, key=value settings separated
 * by newlines, spaces, ';' or ','. '#' starts a comment to the end of the line.
 *   freq=N                    timer samples per second, 0..100000 (0: no sampling)
 *   timer=T                   virtual | physical: the EL1 generic timer to use
 *   event=ID:ENC:PERIOD[:NAME]  sample on a PMU event instead of the timer (repeatable):
 *                             ID the event id in SAMPLES (0..65535), ENC a PMUv3 event
 *                             number in hex or "cycles" (the cycle counter), PERIOD events
 *                             between samples, NAME up to 31 characters
 * A bad setting prints one line and keeps the default. */
#include "bmrt.h"
#include "rt.h"

#define CONFIG_FILE "opt/bmprof/config"
#define CONFIG_MAX 1024
#define NAME_MAX 31
#define EVENT_USAGE "want ID:ENC:PERIOD[:NAME], e.g. event=1:cycles:1000000 or event=2:0x08:100000"

static char names[BMPROF_A64_MAX_EVENTS][NAME_MAX + 1];

static int is_sep(char c)
{
	return c == '\n' || c == '\r' || c == ' ' || c == '\t' || c == ';' || c == ',';
}

static int same(const char *a, size_t n, const char *lit)
{
	size_t i = 0;

	while (i < n && lit[i] && a[i] == lit[i])
		i++;
	return i == n && !lit[i];
}

static int parse_dec(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (max - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* hex, with or without 0x, at most 0xFFFF */
static int parse_hex16(const char *s, size_t n, uint16_t *out)
{
	uint32_t v = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!n || n > 4)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit(s[i]);
		if (d < 0)
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	*out = (uint16_t)v;
	return 0;
}

/* The next ':'-separated field of [*s, end): its start and length. */
static size_t field(const char **s, const char *end, const char **start)
{
	size_t n = 0;

	*start = *s;
	while (*s + n < end && (*s)[n] != ':')
		n++;
	*s += n < (size_t)(end - *s) ? n + 1 : n;
	return n;
}

static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	const char *p = v, *end = v + vn, *f[4];
	size_t n[4] = { 0 };
	unsigned nf = 0;
	uint64_t id, period, max;
	struct bmprof_a64_event e = { 0 };

	while (p < end && nf < 4)
		n[nf] = field(&p, end, &f[nf]), nf++;
	if (p < end || nf < 3 || v[vn - 1] == ':' || parse_dec(f[0], n[0], 0xFFFF, &id)) {
		bm_printf("bmprof: config: event=%.*s: %s; ignored\n", (int)vn, v, EVENT_USAGE);
		return;
	}
	e.id = (uint16_t)id;
	e.cycle_counter = same(f[1], n[1], "cycles");
	if (!e.cycle_counter && parse_hex16(f[1], n[1], &e.number)) {
		bm_printf("bmprof: config: event=%.*s: '%.*s' is not a PMUv3 event number "
			  "(hex, 0..0xffff) or 'cycles'; ignored\n", (int)vn, v, (int)n[1], f[1]);
		return;
	}
	max = e.cycle_counter ? UINT64_MAX >> 1 : BMPROF_A64_MAX_PERIOD32;
	if (parse_dec(f[2], n[2], max, &period) || period < BMPROF_A64_MIN_PERIOD) {
		bm_printf("bmprof: config: event=%.*s: period '%.*s': want %u..%llu events; "
			  "ignored\n", (int)vn, v, (int)n[2], f[2], BMPROF_A64_MIN_PERIOD,
			  (unsigned long long)max);
		return;
	}
	e.period = period;
	if (nf == 4 && (n[3] == 0 || n[3] > NAME_MAX)) {
		bm_printf("bmprof: config: event=%.*s: a name is 1..%d characters; ignored\n",
			  (int)vn, v, NAME_MAX);
		return;
	}
	for (unsigned i = 0; i < cfg->nevents; i++)
		if (cfg->events[i].id == e.id) {
			bm_printf("bmprof: config: event=%.*s: event id %u is taken; ignored\n",
				  (int)vn, v, e.id);
			return;
		}
	if (cfg->nevents == BMPROF_A64_MAX_EVENTS) {
		bm_printf("bmprof: config: event=%.*s: at most %d events; ignored\n", (int)vn, v,
			  BMPROF_A64_MAX_EVENTS);
		return;
	}
	if (nf == 4) {
		memcpy(names[cfg->nevents], f[3], n[3]);
		names[cfg->nevents][n[3]] = 0;
		e.name = names[cfg->nevents];
	}
	cfg->events[cfg->nevents++] = e;
}

static void setting(struct bmrt_config *cfg, const char *s, size_t n)
{
	size_t k = 0;
	const char *v;
	size_t vn;
	uint64_t freq;

	while (k < n && s[k] != '=')
		k++;
	if (k == n) {
		bm_printf("bmprof: config: '%.*s' is not key=value; ignored\n", (int)n, s);
		return;
	}
	v = s + k + 1;
	vn = n - k - 1;
	if (same(s, k, "freq")) {
		if (parse_dec(v, vn, BMPROF_A64_MAX_HZ, &freq))
			bm_printf("bmprof: config: freq=%.*s: want a number of Hz, 0..%u; "
				  "using %u\n", (int)vn, v, BMPROF_A64_MAX_HZ, cfg->freq);
		else
			cfg->freq = (uint32_t)freq;
	} else if (same(s, k, "timer")) {
		if (same(v, vn, "virtual"))
			cfg->timer = BMPROF_A64_TIMER_VIRTUAL;
		else if (same(v, vn, "physical"))
			cfg->timer = BMPROF_A64_TIMER_PHYSICAL;
		else
			bm_printf("bmprof: config: timer=%.*s: want virtual or physical\n",
				  (int)vn, v);
	} else if (same(s, k, "event")) {
		event_setting(cfg, v, vn);
	} else {
		bm_printf("bmprof: config: unknown key '%.*s' (known: freq, timer, event); "
			  "ignored\n", (int)k, s);
	}
}

static void parse(struct bmrt_config *cfg, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start;
		if (text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (is_sep(text[i]) || !text[i]) {
			i++;
			continue;
		}
		start = i;
		while (i < len && !is_sep(text[i]) && text[i] && text[i] != '#')
			i++;
		setting(cfg, text + start, i - start);
	}
}

void bmrt_config_load(struct bmrt_config *cfg)
{
	static char buf[CONFIG_MAX];
	int n = fwcfg_read_file(CONFIG_FILE, buf, sizeof buf);

	if (n < 0)
		return;
	if (n > CONFIG_MAX) {
		bm_printf("bmprof: config: %s is %d bytes; only the first %d are read\n",
			  CONFIG_FILE, n, CONFIG_MAX);
		n = CONFIG_MAX;
	}
	parse(cfg, buf, (size_t)n);
}
