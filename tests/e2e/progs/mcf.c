/* SPDX-License-Identifier: BSD-2-Clause */
/* The data-space example (examples/mcf.c) as a test image. */
#include "../../../examples/mcf.c"
