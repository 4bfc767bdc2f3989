#!/usr/bin/env python3
"""HTTP/1.1: Compose against Node.js, Hummingbird and C (make bench-http).

The contenders, each serving `GET /` (the 13 bytes "Hello, World!") and
`POST /echo` (its body) on one loop thread:
  - Compose: Benchmarks/Sources/HTTPCompose, a hello-world on ComposeHTTP;
  - Node.js: scripts/http_node.js, Node's `http` (libuv + llhttp);
  - Hummingbird: Benchmarks/Sources/HTTPHummingbird, Hummingbird 2 on one
    SwiftNIO event-loop thread (MultiThreadedEventLoopGroup(numberOfThreads: 1));
  - C: Benchmarks/Sources/HTTPC, libuv + libhttp-parser in EchoC's design
    (the floor).

The client is wrk (one thread) with scripts/http_wrk.lua. The servers run
at once, each pinned to CPU 0 (`taskset -c 0`, every thread of it), wrk
pinned to CPU 1. For each load (GET / on 1, 50 and 256 connections, a
1 KiB POST echo on 50, 16 pipelined GETs on 50) the servers are measured
in rotating order, ROUNDS times (DURATION seconds each, after one
unmeasured warm-up run per server); a figure is the median of the rounds,
a ratio the median of the rounds' ratios (servers measured one after the
other in one round see the same machine). p99: wrk's, per request (per
batch when pipelined). Server CPU per request: the server's utime + stime
(/proc/PID/stat) over the run divided by the requests wrk counted. Peak
RSS: VmHWM after every load. Start to first response: the runner starts a
fresh server on a free port and sends `GET /` until an answer arrives
(connection refused: again 0.2 ms later), measured from just before the
process is created; the median of STARTS starts.

wrk on one core is the bottleneck of the fastest servers (the C floor
from 50 connections): their CPU per request says what they could do.

Usage: scripts/http_bench.py --bin Benchmarks/.build/release [--rounds 3]
           [--duration 5] [--quick] [--only NAME,...]
Prints markdown tables, then one PASS/FAIL line per target of issue #32.
"""
import argparse
import datetime
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LOADS = [
    # name, connections, wrk script arguments
    ("GET /, 1 connection", 1, ["get"]),
    ("GET /, 50 connections", 50, ["get"]),
    ("GET /, 256 connections", 256, ["get"]),
    ("POST /echo 1 KiB, 50 connections", 50, ["post", "1024"]),
    ("GET / x16 pipelined, 50 connections", 50, ["pipeline", "16"]),
]
SERVER_CPU, CLIENT_CPU = "0", "1"
COMPOSE, NODE, HUMMINGBIRD, C = "Compose", "Node.js http", "Hummingbird 2", "C libuv + http-parser"
PEERS = [NODE, HUMMINGBIRD, C]


def commands(args, port):
    return {
        COMPOSE: [f"{args.bin}/HTTPCompose", str(port)],
        NODE: [args.node, f"{HERE}/http_node.js", str(port)],
        HUMMINGBIRD: [f"{args.bin}/HTTPHummingbird", str(port)],
        C: [f"{args.bin}/HTTPC", str(port)],
    }


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def first_response(port, deadline):
    """Sends GET / until an answer arrives; the time it did."""
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(request)
                answer = b""
                while b"Hello, World!" not in answer:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
                if b"Hello, World!" in answer:
                    return time.monotonic()
        except OSError:
            pass
        time.sleep(0.0002)
    return None


class Server:
    def __init__(self, name, command, port):
        self.name, self.port = name, port
        self.started = time.monotonic()
        self.process = subprocess.Popen(["taskset", "-c", SERVER_CPU] + command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        answered = first_response(port, self.started + 30)
        if answered is None:
            self.stop()
            sys.exit(f"http_bench: {name} did not answer: {self.process.stderr.read()}")
        self.startup = answered - self.started

    def stat(self, key):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def wrk(args, server, connections, script_arguments, duration):
    """One wrk run: (requests/s, p99 µs, server CPU per request in s)."""
    before = server.cpu_seconds()
    command = ["taskset", "-c", CLIENT_CPU, args.wrk, "-t1", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
               "-s", f"{HERE}/http_wrk.lua", f"http://127.0.0.1:{server.port}/", "--", *script_arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=duration + 30)
    after = server.cpu_seconds()
    lines = [line for line in result.stdout.splitlines() if line.startswith("requests=")]
    if result.returncode != 0 or not lines:
        sys.exit(f"http_bench: wrk against {server.name} failed:\n{result.stdout}{result.stderr}")
    fields = {key: int(value) for key, value in (field.split("=") for field in lines[-1].split())}
    if fields["errors"]:
        print(f"http_bench: {server.name}: {fields['errors']} errors in a run of {script_arguments}", file=sys.stderr)
    return (fields["requests"] / (fields["duration_us"] / 1e6), fields["p99_us"],
            (after - before) / max(fields["requests"], 1))


def ratio(ours, theirs):
    values = [a / b for a, b in zip(ours, theirs) if b > 0]
    return statistics.median(values), min(values), max(values)


def startups(args, names):
    times = {name: [] for name in names}
    for _ in range(args.starts):
        for name in names:
            port = free_port()
            server = Server(name, commands(args, port)[name], port)
            times[name].append(server.startup)
            server.stop()
    return {name: statistics.median(values) for name, values in times.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="Benchmarks/.build/release (HTTPCompose, HTTPHummingbird, HTTPC)")
    parser.add_argument("--node", default=shutil.which("node") or "node")
    parser.add_argument("--wrk", default=shutil.which("wrk") or "wrk")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=5, help="seconds per run")
    parser.add_argument("--starts", type=int, default=5, help="starts per server for the start-up time")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 2 s, 3 starts")
    parser.add_argument("--only", help="servers, comma-separated (Compose is always measured)")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.duration, args.starts = 2, 2, 3
    for tool in ("taskset", args.wrk, args.node, f"{args.bin}/HTTPCompose", f"{args.bin}/HTTPHummingbird", f"{args.bin}/HTTPC"):
        if not shutil.which(tool):
            sys.exit(f"http_bench: {tool} not found (make bench-http builds the servers; wrk and node are Debian packages)")
    names = [COMPOSE] + [name for name in PEERS if not args.only or any(part.strip().lower() in name.lower()
                                                                         for part in args.only.split(","))]
    node_version = subprocess.run([args.node, "--version"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()
    print("## HTTP/1.1: Compose, Node.js, Hummingbird and C")
    print()
    print(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}; load average at start "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; Node {node_version}; release builds; servers on CPU {SERVER_CPU}, "
          f"wrk (one thread) on CPU {CLIENT_CPU}; {args.rounds} rounds of {args.duration} s per load in rotating order, "
          f"medians; `GET /` answers 13 bytes")
    print()

    print("http_bench: start to first response", file=sys.stderr)
    startup = startups(args, names)
    servers = []
    try:
        for name in names:
            port = free_port()
            servers.append(Server(name, commands(args, port)[name], port))
        for server in servers:
            wrk(args, server, 50, ["get"], 1)
        table = {}
        for load_name, connections, script_arguments in LOADS:
            print(f"http_bench: {load_name}", file=sys.stderr)
            results = {server.name: [] for server in servers}
            for round_index in range(args.rounds):
                for offset in range(len(servers)):
                    server = servers[(round_index + offset) % len(servers)]
                    results[server.name].append(wrk(args, server, connections, script_arguments, args.duration))
            table[load_name] = results
        peaks = {server.name: server.stat("VmHWM") for server in servers}
    finally:
        for server in servers:
            server.stop()

    peers = [name for name in PEERS if name in names]
    print("| load | server | req/s | p99 | server CPU/req | " + " | ".join(f"Compose to {name}" for name in peers) + " |")
    print("|---|---|---:|---:|---:|" + "---:|" * len(peers))
    targets = []
    for load_name, results in table.items():
        compose = [r[0] for r in results[COMPOSE]]
        ratios = {name: ratio(compose, [r[0] for r in results[name]]) for name in peers}
        for name in names:
            values = results[name]
            cells = [f"{ratios[peer][0]:.2f}x ({ratios[peer][1]:.2f}-{ratios[peer][2]:.2f})" if name == COMPOSE else ""
                     for peer in peers]
            print(f"| {load_name} | {name} | {statistics.median(r[0] for r in values):,.0f} "
                  f"| {statistics.median(r[1] for r in values) / 1000:.2f} ms "
                  f"| {statistics.median(r[2] for r in values) * 1e6:.1f} µs | " + " | ".join(cells) + " |")
        cpu = {name: statistics.median(r[2] for r in results[name]) for name in names}
        if "connections" in load_name and load_name.startswith("GET /,") and not load_name.endswith(" 1 connection"):
            if NODE in ratios:
                targets.append((f"{load_name}: ≥ 1.5x Node's req/s", f"{ratios[NODE][0]:.2f}x", ratios[NODE][0] >= 1.5))
            if HUMMINGBIRD in ratios:
                targets.append((f"{load_name}: ≥ 2x Hummingbird's req/s", f"{ratios[HUMMINGBIRD][0]:.2f}x",
                                ratios[HUMMINGBIRD][0] >= 2))
            if C in cpu:
                targets.append((f"{load_name}: server CPU per request ≤ 1.5x C's",
                                f"{cpu[COMPOSE] / cpu[C]:.2f}x ({cpu[COMPOSE] * 1e6:.1f} against {cpu[C] * 1e6:.1f} µs)",
                                cpu[COMPOSE] <= 1.5 * cpu[C]))
        if "pipelined" in load_name and NODE in ratios:
            targets.append((f"{load_name}: ≥ 5x Node's req/s", f"{ratios[NODE][0]:.2f}x", ratios[NODE][0] >= 5))
    print()
    print("| server | peak RSS (VmHWM) | start to first response |")
    print("|---|---:|---:|")
    for name in names:
        print(f"| {name} | {peaks[name] / 1024:.1f} MiB | {startup[name] * 1000:.1f} ms |")
    print()
    if HUMMINGBIRD in peaks:
        targets.append(("peak RSS ≤ ½ Hummingbird's", f"{peaks[COMPOSE] / 1024:.1f} against {peaks[HUMMINGBIRD] / 1024:.1f} MiB",
                        peaks[COMPOSE] * 2 <= peaks[HUMMINGBIRD]))
    targets.append(("start to first response < 10 ms", f"{startup[COMPOSE] * 1000:.1f} ms", startup[COMPOSE] < 0.010))
    load = os.getloadavg()
    print(f"- load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for description, measured, passed in targets:
        print(f"- {'PASS' if passed else 'FAIL'}: {description} (measured {measured})")


if __name__ == "__main__":
    main()
