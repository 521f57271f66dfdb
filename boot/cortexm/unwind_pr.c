/* SPDX-License-Identifier: BSD-2-Clause */
/* The images are built with -funwind-tables for the call-stack unwind, which reads only
 * the functions' starts from .ARM.exidx; the tables name the EHABI personality routines
 * all the same. With no exception handling in the image these stand in for them (weak: a
 * C++ runtime's own win) and refuse to unwind (_URC_FAILURE). */
int __aeabi_unwind_cpp_pr0(void) __attribute__((weak));
int __aeabi_unwind_cpp_pr1(void) __attribute__((weak, alias("__aeabi_unwind_cpp_pr0")));
int __aeabi_unwind_cpp_pr2(void) __attribute__((weak, alias("__aeabi_unwind_cpp_pr0")));

int __aeabi_unwind_cpp_pr0(void) { return 9; }
