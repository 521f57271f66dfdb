/* Run-time configuration: the fw_cfg file opt/bmprof/config, key=value settings separated
 * by newlines, spaces, ';' or ','. '#' starts a comment to the end of the line. The keys
 * are the architecture's (its config.c); mode=sample|count is common to both. A bad
 * setting prints one line and keeps the default. */
#include "bmprof_pmu.h"
#include "bmrt.h"
#include "rt_common.h"

#define CONFIG_FILE "opt/bmprof/config"

const struct bmrt_choice bmrt_modes[] = {
	{ "sample", BMPROF_PMU_SAMPLE }, { "count", BMPROF_PMU_COUNT }, { 0, 0 },
};

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

static int parse_dec(const char *s, size_t n, uint32_t max, uint32_t *out)
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

static void set_hz(const struct bmrt_key *k, const char *v, size_t vn)
{
	if (parse_dec(v, vn, k->max, k->hz))
		bm_printf("bmprof: config: %s=%.*s: want a number of %s, 0..%u; using %u\n",
			  k->name, (int)vn, v, k->unit ? k->unit : "Hz", k->max, *k->hz);
}

/* One line: "want a, b or c". */
static void set_pick(const struct bmrt_key *k, const char *v, size_t vn)
{
	const struct bmrt_choice *c = k->choices;
	int t;

	for (; c->name; c++)
		if (same(v, vn, c->name)) {
			*k->pick = c->value;
			return;
		}
	t = bmrt_console_begin();
	bm_printf("bmprof: config: %s=%.*s: want ", k->name, (int)vn, v);
	for (c = k->choices; c->name; c++)
		bm_printf("%s%s", c == k->choices ? "" : c[1].name ? ", " : " or ", c->name);
	bm_putchar('\n');
	bmrt_console_end(t);
}

static void unknown(const struct bmrt_key *keys, const char *s, size_t n)
{
	int t = bmrt_console_begin();

	bm_printf("bmprof: config: unknown key '%.*s' (known: ", (int)n, s);
	for (const struct bmrt_key *k = keys; k->name; k++)
		bm_printf("%s%s", k == keys ? "" : ", ", k->name);
	bm_printf("); ignored\n");
	bmrt_console_end(t);
}

static void setting(const struct bmrt_key *keys, const char *s, size_t n)
{
	const struct bmrt_key *k = keys;
	const char *v;
	size_t kn = 0, vn;

	while (kn < n && s[kn] != '=')
		kn++;
	if (kn == n) {
		bm_printf("bmprof: config: '%.*s' is not key=value; ignored\n", (int)n, s);
		return;
	}
	v = s + kn + 1;
	vn = n - kn - 1;
	while (k->name && !same(s, kn, k->name))
		k++;
	if (!k->name)
		unknown(keys, s, kn);
	else if (k->hz)
		set_hz(k, v, vn);
	else if (k->pick)
		set_pick(k, v, vn);
	else
		k->set(k->cfg, v, vn);
}

static void parse(const struct bmrt_key *keys, const char *text, size_t len)
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
		setting(keys, text + start, i - start);
	}
}

void bmrt_config_read(const struct bmrt_key *keys, char *text, size_t cap)
{
	int n = fwcfg_read_file(CONFIG_FILE, text, cap);

	if (n < 0)
		return;
	if ((size_t)n > cap) {
		bm_printf("bmprof: config: %s is %d bytes; only the first %d are read\n",
			  CONFIG_FILE, n, (int)cap);
		n = (int)cap;
	}
	parse(keys, text, (size_t)n);
}
