# SPDX-License-Identifier: BSD-2-Clause
# Bare-metal RISC-V with Debian's riscv64-unknown-elf-gcc; the compiler checks build
# static libraries instead of programs.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
