#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# AArch64 UEFI applications (make image BOOT=uefi ARCH=aarch64) under AAVMF on QEMU virt:
# shares.c sampled on the cycle counter's overflow and on the physical timer, with
# -icount shift=0,sleep=off (exact shares, 50:30:20 within 2 points) and without (each of
# the three functions has samples; how many follows the host's load); the load bias equals the ImageBase the image prints and relocates the
# samples onto the ELF's symbols; the build-id matches; every sample is accounted for and
# no frame is damaged (the firmware shares the PL011); exit status 42 through semihosting
# and, without it, through the END frame after a firmware shutdown; a data abort ends the
# run with its faulting pc inside main. QEMU is started here with the firmware's boot timeout
# set to 0; one run goes through `bmprof qemu X.efi`. Under -icount an event counter never
# interrupts: the probe finds that and the timer samples instead. `bmprof qemu --transport
# shm` gives the same shares through the ivshmem ring (uefi_shm.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/uefi_shm.sh"
command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 not installed (make deps)"
command -v aarch64-linux-gnu-gcc >/dev/null || skip "aarch64-linux-gnu-gcc not installed (make deps)"
CODE=/usr/share/AAVMF/AAVMF_CODE.fd VARS=/usr/share/AAVMF/AAVMF_VARS.fd
if [ ! -f "$CODE" ] || [ ! -f "$VARS" ]; then
	skip "no AAVMF firmware in /usr/share/AAVMF (qemu-efi-aarch64; make deps)"
fi
if ! (cd "$ROOT" && bash scripts/gnu-efi-arm64.sh "$BUILD/gnu-efi-arm64") >"$T/gnuefi" 2>&1; then
	cat "$T/gnuefi" >&2
	skip "gnu-efi for arm64 could not be fetched (scripts/gnu-efi-arm64.sh)"
fi
(cd "$ROOT" && make --no-print-directory -s -j2 test-images-uefi-aarch64 BUILD="$BUILD") >"$T/make" 2>&1 ||
	{ cat "$T/make"; fail "make test-images-uefi-aarch64"; }
IMG=$ROOT/$BUILD/test-images-uefi-aarch64

file "$IMG/shares.efi" | grep -q "PE32+ executable (EFI application) Aarch64" ||
	fail "shares.efi is not an AArch64 EFI application: $(file "$IMG/shares.efi")"

# run NAME CONFIG [QEMU-ARGS...]: boot NAME.efi from a FAT disk, the serial capture in
# $T/NAME.raw; sets $status. -boot menu=on,splash-time=0 sets the firmware's boot timeout
# (5 s by default) to 0; there is no NIC, so no network boot is tried.
run() {
	local name=$1 cfg=$2
	shift 2
	rm -rf "$T/esp" && mkdir -p "$T/esp/EFI/BOOT" && cp "$IMG/$name.efi" "$T/esp/EFI/BOOT/BOOTAA64.EFI"
	status=0
	timeout 600 qemu-system-aarch64 -M virt -cpu max -m 256M -display none -no-reboot \
		-monitor none -nic none -boot menu=on,splash-time=0 \
		-drive if=pflash,format=raw,readonly=on,file="$CODE" \
		-drive if=pflash,format=raw,snapshot=on,file="$VARS" \
		-drive if=none,format=raw,readonly=on,file=fat:"$T/esp",id=d0 \
		-device virtio-blk-pci,drive=d0 -serial file:"$T/$name.raw" \
		-fw_cfg name=opt/bmprof/config,string="$cfg" "$@" >"$T/qemu.err" 2>&1 || status=$?
	[ "$status" != 124 ] || fail "$name ($cfg): QEMU timed out"
}

# profile NAME TAG: record $T/NAME.raw against NAME.elf into $T/TAG.json (console in $T/TAG.out)
profile() {
	"$BMPROF" record --from "$T/$1.raw" -o "$T/$2.data" --elf "$IMG/$1.elf" >"$T/$2.out" 2>"$T/$2.err" ||
		{ cat "$T/$2.err"; fail "$2: record"; }
	"$BMPROF" report -i "$T/$2.data" --elf "$IMG/$1.elf" --format json >"$T/$2.json" ||
		fail "$2: report"
	check_accounting "$T/$2.json"
}

# check TAG SOURCE EXIT SHARES-TOLERANCE(or -): the common assertions on a shares run
check() {
	python3 - "$T/$1.json" "$T/$1.err" "$2" "$3" "$4" <<'PY' || fail "$1"
import json, re, sys
path, err, source, code, tol = sys.argv[1:]
r = json.load(open(path))
m = r["meta"]
assert m["arch"] == "aarch64" and m["source"] == source, (m["arch"], m["source"])
assert m["build_id"] and m["build_id_checked"], "build-id not checked against the ELF"
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == int(code), m["end"]
st = m["stream"]
assert st["frames_bad_crc"] == 0 and st["frames_malformed"] == 0 and not st["truncated"], st
base = re.search(r"^bmprof: target: UEFI image loaded at (0x[0-9a-f]+)", open(err).read(), re.M)
assert base, "no ImageBase message on stderr"
assert int(m["load_bias"], 16) == int(base.group(1), 16) != 0, (m["load_bias"], base.group(1))
rows = {x["symbol"]: x["samples"] for x in r["rows"]}
n = m["samples"]["reported"]
got = {f: 100.0 * rows.get(f, 0) / n for f in ("work_a", "work_b", "work_c")}
print(f"{path}: {n} samples, " + ", ".join(f"{f} {g:.1f}%" for f, g in got.items()),
      f"load_bias {m['load_bias']}")
if tol == "-":
    # without icount the shares follow host time, and so the host's load: only that every
    # function was sampled is checked
    assert all(rows.get(f, 0) > 0 for f in got), rows
else:
    assert n >= 500, f"too few samples ({n})"
    for f, w in zip(got, (50, 30, 20)):
        assert abs(got[f] - w) <= float(tol), f"{f}: {got[f]:.1f}% is not within {tol} points of {w}%"
PY
}

# PMCCNTR overflow: exact under -icount, present without it
run shares "event=1:cycles:100000:cycles" -semihosting -icount shift=0,sleep=off
[ "$status" = 3 ] || { cat "$T/qemu.err"; fail "cycles, icount: QEMU status $status, want 3 (exit 0)"; }
profile shares cyc_icount
check cyc_icount pmu 0 2
pyassert "$T/cyc_icount.json" '[(e["name"], e["status"], e["counter_kind"]) for e in r["meta"]["events"]] == [("cycles", "active", "fixed")]'

run shares "event=1:cycles:100000:cycles" -semihosting
[ "$status" = 3 ] || fail "cycles: QEMU status $status, want 3"
profile shares cyc
check cyc pmu 0 -

# the same through the host tool, which boots the .efi under AAVMF and symbolizes against
# the .elf beside it
"$BMPROF" qemu --timeout 600 --icount -e cycles:period=100000 -o "$T/host.data" "$IMG/shares.efi" \
	>"$T/host.out" 2>"$T/host.err" || { cat "$T/host.err"; fail "bmprof qemu shares.efi"; }
"$BMPROF" report -i "$T/host.data" --format json >"$T/host.json" || fail "host: report"
check_accounting "$T/host.json"
check host pmu 0 2

# and with --transport shm: the ivshmem device found through EFI_PCI_IO_PROTOCOL (AAVMF puts
# its BAR above 4 GiB: no highmem=off under UEFI), the stream through its ring
"$BMPROF" qemu --timeout 600 --transport shm --icount -e cycles:period=100000 -o "$T/shm.data" \
	"$IMG/shares.efi" >"$T/shm.out" 2>"$T/shm.err" ||
	{ cat "$T/shm.err"; fail "bmprof qemu --transport shm shares.efi"; }
grep -q "^bmprof: target: ivshmem BAR 2 at 0x" "$T/shm.err" || { cat "$T/shm.err"; fail "shm: no ivshmem message"; }
"$BMPROF" report -i "$T/shm.data" --format json >"$T/shm.json" || fail "shm: report"
check_uefi_shm "$T/host.json" "$T/shm.json" "$T/shm.err"
# transport=shm without the device: a message says so and the stream stays on the serial port
run shares "transport=shm event=1:cycles:100000:cycles" -semihosting -icount shift=0,sleep=off
[ "$status" = 3 ] || fail "shm without a device: QEMU status $status, want 3"
profile shares noshm
grep -q "^bmprof: target: warning: transport=shm: no ivshmem device (PCI 1af4:1110) among the firmware's EFI_PCI_IO_PROTOCOL handles; the profile goes over the serial port" \
	"$T/noshm.err" || { cat "$T/noshm.err"; fail "shm without a device: no message"; }

# an event counter under -icount never interrupts: the overflow probe (through the firmware's
# GIC driver) finds that and the timer samples instead, saying so
run shares "event=1:0x11:100000:r11" -semihosting -icount shift=0,sleep=off
[ "$status" = 3 ] || fail "r11, icount: QEMU status $status, want 3"
profile shares r11_icount
grep -q "^bmprof: target: warning: event 1 (r11): not counted: .*; sampled by the timer instead$" "$T/r11_icount.err" ||
	{ cat "$T/r11_icount.err"; fail "r11, icount: no fallback message"; }
check r11_icount timer 0 2
pyassert "$T/r11_icount.json" '[(e["name"], e["status"]) for e in r["meta"]["events"] if e["name"] == "r11"] == [("r11", "fallback")]'

# the generic timer (the physical one: the firmware ticks on the virtual one)
run shares "freq=4000" -semihosting -icount shift=0,sleep=off
[ "$status" = 3 ] || fail "timer, icount: QEMU status $status, want 3"
profile shares timer_icount
check timer_icount timer 0 2

# exit status: semihosting gives QEMU (42 << 1) | 3 = 87; without it the firmware's
# ResetSystem shuts QEMU down with 0 and the END frame carries 42
run exitcode "event=1:cycles:100000:cycles" -semihosting
[ "$status" = 87 ] || fail "exitcode: QEMU status $status, want 87"
run exitcode "event=1:cycles:100000:cycles" -icount shift=0,sleep=off
[ "$status" = 0 ] || fail "exitcode without semihosting: QEMU status $status, want 0"
profile exitcode exit
pyassert "$T/exit.json" 'r["meta"]["end"]["reason"] == "exit" and r["meta"]["end"]["exit_code"] == 42'

# time in the firmware's Stall service (half the run) is sampled at the firmware's addresses,
# outside the image
run fwstall "freq=4000" -semihosting -icount shift=0,sleep=off
[ "$status" = 17 ] || fail "fwstall: QEMU status $status, want 17 (exit 7)"
profile fwstall fw
python3 - "$T/fw.json" <<'PY' || fail "fwstall"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["meta"]["samples"]
work = sum(x["samples"] for x in r["rows"] if x["symbol"] == "work_a")
print(f"fwstall: {s['outside']} of {s['reported']} samples outside the image, work_a {work}")
assert 0.3 * s["reported"] <= s["outside"] <= 0.8 * s["reported"], s
assert work >= 0.2 * s["reported"], work
PY

# a data abort: one message, END reason exception, the faulting pc relocates into main
run crash "freq=4000" -semihosting -icount shift=0,sleep=off
[ "$status" = 255 ] || fail "crash: QEMU status $status, want 255"
profile crash crash
grep -q "^bmprof: target: error: CPU exception EC 0x25 " "$T/crash.err" || { cat "$T/crash.err"; fail "crash: no exception message"; }
read -r main_lo main_size < <(aarch64-linux-gnu-nm -S "$IMG/crash.elf" | awk '$4 == "main" { print $1, $2 }')
python3 - "$T/crash.json" "$main_lo" "$main_size" <<'PY' || fail "crash"
import json, sys
r = json.load(open(sys.argv[1]))
lo, size = int(sys.argv[2], 16), int(sys.argv[3], 16)
e, bias = r["meta"]["end"], int(r["meta"]["load_bias"], 16)
assert e["reason"] == "exception" and e["vector"] == 0x25, e
assert int(e["fault_addr"], 16) == 0x4000000000, e
pc = int(e["fault_pc"], 16) - bias
assert lo <= pc < lo + size, f"fault pc {pc:#x} (relocated) not in main [{lo:#x}, {lo + size:#x})"
print(f"crash: fault at main+{pc - lo:#x}")
PY
echo "uefi aarch64 ok"
