#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# UEFI applications under OVMF: bmprof qemu boots NAME.efi (or the ELF with NAME.efi beside
# it) from a FAT disk, the runtime samples in the firmware's own timer interrupt, and the
# profile is symbolized against the ELF although the firmware loaded the image elsewhere.
#   shares.efi, under -icount: work_a/b/c split 50/30/20 after relocation; HELLO's load_bias is
#     the load address the application printed (minus the link base, 0); accounting holds
#   fwstall.elf: its .efi boots; samples taken inside the firmware (its Stall service)
#     arrive, outside the image, and are counted like every other; main's 7 is bmprof's
#     exit status and END's code
#   ud.efi: a #UD ends the run with an END frame (status 126) at the relocated ud2
#   shares.efi again with --transport shm: the runtime finds the ivshmem device through the
#     firmware's EFI_PCI_IO_PROTOCOL (its BAR above 4 GiB) and the stream arrives through
#     the ring with the serial run's shares (uefi_shm.sh)
#   conout.efi with 8-entry buffers: frames drained while the firmware writes ConOut text
#     to the same UART all arrive intact
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/uefi_shm.sh"
need_qemu
UEFI=$ROOT/$BUILD/test-images-uefi
[ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || [ -n "${BMPROF_UEFI_CODE:-}" ] ||
	skip "OVMF not installed (apt-get install ovmf)"
[ -f "$UEFI/shares.efi" ] || skip "UEFI test images not built (make test-images-uefi; needs gnu-efi)"

# Every run is under -icount shift=3,sleep=off (8 ns per instruction, bit-identical runs),
# not --icount's shift=0: OVMF's boot busy-waits, and at 1 ns per instruction it takes a
# minute of host time to boot instead of ten seconds. So the samples, and the drains,
# follow the instructions executed, not the host's load.
IC=(-icount shift=3,sleep=off)
"$BMPROF" qemu --timeout 600 --freq 1000 -o "$T/s.data" "$UEFI/shares.efi" -- "${IC[@]}" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "bmprof qemu shares.efi exited $?"; }
grep -q "UEFI boot of $UEFI/shares.efi" "$T/err" || { cat "$T/err"; fail "not booted as UEFI"; }
base=$(sed -n 's/^bmprof: target: UEFI image loaded at \(0x[0-9a-f]*\) (link base 0x0)$/\1/p' "$T/err")
[ -n "$base" ] || { cat "$T/err"; fail "the runtime did not say its load address"; }
"$BMPROF" report -i "$T/s.data" --format json >"$T/s.json" || fail "report failed"
check_accounting "$T/s.json"
python3 - "$T/s.json" "$base" "$UEFI/shares.elf" <<'PY' || exit 1
import json, sys
from frames import check_shares
r = json.load(open(sys.argv[1]))
m = r["meta"]
bias = int(m["load_bias"], 16)
assert bias != 0, "load_bias is 0: the firmware loads the image elsewhere than its link base"
assert bias == int(sys.argv[2], 16), f"load_bias {m['load_bias']} != the load address {sys.argv[2]}"
assert m["elf"] == sys.argv[3], m["elf"]
assert m["build_id_checked"], "the build-id was not checked against the ELF"
check_shares(r)
assert m["source"] == "timer"
print(f"load_bias {m['load_bias']} matches the load address")
PY

"$BMPROF" qemu --timeout 600 --transport shm --freq 1000 -o "$T/shm.data" "$UEFI/shares.efi" -- "${IC[@]}" \
	>"$T/shm.out" 2>"$T/shm.err" || { cat "$T/shm.err"; fail "bmprof qemu --transport shm shares.efi failed"; }
grep -q "^bmprof: target: ivshmem BAR 2 at 0x" "$T/shm.err" || { cat "$T/shm.err"; fail "shm: no ivshmem message"; }
"$BMPROF" report -i "$T/shm.data" --format json >"$T/shm.json" || fail "shm: report failed"
check_uefi_shm "$T/s.json" "$T/shm.json" "$T/shm.err"

rc=0
"$BMPROF" qemu --timeout 600 --freq 4000 -o "$T/f.data" "$UEFI/fwstall.elf" -- "${IC[@]}" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 7 ] || { cat "$T/err"; fail "fwstall.elf: bmprof exited $rc, want 7"; }
grep -q "UEFI boot of $UEFI/fwstall.efi" "$T/err" || { cat "$T/err"; fail "the ELF's .efi did not boot"; }
"$BMPROF" report -i "$T/f.data" --sort address --format json >"$T/f.json" || fail "report failed"
check_accounting "$T/f.json"
python3 - "$T/f.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
m = r["meta"]
lo, hi = int(m["image_range"]["lo"], 16), int(m["image_range"]["hi"], 16)
s = m["samples"]
# 100 ms in Stall at 4 kHz: about 400 firmware samples
assert s["outside"] >= 100, f"only {s['outside']} samples outside the image: firmware samples lost?"
assert s["reported"] == s["delivered"] == s["taken"], s
assert m["end"]["reason"] == "exit" and m["end"]["exit_code"] == 7, m["end"]
print(f"{s['outside']} of {s['reported']} samples in firmware code, outside {lo:#x}-{hi:#x}")
PY
rc=0
"$BMPROF" qemu --timeout 600 --freq 4000 -o "$T/u.data" "$UEFI/ud.efi" -- "${IC[@]}" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 126 ] || { cat "$T/err"; fail "ud.efi: bmprof exited $rc, want 126 (crashed)"; }
grep -q "^bmprof: target: error: CPU exception #UD (6) at rip=" "$T/err" || { cat "$T/err"; fail "no #UD message"; }
"$BMPROF" report -i "$T/u.data" --format json >"$T/u.json" || fail "report failed"
check_accounting "$T/u.json"
fault=$(nm "$UEFI/ud.elf" | awk '$3 == "fault_here" { print $1 }')
python3 - "$T/u.json" "$fault" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))["meta"]
e = m["end"]
assert e["reason"] == "exception" and e["vector"] == 6, e
# fault_pc is where the firmware loaded ud2: minus load_bias it is inside fault_here
off = int(e["fault_pc"], 16) - int(m["load_bias"], 16)
fn = int(sys.argv[2], 16)
assert fn <= off < fn + 16, f"fault at ELF {off:#x}, fault_here at {fn:#x}"
print(f"#UD at ELF {off:#x} in fault_here")
PY
# the summary and the report's end line give the fault's link-time address too
grep -q "ended .* at pc 0x[0-9a-f]* (link-time 0x[0-9a-f]*, load bias 0x[0-9a-f]*)" "$T/err" ||
	{ cat "$T/err"; fail "no link-time fault pc in the summary"; }
"$BMPROF" report -i "$T/u.data" >"$T/u.txt" || fail "text report failed"
grep -q "(link-time 0x[0-9a-f]*, load bias .*; in fault_here+0x" "$T/u.txt" ||
	{ cat "$T/u.txt"; fail "no link-time fault pc and symbol in the report"; }
# tiny buffers: frames drain all through a run that writes through ConOut too
tiny=$BUILD/uefi-x86_64-tiny
(cd "$ROOT" && make --no-print-directory -s -j2 image BOOT=uefi SRC=tests/e2e/progs-uefi/conout.c \
	BUILD="$BUILD" UEFI_X86_OUT="$tiny" IMAGE_CFLAGS=-Werror \
	UEFI_X86_DEFS="-DBMPROF_X86_MAX_CPUS=1 -DBMPROF_X86_TABLE_ENTRIES=16 -DBMPROF_X86_OVF_ENTRIES=8") \
	>"$T/make" 2>&1 || { cat "$T/make"; fail "make image BOOT=uefi (tiny buffers) failed"; }
"$BMPROF" qemu --timeout 600 --freq 10000 -o "$T/c.data" "$ROOT/$tiny/conout.efi" -- "${IC[@]}" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "conout.efi: bmprof qemu exited $?"; }
[ "$(grep -c '^conout: a line the firmware writes' "$T/out")" = 300 ] ||
	fail "the firmware's ConOut lines did not all arrive whole"
[ "$(grep -c '^conout: bm_printf line' "$T/out")" = 300 ] || fail "bm_printf lines lost"
"$BMPROF" report -i "$T/c.data" --format json >"$T/c.json" || fail "report failed"
check_accounting "$T/c.json"
python3 - "$T/c.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))["meta"]
st = m["stream"]
assert st["frames_bad_crc"] == 0 and st["frames_malformed"] == 0 and st["bytes_skipped"] == 0, st
# the final flush sends the 16-entry table and the buffers in one SAMPLES frame or two
sent = m["cpus"][0]["frames_sent"]
assert sent >= 3, f"only {sent} SAMPLES frames: the buffers did not drain during the run"
print(f"{st['frames_ok']} frames ({sent} SAMPLES) intact around the firmware's console text")
PY
echo "ok"
