/* SPDX-License-Identifier: BSD-2-Clause */
/* The options naming firmware modules' ELFs (report, annotate), as option table entries
 * filling a struct report_fw_opts whose syms has room for one per argument. */
#ifndef BMPROF_FW_OPTS_H
#define BMPROF_FW_OPTS_H

#include "report/report.h"
#include "util/options.h"

/* --firmware-sym: onto ((struct report_fw_opts *)o->value)->syms */
opt_cb fw_opts_cb_sym;

#define FW_OPTS_TABLE(fo) \
	OPT_GROUP("Firmware:"), \
	OPT_CALLBACK_F(0, "firmware-sym", (fo), "FILE[@ADDR]", "symbolize samples outside " \
		       "the image (firmware) against this ELF, loaded at ADDR (default: the " \
		       "log's address for a module of its name, else its link addresses); " \
		       "repeatable", fw_opts_cb_sym, OPT_MULTI), \
	OPT_STRING(0, "firmware-log", &(fo)->log, "LOG", "an EDK2 DEBUG build's console " \
		   "log: the \"Loading driver at 0x...\" lines give each module's load " \
		   "address"), \
	OPT_STRING(0, "firmware-debug", &(fo)->debug, "DIR", "the modules' debug ELFs " \
		   "(NAME.debug or NAME.dll) for the modules the log names")

#endif
