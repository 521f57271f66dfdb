/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware options (fw_opts.h). */
#include "report/fw_opts.h"

int fw_opts_cb_sym(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct report_fw_opts *fo = o->value;

	fo->syms[fo->nsyms++] = (char *)arg;   /* one of argv's strings */
	return 0;
}
