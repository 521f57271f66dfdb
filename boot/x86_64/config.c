/* Run-time configuration: the fw_cfg file opt/bmprof/config, key=value settings separated
 * by newlines, spaces, ';' or ','. '#' starts a comment to the end of the line.
 *   freq=N     timer frequency, 0..100000 (0: no timer): the sampling rate when no event
 *              samples on the PMU, else the rate groups rotate and counters are read
 *   timer=M    auto | deadline | oneshot
 *   mode=M     sample | count (count: no sampling, event totals at the end)
 *   pmi=P      nmi | irq: how the PMU's overflow interrupt is delivered
 *   event=SPEC ID:ENC:PERIOD[:NAME[:GROUP]], repeatable (parsed by the PMU layer, which
 *              reports a malformed one when the sampler starts)
 * A bad setting prints one line and keeps the default. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#define CONFIG_FILE "opt/bmprof/config"
#define CONFIG_MAX 1024

/* event= values, each NUL-terminated */
static char pool[CONFIG_MAX + BMRT_MAX_EVENTS];
static size_t pool_used;

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

static int parse_u32(const char *s, size_t n, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > max)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	char *e = pool + pool_used;

	if (cfg->nevents == BMRT_MAX_EVENTS) {
		bm_printf("bmprof: config: event=%.*s: at most %d events; ignored\n", (int)vn, v,
			  BMRT_MAX_EVENTS);
		return;
	}
	memcpy(e, v, vn);
	e[vn] = 0;
	pool_used += vn + 1;
	cfg->events[cfg->nevents++] = e;
}

static void setting(struct bmrt_config *cfg, const char *s, size_t n)
{
	size_t k = 0;
	const char *v;
	size_t vn;

	while (k < n && s[k] != '=')
		k++;
	if (k == n) {
		bm_printf("bmprof: config: '%.*s' is not key=value; ignored\n", (int)n, s);
		return;
	}
	v = s + k + 1;
	vn = n - k - 1;
	if (same(s, k, "freq")) {
		if (parse_u32(v, vn, BMPROF_X86_MAX_HZ, &cfg->freq))
			bm_printf("bmprof: config: freq=%.*s: want a number of Hz, 0..%u; "
				  "using %u\n", (int)vn, v, BMPROF_X86_MAX_HZ, cfg->freq);
	} else if (same(s, k, "timer")) {
		if (same(v, vn, "auto"))
			cfg->timer = BMPROF_X86_TIMER_AUTO;
		else if (same(v, vn, "deadline"))
			cfg->timer = BMPROF_X86_TIMER_DEADLINE;
		else if (same(v, vn, "oneshot"))
			cfg->timer = BMPROF_X86_TIMER_ONESHOT;
		else
			bm_printf("bmprof: config: timer=%.*s: want auto, deadline or oneshot\n",
				  (int)vn, v);
	} else if (same(s, k, "mode")) {
		if (same(v, vn, "sample"))
			cfg->mode = BMPROF_PMU_SAMPLE;
		else if (same(v, vn, "count"))
			cfg->mode = BMPROF_PMU_COUNT;
		else
			bm_printf("bmprof: config: mode=%.*s: want sample or count\n", (int)vn, v);
	} else if (same(s, k, "pmi")) {
		if (same(v, vn, "nmi"))
			cfg->pmi = BMPROF_X86_PMI_NMI;
		else if (same(v, vn, "irq"))
			cfg->pmi = BMPROF_X86_PMI_IRQ;
		else
			bm_printf("bmprof: config: pmi=%.*s: want nmi or irq\n", (int)vn, v);
	} else if (same(s, k, "event")) {
		event_setting(cfg, v, vn);
	} else {
		bm_printf("bmprof: config: unknown key '%.*s' (known: freq, timer, mode, pmi, "
			  "event); ignored\n", (int)k, s);
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
