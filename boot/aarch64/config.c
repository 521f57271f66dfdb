/* Run-time configuration: the fw_cfg file opt/bmprof/config, key=value settings separated
 * by newlines, spaces, ';' or ','. '#' starts a comment to the end of the line.
 *   freq=N                    timer interrupts per second, 0..100000 (0: none)
 *   timer=T                   virtual | physical: the EL1 generic timer to use
 *   mode=M                    sample | count: sample, or only count events (COUNTS)
 *   event=ID:ENC:PERIOD[:NAME[:GROUP]]   a PMU event (repeatable), bmprof_pmu.h
 * A bad setting prints one line and keeps the default. */
#include "bmrt.h"
#include "rt.h"

#define CONFIG_FILE "opt/bmprof/config"
#define CONFIG_MAX 4096

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

/* Checked here, against a table of its own, so a bad one is named with its setting;
 * bmprof_a64_init parses the kept text again. */
static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	static struct bmprof_pmu check;

	if (vn >= BMRT_SPEC_MAX) {
		bm_printf("bmprof: config: event=%.*s: longer than %d characters; ignored\n",
			  (int)vn, v, BMRT_SPEC_MAX - 1);
		return;
	}
	if (bmprof_pmu_parse_event(&check, v, (unsigned)vn, BMPROF_VENDOR_ARM)) {
		bm_printf("bmprof: config: event=%.*s: %s; ignored\n", (int)vn, v, check.error);
		return;
	}
	memcpy(cfg->specs[cfg->nevents], v, vn);
	cfg->specs[cfg->nevents][vn] = 0;
	cfg->events[cfg->nevents] = cfg->specs[cfg->nevents];
	cfg->nevents++;
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
	} else if (same(s, k, "mode")) {
		if (same(v, vn, "sample"))
			cfg->mode = BMPROF_A64_SAMPLE;
		else if (same(v, vn, "count"))
			cfg->mode = BMPROF_A64_COUNT;
		else
			bm_printf("bmprof: config: mode=%.*s: want sample or count\n", (int)vn, v);
	} else if (same(s, k, "event")) {
		event_setting(cfg, v, vn);
	} else {
		bm_printf("bmprof: config: unknown key '%.*s' (known: freq, timer, mode, event); "
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
