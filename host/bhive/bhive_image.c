/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the harness image is (bhive_run.h): make builds it into lib/bmprof/ beside bin/
 * (mk/bhive.mk), so bmprof looks relative to its own executable. */
#include "bhive/bhive_run.h"
#include "util/libfile.h"

int bhive_image_path(char *out, size_t n, char *err, size_t errlen)
{
	return bm_lib_file("BMPROF_BHIVE_IMAGE", "bhive-x86_64.elf", "the bhive harness image",
			   out, n, err, errlen);
}
