#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Unpack Debian's gnu-efi for arm64 (crt0-efi-aarch64.o, elf_aarch64_efi.lds, libefi.a,
# libgnuefi.a, the headers) into DIR (default build/gnu-efi-arm64), for AArch64 UEFI
# images. Debian's amd64 gnu-efi package carries only the x86-64 and ia32 files.
#
# Idempotent: with DIR/usr/lib/crt0-efi-aarch64.o present it does nothing. As root it adds
# the arm64 architecture to dpkg (only package lists are fetched for it; nothing arm64 is
# installed) and downloads the .deb with apt-get; as another user it prints what to run.
set -eu

dir=${1:-build/gnu-efi-arm64}
[ -f "$dir/usr/lib/crt0-efi-aarch64.o" ] && exit 0

fetch() {
    ls "$1"/gnu-efi_*_arm64.deb >/dev/null 2>&1 && return 0
    (cd "$1" && apt-get download -qq gnu-efi:arm64) >/dev/null 2>&1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! fetch "$tmp"; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        if [ "$(id -u)" != 0 ]; then
            echo "bmprof: gnu-efi for arm64 is missing; run as root:" \
                "dpkg --add-architecture arm64 && apt-get update && $0" >&2
            exit 1
        fi
        echo "bmprof: adding the arm64 architecture to dpkg for gnu-efi:arm64"
        dpkg --add-architecture arm64
    fi
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
    fi
    if ! fetch "$tmp"; then
        echo "bmprof: apt-get download gnu-efi:arm64 failed; run" \
            "'apt-get update && apt-get download gnu-efi:arm64' to see why" >&2
        exit 1
    fi
fi
mkdir -p "$dir"
dpkg -x "$tmp"/gnu-efi_*_arm64.deb "$dir"
if [ ! -f "$dir/usr/lib/crt0-efi-aarch64.o" ]; then
    echo "bmprof: $dir: gnu-efi:arm64 has no usr/lib/crt0-efi-aarch64.o" >&2
    exit 1
fi
echo "bmprof: gnu-efi for arm64 unpacked into $dir"
