#!/bin/bash
# Profiles the release ComposeKeyValue under redis-benchmark with callgrind:
#
#   swift build -c release --product ComposeKeyValue      # from the package root
#   Benchmarks/scripts/profile_keyvalue.sh OUT -t get -n 100000 -c 50 -P 16
#
# writes the profile to OUT and prints the run's total instructions; divide
# by the requests for instructions per request (start-up included), and read
# OUT with callgrind_report.py. BIN=path profiles another build of it. valgrind 3.19 cannot read Swift's DWARF 5,
# so a copy without debug information is profiled. A warm-up SET load runs
# first so that GET finds its keys.
set -euo pipefail
out=${1:?usage: profile_keyvalue.sh OUT [redis-benchmark arguments]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
port=${PORT:-6411}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "${BIN:-$root/.build/release/ComposeKeyValue}" "$work/ComposeKeyValue"
rm -f "$out"
valgrind --tool=callgrind --callgrind-out-file="$out" "$work/ComposeKeyValue" --port "$port" > "$work/valgrind.log" 2>&1 &
server=$!
for _ in $(seq 120); do redis-cli -p "$port" ping > /dev/null 2>&1 && break; sleep 0.5; done   # valgrind starts slowly; nothing to await but the port
redis-benchmark -p "$port" -t set -n 20000 -c 50 -P 16 -q > /dev/null 2>&1
redis-benchmark -p "$port" -q "$@" 2>&1 | tr '\r' '\n' | tail -2
kill -INT "$server"
wait "$server" || true
grep 'refs' "$work/valgrind.log"
