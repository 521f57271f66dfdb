/* SPDX-License-Identifier: BSD-2-Clause */
/* Run-time parameters: config param=NAME=VALUE (repeatable; VALUE decimal or 0x hex, up
 * to 64 bits), read by the program with bm_param(). A malformed one, or one past the
 * table, prints one line and is ignored; a later setting of the same name replaces the
 * earlier one. */
#include "bmrt.h"
#include "rt_common.h"

struct param {
	char name[BMRT_PARAM_NAME_MAX + 1];
	uint64_t value;
};

static struct param params[BMRT_MAX_PARAMS];
static unsigned nparams;

static int name_char(char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

static int digit(char c, unsigned base)
{
	int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;

	return d < (int)base ? d : -1;
}

/* s[0..n) as a decimal or 0x hex number: 0, or -1 if malformed or over 64 bits. */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n -= 2;
	}
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = digit(s[i], base);
		if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / base)
			return -1;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

static struct param *find(const char *name, size_t n)
{
	for (unsigned i = 0; i < nparams; i++) {
		size_t k = 0;
		while (k < n && params[i].name[k] == name[k])
			k++;
		if (k == n && !params[i].name[n])
			return &params[i];
	}
	return 0;
}

void bmrt_param_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	size_t kn = 0;
	uint64_t value;
	struct param *p;

	(void)cfg;
	while (kn < vn && v[kn] != '=')
		kn++;
	for (size_t i = 0; i < kn; i++)
		if (!name_char(v[i], i == 0))
			kn = 0;
	if (!kn || kn > BMRT_PARAM_NAME_MAX || kn == vn ||
	    parse_u64(v + kn + 1, vn - kn - 1, &value)) {
		bmrt_log(BMRT_WARN, "config: param=%.*s: want NAME=VALUE, NAME of letters, digits "
			 "and '_' (up to %d), VALUE a number (decimal or 0x hex); ignored", (int)vn, v,
			 BMRT_PARAM_NAME_MAX);
		return;
	}
	p = find(v, kn);
	if (!p) {
		if (nparams == BMRT_MAX_PARAMS) {
			bmrt_log(BMRT_WARN, "config: param=%.*s: at most %d parameters; ignored",
				 (int)vn, v, BMRT_MAX_PARAMS);
			return;
		}
		p = &params[nparams++];
		memcpy(p->name, v, kn);
		p->name[kn] = 0;
	}
	p->value = value;
}

uint64_t bm_param(const char *name, uint64_t def)
{
	size_t n = 0;
	const struct param *p;

	while (name && name[n])
		n++;
	p = name ? find(name, n) : 0;
	return p ? p->value : def;
}
