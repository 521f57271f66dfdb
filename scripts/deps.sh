#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian packages bmprof needs, only those that are missing.
# Idempotent: a second run with everything present calls no apt-get at all.
set -eu

PKGS="make gcc binutils python3 qemu-system-x86 libelf-dev libdw-dev libcapstone-dev
libcmocka-dev zlib1g-dev pkg-config gcc-aarch64-linux-gnu qemu-system-arm clang libclang-rt-dev
qemu-efi-aarch64 gnu-efi ovmf protobuf-c-compiler libprotobuf-c-dev libsqlite3-dev libjansson-dev
g++ g++-aarch64-linux-gnu cmake groff-base libiberty-dev golang-go chromium libpfm4-dev
gcc-arm-none-eabi libnewlib-arm-none-eabi newlib-source
gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc"
# Optional extras (llvm-symbolizer for the symbolization benchmark) by BMPROF_DEPS_EXTRA=1.
[ "${BMPROF_DEPS_EXTRA:-0}" = 1 ] && PKGS="$PKGS llvm"

missing=""
for p in $PKGS; do
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "bmprof: missing Debian packages:$missing" >&2
    echo "bmprof: run as root: apt-get update && apt-get install -y$missing" >&2
    exit 1
fi
echo "bmprof: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
