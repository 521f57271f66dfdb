# SPDX-License-Identifier: BSD-2-Clause
# Bare-metal x86-64 with the host's gcc: nothing is linked against a C library, so the
# compiler checks build static libraries instead of programs.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)
set(CMAKE_ASM_COMPILER gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
