/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the harness image is (bhive_run.h): make builds it into lib/bmprof/ beside bin/
 * (mk/bhive.mk, mk/bhive-aarch64.mk), so bmprof looks relative to its own executable. */
#include "bhive/bhive_run.h"
#include "util/libfile.h"

int bhive_image_path(int arch, char *out, size_t n, char *err, size_t errlen)
{
	if (arch == BHIVE_ARCH_AARCH64)
		return bm_lib_file("BMPROF_BHIVE_IMAGE_AARCH64", "bhive-aarch64.elf",
				   "the AArch64 bhive harness image", out, n, err, errlen);
	return bm_lib_file("BMPROF_BHIVE_IMAGE", "bhive-x86_64.elf", "the bhive harness image",
			   out, n, err, errlen);
}
