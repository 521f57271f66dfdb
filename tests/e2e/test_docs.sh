#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The docs' code examples are tested (tools/doctest.py):
#   - every C block of docs/*.md marked `<!-- doctest ARCH... -->` compiles, with -Wall
#     -Wextra -Werror and the installed kit's flags (pkg-config), for each architecture it
#     names, and links against the kit's library with only tests/kit/doc_env_stubs.c beside
#     it (weak stand-ins for the kernel it assumes), so a misspelt bmprof name fails;
#   - a block marked `prog` is a whole program for the bmprof runtime: make image builds it
#     for each architecture, and with run= it runs under bmprof qemu and prints expect=;
#   - the kernel examples of docs/integration-x86_64.md and docs/integration-aarch64.md
#     run under QEMU in tests/kit's kernels: tests/e2e/test_install.sh;
#   - every `bmprof VERB --option` of the docs' shell examples names a command and options
#     that exist (`bmprof VERB --help`), and the checker itself catches a wrong one.
. "$(dirname "$0")/lib.sh"
need_qemu
command -v aarch64-linux-gnu-gcc >/dev/null || skip "aarch64-linux-gnu-gcc not installed"

KIT=$T/kit
(cd "$ROOT" && make --no-print-directory -s install PREFIX="$KIT" BUILD="$BUILD") >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; fail "make install failed"; }
export PKG_CONFIG_PATH=$KIT/lib/pkgconfig
(cd "$ROOT" && python3 tools/doctest.py extract "$T/docs" docs/*.md) || fail "doctest extract failed"

cc_of() { [ "$1" = aarch64 ] && echo aarch64-linux-gnu-gcc || echo gcc; }
for a in x86_64 aarch64; do
	mkdir -p "$T/o/$a"
	$(cc_of $a) $(pkg-config --cflags bmprof-$a) -std=gnu11 -O2 -Wall -Wextra -Werror \
		-I"$ROOT/tests/kit" -c -o "$T/o/$a/stubs.o" "$ROOT/tests/kit/doc_env_stubs.c" ||
		fail "doc_env_stubs.c does not compile for $a"
done

nlib=0 nprog=0
while IFS=$'\t' read -r name arches kind after run expect where; do
	for a in ${arches//,/ }; do
		if [ "$kind" = lib ]; then
			o=$T/o/$a/${name%.c}
			(cd "$ROOT" && $(cc_of $a) $(pkg-config --cflags bmprof-$a) -std=gnu11 -O2 -Wall \
				-Wextra -Werror -fno-pie -fno-pic -fno-stack-protector -I"$ROOT/tests/kit" \
				-include doc_env.h -c -o "$o.o" "$T/docs/$name") ||
				fail "$where: the example does not compile for $a"
			$(cc_of $a) -nostdlib -static -no-pie -Wl,--no-warn-rwx-segments -o "$o.elf" \
				"$o.o" "$T/o/$a/stubs.o" $(pkg-config --libs bmprof-$a) 2>"$o.err" ||
				{ cat "$o.err"; fail "$where: the example does not link for $a"; }
			nlib=$((nlib + 1))
			continue
		fi
		img=doctest-${name%.c}
		args=(image SRC="$T/docs/$name" NAME="$img" BUILD="$BUILD")
		elf=$BUILD/x86_64/$img.elf
		if [ "$a" = aarch64 ]; then
			args+=(ARCH=aarch64)
			elf=$BUILD/aarch64/$img.elf
		fi
		(cd "$ROOT" && make --no-print-directory -s "${args[@]}" IMAGE_CFLAGS=-Werror) \
			>"$T/make.log" 2>&1 || { cat "$T/make.log"; fail "$where: make image ($a) failed"; }
		nprog=$((nprog + 1))
		[ "$run" != - ] || continue
		rc=0
		# shellcheck disable=SC2086
		"$BMPROF" qemu --timeout 60 $run -o "$T/p.data" "$ROOT/$elf" >"$T/p.out" 2>"$T/p.err" || rc=$?
		[ $rc -eq 0 ] || { tail -5 "$T/p.err"; fail "$where ($a): bmprof qemu $run exited $rc"; }
		grep -qF "$expect" "$T/p.out" || { cat "$T/p.out"; fail "$where ($a): no '$expect' in its output"; }
		echo "$where ($a): bmprof qemu $run printed '$expect'"
	done
done <"$T/docs/manifest.tsv"
[ $nlib -ge 7 ] && [ $nprog -ge 4 ] || fail "only $nlib kernel examples and $nprog programs were tested"
echo "examples: $nlib compiled and linked, $nprog programs built"
for f in example-x86_64.c example-aarch64.c console-lock.c timer-vector-x86_64.c; do
	[ -f "$T/docs/$f" ] || fail "the docs no longer mark $f, which tests/kit's kernels run"
done

# the shell examples, and a wrong one is caught
(cd "$ROOT" && python3 tools/doctest.py commands "$BMPROF" docs/*.md README.md) || fail "docs name a command or option bmprof lacks"
printf '    bmprof report --sort line --no-such-option\n    bmprof frobnicate x\n' >"$T/bad.md"
python3 "$ROOT/tools/doctest.py" commands "$BMPROF" "$T/bad.md" >"$T/bad.out" &&
	fail "the command checker passed a wrong option"
grep -q "has no option --no-such-option" "$T/bad.out" && grep -q "no command 'frobnicate'" "$T/bad.out" ||
	{ cat "$T/bad.out"; fail "the command checker did not name both problems"; }
echo "docs: ok"
