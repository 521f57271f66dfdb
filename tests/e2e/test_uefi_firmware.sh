#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A UEFI application under OVMF that spends most of its run in the firmware (300 calls of
# BootServices->Stall(1 ms), after a short loop of its own, under -icount shift=3,sleep=off
# so both take guest time whatever the host's load): the samples taken in the
# firmware are reported outside the image, grouped by 4 KiB page, counted in the header
# and the JSON, and none of them is [unknown] or lost; the application's own loop is still
# symbolized through the load bias. --firmware-log captures the firmware's debug console
# (empty from a release OVMF) and names it in the profile, where report finds it.
. "$(dirname "$0")/lib.sh"
need_qemu
[ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || [ -f /usr/share/OVMF/OVMF_CODE.fd ] ||
	[ -n "${BMPROF_UEFI_CODE:-}" ] || skip "no OVMF firmware (ovmf; make deps)"
[ -f /usr/include/efi/efi.h ] && [ -f /usr/lib/crt0-efi-x86_64.o ] || skip "gnu-efi not installed (make deps)"

cat >"$T/fwstall.c" <<'EOF'
#include <bmrt.h>
#include "uefi_rt.h"

__attribute__((noinline)) uint64_t spin(uint64_t n)
{
	uint64_t x = 1;
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	uint64_t x = spin(2000000);
	for (int i = 0; i < 300; i++)
		bmrt_efi_st->BootServices->Stall(1000);
	bm_printf("fwstall %llx\n", (unsigned long long)x);
	return 0;
}
EOF
(cd "$ROOT" && make --no-print-directory -s -j2 image SRC="$T/fwstall.c" BOOT=uefi NAME=fwstall \
	BUILD="$T/build") >"$T/make" 2>&1 || { cat "$T/make"; fail "make image BOOT=uefi"; }
efi=$T/build/uefi-x86_64/fwstall.efi
# a relative --firmware-log is stored as an absolute path
(cd "$T" && "$BMPROF" qemu --timeout 600 --firmware-log fw.log -o "$T/p.data" "$efi" \
	-- -icount shift=3,sleep=off) >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "bmprof qemu of a UEFI application failed"; }
grep -q "^fwstall " "$T/out" || fail "no console line from the application"

"$BMPROF" report -i "$T/p.data" --format json >"$T/r.json" || fail "report"
[ -f "$T/fw.log" ] || fail "--firmware-log: no $T/fw.log"
python3 - "$T/r.json" "$(cd "$T" && pwd -P)/fw.log" <<'PY' || exit 1
import json, os, sys
r = json.load(open(sys.argv[1])); m = r["meta"]; rows = r["rows"]
assert m["firmware"]["log"] == sys.argv[2], m["firmware"]
if os.path.getsize(sys.argv[2]) == 0:  # a release build logs nothing
    assert m["firmware"]["log_modules"] == 0, m["firmware"]
    assert any("names no module" in n for n in m["notes"]), m["notes"]
s = m["samples"]
assert s["received"] == s["reported"] == sum(x["samples"] for x in rows) > 0, s
lo, hi = int(m["image_range"]["lo"], 16), int(m["image_range"]["hi"], 16)
assert lo == int(m["load_bias"], 16) != 0, (m["image_range"], m["load_bias"])
out = [x for x in rows if x["outside"]]
assert sum(x["samples"] for x in out) == s["outside"], (s, out)
spin = sum(x["samples"] for x in rows if x["symbol"] == "spin")
# 300 ms in Stall against a loop of about 80 ms (10M instructions at 8 ns): most samples
# are the firmware's
assert s["outside"] * 2 > s["reported"] and s["outside"] > spin > 0, (s, spin)
for x in out:
    rlo, rhi = int(x["region_lo"], 16), int(x["region_hi"], 16)
    assert rhi - rlo == 0x1000 and rlo % 0x1000 == 0, x
    assert x["symbol"] == "[firmware %#x-%#x]" % (rlo, rhi - 1), x
    assert rlo <= int(x["addr_lo"], 16) < int(x["addr_hi"], 16) <= rhi, x
    assert not (lo <= rlo < hi), ("a firmware page inside the image", x)
assert not any(x["unknown"] for x in rows), [x for x in rows if x["unknown"]]
print("uefi firmware ok: %d of %d samples outside the image, %d in spin" %
      (s["outside"], s["reported"], spin))
PY
"$BMPROF" report -i "$T/p.data" >"$T/r.txt" || fail "text report"
grep -Eq '^# outside   [0-9]+ samples \([0-9.]+%\) outside the image \(0x[0-9a-f]+-0x[0-9a-f]+\): firmware, by 4 KiB page' \
	"$T/r.txt" || { cat "$T/r.txt"; fail "no outside line in the header"; }
grep -Eq '^ +[0-9]+ +[0-9.]+% +\[firmware 0x[0-9a-f]+-0x[0-9a-f]+\] ' "$T/r.txt" || fail "no firmware row"
echo "uefi firmware ok"
