# SPDX-License-Identifier: BSD-2-Clause
# Bare-metal Cortex-M with Debian's arm-none-eabi-gcc; the CPU's flags come from the
# bmprof:: target, so the compiler checks build static libraries instead of programs.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
