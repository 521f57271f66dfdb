/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the insn_count QEMU plugin is (truth_qemu.h): the make build puts it in
 * lib/bmprof/ beside bin/ (build/lib/bmprof/insn_count.so for build/bin/bmprof,
 * build/san/lib/bmprof/ for build/san/bin/bmprof), so bmprof looks relative to its own
 * executable; BMPROF_INSN_COUNT names another. */
#include "run/truth_qemu.h"
#include "util/libfile.h"

int truth_plugin_path(char *out, size_t n, char *err, size_t errlen)
{
	return bm_lib_file("BMPROF_INSN_COUNT", "insn_count.so", "the insn_count QEMU plugin", out,
			   n, err, errlen);
}
