#!/bin/bash
# Instructions and heap allocations per request of an HTTP server of the
# benchmark (make bench-http's contenders), counted by callgrind: stable on
# a busy machine, where wrk's requests per second are not.
#
#   Benchmarks/scripts/profile_http.sh SERVER OUTDIR [SECONDS]
#   e.g. Benchmarks/scripts/profile_http.sh Benchmarks/.build/release/HTTPCompose /tmp/http-profile
#
# Runs SERVER (HTTPCompose, HTTPC, HTTPHummingbird: anything that takes a
# port and answers `GET /` and `POST /echo`) under callgrind, and for each
# load (GET / on 10 connections, the 1 KiB POST echo on 10, GET / x16
# pipelined on 10) warms up, zeroes the counters (callgrind_control -z),
# runs wrk for SECONDS (5), and dumps the profile to OUTDIR/LOAD.out:
# its instructions (Ir) and calls to malloc, divided by the requests wrk
# counted (requests still in flight when wrk stops add at most 10 x 16 to
# the profile; a few thousand are counted). Read a profile with
# callgrind_report.py (self, callers, callees, diff). valgrind 3.19 cannot
# read Swift's DWARF 5, so a copy without debug information is profiled.
set -euo pipefail
server=${1:?usage: profile_http.sh SERVER OUTDIR [SECONDS]}
out=${2:?usage: profile_http.sh SERVER OUTDIR [SECONDS]}
seconds=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
port=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
work=$(mktemp -d)
pid=
# The server goes too if a step fails (set -e).
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; rm -rf "$work"' EXIT
mkdir -p "$out"
name=$(basename "$server")
objcopy --strip-debug "$server" "$work/$name"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/$name" "$port" > "$work/valgrind.log" 2>&1 &
pid=$!
for _ in $(seq 480); do curl -s "http://127.0.0.1:$port/" > /dev/null 2>&1 && break; sleep 0.25; done   # valgrind starts slowly; nothing to await but the port
printf '| %s | instructions/request | malloc calls/request | requests |\n|---|---:|---:|---:|\n' "$name"
for load in "get" "post 1024" "pipeline 16"; do
    file="$out/${load%% *}.out"
    wrk -t1 -c10 -d1s --timeout 10s -s "$here/http_wrk.lua" "http://127.0.0.1:$port/" -- $load > /dev/null
    callgrind_control -z "$pid" > /dev/null 2>&1
    requests=$(wrk -t1 -c10 -d"${seconds}s" --timeout 10s -s "$here/http_wrk.lua" "http://127.0.0.1:$port/" -- $load |
        sed -n 's/^requests=\([0-9]*\).*/\1/p')
    callgrind_control -d "$pid" > /dev/null 2>&1
    dump=$(ls -t "$work"/callgrind.out.* | head -1)
    mv "$dump" "$file"
    python3 -c '
import sys
sys.path.insert(0, sys.argv[4])
from callgrind_report import load
self_cost, edges, calls = load(sys.argv[1])
requests = int(sys.argv[2])
mallocs = sum(count for (caller, callee), count in calls.items() if callee == "malloc")
print(f"| {sys.argv[3]} | {sum(self_cost.values()) / requests:,.0f} | {mallocs / requests:.1f} | {requests:,} |")
' "$file" "$requests" "$load" "$here"
done
kill -TERM "$pid"
wait "$pid" || true
pid=
