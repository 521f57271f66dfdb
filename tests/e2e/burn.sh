#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# burn.sh N SECONDS [CMD [ARGS...]]: N busy processes (nice 0) for at most SECONDS each.
# With CMD, runs it while they burn, stops them when it ends and exits with CMD's status;
# without, burns until SECONDS pass or a signal comes. Each burner runs under timeout(1),
# so it dies after SECONDS even if this script is killed with SIGKILL.
set -u
n=${1:?usage: burn.sh N SECONDS [CMD...]} s=${2:?usage: burn.sh N SECONDS [CMD...]}
shift 2
case $n$s in *[!0-9]*) echo "burn.sh: N and SECONDS are whole numbers" >&2; exit 2 ;; esac
pids=()
stop() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for ((i = 0; i < n; i++)); do
	timeout -s TERM -k 2 "$s" sh -c 'while :; do :; done' &
	pids+=($!)
done
if [ $# -gt 0 ]; then
	"$@"
	exit $?
fi
wait
