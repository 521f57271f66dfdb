/* SPDX-License-Identifier: BSD-2-Clause */
/* The committed seeds and reproducers of tests/fuzz/fuzz_itm.c, replayed through the
 * harness under the unit-test build (see tests/fuzz/replay.h). */
#define LLVMFuzzerTestOneInput fuzz_one
#include "../fuzz/fuzz_itm.c"
#include "../fuzz/replay.h"

REPLAY_MAIN("fuzz_itm")
