#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The ELF a report is symbolized against, and what a user meets when it is the wrong one:
#   - an ELF of the other architecture (AArch64 for an x86-64 profile and the reverse, or a
#     machine bmprof does not know): one line naming both architectures, before any
#     build-id comparison, exit 1 (report and annotate);
#   - an ELF of the same architecture but another image: one line naming both build-ids;
#   - a stripped ELF: the build-id still matches, samples are reported by address (the same
#     addresses and counts as with the full ELF) and a note says why;
#   - a truncated ELF: reported by address with a note naming the damage;
#   - a file that is not an ELF, a directory, a missing file, and an ELF that the profile
#     names but that is gone: one line each, exit 1.
. "$(dirname "$0")/lib.sh"
need_qemu
A64=$ROOT/$BUILD/test-images-aarch64
[ -f "$IMAGES/shares.elf" ] && [ -f "$IMAGES/exitcode.elf" ] || skip "no test images in $IMAGES: run make test-images"

# one_line FILE: FILE holds exactly one line
one_line() { [ "$(wc -l <"$1")" -eq 1 ] || { cat "$1"; fail "$2: want one line on stderr"; }; }
# fails_with WHAT WANT CMD...: CMD exits 1 with exactly the line WANT on stderr, nothing on stdout
fails_with() {
	local what=$1 want=$2 rc=0
	shift 2
	"$@" >"$T/o" 2>"$T/e" || rc=$?
	[ "$rc" -eq 1 ] || { cat "$T/e"; fail "$what: exit $rc, want 1"; }
	one_line "$T/e" "$what"
	[ "$(cat "$T/e")" = "$want" ] || fail "$what: got '$(cat "$T/e")', want '$want'"
	[ ! -s "$T/o" ] || { cat "$T/o"; fail "$what: a report was printed"; }
}
build_id() { readelf -n "$1" | sed -n 's/^ *Build ID: //p'; }

# An x86-64 profile, from a copy of the image that is removed at the end (under --icount:
# work_a on top follows the instructions, not the host's load).
mkdir "$T/img"
cp "$IMAGES/shares.elf" "$T/img/shares.elf"
"$BMPROF" qemu --icount --freq 4000 -o "$T/x86.data" "$T/img/shares.elf" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "x86 run failed"; }
"$BMPROF" report -i "$T/x86.data" --sort address --format json >"$T/full.json" || fail "report failed"
pyassert "$T/full.json" 'r["meta"]["arch"] == "x86_64" and r["meta"]["build_id_checked"] and r["rows"][0]["function"] == "work_a"'
x86_id=$(build_id "$IMAGES/shares.elf")
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["meta"]["build_id"])' "$T/full.json")" = "$x86_id" ] ||
	fail "the profile's build-id is not the image's $x86_id"

# Another architecture's ELF: named before the build-ids are compared.
if [ -f "$A64/shares.elf" ]; then
	a64=$A64/shares.elf
	want="bmprof: ELF $a64 is aarch64 but the profile was recorded on x86_64: pass the image's own ELF with --elf"
	fails_with "aarch64 ELF, x86 profile" "$want" "$BMPROF" report -i "$T/x86.data" --elf "$a64"
	fails_with "aarch64 ELF, x86 profile (json)" "$want" "$BMPROF" report -i "$T/x86.data" --elf "$a64" --format json
	fails_with "aarch64 ELF, x86 profile (annotate)" "$want" "$BMPROF" annotate -i "$T/x86.data" --elf "$a64" work_a
	if command -v qemu-system-aarch64 >/dev/null; then
		rc=0
		"$BMPROF" qemu -o "$T/a64.data" "$A64/exitcode.elf" >"$T/out" 2>"$T/err" || rc=$?
		[ "$rc" -eq 42 ] || { cat "$T/err"; fail "aarch64 run: exit $rc, want 42 (main's return value)"; }
		fails_with "x86 ELF, aarch64 profile" \
			"bmprof: ELF $IMAGES/exitcode.elf is x86_64 but the profile was recorded on aarch64: pass the image's own ELF with --elf" \
			"$BMPROF" report -i "$T/a64.data" --elf "$IMAGES/exitcode.elf"
		"$BMPROF" report -i "$T/a64.data" >"$T/o" 2>"$T/e" || { cat "$T/e"; fail "aarch64 profile with its own ELF"; }
	else
		echo "no qemu-system-aarch64: the x86 ELF for an aarch64 profile is not checked"
	fi
else
	echo "no $A64/shares.elf (make test-images-aarch64): the wrong-architecture ELF is not checked"
fi

# An ELF of a machine bmprof does not know (e_machine patched to 2, SPARC).
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[18:20] = (2).to_bytes(2, "little"); open(sys.argv[2], "wb").write(b)' \
	"$IMAGES/shares.elf" "$T/sparc.elf"
fails_with "a SPARC ELF, x86 profile" \
	"bmprof: ELF $T/sparc.elf is for ELF machine 2, not x86_64, where the profile was recorded: pass the image's own ELF with --elf" \
	"$BMPROF" report -i "$T/x86.data" --elf "$T/sparc.elf"

# Same architecture, another image: both build-ids named.
other_id=$(build_id "$IMAGES/exitcode.elf")
[ -n "$other_id" ] && [ "$other_id" != "$x86_id" ] || fail "exitcode.elf has no build-id of its own"
fails_with "another image's ELF" \
	"bmprof: ELF build-id $other_id does not match the profile's $x86_id: pass the ELF the image was built from (--elf)" \
	"$BMPROF" report -i "$T/x86.data" --elf "$IMAGES/exitcode.elf"

# Stripped: the build-id matches, the same addresses and counts, by address, with a note.
objcopy --strip-all "$IMAGES/shares.elf" "$T/stripped.elf"
"$BMPROF" report -i "$T/x86.data" --elf "$T/stripped.elf" --format json >"$T/strip.json" 2>"$T/e" ||
	{ cat "$T/e"; fail "stripped ELF: report failed"; }
[ ! -s "$T/e" ] || { cat "$T/e"; fail "stripped ELF: stderr not empty"; }
python3 - "$T/full.json" "$T/strip.json" "$T/stripped.elf" <<'PY' || fail "stripped ELF"
import json, sys
full, s = (json.load(open(p)) for p in sys.argv[1:3])
m = s["meta"]
assert m["build_id_checked"] is True, "the stripped ELF's build-id was not checked"
assert m["sort"] == "address", m["sort"]
want = sorted((x["addr_lo"], x["samples"]) for x in full["rows"])
got = sorted((x["addr_lo"], x["samples"]) for x in s["rows"])
assert got == want, f"addresses differ from the full ELF's: {got[:5]} vs {want[:5]}"
assert all(x["unknown"] and x["symbol"] == "[unknown]" for x in s["rows"]), s["rows"][:3]
note = f"no sampled address is in a symbol of {sys.argv[3]} (stripped?): showing addresses"
assert note in m["notes"], m["notes"]
print("stripped ok:", len(got), "addresses;", m["notes"])
PY
"$BMPROF" report -i "$T/x86.data" --elf "$T/stripped.elf" >"$T/strip.txt" || fail "stripped ELF: text report"
grep -q "^# note      no sampled address is in a symbol of $T/stripped.elf (stripped?): showing addresses$" "$T/strip.txt" ||
	{ cat "$T/strip.txt"; fail "stripped ELF: no note in the text report"; }
grep -Eq '^ +[0-9]+ +[0-9.]+% +0x[0-9a-f]+ +\[unknown\]' "$T/strip.txt" || fail "stripped ELF: no address rows"

# Truncated: what cannot be read is named in a note, and the addresses are still there.
head -c 3000 "$IMAGES/shares.elf" >"$T/cut.elf"
"$BMPROF" report -i "$T/x86.data" --elf "$T/cut.elf" --format json >"$T/cut.json" 2>"$T/e" ||
	{ cat "$T/e"; fail "truncated ELF: report failed"; }
pyassert "$T/cut.json" 'any("truncated ELF file" in n and "samples are shown by address" in n for n in r["meta"]["notes"])'
pyassert "$T/cut.json" 'r["meta"]["sort"] == "address" and r["meta"]["samples"]["reported"] == sum(x["samples"] for x in r["rows"]) > 0'

# Not an ELF, a directory, a missing file.
echo "not an image" >"$T/text.elf"
fails_with "a text file" \
	"bmprof: $T/text.elf is not an ELF file: pass the image's ELF (e.g. build/x86_64/NAME.elf)" \
	"$BMPROF" report -i "$T/x86.data" --elf "$T/text.elf"
fails_with "a directory" "bmprof: $T is a directory, not an ELF image: pass the file itself" \
	"$BMPROF" report -i "$T/x86.data" --elf "$T"
fails_with "a missing ELF" "bmprof: cannot read the ELF $T/nope.elf: No such file or directory" \
	"$BMPROF" report -i "$T/x86.data" --elf "$T/nope.elf"
: >"$T/empty.elf"
fails_with "an empty file" \
	"bmprof: $T/empty.elf is not an ELF file: pass the image's ELF (e.g. build/x86_64/NAME.elf)" \
	"$BMPROF" report -i "$T/x86.data" --elf "$T/empty.elf"

mkfifo "$T/fifo.elf"
fails_with "a FIFO" "bmprof: $T/fifo.elf is a FIFO, not an ELF image: pass the file itself" \
	timeout 20 "$BMPROF" report -i "$T/x86.data" --elf "$T/fifo.elf"

# A damaged e_shstrndx hides the DWARF that is there: the note says so, not "build with -g".
python3 - "$IMAGES/shares.elf" "$T/shstr.elf" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
alt = [i for i in range(1, shnum) if i != shstrndx and struct.unpack_from("<I", d, shoff + 64 * i + 4)[0] == 3][0]
struct.pack_into("<H", d, 0x3e, alt)    # another string table
open(sys.argv[2], "wb").write(d)
PY
"$BMPROF" report -i "$T/x86.data" --elf "$T/shstr.elf" --format json >"$T/shstr.json" 2>"$T/e" ||
	{ cat "$T/e"; fail "damaged e_shstrndx: report failed"; }
pyassert "$T/shstr.json" 'any("e_shstrndx is damaged" in n for n in r["meta"]["notes"]) and not any("build with -g" in n for n in r["meta"]["notes"])'

# The ELF the profile names is gone, and no copy is beside the profile.
"$BMPROF" report -i "$T/x86.data" >/dev/null 2>"$T/e" || { cat "$T/e"; fail "report with the named ELF"; }
cp "$T/img/shares.elf" "$T/keep.elf"
rm "$T/img/shares.elf"
fails_with "the named ELF is gone" \
	"bmprof: cannot find the ELF: $T/img/shares.elf (named in the profile) is gone, $T/shares.elf is not there either, and no ELF with its build-id is under \$BMPROF_SYMFS, \$BMPROF_DB/images, ~/.debug or /usr/lib/debug: pass it with --elf" \
	env HOME="$T" "$BMPROF" report -i "$T/x86.data"

# ... but an ELF with its build-id is found where debuggers and perf keep them, and under
# BMPROF_SYMFS by build-id or by name; one of another build-id under that name is not taken.
id=$(python3 - "$T/keep.elf" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<Q", d, 0x28)
shnum, = struct.unpack_from("<H", d, 0x3c)
for i in range(shnum):
    typ, = struct.unpack_from("<I", d, shoff + 64 * i + 4)
    off, size = struct.unpack_from("<QQ", d, shoff + 64 * i + 24)
    p = off
    while typ == 7 and p < off + size:
        nsz, dsz, ntype = struct.unpack_from("<III", d, p)
        name = d[p + 12:p + 12 + nsz]
        desc = p + 12 + ((nsz + 3) & ~3)
        if ntype == 3 and name == b"GNU\0":
            print(d[desc:desc + dsz].hex()); sys.exit(0)
        p = desc + ((dsz + 3) & ~3)
sys.exit(1)
PY
) || fail "no build-id in the test image"
mkdir -p "$T/home/.debug/.build-id/${id:0:2}" "$T/symfs/.build-id/${id:0:2}" "$T/byname" "$T/other"
cp "$T/keep.elf" "$T/home/.debug/.build-id/${id:0:2}/${id:2}.debug"
env HOME="$T/home" "$BMPROF" report -i "$T/x86.data" --format json >"$T/home.json" 2>"$T/e" ||
	{ cat "$T/e"; fail "the ELF in ~/.debug/.build-id was not found"; }
pyassert "$T/home.json" "r['meta']['elf'] == '$T/home/.debug/.build-id/${id:0:2}/${id:2}.debug'"
cp "$T/keep.elf" "$T/symfs/.build-id/${id:0:2}/${id:2}"
cp "$T/keep.elf" "$T/byname/shares.elf"
env HOME="$T" BMPROF_SYMFS="$T/nowhere:$T/symfs" "$BMPROF" report -i "$T/x86.data" \
	--format json >"$T/symfs.json" 2>"$T/e" || { cat "$T/e"; fail "BMPROF_SYMFS by build-id"; }
pyassert "$T/symfs.json" "r['meta']['elf'] == '$T/symfs/.build-id/${id:0:2}/${id:2}'"
env HOME="$T" BMPROF_SYMFS="$T/byname" "$BMPROF" report -i "$T/x86.data" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "BMPROF_SYMFS by name"; }
cp "$IMAGES/crash.elf" "$T/other/shares.elf"
env HOME="$T" BMPROF_SYMFS="$T/other" "$BMPROF" report -i "$T/x86.data" >/dev/null 2>"$T/e" &&
	fail "an ELF of another build-id was taken for the profile's"
# --symfs DIR (repeatable) is searched before BMPROF_SYMFS, by report, annotate, export, cpi
env HOME="$T" BMPROF_SYMFS="$T/other" "$BMPROF" report -i "$T/x86.data" --symfs "$T/nowhere" \
	--symfs "$T/symfs" --format json >"$T/opt.json" 2>"$T/e" || { cat "$T/e"; fail "report --symfs"; }
pyassert "$T/opt.json" "r['meta']['elf'] == '$T/symfs/.build-id/${id:0:2}/${id:2}'"
env HOME="$T" "$BMPROF" export -i "$T/x86.data" --symfs "$T/byname" --format folded >"$T/f" 2>"$T/e" &&
	[ -s "$T/f" ] || { cat "$T/e"; fail "export --symfs"; }
fn=$(awk 'NR == 1 { print $1 }' "$T/f")
env HOME="$T" "$BMPROF" annotate -i "$T/x86.data" --symfs "$T/byname" "$fn" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "annotate --symfs"; }
env HOME="$T" "$BMPROF" cpi -i "$T/x86.data" --symfs "$T/byname" --period 1000 "$fn" >/dev/null 2>"$T/e" ||
	{ cat "$T/e"; fail "cpi --symfs"; }
env HOME="$T" "$BMPROF" report -i "$T/x86.data" --symfs "$T/other" >/dev/null 2>"$T/e" &&
	fail "report --symfs: an ELF of another build-id was taken"
echo "elf errors ok"
